"""`dicekeeper calibrate [--config FILE] [--json] [--annotate FILE] [--yes]`: fit the reader to
the table.

On the configured camera (the same configuration as `run`): look at the empty tray and find the
throwing area, ask for a test throw (the simulated camera throws by itself; a real camera waits
until dice lie still in the tray, up to ``--timeout`` seconds), measure the dice and check the
picture. The configured displays, opened as `run` opens them (`open_calibration_displays`), show
the messages and the camera's live view (the area found, the dice read boxed), then the result:
the test throw with the area drawn and the dice boxed and the checks, one line each ("FIX" ones
first), also printed. An OLED draws the same views in its own layout (`hardware.oled`): the step,
then what to fix, and what the buttons do.

Then the players accept it or not: with a screen or GPIO buttons configured STOP (Enter, y) saves
it and SELECT (Esc, Backspace, n) discards it, within ``--accept-timeout`` seconds; in a terminal
with no screen the question is "accept this calibration? [Y/n]" (an OLED shows it with the
result). In the terminal key by key, an arrow key is no answer: only Esc alone discards.
``--yes`` saves without asking, and so do ``--json`` and a run with neither screen, GPIO buttons
nor a terminal (scripts).
Saved: the result goes into the state directory (`device.calibration`), exit 0. Discarded: the
previous calibration stays, one line, exit 1. No answer in time, no tray to be seen, no test
throw: a message and exit 2, nothing saved. ``--json`` prints ``{"roi": [[x, y], ...],
"die_width_px": W, "checks": [{"name", "ok", "advice"}], "saved": PATH}``.
"""

from __future__ import annotations

import argparse
import json
import logging
import select
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

import vision
from device.calibration import save_calibration
from device.calibration_flow import (
    ACCEPT_PROMPT,
    ACCEPTS,
    DISCARDS,
    check_lines,
    discarded,
    live_picture,
    summary,
)
from device.commands.outputs import BadOutput
from device.config import Config, load_config
from device.store import state_directory
from device.wiring import (
    open_configured_buttons,
    open_configured_camera,
    open_configured_displays,
)
from engine.errors import DicekeeperError
from hardware.backends import Closing
from hardware.buttons import Button, Buttons
from hardware.camera import Camera
from hardware.display import Display, MultiDisplay
from hardware.keyboard_buttons import KEYMAP, KeyboardButtons
from hardware.view import Picture, TableView
from vision.annotate import annotate
from vision.calibration import Calibration, calibrate, draw_area, find_area
from vision.settle import SettleParams, SettleState, SettleTracker
from vision.types import Frame, Reading

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_DISCARDED = 1
EXIT_NO_TRAY = 2
TEST_DICE = 6
"""How many dice the simulated camera throws for the test throw."""
EMPTY_FRAMES = 5
"""The empty tray is the median of this many frames (sensor noise averaged away)."""
WARM_UP_FRAMES = 10
"""Frames dropped first from a real camera (its exposure settling)."""
ACCEPT_TIMEOUT = 120.0
"""Seconds the result waits for the players' answer by default."""
POLL_SECONDS = 0.05
"""How often the buttons are polled while the result waits."""
KEYBOARD_PROMPT = "Enter: save calibration  Esc: discard it"
TERMINAL_QUESTION = "accept this calibration? [Y/n]"
ACCEPT_KEYS = {
    **KEYMAP,
    "return": Button.STOP,
    "enter": Button.STOP,
    "y": Button.STOP,
    "escape": Button.SELECT,
    "backspace": Button.SELECT,
    "n": Button.SELECT,
}
"""The keyboard on the result: the table's keys, plus Enter/y to save and Esc/Backspace/n to
discard."""

_clock: Callable[[], float] = time.monotonic
_sleep: Callable[[float], None] = time.sleep


class NoTray(DicekeeperError, ValueError):
    """No tray is to be seen in the camera's picture."""


class NoThrow(DicekeeperError, TimeoutError):
    """The test throw never settled in the tray."""


class NoAnswer(DicekeeperError, TimeoutError):
    """Nobody accepted or discarded the calibration in time."""


class BadOption(DicekeeperError, ValueError):
    """An option's value that cannot be used."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``calibrate`` command."""
    parser = subparsers.add_parser(
        "calibrate",
        help="find the tray and measure the dice on the configured camera; save it for `run`",
        description=(
            "Look at the empty tray, find the throwing area, measure a test throw, check the "
            "picture (light, glare, focus, camera straight above, dice size), show the result "
            "and save it in the state directory, where `run` and `demo` use it, once the "
            "players accept it (STOP or Enter saves, SELECT or Esc discards; in a terminal "
            "with no screen: y or n). Exit 0 saved, 1 discarded, 2 nothing saved (no tray, no "
            "test throw, no answer in time)."
        ),
    )
    parser.add_argument("--config", metavar="FILE", type=Path, help="the TOML configuration")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object (saves without asking, as --yes)",
    )
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
    parser.add_argument(
        "--yes", action="store_true", help="save the result without asking the players"
    )
    parser.add_argument(
        "--accept-timeout",
        metavar="SECONDS",
        type=float,
        default=ACCEPT_TIMEOUT,
        help=f"seconds to wait for the players to accept or discard (default {ACCEPT_TIMEOUT:g}); "
        "then nothing is saved and the exit status is 2",
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Calibrate on the configured camera, show the result, save it once accepted."""
    annotate_path: Path | None = args.annotate
    if annotate_path is not None:
        _check_new_png("--annotate", annotate_path)
    for option, seconds in (("--timeout", args.timeout), ("--accept-timeout", args.accept_timeout)):
        if not seconds > 0:  # NaN too
            raise BadOption(f"{option} {seconds:g}: give a number of seconds > 0")
    config = load_config(args.config)
    say: Callable[[str], None] = _to_stderr if args.json else print
    ask_buttons = not (args.yes or args.json) and _has_screen_or_buttons(config)
    with ExitStack() as stack:
        displays = stack.enter_context(open_calibration_displays(config))
        buttons, prompt = None, ""
        if ask_buttons:  # opened first: buttons that cannot be used stop it before measuring
            buttons, prompt = open_accept_buttons(config)
            stack.callback(buttons.close)
        live = _LiveView(displays, say) if displays.displays else None
        if args.yes or args.json:
            answer: Answer = _at_once(say, checks=not args.json)
        elif buttons is not None:
            answer = answer_with_buttons(
                buttons,
                displays,
                prompt=prompt,
                say=say,
                timeout=args.accept_timeout,
                clock=_clock,
                sleep=_sleep,
            )
        elif sys.stdin.isatty():
            answer = answer_in_terminal(
                say, timeout=args.accept_timeout, read_line=_read_line, display=displays
            )
        else:
            answer = _at_once(say, checks=True)
        try:
            outcome = run_calibration(
                config,
                say=say if live is None else live.say,
                timeout=args.timeout,
                live=None if live is None else live.show,
                accept=answer,
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
    elif outcome.saved is None:
        print(discarded(state_directory(config.state.directory)))
        return EXIT_DISCARDED
    else:
        print(f"saved {outcome.saved}")
    return EXIT_OK


Answer = Callable[["Outcome"], bool]
"""Asks the players about a calibration measured but not saved yet: True saves it."""


def _at_once(say: Callable[[str], None], *, checks: bool) -> Answer:
    """Saves without asking (``checks``: printing them first)."""

    def answer(outcome: Outcome) -> bool:
        if checks:
            for line in check_lines(outcome.calibration.checks):
                print(line)
        return True

    return answer


def answer_with_buttons(
    buttons: Buttons,
    display: Display,
    *,
    prompt: str = ACCEPT_PROMPT,
    say: Callable[[str], None] = print,
    timeout: float = ACCEPT_TIMEOUT,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Answer:
    """Show the result on ``display`` (the test throw with the area and the dice boxed, the
    checks and ``prompt``), print the checks and the prompt with ``say``, and wait for a press
    of ``buttons``: STOP saves, SELECT discards. Raises `NoAnswer` after ``timeout`` seconds."""

    def answer(outcome: Outcome) -> bool:
        lines = check_lines(outcome.calibration.checks)
        view = result_view(outcome, prompt)
        for line in lines:
            say(line)
        say(f"{prompt} (waiting {timeout:g} s)")
        start = clock()
        while True:
            display.show(view)  # a screen pumps its window's keys as it shows
            for event in buttons.poll():
                if event.button in ACCEPTS:
                    return True
                if event.button in DISCARDS:
                    return False
            if clock() - start >= timeout:
                raise NoAnswer(
                    f"nobody accepted the calibration within {timeout:g} s: nothing saved; "
                    "run `dicekeeper calibrate` again (--accept-timeout SECONDS waits longer)"
                )
            sleep(POLL_SECONDS)

    return answer


def answer_in_terminal(
    say: Callable[[str], None] = print,
    *,
    timeout: float = ACCEPT_TIMEOUT,
    read_line: Callable[[float], str | None],
    display: Display | None = None,
) -> Answer:
    """Print the checks and ask `TERMINAL_QUESTION` (also shown with the result on ``display``,
    when given: an OLED); ``read_line(seconds)`` gives the line typed ("" at the end of the
    input, which discards) or None when the time ran out, which raises `NoAnswer`."""

    def answer(outcome: Outcome) -> bool:
        if display is not None:
            display.show(result_view(outcome, TERMINAL_QUESTION))
        for check in check_lines(outcome.calibration.checks):
            say(check)
        while True:
            say(TERMINAL_QUESTION)
            line = read_line(timeout)
            if line is None:
                raise NoAnswer(
                    f"no answer within {timeout:g} s: nothing saved; "
                    "run `dicekeeper calibrate` again (or with --yes)"
                )
            word = line.strip().lower()
            if word in ("", "y", "yes") and line:
                return True
            if word in ("n", "no") or not line:
                return False
            say("answer y (save it) or n (discard it)")

    return answer


def _read_line(timeout: float) -> str | None:
    """A line typed on stdin within ``timeout`` seconds (None when none came)."""
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    return sys.stdin.readline() if ready else None


def result_view(outcome: Outcome, prompt: str) -> TableView:
    """The result as a screen shows it before it is saved: the test throw with the area drawn
    and the dice boxed, the result in one line, the checks and what the buttons do."""
    result = outcome.calibration
    return TableView(
        title="calibrating the camera",
        prompt=prompt,
        message=f"measured: {summary(result)}",
        alert=not all(check.ok for check in result.checks),
        picture=live_picture(outcome.throw, result.roi, outcome.reading),
        checks=check_lines(result.checks),
    )


def _has_screen_or_buttons(config: Config) -> bool:
    return config.buttons.backend == "gpio" or any(
        spec.kind == "screen" for spec in config.displays
    )


def open_accept_buttons(config: Config) -> tuple[Buttons, str]:
    """The configured buttons to accept or discard with, and the prompt naming them: GPIO
    buttons (STOP, SELECT), else the keyboard (the screen's and the terminal's keys: Enter,
    Esc)."""
    if config.buttons.backend == "gpio":
        return open_configured_buttons(config, _clock, None), ACCEPT_PROMPT
    return KeyboardButtons(keymap=ACCEPT_KEYS), KEYBOARD_PROMPT


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def open_calibration_displays(
    config: Config, *, oled_device: object | None = None
) -> CalibrationDisplays:
    """The screens and OLEDs of ``config``, opened as `run` opens them
    (`open_configured_displays`: one that cannot open is left out with a warning while another
    display serves, else `DisplayUnavailable` before anything is measured); the terminal display
    is left out, the command prints its lines itself. ``oled_device`` stands for the OLED (luma's
    ``dummy``)."""
    return CalibrationDisplays(
        open_configured_displays(config, oled_device=oled_device, terminal=False)
    )


class CalibrationDisplays(Closing):
    """The calibration's displays: one that fails while showing (an OLED that stops answering)
    is logged once and the calibration goes on, as at the table."""

    def __init__(self, displays: MultiDisplay) -> None:
        self.displays = displays.displays
        self._displays = displays
        self._failed = ""

    def show(self, view: TableView) -> None:
        try:
            self._displays.show(view)
        except DicekeeperError as exc:
            if str(exc) != self._failed:
                self._failed = str(exc)
                log.warning("a display failed: %s", exc)

    def close(self) -> None:
        self._displays.close()


class _LiveView:
    """The calibration on the displays: the latest message said and the camera's picture."""

    def __init__(self, displays: Display, say: Callable[[str], None]) -> None:
        self._displays = displays
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
        self._displays.show(
            TableView(
                title="calibrating the camera",
                prompt="Ctrl+C cancels",
                message=self._message,
                picture=self._picture,
            )
        )


def _check_new_png(option: str, path: Path) -> None:
    """``path`` as a PNG to write (overwritten if present, as every output file): `BadOutput`
    for a folder, a missing folder or another extension."""
    text = str(path)
    if path.is_dir():
        raise BadOutput(f"{option} {text!r} is a folder, not an image file")
    if not path.parent.is_dir():
        raise BadOutput(f"{option} {text!r}: the folder {str(path.parent)!r} does not exist")
    if path.suffix.lower() != ".png":
        raise BadOutput(f"{option} {text!r}: write a .png file")


@dataclass(frozen=True)
class Outcome:
    """A calibration measured: the result, the test throw's frame and reading, and where it was
    saved (None while not saved, or when the players discarded it)."""

    calibration: Calibration
    throw: Frame
    reading: Reading
    saved: Path | None = None


def run_calibration(
    config: Config,
    *,
    say: Callable[[str], None] = print,
    timeout: float = 60.0,
    clock: Callable[[], float] = time.monotonic,
    live: Callable[[Picture], None] | None = None,
    accept: Answer | None = None,
) -> Outcome:
    """Calibrate on ``config``'s camera and save the result in its state directory once
    ``accept`` (when given) says yes; ``say`` tells the person at the table what to do and
    ``live`` (when given) gets the camera's pictures: the empty tray with the area found, then
    each frame of the test throw with the dice read boxed. Raises `NoTray` when no tray is to be
    seen, `NoThrow` when the test throw does not settle within ``timeout`` seconds, and whatever
    ``accept`` raises (`NoAnswer`); nothing is saved then."""
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
    outcome = Outcome(result, throw, reading)
    if accept is not None and not accept(outcome):
        return outcome
    saved = save_calibration(state_directory(config.state.directory), result, empty)
    return replace(outcome, saved=saved)


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
