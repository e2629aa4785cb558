"""`dicekeeper run` as a real process: killed with SIGKILL in the middle of a turn, started again,
it resumes exactly where it was; bad configurations and a missing camera exit 2 with one line.

The process reads its buttons from stdin (the keyboard backend: r = ROLL, s = STOP) and the tests
watch its game store, waiting for each event with a deadline (no fixed sleeps)."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from device.config import SYSTEM_CONFIG
from device.session import rules_for
from engine.events import event_from_json
from engine.state import GameState, Phase, apply
from tests.device.harness import run_env, start_run

CONFIG = """
[game]
rules = "farkle"
players = ["Ann", "Bob"]
target = 1000
[camera]
backend = "simulated"
width = 320
height = 240
settle_seconds = 0.1
script = [[1, 1, 1, 2, 3, 4], [5, 5, 2]]
read_truth = true
[buttons]
backend = "keyboard"
[[display]]
kind = "terminal"
[state]
directory = "{state}"
"""


def _start(config: Path, out: Path) -> subprocess.Popen[bytes]:
    return start_run(config, out, "--rate", "50")


def _events(database: Path) -> list[dict[str, object]]:
    if not database.exists():
        return []
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT event FROM events ORDER BY game, seq").fetchall()
    except sqlite3.OperationalError:
        return []
    return [json.loads(text) for (text,) in rows]


def _wait(what: str, check: Callable[[], bool], process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not check():
        if process.poll() is not None:
            raise AssertionError(f"dicekeeper run exited ({process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _press(process: subprocess.Popen[bytes], keys: str) -> None:
    assert process.stdin is not None
    process.stdin.write(keys.encode())
    process.stdin.flush()


def _replay(database: Path) -> GameState:
    state = GameState.new(rules_for("farkle", 1000))
    for event in _events(database):
        state = apply(state, event_from_json(event))
    return state


def test_killed_mid_turn_resumes_exactly(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=state_dir))
    database = state_dir / "dicekeeper.sqlite3"
    pressed_at: set[int] = set()

    def second_throw_to_keep() -> bool:
        # At the first throw's options press ROLL (keep the best, throw the rest); done once the
        # turn has two throws and waits for a keep.
        state, count = _replay(database), len(_events(database))
        if state.phase is Phase.KEEP and len(state.turn.throws) == 1 and count not in pressed_at:
            pressed_at.add(count)
            _press(first, "r")
        return state.phase is Phase.KEEP and len(state.turn.throws) >= 2

    first = _start(config, tmp_path / "first.txt")
    try:
        _press(first, "r")  # Ann throws (the simulated camera waits for a person's ROLL)
        _wait("a second throw in a turn", second_throw_to_keep, first)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
    before = _events(database)
    state = _replay(database)
    assert [e["type"] for e in before] == [
        "player_added",
        "player_added",
        "thrown",
        "kept",
        "thrown",
    ]
    assert before[-1] == {"type": "thrown", "player": "Ann", "dice": [5, 5, 2]}
    assert state.phase is Phase.KEEP and state.turn.total == 1000

    second = _start(config, tmp_path / "second.txt")
    try:
        out = tmp_path / "second.txt"
        _wait("the resumed table", lambda: "keep:" in out.read_text(errors="replace"), second)
        assert _events(database) == before
        _press(second, "s")  # keep the best option and bank
        _wait("the bank", lambda: len(_events(database)) == len(before) + 2, second)
        assert _events(database)[-1] == {"type": "banked", "player": "Ann", "points": 1100}
        # Bob's turn: the new process's camera script starts again with 1 1 1 2 3 4.
        _press(second, "r")
        _wait("Bob's throw", lambda: _replay(database).phase is Phase.KEEP, second)
        _press(second, "s")  # Bob keeps 1 1 1 and banks 1000: his last turn, Ann wins
        _wait("the end", lambda: _replay(database).phase is Phase.OVER, second)
        _press(second, "q")
        assert second.wait(timeout=30) == 0
    finally:
        if second.poll() is None:
            second.kill()
    history = subprocess.run(
        [sys.executable, "-m", "device", "history", "--config", str(config), "--json"],
        capture_output=True,
        text=True,
        env=run_env(),
        check=True,
    )
    (line,) = history.stdout.splitlines()
    result = json.loads(line)["result"]
    assert result["scores"] == {"Ann": 1100, "Bob": 1000}
    assert result["winners"] == ["Ann"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[camera]\nbackend = "webcam"\n', ["camera.backend = 'webcam'", "'simulated'"]),
        ('[game]\nrules = "poker"\n', ["game.rules = 'poker'", "greed"]),
        ('[game]\nplayers = ["cpu:wizard"]\n', ["game.players", "'wizard'"]),
        ('[camera]\nbackend = "opencv"\nindex = 63\n', ["no camera at index 63", "plugged in"]),
        ("[camera\n", ["not valid TOML"]),
    ],
)
def test_bad_configuration_exits_2_with_one_line(
    tmp_path: Path, text: str, words: list[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text + f'[state]\ndirectory = "{tmp_path / "state"}"\n')
    result = subprocess.run(
        [sys.executable, "-m", "device", "run", "--config", str(config)],
        capture_output=True,
        text=True,
        env=run_env(),
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("dicekeeper run:")]
    assert len(errors) == 1, result.stderr
    for word in words:
        assert word in errors[0]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_under_systemd_it_notifies_ready_and_watchdog_and_stops_cleanly(
    tmp_path: Path, stop: signal.Signals
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=tmp_path / "state"))
    address = str(tmp_path / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(address)
        server.settimeout(60)
        env = dict(run_env(), NOTIFY_SOCKET=address, WATCHDOG_USEC="200000")
        process = subprocess.Popen(
            [sys.executable, "-m", "device", "run", "--config", str(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        try:
            messages = [server.recv(4096).decode()]
            while "WATCHDOG=1" not in messages:
                messages.append(server.recv(4096).decode())
            process.send_signal(stop)
            assert process.wait(timeout=30) == 0
            while "STOPPING=1" not in messages:
                messages.append(server.recv(4096).decode())
        finally:
            if process.poll() is None:
                process.kill()
    assert messages[0].startswith("READY=1")
    assert messages.index("STOPPING=1") > messages.index("WATCHDOG=1")


@pytest.mark.skipif(SYSTEM_CONFIG.exists(), reason="this machine has /etc/dicekeeper/config.toml")
def test_run_without_a_config_starts_on_the_simulated_defaults(tmp_path: Path) -> None:
    env = dict(run_env(), HOME=str(tmp_path))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_STATE_HOME", "STATE_DIRECTORY"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-m", "device", "run"],
        input="q",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "configuration from built-in defaults" in result.stderr
    assert "Player 1" in result.stdout  # the terminal display
    assert (tmp_path / ".local/state/dicekeeper/dicekeeper.sqlite3").is_file()
