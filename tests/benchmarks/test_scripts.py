"""The benchmark scripts still run against the code they measure (their figures are not checked:
tests never assert timings or accuracy targets)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ROOT.parent / "shared" / "datasets"


def _launch(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _run(script: str, *args: str) -> str:
    done = _launch(script, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_speed_benchmark_runs_on_a_few_frames() -> None:
    out = _run("vision_speed.py", "--frames", "2", "--repeat", "1")
    assert "synthetic 6 dice: 2 frames, median" in out
    assert "ms a crop before the frames" in out
    assert "judge (CPU)" in out
    assert "network crops per frame: median" in out
    assert "fast path read" in out
    out = _run("vision_speed.py", "--frames", "2", "--repeat", "1", "--no-fast-path")
    assert "fast path read" not in out


def test_the_table_benchmark_runs_on_a_few_throws() -> None:
    out = _run("vision_table.py", "--styles", "1", "--throws", "2", "--look", "webcam-desk")
    assert "webcam-desk (1 trays x 2 throws): recall" in out


def test_the_accuracy_benchmark_reads_resized_photos() -> None:
    if not DATASETS.is_dir():
        pytest.skip(f"{DATASETS} is missing")
    out = _run(
        "vision_accuracy.py", "--dataset", "matteop65-wood", "--synthetic", "0", "--scale", "0.8"
    )
    assert "matteop65-wood at scale 0.8: images" in out
    assert "matteop65-wood at scale 0.8 held out from training: images" in out


def test_the_accuracy_benchmark_reads_without_the_fast_path_when_asked() -> None:
    out = _run("vision_accuracy.py", "--dataset", "synthetic", "--synthetic", "2", "--no-fast-path")
    assert "without the fast path: the pip stages read every frame" in out
    assert "synthetic (2 throws): dice" in out


def test_the_accuracy_benchmark_refuses_a_scale_of_nothing() -> None:
    done = _launch("vision_accuracy.py", "--scale", "0")
    assert done.returncode == 2
    assert "--scale must be between 0.1 and 8, not 0.0" in done.stderr


def test_the_render_gallery_refuses_no_frames_to_time(tmp_path: Path) -> None:
    done = _launch(
        "render_gallery.py", "--out", str(tmp_path), "--seeds", "1", "--speed-frames", "0"
    )
    assert done.returncode == 2
    assert "--speed-frames must be at least 1, not 0" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_memory_benchmark_measures_a_table_that_plays() -> None:
    out = _run("run_memory.py", "--seconds", "20", "--adapt-every", "0")
    assert re.search(r"\): [1-9]\d* throws, 0 refits, exit status 0\n", out), out
    assert re.search(r"table's process: \d+ MB after 5 s, peak \d+ MB \(bar 400 MB\)", out), out
    assert re.search(r"at once \(sampled\) \d+ MB resident, \d+ MB proportional", out), out


def test_the_memory_benchmark_refuses_no_time_to_play() -> None:
    done = _launch("run_memory.py", "--seconds", "0")
    assert done.returncode == 2
    assert "--seconds must be more than 0, not 0" in done.stderr
