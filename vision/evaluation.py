"""Scoring a reading against labelled dice: matching by centre, recall, precision, whole throws.

Pure functions shared by the accuracy benchmark and the tests; reading the label files is theirs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.core import RenderedDie
from vision.types import Frame, Reading


@dataclass(frozen=True, slots=True)
class LabelledDie:
    """One labelled die: its box (x_min, y_min, x_max, y_max) and its face value (None: a die
    that cannot be read, such as a cocked one in a synthetic tray)."""

    x_min: float
    y_min: float
    x_max: float
    y_max: float
    value: int | None

    @classmethod
    def from_row(cls, row: Mapping[str, str]) -> LabelledDie:
        """The die of one ``labels.csv`` row (``x_min,y_min,x_max,y_max,value``, as the photo
        folders and `dicekeeper photos export` write them)."""
        return cls(
            float(row["x_min"]),
            float(row["y_min"]),
            float(row["x_max"]),
            float(row["y_max"]),
            int(row["value"]),
        )

    @property
    def center(self) -> tuple[float, float]:
        """The centre of the labelled box."""
        return ((self.x_min + self.x_max) / 2, (self.y_min + self.y_max) / 2)

    def scaled(self, factor: float) -> LabelledDie:
        """The label of the same die in its image resized by ``factor`` (`resized`)."""
        return LabelledDie(
            self.x_min * factor,
            self.y_min * factor,
            self.x_max * factor,
            self.y_max * factor,
            self.value,
        )


def resized(frame: Frame, factor: float) -> Frame:
    """The frame resized by ``factor``: the tray as a camera with that many times the pixels
    across (or that much nearer) would see it, only softer when enlarged. Shrunk by averaging."""
    if factor == 1.0:
        return frame
    method = cv2.INTER_AREA if factor < 1.0 else cv2.INTER_LINEAR
    return np.asarray(
        cv2.resize(frame, None, fx=factor, fy=factor, interpolation=method), dtype=np.uint8
    )


def rendered_labels(dice: Iterable[RenderedDie]) -> list[LabelledDie]:
    """Labels for rendered dice as the real datasets draw them: each die's top face (where the
    pips are) as its box, its value as the label; from an oblique camera the box is as wide and
    as tall as that face looks (`RenderedDie.face_bounds`: side faces left out, as in rune55's
    oblique photos), else a square its side long."""
    labels = []
    for die in dice:
        if die.face_bounds is not None:
            labels.append(LabelledDie(*die.face_bounds, die.value))
            continue
        (cx, cy), half = die.center, die.size_px / 2
        labels.append(LabelledDie(cx - half, cy - half, cx + half, cy + half, die.value))
    return labels


@dataclass(frozen=True, slots=True)
class Score:
    """Counts over one or more images: labelled dice, dice reported, dice found with the right
    value, images, images whose multiset of values read equals the labelled one, dice reported
    as seen but unread (value None), images misread silently (as many dice reported as
    labelled, every one with a value, and the values not the labelled ones: a throw the table
    would score wrongly without a word), and unread dice whose likeliest value (`likely`, what a
    correction at the table offers first) is their labelled one."""

    labelled: int = 0
    reported: int = 0
    correct: int = 0
    images: int = 0
    throws_right: int = 0
    unread: int = 0
    silent: int = 0
    likely_right: int = 0

    def __add__(self, other: Score) -> Score:
        return Score(
            self.labelled + other.labelled,
            self.reported + other.reported,
            self.correct + other.correct,
            self.images + other.images,
            self.throws_right + other.throws_right,
            self.unread + other.unread,
            self.silent + other.silent,
            self.likely_right + other.likely_right,
        )

    @property
    def recall(self) -> float:
        """Labelled dice found with the right value / labelled dice."""
        return self.correct / self.labelled if self.labelled else 1.0

    @property
    def precision(self) -> float:
        """Right values / dice reported."""
        return self.correct / self.reported if self.reported else 1.0

    @property
    def value_precision(self) -> float:
        """Right values / dice reported with a value (unread dice left out)."""
        valued = self.reported - self.unread
        return self.correct / valued if valued else 1.0

    @property
    def throw_accuracy(self) -> float:
        """Images read exactly right (as a multiset of values) / images."""
        return self.throws_right / self.images if self.images else 1.0

    @property
    def silent_misreads(self) -> float:
        """Images misread silently / images."""
        return self.silent / self.images if self.images else 0.0


def score_image(reading: Reading, labels: Iterable[LabelledDie]) -> Score:
    """Match each reported die to the nearest free label within reach of its centre and count."""
    labels = list(labels)
    pairs = matched(reading, labels)
    correct = len(_read_right(reading, labels, pairs))
    likely_right = sum(
        1
        for d_index, l_index in pairs.items()
        if reading.dice[d_index].value is None
        and reading.dice[d_index].likely is not None
        and reading.dice[d_index].likely == labels[l_index].value
    )
    read_values = sorted((v if v is not None else 0) for v in reading.values)
    throw_right = read_values == sorted(
        (v if v is not None else 0) for v in (x.value for x in labels)
    )
    unread = sum(1 for v in reading.values if v is None)
    silent = not throw_right and not unread and len(reading.dice) == len(labels)
    return Score(
        len(labels),
        len(reading.dice),
        correct,
        1,
        int(throw_right),
        unread,
        int(silent),
        likely_right,
    )


def read_right(reading: Reading, labels: list[LabelledDie]) -> set[int]:
    """The indices of the labels matched (`matched`) to a reported die of their value."""
    return _read_right(reading, labels, matched(reading, labels))


def _read_right(reading: Reading, labels: list[LabelledDie], pairs: dict[int, int]) -> set[int]:
    """The indices of the labels that ``pairs`` (`matched`) match to a die of their value."""
    return {
        l_index
        for d_index, l_index in pairs.items()
        if reading.dice[d_index].value == labels[l_index].value
    }


def matched(reading: Reading, labels: list[LabelledDie]) -> dict[int, int]:
    """The label each reported die is matched to, by index: each die to the nearest free label
    within reach of its centre (half the larger of the label's and the die's widths), the
    nearest pairs first. A die matched to no label is not in the result."""
    pairs = []
    for d_index, die in enumerate(reading.dice):
        for l_index, label in enumerate(labels):
            lx, ly = label.center
            distance = math.hypot(die.center[0] - lx, die.center[1] - ly)
            reach = 0.5 * max(label.x_max - label.x_min, label.y_max - label.y_min, die.box.w)
            if distance <= reach:
                pairs.append((distance, d_index, l_index))
    pairs.sort()
    found: dict[int, int] = {}
    taken: set[int] = set()
    for _, d_index, l_index in pairs:
        if d_index in found or l_index in taken:
            continue
        found[d_index] = l_index
        taken.add(l_index)
    return found
