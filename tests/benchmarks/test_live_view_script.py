"""The live view benchmark still runs (its figures are not checked)."""

from __future__ import annotations

from tests.benchmarks.test_scripts import _run


def test_the_live_view_benchmark_runs_on_one_frame() -> None:
    out = _run("live_view.py", "--frames", "1")
    assert "read ms  picture ms  screen ms  dice boxed" in out
    assert out.count("\n") == 4  # a heading and three sizes
