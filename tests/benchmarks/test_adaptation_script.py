"""benchmarks/adaptation.py still runs against the code it measures (its figures are printed,
not checked: tests never assert accuracy targets)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_adaptation_benchmark_runs_on_a_few_throws() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "adaptation.py"),
            *("--schemes", "gold-on-black", "--test", "2", "--ordinary", "2"),
            *("--photos", "-1", "--sizes", "10"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("gold-on-black: 2 test throws, ")
    assert re.match(r"  table: 10 kept \(\d+ corrected, \d+ with dice the reader missed", lines[1])
    assert re.match(
        r"  after 10 throws \(\d+ dice, fitted in [\d.]+ s\): per die [\d.]+ -> ", lines[2]
    )
    assert lines[3].startswith("  ordinary rendered dice: per die ")
