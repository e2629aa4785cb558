"""`dicekeeper demo`: a whole game between computer players through the full pipeline.

Every throw is rendered by the simulated camera, read from the frames by the dice reader, settled
by the settle tracker, scored by the engine and shown on the displays (a window when there is a
display, otherwise the terminal); the computer players decide. No input is needed; the demo ends
with the winner and says how many throws the reader read exactly as they were rendered.
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

from device.config import SIMULATED_STYLES, default_displays, parse_config
from device.wiring import Table, open_table, simulated_renderer, simulated_style
from engine.events import Event, Thrown
from hardware.buttons import ScriptedButtons
from hardware.screen import ScreenDisplay
from vision.types import Frame

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
    parser.add_argument("--rules", default="greed", help="the rule set (default greed)")
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
        help="save PNGs of the screen and the OLED after every turn and at the end",
    )
    parser.add_argument(
        "--fast", action="store_true", help="do not wait between steps (as fast as it reads)"
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


def handle(args: argparse.Namespace) -> int:
    """Play the demo game and print the winner."""
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    has_window = default_displays(os.environ)[0].kind == "screen"
    displays: list[dict[str, object]] = []
    if has_window or args.screenshots:
        if not has_window:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # draw off-screen for the PNGs
        displays.append({"kind": "screen", "width": 800, "height": 480})
    if not has_window:
        displays.append({"kind": "terminal"})
    oled = None
    if args.screenshots:
        from luma.core.device import dummy

        oled = dummy(width=128, height=64, mode="1")
        displays.append({"kind": "oled"})
        args.screenshots.mkdir(parents=True, exist_ok=True)
    recorder = _Recorder(
        simulated_renderer(SIZE, style=simulated_style(args.style, args.seed, SIZE))
    )
    exact = [0, 0]

    def on_event(event: Event) -> None:
        if isinstance(event, Thrown):
            exact[1] += 1
            exact[0] += sorted(event.dice) == sorted(recorder.last)

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
            },
            environ={},
        )
        with open_table(
            config,
            clock=clock,
            buttons=ScriptedButtons(clock=clock),
            oled_device=oled,
            think_seconds=0.6,
            roll_seconds=0.6,
            rng=random.Random(args.seed),
            render=recorder,
        ) as table:
            table.controller.on_event = on_event
            _play(table, real, fake, oled, args.screenshots)
            state_now = table.controller.state
    winners = state_now.winners
    scores = ", ".join(f"{p.name} {p.total}" for p in state_now.players)
    print(f"winner: {' and '.join(p.name for p in winners)} ({scores})")
    print(
        f"reader: {exact[0]} of {exact[1]} accepted throws read exactly as rendered; "
        f"{recorder.throws - exact[1]} throws refused and thrown again (wrong count or unreadable)"
    )
    if args.screenshots:
        print(f"screenshots in {args.screenshots}")
    return 0


def _play(table: Table, real: bool, fake: list[float], oled: object, shots: Path | None) -> None:
    controller = table.controller
    period = 1 / 20
    last_turn = controller.state.last_turn
    turns = 0
    for _ in range(MAX_STEPS):
        now = time.monotonic() if real else fake[0]
        controller.step(now)
        if real:
            time.sleep(max(0.0, now + period - time.monotonic()))
        else:
            fake[0] += period
        state = controller.state
        if shots is not None and state.last_turn != last_turn:
            turns += 1
            _screenshots(table, oled, shots, f"turn-{turns:03d}")
        last_turn = state.last_turn
        if controller.session.is_over:
            controller.step(now + period)
            if shots is not None:
                _screenshots(table, oled, shots, "final")
            if real:
                time.sleep(3)
            return
    print(f"demo: no winner after {MAX_STEPS} steps", file=sys.stderr)


def _screenshots(table: Table, oled: object, shots: Path, name: str) -> None:
    for display in table.display.displays:
        if isinstance(display, ScreenDisplay):
            display.save(shots / f"{name}-screen.png")
    image = getattr(oled, "image", None)
    if image is not None:
        image.convert("L").resize((512, 256)).save(shots / f"{name}-oled.png")
