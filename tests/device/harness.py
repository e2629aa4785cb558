"""Test helpers: a whole table with no hardware, a fake clock, and a reader that knows the truth.

`OracleRenderer` renders throws with vision's synthetic renderer and remembers what each frame
shows, so `oracle.read` returns the ground truth: the controller's logic can be tested without
depending on the reader's accuracy (which vision's own tests and benchmarks measure). Tests that
want the real reader pass ``oracle=False``.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from device.config import Config, parse_config
from device.wiring import Table, open_table
from hardware.buttons import Button, ScriptedButtons
from hardware.display import Display, MemoryDisplay
from hardware.view import TableView
from vision.render import render_throw
from vision.types import Box, DieReading, Frame, Reading

SIZE = (320, 240)


class OracleRenderer:
    """Renders throws (few frames, small) and answers readings from the ground truth."""

    def __init__(self, size: tuple[int, int] = SIZE, moving_frames: int = 2) -> None:
        self.size = size
        self.moving_frames = moving_frames
        self._truth: dict[bytes, tuple[int | None, ...]] = {}
        self.unreadable: set[int] = set()
        """Indexes of dice in the next settled throw to report as unreadable (cocked)."""
        self.likely: dict[int, int] = {}
        """The likeliest value reported for an unreadable die, by its index in the reading."""

    def render(self, values: Sequence[int], seed: int) -> list[Frame]:
        """The frames of a throw; remembers the values each shows."""
        trays = render_throw(
            list(values),
            seed=seed,
            size=self.size,
            moving_frames=self.moving_frames if values else 0,
            still_frames=1,
            hand=False,
        )
        for i, tray in enumerate(trays):
            shown: tuple[int | None, ...] = tray.values
            if values and i == len(trays) - 1 and self.unreadable:
                shown = tuple(None if j in self.unreadable else v for j, v in enumerate(shown))
                self.unreadable = set()
            self._truth[_key(tray.frame)] = shown
        return [tray.frame for tray in trays]

    def read(self, frame: Frame) -> Reading:
        """The ground truth of a frame this renderer made (an empty reading otherwise)."""
        values = self._truth.get(_key(frame), ())
        dice = tuple(
            DieReading(
                v,
                (20.0 + 40 * i, 50.0),
                Box(40 * i, 30, 40, 40),
                1.0,
                likely=self.likely.get(i) if v is None else None,
            )
            for i, v in enumerate(values)
        )
        return Reading(dice)


def _key(frame: Frame) -> bytes:
    return hashlib.blake2b(frame.tobytes(), digest_size=16).digest()


def config(
    tmp_path: Path,
    *,
    rules: str = "greed",
    players: Sequence[str] = ("Ann", "Bob"),
    target: int = 0,
    script: Sequence[Sequence[int]] = (),
    buttons: str = "keyboard",
    displays: Sequence[dict[str, object]] = (),
    computer_throws: str = "virtual",
    extra: dict[str, object] | None = None,
) -> Config:
    """A test configuration: simulated camera (small frames), state under ``tmp_path``, no
    adapting by itself (``extra`` replaces whole tables, e.g. ``{"reader": {...}}``)."""
    data: dict[str, object] = {
        "game": {"rules": rules, "players": list(players), "target": target},
        "players": {
            "names": ["Cleo"],
            "computers": ["expert"],
            "computer_throws": computer_throws,
        },
        "camera": {
            "backend": "simulated",
            "width": SIZE[0],
            "height": SIZE[1],
            "script": [list(s) for s in script],
            "settle_seconds": 0.2,
        },
        "buttons": {"backend": buttons},
        "display": list(displays) or [{"kind": "terminal"}],
        "state": {"directory": str(tmp_path / "state")},
        "reader": {"adapt_every": 0},  # a test that wants the table to adapt by itself says so
    }
    data.update(extra or {})
    return parse_config(data, environ={})


@dataclass
class Rig:
    """A table under test: its fake clock, scripted buttons, memory display and oracle."""

    table: Table
    clock: list[float]
    buttons: ScriptedButtons
    memory: MemoryDisplay
    oracle: OracleRenderer
    auto_roll: bool = True
    """Whether the people at the table press ROLL whenever their throw waits for it (the
    simulated camera throws a person's dice on ROLL); tests of that wait turn it off."""

    @property
    def view(self) -> TableView:
        """The last view shown."""
        assert self.memory.last is not None
        return self.memory.last

    def step(self, n: int = 1, dt: float = 0.1) -> TableView:
        """Advance the clock by ``dt`` and step ``n`` times."""
        controller = self.table.controller
        for _ in range(n):
            self.clock[0] += dt
            if self.auto_roll and controller.waits_for_roll:
                controller.press(Button.ROLL, self.clock[0])
            controller.step(self.clock[0])
        return self.view

    def until(self, done: Callable[[TableView], bool], limit: int = 200) -> TableView:
        """Step until ``done(view)``; fails after ``limit`` steps."""
        for _ in range(limit):
            view = self.step()
            if done(view):
                return view
        raise AssertionError(f"not reached in {limit} steps; last view: {self.view}")

    def press(self, *buttons: Button) -> TableView:
        """Press ``buttons`` (each handled in its own step)."""
        for button in buttons:
            self.buttons.press(button)
            self.step()
        return self.view

    def totals(self) -> dict[str, int]:
        """Every player's total in the engine."""
        return {p.name: p.total for p in self.table.controller.state.players}


def open_rig(
    cfg: Config,
    *,
    oracle: bool = True,
    buttons: ScriptedButtons | None = None,
    clock: list[float] | None = None,
    extra_displays: Sequence[Display] = (),
    think_seconds: float = 0.0,
    roll_seconds: float = 0.0,
    **kwargs: object,
) -> Rig:
    """Open a table for ``cfg`` with a fake clock and seeded computer dice (``rng`` overrides
    the seed); terminal output is silenced."""
    kwargs.setdefault("rng", random.Random(0))
    times = clock if clock is not None else [0.0]
    scripted = buttons or ScriptedButtons(clock=lambda: times[0])
    memory = MemoryDisplay()
    renderer = OracleRenderer()
    table = open_table(
        cfg,
        clock=lambda: times[0],
        buttons=None if cfg.buttons.backend == "gpio" else scripted,
        extra_displays=[memory, *extra_displays],
        think_seconds=think_seconds,
        roll_seconds=roll_seconds,
        read=renderer.read if oracle else None,
        render=renderer.render,
        **kwargs,  # type: ignore[arg-type]
    )
    # The terminal display would print every step: keep the others only.
    table.display.displays = tuple(
        d for d in table.display.displays if type(d).__name__ != "TerminalDisplay"
    )
    return Rig(table, times, scripted, memory, renderer)


def is_waiting(view: TableView) -> bool:
    """Whether the table waits for buttons (options shown, a decision, or the game over)."""
    return view.phase.value in ("choosing", "game_over") or view.prompt.startswith("ROLL: take")


class FullDisk:
    """Wraps a store's connection: while ``full``, every INSERT fails as on a full disk."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.full = True

    def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        if self.full and sql.lstrip().upper().startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, params)

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


def fill_disk(rig: Rig) -> FullDisk:
    """Make the rig's store behave as on a full disk (set ``.full = False`` to free it)."""
    store = rig.table.store
    full = FullDisk(store.db)
    store._db = full  # type: ignore[assignment]
    return full


__all__ = ["Button", "OracleRenderer", "Rig", "config", "fill_disk", "is_waiting", "open_rig"]


def run_env() -> dict[str, str]:
    """The environment of a ``dicekeeper`` child process: SDL without a screen, no systemd."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("NOTIFY_SOCKET", None)
    return env


def start_run(config: Path, out: Path, *options: str) -> subprocess.Popen[bytes]:
    """``dicekeeper run --config CONFIG OPTIONS`` as a child process, its keyboard on a pipe and
    its output (stdout and stderr) written to ``out``."""
    return subprocess.Popen(
        [sys.executable, "-m", "device", "run", "--config", str(config), *options],
        stdin=subprocess.PIPE,
        stdout=out.open("wb"),
        stderr=subprocess.STDOUT,
        env=run_env(),
    )


def run_demo(command: list[str], shots: Path) -> tuple[str, re.Match[str]]:
    """``dicekeeper demo`` with ``command`` (its options) in a child process, drawing off-screen
    with screenshots into ``shots``: its output and the match of its ``winner: NAME (SCORES)``
    line (the test fails when it did not end with one)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-m", "device", "demo", *command, "--screenshots", str(shots)],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    match = re.search(r"^winner: (\w+) \((.*)\)$", result.stdout, re.MULTILINE)
    assert match is not None, result.stdout[-2000:]
    return result.stdout, match
