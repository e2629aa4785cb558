"""`dicekeeper run` as a real process, killed with SIGKILL in the middle of a correction: nothing
half-done is stored, the next start offers the same throw for correction, and a stored correction
is replayed after another kill. Keys come through stdin (c = correct, space = next die, r = change,
s = done)."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from engine.state import Phase
from tests.device.test_run_process import CONFIG, _events, _press, _replay, _start, _wait


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()


def test_killed_mid_correction_then_corrected_and_replayed(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=state_dir))
    database = state_dir / "dicekeeper.sqlite3"

    first = _start(config, tmp_path / "first.txt")
    try:
        _press(first, "r")  # Ann throws
        _wait("the first throw", lambda: _replay(database).phase is Phase.KEEP, first)
        _press(first, "cr")  # open the correction, die 1: 1 -> 2, and no STOP yet
        out = tmp_path / "first.txt"
        shown = "correct the dice: >2< [1] [1] [2] [3] [4]"
        _wait("the correction on the terminal", lambda: shown in out.read_text("utf-8"), first)
    finally:
        _kill(first)
    before = _events(database)
    assert [e["type"] for e in before] == ["player_added", "player_added", "thrown"]

    second = _start(config, tmp_path / "second.txt")
    try:
        out = tmp_path / "second.txt"
        _wait("the resumed table", lambda: "keep:" in out.read_text("utf-8"), second)
        assert _events(database) == before
        _press(second, "c   rrrs")  # die 4: 2 -> 3 4 5, done
        _wait("the correction", lambda: len(_events(database)) == len(before) + 1, second)
    finally:
        _kill(second)
    assert _events(database)[-1] == {
        "type": "corrected",
        "player": "Ann",
        "read": [1, 1, 1, 2, 3, 4],
        "dice": [1, 1, 1, 5, 3, 4],
        "by": "keyboard",
    }
    state = _replay(database)
    assert state.phase is Phase.KEEP and state.options[0].dice == (1, 1, 1, 5)

    third = _start(config, tmp_path / "third.txt")
    try:
        out = tmp_path / "third.txt"
        _wait("the corrected throw", lambda: ">1115 = 1050" in out.read_text("utf-8"), third)
        _press(third, "q")
        assert third.wait(timeout=30) == 0
    finally:
        if third.poll() is None:
            third.kill()
