"""The settle tracker: tells, frame after frame, whether the tray is empty, moving or settled.

A throw is settled once both the image (frame difference, robust to sensor noise and small
exposure changes) and the reading (same multiset of values, same dice positions within a tolerance)
have been stable for ``SettleParams.settle_seconds``. Time is passed in with every frame; the
tracker never reads a clock.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import DicekeeperError
from vision.types import Frame, Reading

SmallImage = npt.NDArray[np.int16]


class InvalidSettleInput(DicekeeperError, ValueError):
    """The settle tracker was given a frame, a time or parameters it cannot use."""


class SettleState(enum.Enum):
    """What the tray is doing."""

    EMPTY = "empty"
    """No die is seen and the image is still."""
    MOVING = "moving"
    """Something changes (dice rolling, a hand), or has not been still for long enough yet."""
    SETTLED = "settled"
    """Image and reading have been stable for ``settle_seconds``: the throw can be scored."""


@dataclass(frozen=True, slots=True)
class SettleParams:
    """How the settle tracker decides.

    ``settle_seconds``: how long image and reading must stay stable. The image is compared at
    ``work_width`` pixels wide (downscaling averages sensor noise away); a pixel has changed when
    its grey level moved by more than ``pixel_threshold`` (after removing the median change, so an
    exposure step does not count), and the image has moved when more than ``motion_fraction`` of
    the pixels changed. Two readings agree when they have the same multiset of values (unreadable
    dice included) and every die is within ``position_tolerance`` × its box size (and at least
    ``min_position_px``) of a die of the other reading.
    """

    settle_seconds: float = 0.6
    work_width: int = 160
    pixel_threshold: float = 10.0
    motion_fraction: float = 0.0008
    position_tolerance: float = 0.2
    min_position_px: float = 2.0

    def __post_init__(self) -> None:
        if not self.settle_seconds >= 0:
            raise InvalidSettleInput(f"settle_seconds must be >= 0, got {self.settle_seconds!r}")
        if not 16 <= self.work_width <= 4096:
            raise InvalidSettleInput(f"work_width must lie in 16-4096, got {self.work_width!r}")
        if not self.pixel_threshold > 0:
            raise InvalidSettleInput(f"pixel_threshold must be > 0, got {self.pixel_threshold!r}")
        if not 0 <= self.motion_fraction < 1:
            raise InvalidSettleInput(
                f"motion_fraction must lie in [0, 1), got {self.motion_fraction!r}"
            )
        if not self.position_tolerance >= 0 or not self.min_position_px >= 0:
            raise InvalidSettleInput(
                "position tolerances must be >= 0, got "
                f"{self.position_tolerance!r} and {self.min_position_px!r}"
            )


class SettleTracker:
    """Feed it every frame with its reading and time; it says EMPTY, MOVING or SETTLED.

    After SETTLED, any change in image or reading goes back to MOVING. ``reset()`` starts afresh
    (a new throw).
    """

    def __init__(self, params: SettleParams | None = None) -> None:
        self.params = params if params is not None else SettleParams()
        self.reset()

    def reset(self) -> None:
        """Forget everything seen so far."""
        self._previous: SmallImage | None = None
        self._anchor: SmallImage | None = None
        self._anchor_reading = Reading()
        self._anchor_time = 0.0
        self._last_time: float | None = None
        self._state = SettleState.MOVING
        self._settled: Reading | None = None

    @property
    def state(self) -> SettleState:
        """The state after the last update (MOVING before any frame)."""
        return self._state

    @property
    def settled_reading(self) -> Reading | None:
        """The reading that settled, while the state is SETTLED; None otherwise."""
        return self._settled if self._state is SettleState.SETTLED else None

    def update(self, frame: Frame, reading: Reading, now: float) -> SettleState:
        """Take one frame, its reading and the time (seconds, any epoch, never decreasing)."""
        if self._last_time is not None and now < self._last_time:
            raise InvalidSettleInput(f"time went backwards: {now!r} after {self._last_time!r}")
        self._last_time = now
        small = self._shrink(frame)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape or self._anchor is None:
            self._restart(small, reading, now)
            return self._set(SettleState.MOVING)
        still = not self._moved(small, previous)
        if (
            still
            and not self._moved(small, self._anchor)
            and same_dice(reading, self._anchor_reading, self.params)
        ):
            stable_for = now - self._anchor_time
        else:
            self._restart(small, reading, now)
            stable_for = 0.0
        if reading.is_empty:
            return self._set(SettleState.EMPTY if still else SettleState.MOVING)
        if stable_for >= self.params.settle_seconds and still:
            if self._state is not SettleState.SETTLED:
                self._settled = reading
            return self._set(SettleState.SETTLED)
        return self._set(SettleState.MOVING)

    def _set(self, state: SettleState) -> SettleState:
        self._state = state
        if state is not SettleState.SETTLED:
            self._settled = None
        return state

    def _restart(self, small: SmallImage, reading: Reading, now: float) -> None:
        self._anchor = small
        self._anchor_reading = reading
        self._anchor_time = now

    def _shrink(self, frame: Frame) -> SmallImage:
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
            raise InvalidSettleInput(
                f"frame must be an H×W×3 uint8 array, got {getattr(frame, 'shape', frame)!r}"
            )
        h, w = frame.shape[:2]
        if h < 2 or w < 2:
            raise InvalidSettleInput(f"frame too small: {frame.shape!r}")
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        width = min(self.params.work_width, w)
        height = max(1, round(h * width / w))
        small = cv2.resize(gray, (width, height), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (3, 3), 0)
        return small.astype(np.int16)

    def _moved(self, a: SmallImage, b: SmallImage) -> bool:
        diff = a - b
        diff = np.abs(diff - np.int16(np.median(diff)))
        changed = float(np.count_nonzero(diff > self.params.pixel_threshold)) / diff.size
        return bool(changed > self.params.motion_fraction)


def same_dice(a: Reading, b: Reading, params: SettleParams) -> bool:
    """Whether two readings show the same dice: same values (as a multiset) at the same places."""
    if len(a.dice) != len(b.dice):
        return False
    if sorted(a.values, key=_order) != sorted(b.values, key=_order):
        return False
    unused = list(b.dice)
    for die in a.dice:
        size = max(die.box.w, die.box.h)
        limit = max(params.position_tolerance * size, params.min_position_px)
        best = None
        best_d = limit
        for i, other in enumerate(unused):
            if other.value != die.value:
                continue
            d = float(np.hypot(die.center[0] - other.center[0], die.center[1] - other.center[1]))
            if d <= best_d:
                best, best_d = i, d
        if best is None:
            return False
        unused.pop(best)
    return True


def _order(value: int | None) -> int:
    return 0 if value is None else value
