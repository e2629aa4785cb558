"""Watching the tray for a throw: camera frames through the dice reader and a settle tracker.

`ThrowWatcher.poll(now)` reads one frame, reads the dice in it and feeds the settle tracker. A
settled reading is offered only once the tray has been seen moving or empty since the watcher was
armed (`expect`), so the dice of the previous throw lying in the tray are never read twice.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from hardware.camera import Camera
from vision.types import Frame, Reading

__all__ = ["Observation", "Sight", "StableReadingTracker", "ThrowWatcher", "Tracker"]


class Sight(enum.Enum):
    """What the tray looks like in a frame."""

    EMPTY = "empty"
    MOVING = "moving"
    SETTLED = "settled"


class Tracker(Protocol):
    """A settle tracker: fed every frame with its reading, says whether the tray is at rest."""

    def update(self, frame: Frame, reading: Reading, now: float) -> Sight:
        """The tray's state after this frame."""
        ...


class StableReadingTracker:
    """Settled once the same dice (count and values) have been read for ``seconds``.

    The device's own simple tracker; vision's settle tracker (which also compares the images) is
    preferred when present, see `device.wiring`.
    """

    def __init__(self, seconds: float = 0.6) -> None:
        self.seconds = seconds
        self._key: tuple[int | None, ...] | None = None
        self._since = 0.0

    def update(self, frame: Frame, reading: Reading, now: float) -> Sight:
        """Track the reading's values; EMPTY with no dice, MOVING until stable long enough."""
        key = tuple(sorted(reading.values, key=lambda v: -1 if v is None else v))
        if key != self._key:
            self._key, self._since = key, now
        if reading.is_empty:
            return Sight.EMPTY
        return Sight.SETTLED if now - self._since >= self.seconds else Sight.MOVING


@dataclass(frozen=True, slots=True)
class Observation:
    """One frame's result: the tray's state and, when a new throw has settled, its reading."""

    sight: Sight
    reading: Reading
    settled: Reading | None = None


class ThrowWatcher:
    """Camera -> dice reader -> settle tracker, armed for one throw at a time."""

    def __init__(
        self,
        camera: Camera,
        read: Callable[[Frame], Reading],
        new_tracker: Callable[[], Tracker],
    ) -> None:
        self.camera = camera
        self._read = read
        self._new_tracker = new_tracker
        self._tracker = new_tracker()
        self._armed = False
        self.expected = 0
        self.frames = 0

    def expect(self, n: int) -> None:
        """Wait for a new throw of ``n`` dice (the simulated camera starts rendering one)."""
        self.expected = n
        self._armed = False
        self._tracker = self._new_tracker()
        self.camera.expect_throw(n)

    def rearm(self) -> None:
        """The settled reading was refused: wait until the tray changes, then read again."""
        self._armed = False

    def retry(self) -> None:
        """The settled reading could not be used for now: offer it again on the next frame."""
        self._armed = True

    def poll(self, now: float) -> Observation:
        """Read one frame. Raises the camera's `CameraUnavailable` when no frame comes."""
        frame = self.camera.read()
        self.frames += 1
        reading = self._read(frame)
        sight = self._tracker.update(frame, reading, now)
        if sight is not Sight.SETTLED:
            self._armed = True
            return Observation(sight, reading)
        if not self._armed:
            return Observation(sight, reading)
        self._armed = False
        return Observation(sight, reading, settled=reading)
