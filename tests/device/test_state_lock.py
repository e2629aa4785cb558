"""One process per state directory: a second `dicekeeper run` on it is refused in one line naming
the process that holds it, before it reads or writes anything there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main
from device.store import DATABASE_NAME, LOCK_NAME, StateInUse, StateLock
from tests.device.harness import run_env

CONFIG = """
[game]
rules = "greed"
players = ["Ann", "Bob"]
[buttons]
backend = "keyboard"
[[display]]
kind = "terminal"
[state]
directory = "{state}"
"""


def test_a_second_lock_on_the_directory_names_the_holder(tmp_path: Path) -> None:
    with StateLock(tmp_path):
        assert (tmp_path / LOCK_NAME).read_text().strip() == str(os.getpid())
        with pytest.raises(StateInUse, match=f"pid {os.getpid()}"):
            StateLock(tmp_path).acquire()
    with StateLock(tmp_path):  # let go: the next one takes it
        pass


def test_the_lock_goes_with_the_process_that_held_it(tmp_path: Path) -> None:
    script = (
        "import pathlib; from device.store import StateLock; "
        f"StateLock(pathlib.Path({str(tmp_path)!r})).acquire()"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=Path(__file__).parents[2])
    with StateLock(tmp_path):
        pass


def test_a_second_run_on_the_same_state_exits_2_naming_the_holder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=state))
    with StateLock(state):
        assert main(["run", "--config", str(config)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and f"pid {os.getpid()}" in lines[0] and "in use" in lines[0]
    assert not (state / DATABASE_NAME).exists()  # nothing was opened or created


def test_two_runs_as_processes_one_refused(tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=state))
    command = [sys.executable, "-m", "device", "run", "--config", str(config)]
    first = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=run_env(),
        cwd=Path(__file__).parents[2],
    )
    assert first.stderr is not None
    try:
        while "game store" not in (line := first.stderr.readline().decode()) and line:
            pass
        second = subprocess.run(
            command,
            input=b"q",
            capture_output=True,
            env=run_env(),
            timeout=120,
            cwd=Path(__file__).parents[2],
            check=False,
        )
    finally:
        first.communicate(b"q", timeout=120)
    lines = second.stderr.decode().strip().splitlines()
    assert second.returncode == 2 and len(lines) == 1
    assert f"pid {first.pid}" in lines[0]
    assert first.returncode == 0
