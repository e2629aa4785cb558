"""Drawing a reading onto a copy of its frame, for a person to see why a reading was wrong."""

from __future__ import annotations

import cv2
import numpy as np

from vision.types import Frame, Reading

READ_COLOUR = (0, 200, 0)
UNREAD_COLOUR = (0, 0, 255)


def annotate(frame: Frame, reading: Reading) -> Frame:
    """A copy of ``frame`` with each die's box and value drawn; unread dice in red with a "?"."""
    canvas = np.ascontiguousarray(frame.copy())
    scale = max(0.4, min(frame.shape[0], frame.shape[1]) / 800.0)
    thickness = max(1, round(scale * 2))
    for die in reading.dice:
        box = die.box
        colour = READ_COLOUR if die.value is not None else UNREAD_COLOUR
        cv2.rectangle(canvas, (box.x, box.y), (box.x + box.w, box.y + box.h), colour, thickness)
        label = str(die.value) if die.value is not None else "?"
        origin = (box.x, max(0, box.y - 4))
        text = f"{label} {die.confidence:.2f}"
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2)
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness)
        if die.value is None:
            x, y = round(die.center[0]), round(die.center[1])
            size = max(3, box.w // 4)
            cv2.line(canvas, (x - size, y - size), (x + size, y + size), colour, thickness)
            cv2.line(canvas, (x - size, y + size), (x + size, y - size), colour, thickness)
    return np.asarray(canvas, dtype=np.uint8)
