"""benchmarks/web_load.py still runs: a short table run without and with the web's clients (its
figures are printed, never checked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_web_load_benchmark_runs_briefly() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "web_load.py"),
            "--seconds",
            "3",
            "--watchers",
            "2",
            "--controllers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "without the web: " in done.stdout
    assert "with the web, 2 watching, 1 controlling: " in done.stdout
    assert "state events: " in done.stdout and "control 409: " in done.stdout
