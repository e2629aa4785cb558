"""`dicekeeper demo`: a whole game between computer players through the full pipeline.

Every throw is rendered by the simulated camera, read from the frames by the dice reader, settled
by the settle tracker, scored by the engine and shown on the displays (a window when there is a
display, in real time unless ``--fast``; otherwise the table printed once a turn, as fast as it
reads); the computer players decide. No input is needed; the demo ends
with the winner and two lines on the reader: how many of the first half of the throws and of the
second it did not read exactly (the table adapts its reader to the throws it keeps as it plays,
`device.adaptation`); then how many throws it read exactly as rendered, how many the players
corrected, how many were refused and thrown again, and how many were scored wrongly.
With ``--correct`` the simulated people check every reading against what the camera rendered and
correct a misread through the same button presses a person makes (hold STOP, SELECT, ROLL, STOP).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from device.calibration_flow import ACCEPT_PROMPT
from device.commands.calibrate import (
    CalibrationDisplays,
    answer_with_buttons,
    open_calibration_displays,
    run_calibration,
)
from device.commands.outputs import output_directory
from device.commands.photos import export_photos, new_export_folder
from device.config import (
    SIMULATED_STYLES,
    Config,
    ReaderConfig,
    default_displays,
    parse_config,
)
from device.correction import NOT_A_DIE, Correction
from device.wiring import Table, open_table, simulated_renderer, simulated_style
from engine.events import Corrected, Event, Thrown
from hardware.backends import Closing
from hardware.buttons import Button, ScriptedButtons
from hardware.display import Display, MultiDisplay
from hardware.screen import ScreenDisplay
from hardware.terminal import TerminalDisplay, render_text
from hardware.view import TableView
from vision.types import Frame, Reading

DEFAULT_PLAYERS = "expert,bold"
SIZE = (640, 480)
MAX_STEPS = 200_000


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``demo`` command."""
    parser = subparsers.add_parser(
        "demo",
        help="watch computer players play a whole game through camera, reader and screens",
        description=(
            "A whole game between computer players: simulated camera -> dice reader -> rules "
            "engine -> displays, with no input. Ends with the winner."
        ),
    )
    parser.add_argument("--rules", default="greed", help="a rule set or rules file (default greed)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice (default 1)")
    parser.add_argument(
        "--players",
        default=DEFAULT_PLAYERS,
        help=f"computer players, comma-separated strategies (default {DEFAULT_PLAYERS!r})",
    )
    parser.add_argument("--target", type=int, default=0, help="winning score (0: the rules')")
    parser.add_argument(
        "--style",
        choices=SIMULATED_STYLES,
        default="table",
        help="the look of the simulated tray (default table: white dice on felt)",
    )
    parser.add_argument(
        "--screenshots",
        metavar="DIR",
        type=Path,
        help="save PNGs of the screen and the OLED after every turn and at the end "
        "(with --calibrate, of the calibration's result first)",
    )
    parser.add_argument(
        "--fast",
        action="store_true",
        help="in a window, do not wait between steps (without a window the demo never waits)",
    )
    parser.add_argument(
        "--correct",
        action="store_true",
        help="the players check every reading and correct misreads with the buttons",
    )
    parser.add_argument(
        "--learn",
        action="store_true",
        help="the table adapts its reader to the throws it keeps, every 10, and the game waits "
        "while it does (people throw slower than it refits)",
    )
    parser.add_argument(
        "--keep-photos",
        metavar="DIR",
        type=Path,
        help="export the labelled photos of the throws that counted into DIR (new or empty)",
    )
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="calibrate on the simulated camera first, as `dicekeeper calibrate` does",
    )
    parser.set_defaults(func=handle)


class _Recorder:
    """The simulated camera's renderer, remembering the values of the latest throw."""

    def __init__(self, render: Callable[[Sequence[int], int], list[Frame]]) -> None:
        self._render = render
        self.last: tuple[int, ...] = ()
        self.throws = 0

    def __call__(self, values: Sequence[int], seed: int) -> list[Frame]:
        if values:
            self.last = tuple(values)
            self.throws += 1
        return self._render(values, seed)


class _Players:
    """The people at the table as far as the reader is concerned: they compare each reading with
    the throw the camera rendered, correct misreads with the buttons when ``correct``, and count."""

    def __init__(self, recorder: _Recorder, buttons: ScriptedButtons, *, correct: bool) -> None:
        self.recorder = recorder
        self.buttons = buttons
        self.correct = correct
        self.outcomes: list[str] = []
        """How each throw went, in order: "exact", "corrected", "refused" or "wrong"."""
        self._truth: tuple[int, ...] = ()
        self._fixing_refused = False

    @property
    def summary(self) -> str:
        """The demo's last line."""
        count = self.outcomes.count
        return (
            f"reader: {count('exact')} of {len(self.outcomes)} throws read exactly, "
            f"{count('corrected')} corrected by the players, {count('refused')} refused and "
            f"thrown again, {count('wrong')} scored wrongly"
        )

    @property
    def halves(self) -> str:
        """How many throws of the first half and of the second the reader did not read exactly
        (the table learns from its throws: the second should need the players less)."""
        half = len(self.outcomes) // 2
        first, second = self.outcomes[:half], self.outcomes[half:]
        return (
            f"not read exactly: {len(first) - first.count('exact')} of the first {len(first)} "
            f"throws, {len(second) - second.count('exact')} of the last {len(second)}"
        )

    def _settle(self, outcome: str) -> None:
        """The throw just tallied went ``outcome`` after all (a correction)."""
        if self.outcomes:
            self.outcomes[-1] = outcome
        else:
            self.outcomes.append(outcome)

    def on_refused(self, reading: Reading) -> None:
        """A reading was refused (count or unreadable dice): set unreadable dice and the dice the
        reader missed (after the dice read, as the table adds them), else throw again."""
        self.outcomes.append("refused")
        self._truth = self.recorder.last
        values = reading.values
        missing = (None,) * max(len(self._truth) - len(values), 0)
        if self.correct and len(values) <= len(self._truth) and (missing or None in values):
            values = (*values, *missing)
            likely = (*(die.likely for die in reading.dice), *missing)
            self._fixing_refused = self._press(values, replaces=False, likely=likely)

    def on_event(self, event: Event) -> None:
        """Tally each counted throw and correction; misread throws are corrected if wanted."""
        if isinstance(event, Thrown) and not self._fixing_refused:
            self._truth = self.recorder.last
            read_right = sorted(event.dice) == sorted(self._truth)
            self.outcomes.append("exact" if read_right else "wrong")
            if not read_right and self.correct:
                self._press(event.dice, replaces=True)
        elif isinstance(event, Corrected):
            self._fixing_refused = False
            self._settle("corrected" if sorted(event.dice) == sorted(self._truth) else "wrong")

    def gave_up(self) -> None:
        """A correction could not be confirmed: it was cancelled and the dice stand."""
        self._fixing_refused = False

    def _press(
        self,
        shown: Sequence[int | None],
        *,
        replaces: bool,
        likely: Sequence[int | None] = (),
    ) -> bool:
        presses = correction_presses(shown, self._truth, replaces=replaces, likely=likely)
        if presses:
            self.buttons.press(*presses)
        return bool(presses)


def correction_presses(
    shown: Sequence[int | None],
    truth: Sequence[int],
    *,
    replaces: bool = True,
    faces: int = 6,
    likely: Sequence[int | None] = (),
) -> list[Button]:
    """The presses that turn the dice ``shown`` (in the tray's order) into ``truth``: hold STOP,
    then for each die to change SELECT up to it and ROLL until it shows its value, then STOP.
    An unread die's ROLL starts at its ``likely`` value, and an unread die is given that value
    when the thrown dice not yet matched include it (the throw is known only as values, not
    die by die). [] when they cannot be made to match (fewer dice shown than thrown) or
    already do."""
    if len(shown) < len(truth) or sorted(shown, key=_order) == sorted(truth):
        return []
    left = list(truth)
    target: list[int | None] = [None] * len(shown)
    for index, value in enumerate(shown):  # dice read right stay as they are
        if value is not None and value in left:
            left.remove(value)
            target[index] = value
    for index, guess in enumerate(likely[: len(shown)]):
        if shown[index] is None and guess is not None and guess in left:
            left.remove(guess)
            target[index] = guess
    for index in range(len(shown)):
        if target[index] is None:
            target[index] = left.pop(0) if left else NOT_A_DIE
    correction = Correction.of("", shown, replaces=replaces, faces=faces, likely=likely)
    presses = [Button.CORRECT]
    for _ in range(len(shown)):
        for _ in range(faces + 1):
            if correction.values[correction.cursor] == target[correction.cursor]:
                break
            correction = correction.step()
            presses.append(Button.ROLL)
        correction = correction.next_die()
        presses.append(Button.SELECT)
    return [*presses, Button.STOP]


def _order(value: int | None) -> int:
    return -1 if value is None else value


def handle(args: argparse.Namespace) -> int:
    """Play the demo game and print the winner."""
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    has_window = default_displays(os.environ)[0].kind == "screen"
    displays: list[dict[str, object]] = []
    if has_window or args.screenshots:
        if not has_window:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # draw off-screen for the PNGs
        displays.append({"kind": "screen", "width": 800, "height": 480})
    if not has_window:  # printed once a turn by `_play`, not at every change
        displays.append({"kind": "terminal"})
    oled = None
    if args.screenshots:
        from luma.core.device import dummy

        oled = dummy(width=128, height=64, mode="1")
        displays.append({"kind": "oled"})
        output_directory("--screenshots", args.screenshots)
    if args.keep_photos:
        new_export_folder("--keep-photos", args.keep_photos)
    recorder = _Recorder(
        simulated_renderer(
            SIZE, style=simulated_style(args.style, args.seed, SIZE), room_seed=args.seed
        )
    )
    fake = [0.0]
    real = has_window and not args.fast
    clock: Callable[[], float] = time.monotonic if real else (lambda: fake[0])
    with tempfile.TemporaryDirectory(prefix="dicekeeper-demo-") as state:
        config = parse_config(
            {
                "game": {
                    "rules": args.rules,
                    "players": [f"cpu:{s}" for s in specs],
                    "target": args.target,
                },
                "players": {"computer_throws": "person"},
                "camera": {
                    "backend": "simulated",
                    "width": SIZE[0],
                    "height": SIZE[1],
                    "seed": args.seed,
                    "style": args.style,
                    "settle_seconds": 0.3,
                },
                "display": displays,
                "state": {"directory": state},
                "reader": {"adapt_every": ReaderConfig().adapt_every if args.learn else 0},
            },
            environ={},
        )
        if args.calibrate:
            _calibrate(config, real, oled, args.screenshots)
        buttons = ScriptedButtons(clock=clock)
        people = _Players(recorder, buttons, correct=args.correct)
        with open_table(
            config,
            clock=clock,
            buttons=buttons,
            oled_device=oled,
            think_seconds=0.6,
            roll_seconds=0.6,
            rng=random.Random(args.seed),
            render=recorder,
        ) as table:
            table.controller.on_event = people.on_event
            table.controller.on_refused = people.on_refused
            _play(
                table,
                people,
                real,
                fake,
                oled,
                args.screenshots,
                print_turns=not has_window,
                learn=args.learn,
            )
            state_now = table.controller.state
            if args.keep_photos:
                kept = _keep_photos(table, args.keep_photos)
    winners = state_now.winners
    scores = ", ".join(f"{p.name} {p.total}" for p in state_now.players)
    print(f"winner: {' and '.join(p.name for p in winners)} ({scores})")
    if args.screenshots:
        print(f"screenshots in {args.screenshots}")
    if args.keep_photos:
        photos = "1 labelled photo" if kept[0] == 1 else f"{kept[0]} labelled photos"
        dice = "1 die" if kept[1] == 1 else f"{kept[1]} dice"
        print(f"photos: {photos} ({dice}) in {args.keep_photos}")
    print(people.halves)
    print(people.summary)
    return 0


class _Calibrator(Closing):
    """The person calibrating, as a display: once the displays show the result to accept, they
    look at it for ``look_seconds`` and press STOP (screenshots of the result taken first:
    calibration-screen.png, calibration-oled.png)."""

    def __init__(
        self,
        buttons: ScriptedButtons,
        clock: Callable[[], float],
        look_seconds: float,
        displays: CalibrationDisplays,
        oled: object,
        shots: Path | None,
    ) -> None:
        self.buttons, self.clock, self.look_seconds = buttons, clock, look_seconds
        self.displays, self.oled, self.shots = displays, oled, shots
        self.pressed = False
        self._seen: float | None = None

    def show(self, view: TableView) -> None:
        if view.prompt != ACCEPT_PROMPT or self.pressed:
            return
        if self._seen is None:
            self._seen = self.clock()
            if self.shots is not None:
                _screenshots(self.displays.displays, self.oled, self.shots, "calibration")
        if self.clock() - self._seen >= self.look_seconds:
            self.buttons.press(Button.STOP)
            self.pressed = True


def _calibrate(config: Config, real: bool, oled: object, shots: Path | None) -> None:
    """Calibrate on the simulated camera into the demo's state directory, on the displays
    `dicekeeper calibrate` opens (the OLED being ``oled``, luma's dummy, when given), the result
    accepted with STOP as a person would; one line of result."""
    buttons = ScriptedButtons()
    with open_calibration_displays(config, oled_device=oled) as displays:
        person = _Calibrator(buttons, time.monotonic, 2.0 if real else 0.0, displays, oled, shots)
        answer = answer_with_buttons(
            buttons,
            MultiDisplay([displays, person]),
            say=lambda message: None,
            sleep=time.sleep if real else (lambda seconds: None),
        )
        outcome = run_calibration(config, say=lambda message: None, accept=answer)
    result = outcome.calibration
    width = "?" if result.die_width_px is None else f"{result.die_width_px:.0f}"
    to_fix = [f"{c.name} ({c.advice})" for c in result.checks if not c.ok]
    print(
        f"calibrated: throwing area of {len(result.roi)} corners, dice {width} px wide, "
        + ("every check passed" if not to_fix else "to fix: " + "; ".join(to_fix))
        + ("; accepted with STOP" if outcome.saved is not None else "; discarded")
    )


def _play(
    table: Table,
    people: _Players,
    real: bool,
    fake: list[float],
    oled: object,
    shots: Path | None,
    *,
    print_turns: bool = False,
    learn: bool = False,
) -> None:
    """Step the table until the game is won; ``print_turns``: print the table as the terminal
    shows it once each turn has ended (and at the start and the end), not at every change;
    ``learn``: wait while the table adapts its reader (people throw slower than it refits)."""
    controller = table.controller
    if print_turns:
        multi = table.display
        multi.displays = tuple(d for d in multi.displays if not isinstance(d, TerminalDisplay))
        print(render_text(controller.view()), end="\n\n", flush=True)
    period = 1 / 20
    last_turn = controller.state.last_turn
    turns = 0
    for _ in range(MAX_STEPS):
        while learn and controller.adapter is not None and controller.adapter.is_running:
            time.sleep(0.1)
        now = time.monotonic() if real else fake[0]
        controller.step(now)
        if controller.is_correcting:  # every press was handled, yet not confirmed: give up
            people.buttons.press(Button.CORRECT)
            people.gave_up()
        if real:
            time.sleep(max(0.0, now + period - time.monotonic()))
        else:
            fake[0] += period
        state = controller.state
        if state.last_turn != last_turn and print_turns:
            print(render_text(controller.view()), end="\n\n", flush=True)
        if shots is not None and state.last_turn != last_turn:
            turns += 1
            _screenshots(table.display.displays, oled, shots, f"turn-{turns:03d}")
        last_turn = state.last_turn
        if controller.session.is_over:
            controller.step(now + period)  # the players may still correct the last throw
            if not controller.session.is_over:
                continue
            if shots is not None:
                _screenshots(table.display.displays, oled, shots, "final")
            if real:
                time.sleep(3)
            return
    print(f"demo: no winner after {MAX_STEPS} steps", file=sys.stderr)


def _keep_photos(table: Table, out: Path) -> tuple[int, int]:
    """Export the game's labelled photos (the last throw stands: the players checked it)."""
    keeper = table.controller.photos
    if keeper is None:
        return 0, 0
    keeper.confirm()
    keeper.wait()
    return export_photos(keeper.ring, out)


def _screenshots(displays: Sequence[Display], oled: object, shots: Path, name: str) -> None:
    """Save what the screens among ``displays`` and the ``oled`` (luma's dummy) show now as
    ``NAME-screen.png`` and ``NAME-oled.png`` in ``shots``."""
    for display in displays:
        if isinstance(display, ScreenDisplay):
            display.save(shots / f"{name}-screen.png")
    image = getattr(oled, "image", None)
    if image is not None:
        image.convert("L").resize((512, 256)).save(shots / f"{name}-oled.png")
