"""Watching the tray for a throw: camera frames through the dice reader and a settle tracker.

`ThrowWatcher.poll(now)` reads one frame, reads the dice in it and feeds the settle tracker. A
settled reading is offered only once the tray has been seen moving or empty since the watcher was
armed (`expect`), so the dice of the previous throw lying in the tray are never read twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hardware.camera import Camera
from vision.settle import SettleParams, SettleState, SettleTracker
from vision.types import Frame, Reading

__all__ = ["Observation", "ThrowWatcher"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One frame's result: the tray's state and, when a new throw has settled, its reading."""

    sight: SettleState
    reading: Reading
    settled: Reading | None = None
    size: tuple[int, int] = (0, 0)
    """The frame's width and height in pixels."""


class ThrowWatcher:
    """Camera -> dice reader -> vision's settle tracker (dice at rest for ``settle_seconds``),
    armed for one throw at a time."""

    def __init__(
        self, camera: Camera, read: Callable[[Frame], Reading], settle_seconds: float
    ) -> None:
        self.camera = camera
        self._read = read
        self._settle = SettleParams(settle_seconds=settle_seconds)
        self._tracker = SettleTracker(self._settle)
        self._armed = False
        self.expected = 0
        self.frames = 0

    def expect(self, n: int) -> None:
        """Wait for a new throw of ``n`` dice (the simulated camera starts rendering one)."""
        self.expected = n
        self._armed = False
        self._tracker = SettleTracker(self._settle)
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
        size = (int(frame.shape[1]), int(frame.shape[0]))
        if sight is not SettleState.SETTLED:
            self._armed = True
            return Observation(sight, reading, size=size)
        if not self._armed:
            return Observation(sight, reading, size=size)
        self._armed = False
        return Observation(sight, reading, settled=reading, size=size)
