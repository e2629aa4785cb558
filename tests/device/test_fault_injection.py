"""The game store under injected faults in a real process: a disk whose sync fails (once, or for
good) and then a crash, SIGKILL at the moment of a sync, in the middle of a write, and at random
moments. After each, the store opens without being moved aside, passes SQLite's integrity check,
replays, and holds exactly the start of the intended game: nothing lost that was reported
recorded, nothing there that was reported not recorded, nothing duplicated.

The faults at the disk come from a small preloaded C library (benchmarks/fault_kit.py), compiled
here; the tests that need it are skipped where no C compiler exists.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from benchmarks.fault_kit import (
    build_shim,
    check_store,
    intended,
    last_recorded,
    run_child,
    start_child,
)

ARM_AT = 6  # the action the fault is armed before (the first six are stored cleanly)


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    library = build_shim(tmp_path_factory.mktemp("shim"))
    if library is None:
        pytest.skip("no C compiler to build the fault library")
    return library


def _refused(lines: list[str]) -> tuple[int, str]:
    (line,) = [line for line in lines if line.startswith("not recorded ")]
    count, _, message = line.removeprefix("not recorded ").partition(": ")
    return int(count), message


def test_a_sync_error_then_a_crash_leaves_out_the_action_reported_not_recorded(
    tmp_path: Path, shim: Path
) -> None:
    status, lines = run_child(
        tmp_path, actions=12, arm_at=ARM_AT, faults=["sync=fail-once"], shim=shim
    )
    assert status == -signal.SIGKILL
    count, message = _refused(lines)
    assert "disk I/O error" in message and "the last action was not recorded" in message
    assert count == last_recorded(lines)
    checked = check_store(tmp_path, seed=1)
    assert checked.ok, checked.problem
    assert checked.events == count


def test_a_disk_that_no_longer_syncs_says_the_action_may_be_recorded(
    tmp_path: Path, shim: Path
) -> None:
    status, lines = run_child(tmp_path, actions=12, arm_at=ARM_AT, faults=["sync=fail"], shim=shim)
    assert status == -signal.SIGKILL
    count, message = _refused(lines)
    assert "may have been recorded" in message and "restart dicekeeper" in message
    checked = check_store(tmp_path, seed=1)
    assert checked.ok, checked.problem
    assert checked.events in (count, count + 1)


@pytest.mark.parametrize(
    "fault",
    ["sync=kill", "pwrite=kill-half:1", "pwrite=kill-half:2", "pwrite=kill-half:3"],
)
def test_killed_at_a_sync_or_mid_write_the_store_keeps_every_recorded_action(
    tmp_path: Path, shim: Path, fault: str
) -> None:
    status, lines = run_child(tmp_path, actions=12, arm_at=ARM_AT, faults=[fault], shim=shim)
    assert status == -signal.SIGKILL
    recorded = last_recorded(lines)
    assert recorded >= ARM_AT  # the clean actions before the fault were all reported
    checked = check_store(tmp_path, seed=1)
    assert checked.ok, checked.problem
    assert checked.events in (recorded, recorded + 1)  # the action in flight: all or nothing
    status, lines = run_child(tmp_path, actions=3)  # and the game goes on from there
    assert status == 0 and last_recorded(lines) == checked.events + 3


def test_random_kills_lose_nothing_and_duplicate_nothing(tmp_path: Path) -> None:
    rng = random.Random(48)
    for _ in range(6):
        child = start_child(tmp_path, actions=400)
        assert child.stdout is not None
        lines: list[str] = []
        wanted = rng.randint(1, 25)
        while len(lines) < wanted:
            line = child.stdout.readline()
            assert line, f"the child ended early: {lines}"
            lines.append(line.strip())
        child.send_signal(signal.SIGKILL)
        lines += [line.strip() for line in child.stdout]
        child.wait(timeout=30)
        child.stdout.close()
        checked = check_store(tmp_path, seed=1)
        assert checked.ok, checked.problem
        assert checked.events - last_recorded(lines) in (0, 1), lines[-3:]
    final = check_store(tmp_path, seed=1)
    assert final.events > 2 + 6  # the players and at least one action after each start
    assert len(intended(final.events, seed=1)) == final.events
