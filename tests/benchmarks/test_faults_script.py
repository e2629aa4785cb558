"""benchmarks/faults.py runs: its table of faults for one kind, and a short soak (its figures are
printed, not checked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "faults.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_disk_faults_end_as_expected_and_print_a_table() -> None:
    done = _run("--only", "disk", "--kills", "3")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [cell.strip() for cell in lines[0].split("|")] == ["fault", "expected", "ok", "got"]
    assert any(line.startswith("sync error, then crash ") for line in lines)
    assert any(line.startswith("3 random SIGKILLs (store)") for line in lines)
    assert " ended as expected, 0 not" in lines[-1]


def test_bad_state_files_leave_the_table_starting() -> None:
    done = _run("--only", "state")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "a FIFO named x.toml in state/rules" in done.stdout
    assert " ended as expected, 0 not" in done.stdout.splitlines()[-1]


def test_the_web_attacks_end_as_expected_and_print_the_step_times() -> None:
    done = _run("--only", "web", "--attack-seconds", "2")
    rows = [line for line in done.stdout.splitlines() if line.count(" | ") == 3]
    outcomes = {row.split(" | ")[0].strip(): row.split(" | ")[2].strip() for row in rows[1:]}
    assert "web: 6 addresses guessing codes" in outcomes
    assert "two dicekeeper run on one state directory" in outcomes
    # Everything but the step-time comparison, which depends on this machine's load.
    failed = [f for f, ok in outcomes.items() if ok != "ok" and not f.startswith("table step")]
    assert failed == [], done.stdout
    assert "p99 ms" in done.stdout and "\nidle " in done.stdout


def test_the_soak_prints_memory_and_descriptors() -> None:
    done = _run("--soak", "0.1", "--interval", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "resident memory: first" in done.stdout
    assert "open file descriptors: first" in done.stdout
