"""The values that flow out of the dice reader: one die seen in a frame, and a whole reading."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Frame = npt.NDArray[np.uint8]
"""A camera frame: an H×W×3 BGR image (OpenCV's order), dtype uint8."""


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box in pixels: left, top, width, height."""

    x: int
    y: int
    w: int
    h: int

    @property
    def center(self) -> tuple[float, float]:
        """The box centre (x, y) in pixels."""
        return (self.x + self.w / 2, self.y + self.h / 2)


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die seen in a frame.

    ``value`` is the face showing (1-6), or ``None`` when a die was seen but cannot be read honestly
    (cocked, half out of view, covered, blurred). ``center`` is the die centre (x, y) in pixels,
    ``box`` the die's bounding box, ``confidence`` in [0, 1]. ``likely`` is, for a die not read,
    the value the reader found likeliest though not sure enough to give (None: no guess): the
    value a correction offers first.
    """

    value: int | None
    center: tuple[float, float]
    box: Box
    confidence: float
    likely: int | None = None

    @property
    def is_readable(self) -> bool:
        """Whether the die's face value was read."""
        return self.value is not None


@dataclass(frozen=True, slots=True)
class Reading:
    """Every die seen in one frame, in reading order (top to bottom, then left to right)."""

    dice: tuple[DieReading, ...] = ()

    @property
    def values(self) -> tuple[int | None, ...]:
        """The face values in reading order (``None`` for an unreadable die)."""
        return tuple(die.value for die in self.dice)

    @property
    def is_empty(self) -> bool:
        """Whether no die was seen."""
        return not self.dice

    @property
    def is_complete(self) -> bool:
        """Whether every die seen was read."""
        return all(die.value is not None for die in self.dice)

    def sorted_values(self) -> tuple[int, ...]:
        """The readable values in ascending order (the multiset of the throw)."""
        return tuple(sorted(v for v in self.values if v is not None))
