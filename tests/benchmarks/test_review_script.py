"""benchmarks/review.py runs against the review it measures (its times are not checked)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "review.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "STATE_DIRECTORY": str(tmp_path)},
    )


def test_the_review_benchmark_reviews_a_long_enough_game(tmp_path: Path) -> None:
    done = _run(tmp_path, "--no-solve", "--rules", "pig", "--target", "20")
    assert done.returncode == 2 and "no solved table for pig to 20" in done.stderr
    args = ("--rules", "pig", "--target", "20", "--turns", "6", "--repeat", "2", "--json")
    done = _run(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["turns"] >= 6 and report["evaluator"] == "optimal"
    assert report["decisions"] > 0 and report["warm_cpu_s"] is not None
    assert list((tmp_path / "cache" / "strategy").glob("optimal-pig-20-*.bin"))
