"""The menu's "Calibrate camera": the steps of `dicekeeper calibrate`, one small step per call.

The controller calls `CalibrationFlow.step(now)` from its loop instead of reading throws, and shows
the message it returns: the empty tray is looked at (the median of a few frames), the throwing area
found, a test throw asked for and waited on until the dice lie still, then the calibration is
checked and saved (`device.calibration`) and its reader parameters handed back. STOP cancels.
Meanwhile ``picture`` is the live view for the big screen: the empty tray with the area found,
then each frame of the test throw with the area and the dice read boxed (`live_picture`).
"""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np

import vision
from device.calibration import SavedCalibration, reader_params, save_calibration
from engine.errors import DicekeeperError
from hardware.camera import Camera
from hardware.view import Picture
from vision.annotate import annotate
from vision.calibration import Polygon, calibrate, draw_area, find_area
from vision.settle import SettleParams, SettleState, SettleTracker
from vision.types import Frame, Reading

log = logging.getLogger(__name__)

EMPTY_FRAMES = 5
TEST_DICE = 6
PICTURE_WIDTH = 640
"""The live view's pictures are at most this wide (a screen's tray panel is smaller)."""


def live_picture(frame: Frame, area: Polygon, reading: Reading | None = None) -> Picture:
    """``frame`` with the throwing ``area`` drawn and the dice of ``reading`` boxed, at most
    `PICTURE_WIDTH` pixels wide, for the screen's live view."""
    drawn = draw_area(frame if reading is None else annotate(frame, reading), area)
    height, width = drawn.shape[:2]
    if width > PICTURE_WIDTH:
        size = (PICTURE_WIDTH, max(round(height * PICTURE_WIDTH / width), 1))
        drawn = np.asarray(cv2.resize(drawn, size, interpolation=cv2.INTER_AREA), np.uint8)
    return Picture(np.ascontiguousarray(drawn))


class CalibrationFlow:
    """Calibrating from the table's menu. ``message`` is what to show now and ``picture`` the
    camera's picture to show with it (None before the tray is found and once ``done``); once
    ``done``, ``params`` holds the reader's new parameters (None when it failed or was
    cancelled)."""

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
        self._frames: list[Frame] = []
        self._empty: Frame | None = None
        self._area: tuple[tuple[int, int], ...] | None = None
        self._tracker = SettleTracker(SettleParams(settle_seconds=settle_seconds))
        self._started: float | None = None

    def cancel(self) -> None:
        """Stop calibrating; the reader stays as it was."""
        self._finish("calibration cancelled", failed=True)

    def step(self, now: float) -> str:
        """Do the next step; returns the message to show."""
        if self.done:
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
        try:
            path = save_calibration(self.directory, result, self._empty)
        except OSError as exc:
            self._finish(f"calibration not saved: {exc}", failed=True)
            return
        height, width = self._empty.shape[:2]
        saved = SavedCalibration(
            result.roi, result.die_width_px, result.checks, self._empty, (width, height), path
        )
        self.params, _ = reader_params(saved, (width, height), self.configured_roi)
        to_fix = [check.name for check in result.checks if not check.ok]
        dice = "?" if result.die_width_px is None else f"{result.die_width_px:.0f}"
        summary = f"calibrated (dice {dice} px)"
        for check in result.checks:
            log.info("calibration %s %s: %s", "ok" if check.ok else "FIX", check.name, check.advice)
        fix = f"{summary}; fix: {', '.join(to_fix)}"
        self._finish(f"{summary}: every check passed" if not to_fix else fix, failed=False)

    def _finish(self, message: str, *, failed: bool) -> None:
        self.message, self.done, self.failed = message, True, failed
        self.picture = None
