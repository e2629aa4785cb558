"""benchmarks/strategy.py runs on pig and prints the solvers' figures beside the published ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_strategy_benchmark_prints_pig_beside_the_paper(tmp_path: Path) -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "strategy.py"), "--rules", "pig"]
    done = subprocess.run(
        [*command, "--games", "10", "--cache", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "pig to 100: turn EV 8.14, bank at {'1': 20}" in done.stdout
    # the solved figures first, the paper's second: equal to the digits the paper gives
    assert "turn EV 8.1418 vs 8.1418, first player 0.530593 vs 0.530593" in done.stdout
