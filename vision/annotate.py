"""Drawing a reading onto a copy of its frame, for a person to see why a reading was wrong."""

from __future__ import annotations

import cv2
import numpy as np

from vision.types import Box, Frame, Reading

READ_COLOUR = (0, 200, 0)
UNREAD_COLOUR = (0, 0, 255)
PLATE = (24, 24, 24)
"""The dark plate a label is drawn on."""
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_GAP = 4

Rect = tuple[int, int, int, int]
"""x, y, width, height."""


def annotate(frame: Frame, reading: Reading) -> Frame:
    """A copy of ``frame`` with each die's box and a label drawn: its value and how sure the
    reader is ("4 (97%)"), on a dark plate that any tray's colour leaves readable; unread dice in
    red with a "?"."""
    canvas = np.ascontiguousarray(frame.copy())
    scale = max(0.5, min(frame.shape[0], frame.shape[1]) / 700.0)
    thickness = max(1, round(scale * 2))
    texts = [label_of(die.value, die.confidence) for die in reading.dice]
    sizes = [cv2.getTextSize(text, _FONT, scale, thickness + 2) for text in texts]
    places = label_places(
        [die.box for die in reading.dice],
        [(width, height + baseline) for (width, height), baseline in sizes],
        (frame.shape[1], frame.shape[0]),
    )
    for die, text, (x, y, width, height), (_, baseline) in zip(
        reading.dice, texts, places, sizes, strict=True
    ):
        box = die.box
        colour = READ_COLOUR if die.value is not None else UNREAD_COLOUR
        cv2.rectangle(canvas, (box.x, box.y), (box.x + box.w, box.y + box.h), colour, thickness)
        origin = (x, y + height - baseline)
        cv2.rectangle(canvas, (x, y), (x + width - 1, y + height - 1), PLATE, cv2.FILLED)
        cv2.putText(canvas, text, origin, _FONT, scale, colour, thickness)
        if die.value is None:
            cx, cy = round(die.center[0]), round(die.center[1])
            size = max(3, box.w // 4)
            cv2.line(canvas, (cx - size, cy - size), (cx + size, cy + size), colour, thickness)
            cv2.line(canvas, (cx - size, cy + size), (cx + size, cy - size), colour, thickness)
    return np.asarray(canvas, dtype=np.uint8)


def label_of(value: int | None, confidence: float) -> str:
    """A die's label: its value ("?" unread) and the reader's confidence as a percentage, apart
    from the value so that a 1 read surely is never "11.00"."""
    return f"{'?' if value is None else value} ({confidence:.0%})"


def label_places(
    boxes: list[Box], sizes: list[tuple[int, int]], frame_size: tuple[int, int]
) -> list[Rect]:
    """Where to write each box's label (``sizes``: width, height) inside a frame ``frame_size``
    (width, height) wide: above the box, else below it, right of it or left of it, at the first
    of these places that no label placed before covers (above, when all are covered), so that
    the labels of touching dice can each be read."""
    width, height = frame_size
    placed: list[Rect] = []
    for box, (label_w, label_h) in zip(boxes, sizes, strict=True):
        options = [
            (box.x, box.y - _GAP - label_h),
            (box.x, box.y + box.h + _GAP),
            (box.x + box.w + _GAP, box.y),
            (box.x - _GAP - label_w, box.y),
        ]
        inside = [
            (
                min(max(0, x), max(0, width - label_w)),
                min(max(0, y), max(0, height - label_h)),
                label_w,
                label_h,
            )
            for x, y in options
        ]
        free = [rect for rect in inside if not any(_overlap(rect, other) for other in placed)]
        placed.append(free[0] if free else inside[0])
    return placed


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
