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


def test_the_soak_prints_memory_and_descriptors() -> None:
    done = _run("--soak", "0.1", "--interval", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "resident memory: first" in done.stdout
    assert "open file descriptors: first" in done.stdout
