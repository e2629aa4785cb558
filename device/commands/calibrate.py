"""`dicekeeper calibrate [--config FILE] [--json] [--annotate FILE]`: fit the reader to the table.

On the configured camera (the same configuration as `run`): look at the empty tray and find the
throwing area, ask for a test throw (the simulated camera throws by itself; a real camera waits
until dice lie still in the tray, up to ``--timeout`` seconds), measure the dice, check the
picture, save the result in the state directory (`device.calibration`) and print the checks, one
line each; a screen among the configured displays shows the messages and the camera's live view
(the area found, the dice read boxed). ``--json`` prints ``{"roi": [[x, y], ...],
"die_width_px": W, "checks": [{"name", "ok", "advice"}], "saved": PATH}``. No tray to be seen: a
message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

import vision
from device.calibration import save_calibration
from device.calibration_flow import live_picture
from device.commands.outputs import BadOutput
from device.config import Config, load_config
from device.store import state_directory
from device.wiring import open_configured_camera
from engine.errors import DicekeeperError
from hardware.camera import Camera
from hardware.display import Display, MultiDisplay, open_display
from hardware.view import Picture, TableView
from vision.annotate import annotate
from vision.calibration import Calibration, calibrate, draw_area, find_area
from vision.settle import SettleParams, SettleState, SettleTracker
from vision.types import Frame, Reading

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_NO_TRAY = 2
TEST_DICE = 6
"""How many dice the simulated camera throws for the test throw."""
EMPTY_FRAMES = 5
"""The empty tray is the median of this many frames (sensor noise averaged away)."""
WARM_UP_FRAMES = 10
"""Frames dropped first from a real camera (its exposure settling)."""


class NoTray(DicekeeperError, ValueError):
    """No tray is to be seen in the camera's picture."""


class NoThrow(DicekeeperError, TimeoutError):
    """The test throw never settled in the tray."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``calibrate`` command."""
    parser = subparsers.add_parser(
        "calibrate",
        help="find the tray and measure the dice on the configured camera; save it for `run`",
        description=(
            "Look at the empty tray, find the throwing area, measure a test throw, check the "
            "picture (light, glare, focus, camera straight above, dice size) and save the result "
            "in the state directory, where `run` and `demo` use it."
        ),
    )
    parser.add_argument("--config", metavar="FILE", type=Path, help="the TOML configuration")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument(
        "--annotate",
        metavar="FILE",
        type=Path,
        help="write a PNG of the test throw with the area drawn and the dice boxed "
        "(an existing file is refused)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds to wait for the test throw to settle (default 60)",
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Calibrate on the configured camera, save, and print the checks."""
    annotate_path: Path | None = args.annotate
    if annotate_path is not None:
        _check_new_png("--annotate", annotate_path)
    config = load_config(args.config)
    say: Callable[[str], None] = _to_stderr if args.json else print
    with _open_screens(config) as screens:
        live = _LiveView(screens, say) if screens.displays else None
        try:
            outcome = run_calibration(
                config,
                say=say if live is None else live.say,
                timeout=args.timeout,
                live=None if live is None else live.show,
            )
        except NoTray as exc:
            log.error("%s", exc)
            return EXIT_NO_TRAY
    if annotate_path is not None:
        picture = draw_area(annotate(outcome.throw, outcome.reading), outcome.calibration.roi)
        if not cv2.imwrite(str(annotate_path), picture):
            raise BadOutput(f"--annotate {str(annotate_path)!r} cannot be written")
    result = outcome.calibration
    if args.json:
        print(
            json.dumps(
                {
                    "roi": [list(p) for p in result.roi],
                    "die_width_px": (
                        None if result.die_width_px is None else round(result.die_width_px, 1)
                    ),
                    "checks": [
                        {"name": c.name, "ok": c.ok, "advice": c.advice} for c in result.checks
                    ],
                    "saved": str(outcome.saved),
                }
            )
        )
    else:
        for check in result.checks:
            print(f"{'ok ' if check.ok else 'FIX'} {check.name}: {check.advice}")
        print(f"saved {outcome.saved}")
    return EXIT_OK


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def _open_screens(config: Config) -> MultiDisplay:
    """The screens among ``config``'s displays (one that cannot open is logged and left out)."""
    screens: list[Display] = []
    for spec in config.displays:
        if spec.kind != "screen":
            continue
        try:
            screen = open_display(
                "screen", width=spec.width, height=spec.height, fullscreen=spec.fullscreen
            )
        except DicekeeperError as exc:
            log.warning("the screen cannot show the calibration: %s", exc)
        else:
            screens.append(screen)
    return MultiDisplay(screens)


class _LiveView:
    """The calibration on the screens: the latest message said and the camera's picture."""

    def __init__(self, screens: Display, say: Callable[[str], None]) -> None:
        self._screens = screens
        self._say = say
        self._message = ""
        self._picture: Picture | None = None

    def say(self, message: str) -> None:
        self._say(message)
        self._message = message
        self._show()

    def show(self, picture: Picture) -> None:
        self._picture = picture
        self._show()

    def _show(self) -> None:
        self._screens.show(
            TableView(
                title="calibrating the camera",
                prompt="Ctrl+C cancels",
                message=self._message,
                picture=self._picture,
            )
        )


def _check_new_png(option: str, path: Path) -> None:
    text = str(path)
    if path.exists():
        raise BadOutput(f"{option} {text!r} already exists; name a new file")
    if not path.parent.is_dir():
        raise BadOutput(f"{option} {text!r}: the folder {str(path.parent)!r} does not exist")
    if path.suffix.lower() != ".png":
        raise BadOutput(f"{option} {text!r}: write a .png file")


@dataclass(frozen=True)
class Outcome:
    """A calibration done: the result, the test throw's frame and reading, where it was saved."""

    calibration: Calibration
    throw: Frame
    reading: Reading
    saved: Path


def run_calibration(
    config: Config,
    *,
    say: Callable[[str], None] = print,
    timeout: float = 60.0,
    clock: Callable[[], float] = time.monotonic,
    live: Callable[[Picture], None] | None = None,
) -> Outcome:
    """Calibrate on ``config``'s camera and save the result in its state directory; ``say``
    tells the person at the table what to do and ``live`` (when given) gets the camera's
    pictures: the empty tray with the area found, then each frame of the test throw with the
    dice read boxed. Raises `NoTray` when no tray is to be seen and
    `NoThrow` when the test throw does not settle within ``timeout`` seconds."""
    simulated = config.camera.backend == "simulated"
    with open_configured_camera(config) as camera:
        say("looking at the empty tray: keep hands and dice out of it")
        empty = _empty_tray(camera, warm_up=0 if simulated else WARM_UP_FRAMES)
        area = find_area(empty)
        if area is None:
            raise NoTray(
                "no tray to be seen: point the camera straight down at the empty tray, "
                "with light on it, and run `dicekeeper calibrate` again"
            )
        if live is not None:
            live(live_picture(empty, area))
        say(f"throwing area found: {len(area)} corners; now throw the dice into the tray")
        params = vision.ReaderParams(roi=area)
        seen = None if live is None else lambda f, r: live(live_picture(f, area, r))
        if simulated:
            camera.expect_throw(TEST_DICE)
            frame_clock = _FrameClock(config.camera.fps)
            throw, reading = _settled_throw(
                camera, params, frame_clock, timeout, settle=0.3, seen=seen
            )
        else:
            throw, reading = _settled_throw(
                camera, params, clock, timeout, settle=config.camera.settle_seconds, seen=seen
            )
    result = calibrate(empty, throw, reading, area)
    assert result is not None  # the area was found above
    saved = save_calibration(state_directory(config.state.directory), result, empty)
    return Outcome(result, throw, reading, saved)


class _FrameClock:
    """Time for the simulated camera: each frame is one frame time later."""

    def __init__(self, fps: int) -> None:
        self._step = 1.0 / max(fps, 1)
        self._now = 0.0

    def __call__(self) -> float:
        self._now += self._step
        return self._now


def _empty_tray(camera: Camera, *, warm_up: int) -> Frame:
    for _ in range(warm_up):
        camera.read()
    frames = [camera.read() for _ in range(EMPTY_FRAMES)]
    return np.asarray(np.median(np.stack(frames), axis=0), np.uint8)


def _settled_throw(
    camera: Camera,
    params: vision.ReaderParams,
    clock: Callable[[], float],
    timeout: float,
    *,
    settle: float,
    seen: Callable[[Frame, Reading], None] | None = None,
) -> tuple[Frame, Reading]:
    """The first frame of the tray with dice lying still in it, and its reading; ``seen`` gets
    every frame read on the way and its reading."""
    tracker = SettleTracker(SettleParams(settle_seconds=settle))
    start = clock()
    while True:
        now = clock()
        if now - start > timeout:
            raise NoThrow(f"no dice settled in the tray within {timeout:g} s: throw them again")
        frame = camera.read()
        reading = vision.read(frame, params)
        if seen is not None:
            seen(frame, reading)
        state = tracker.update(frame, reading, now)
        if state is SettleState.SETTLED and not reading.is_empty:
            return frame, reading
