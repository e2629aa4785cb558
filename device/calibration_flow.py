"""The menu's "Calibrate camera": the steps of `dicekeeper calibrate`, one small step per call.

The controller calls `CalibrationFlow.step(now)` from its loop instead of reading throws, and shows
the message it returns: the empty tray is looked at (the median of a few frames), the throwing area
found, a test throw asked for and waited on until the dice lie still (STOP cancels meanwhile).
Then the result waits for the players (`asking`): the test throw's picture with the area drawn and
the dice boxed, the checks (`check_lines`, one line each, "FIX" ones first) and `ACCEPT_PROMPT`.
STOP saves it (`device.calibration`) and hands back its reader parameters; SELECT discards it and
the previous calibration stays. Meanwhile ``picture`` is the live view for the big screen: the
empty tray with the area found, then each frame of the test throw with the area and the dice read
boxed (`live_picture`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

import vision
from device.calibration import CALIBRATION_NAME, SavedCalibration, reader_params, save_calibration
from engine.errors import DicekeeperError
from hardware.buttons import Button
from hardware.camera import Camera
from hardware.view import Picture
from vision.annotate import annotate
from vision.calibration import Calibration, Check, Polygon, calibrate, draw_area, find_area
from vision.settle import SettleParams, SettleState, SettleTracker
from vision.types import Frame, Reading

log = logging.getLogger(__name__)

EMPTY_FRAMES = 5
TEST_DICE = 6
PICTURE_WIDTH = 640
"""The live view's pictures are at most this wide (a screen's tray panel is smaller)."""
MEASURING_PROMPT = "calibrating the camera: STOP cancels"
ACCEPT_PROMPT = "STOP: save calibration  SELECT: discard it"
"""What the buttons do on the result screen (the table's prompt style; two clauses for the
OLED's two rows)."""
ACCEPTS = frozenset({Button.STOP, Button.CORRECT})
"""The buttons that save the result (a STOP held long is still STOP)."""
DISCARDS = frozenset({Button.SELECT, Button.MENU, Button.QUIT})
"""The buttons that discard it (a SELECT held long is still SELECT; QUIT leaves without it)."""


def live_picture(frame: Frame, area: Polygon, reading: Reading | None = None) -> Picture:
    """``frame`` with the throwing ``area`` drawn and the dice of ``reading`` boxed, at most
    `PICTURE_WIDTH` pixels wide, for the screen's live view."""
    drawn = draw_area(frame if reading is None else annotate(frame, reading), area)
    height, width = drawn.shape[:2]
    if width > PICTURE_WIDTH:
        size = (PICTURE_WIDTH, max(round(height * PICTURE_WIDTH / width), 1))
        drawn = np.asarray(cv2.resize(drawn, size, interpolation=cv2.INTER_AREA), np.uint8)
    return Picture(np.ascontiguousarray(drawn))


def check_lines(checks: Sequence[Check]) -> tuple[str, ...]:
    """One line per check, "FIX name: advice" lines first, then "ok name: advice"."""
    ordered = sorted(checks, key=lambda check: check.ok)
    return tuple(f"{'ok' if c.ok else 'FIX'} {c.name}: {c.advice}" for c in ordered)


def discarded(directory: Path) -> str:
    """What is said when the players discard a calibration made for the state ``directory``."""
    if (directory / CALIBRATION_NAME).exists():
        return "calibration discarded; the previous one is kept"
    return "calibration discarded; the table stays uncalibrated"


def summary(calibration: Calibration) -> str:
    """The result in one line: the dice's width and what to fix (or that every check passed)."""
    dice = "?" if calibration.die_width_px is None else f"{calibration.die_width_px:.0f}"
    to_fix = [check.name for check in calibration.checks if not check.ok]
    said = f"area of {len(calibration.roi)} corners, dice {dice} px"
    return f"{said}; fix: {', '.join(to_fix)}" if to_fix else f"{said}: every check passed"


class CalibrationFlow:
    """Calibrating from the table's menu. ``message`` is what to show now, ``prompt`` what the
    buttons do, ``picture`` the camera's picture to show with it (None before the tray is found
    and once ``done``) and ``checks`` the result's checks while ``asking``; once ``done``,
    ``params`` holds the reader's new parameters (None when it failed, was cancelled or the
    players discarded it)."""

    def __init__(
        self,
        camera: Camera,
        directory: Path,
        *,
        settle_seconds: float = 0.6,
        timeout: float = 60.0,
        configured_roi: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.camera = camera
        self.directory = directory
        self.timeout = timeout
        self.configured_roi = configured_roi
        self.message = "calibrating: keep hands and dice out of the tray"
        self.done = False
        self.failed = False
        self.params: vision.ReaderParams | None = None
        self.picture: Picture | None = None
        self.checks: tuple[str, ...] = ()
        self.asking = False
        """The result waits for the players: STOP saves it, SELECT discards it."""
        self._result: Calibration | None = None
        self._frames: list[Frame] = []
        self._empty: Frame | None = None
        self._area: tuple[tuple[int, int], ...] | None = None
        self._tracker = SettleTracker(SettleParams(settle_seconds=settle_seconds))
        self._started: float | None = None

    @property
    def prompt(self) -> str:
        """What the buttons do now."""
        return ACCEPT_PROMPT if self.asking else MEASURING_PROMPT

    def cancel(self) -> None:
        """Stop calibrating; the reader stays as it was."""
        self._finish("calibration cancelled", failed=True)

    def press(self, button: Button) -> None:
        """A button pressed while calibrating: STOP cancels the measuring; on the result, STOP
        saves it and SELECT discards it."""
        if self.done:
            return
        if not self.asking:
            if button in ACCEPTS:
                self.cancel()
        elif button in ACCEPTS:
            self.accept()
        elif button in DISCARDS:
            self._finish(discarded(self.directory), failed=False)

    def accept(self) -> None:
        """Save the result the players accepted; ``params`` then holds the reader's parameters."""
        result, empty = self._result, self._empty
        if not self.asking or result is None or empty is None:
            return
        try:
            path = save_calibration(self.directory, result, empty)
        except OSError as exc:
            self._finish(f"calibration not saved: {exc}", failed=True)
            return
        height, width = empty.shape[:2]
        saved = SavedCalibration(
            result.roi, result.die_width_px, result.checks, empty, (width, height), path
        )
        self.params, _ = reader_params(saved, (width, height), self.configured_roi)
        self._finish(f"calibration saved: {summary(result)}", failed=False)

    def step(self, now: float) -> str:
        """Do the next step; returns the message to show (while ``asking``, nothing to do)."""
        if self.done or self.asking:
            return self.message
        try:
            if self._area is None:
                self._look_at_empty_tray(now)
            else:
                self._wait_for_throw(now)
        except DicekeeperError as exc:  # the camera failed: say so, the game goes on
            self._finish(f"calibration stopped: {exc}", failed=True)
        return self.message

    def _look_at_empty_tray(self, now: float) -> None:
        self._frames.append(self.camera.read())
        if len(self._frames) < EMPTY_FRAMES:
            return
        empty = np.asarray(np.median(np.stack(self._frames), axis=0), np.uint8)
        area = find_area(empty)
        if area is None:
            self._finish(
                "no tray to be seen: point the camera straight down at the empty tray",
                failed=True,
            )
            return
        self._empty, self._area, self._started = empty, area, now
        self.picture = live_picture(empty, area)
        self.camera.expect_throw(TEST_DICE)
        self.message = "tray found: now throw the dice into it (STOP cancels)"

    def _wait_for_throw(self, now: float) -> None:
        assert self._area is not None and self._empty is not None and self._started is not None
        if now - self._started > self.timeout:
            self._finish("no dice settled in the tray: calibration cancelled", failed=True)
            return
        frame = self.camera.read()
        reading = vision.read(frame, vision.ReaderParams(roi=self._area))
        state = self._tracker.update(frame, reading, now)
        self.picture = live_picture(frame, self._area, reading)
        if state is not SettleState.SETTLED or reading.is_empty:
            return
        result = calibrate(self._empty, frame, reading, self._area)
        assert result is not None
        self._result, self.asking = result, True
        self.checks = check_lines(result.checks)
        for line in self.checks:
            log.info("calibration %s", line)
        self.message = f"measured: {summary(result)}"

    def _finish(self, message: str, *, failed: bool) -> None:
        self.message, self.done, self.failed = message, True, failed
        self.picture, self.checks, self.asking = None, (), False
