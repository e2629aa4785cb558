"""Dice reader speed: median milliseconds to read one 640×480 frame with 6 dice on one core
(OpenCV set to one thread), and peak memory; also frames of 1280×720 and 1920×1080, and photos
enlarged to 12 MP (read shrunk to a working scale). The CPU time is shown too, as the wall time
suffers when other processes share the machine, and so is the number of crops the classifier
runs its network on, which does not; and the network's time a crop before and after the frames
(about 0.7 ms on one core here, when no other machine shares its host): the yardstick of how
fast the machine was during the run. The reader tries its fast path (`vision.quick`) first, and
the figures say how many frames it read on its own; ``--no-fast-path`` measures the pip stages
and the judge reading every frame. No verdict the classifier remembers
(`vision.classify.REMEMBERED`) is kept from one read of a frame to the next. Frames come from
the synthetic tray renderer and from the labelled photos in <repo>/../shared/datasets (each
skipped when missing).

Usage: .venv/bin/python benchmarks/vision_speed.py [--frames N] [--repeat R] [--no-fast-path]
"""

from __future__ import annotations

import argparse
import importlib
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock

import cv2
import numpy as np

import vision.classify
from vision import Frame, ReaderParams, read
from vision.crops import die_crop, pyramid_of
from vision.detect import detect_scales
from vision.judge import judge
from vision.quick import quick_faces
from vision.reader import find_pip_faces

ROOT = Path(__file__).resolve().parent.parent

DATASETS = ROOT.parent / "shared" / "datasets"


def synthetic_frames(count: int, size: tuple[int, int] = (640, 480)) -> list[Frame]:
    """Rendered frames of six dice (``size``: width, height), or [] when the renderer is not
    there."""
    try:
        render_tray = importlib.import_module("vision.render").render_tray
    except (ImportError, AttributeError):
        return []
    rng = np.random.default_rng(7)
    return [
        render_tray([int(v) for v in rng.integers(1, 7, 6)], seed=seed, size=size).frame
        for seed in range(count)
    ]


def photo_frames(count: int) -> list[Frame]:
    """Up to ``count`` 640×480 photos from the datasets folder."""
    frames: list[Frame] = []
    for path in sorted(DATASETS.glob("*/images/*.jpg")):
        image = cv2.imread(str(path))
        if image is not None and image.shape[:2] == (480, 640):
            frames.append(np.asarray(image, dtype=np.uint8))
        if len(frames) >= count:
            break
    return frames


def _enlarged(frames: list[Frame], size: tuple[int, int]) -> list[Frame]:
    """The frames enlarged to ``size`` (width, height): a phone's photo, read at a working
    scale (`vision.reader.working_copy`)."""
    return [np.asarray(cv2.resize(f, size, interpolation=cv2.INTER_LINEAR)) for f in frames]


class Stages(NamedTuple):
    """CPU milliseconds per frame of each stage, timed inside `vision.read` itself: the fast path
    (`vision.quick`) and the judge (`vision.judge`, which also weighs the fast path's dice) on
    every frame, and on the frames the fast path leaves, the pip stages
    (`vision.reader.find_pip_faces`) and the detector's proposals at the frame's scales
    (`vision.detect.detect_scales`); and the rest of `vision.read` (the frame checked, its
    pyramid, the dice placed), on every frame."""

    fast: list[float]
    fast_read: int
    pips: list[float]
    proposals: list[float]
    judge: list[float]
    rest: list[float]


def _stage_times(frames: list[Frame], params: ReaderParams) -> Stages:
    spent: dict[str, float] = {}
    gave: dict[str, bool] = {}

    def timed(name: str, stage: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            result = stage(*args, **kwargs)
            spent[name] = spent.get(name, 0.0) + (time.process_time() - start) * 1000.0
            gave[name] = result is not None
            return result

        return run

    stages = Stages([], 0, [], [], [], [])
    with (
        mock.patch("vision.reader.quick_faces", timed("fast", quick_faces)),
        mock.patch("vision.reader.find_pip_faces", timed("pips", find_pip_faces)),
        mock.patch("vision.reader.detect_scales", timed("proposals", detect_scales)),
        mock.patch("vision.reader.judge", timed("judge", judge)),
    ):
        for frame in frames:
            spent.clear()
            gave.clear()
            vision.classify._remembered.clear()
            start = time.process_time()
            read(frame, params)
            total = (time.process_time() - start) * 1000.0
            stages.fast.append(spent.get("fast", 0.0))
            stages.judge.append(spent.get("judge", 0.0))
            stages.rest.append(total - sum(spent.values()))
            if gave.get("fast"):
                stages = stages._replace(fast_read=stages.fast_read + 1)
            else:
                stages.pips.append(spent.get("pips", 0.0))
                stages.proposals.append(spent.get("proposals", 0.0))
    return stages


def _network_crops(frames: list[Frame], params: ReaderParams) -> list[int]:
    """The crops the classifier's network reads for each frame, none remembered from before."""
    counts: list[int] = []
    real_to_blob = vision.classify.to_blob

    def counted(crops: Any) -> Any:
        counts[-1] += len(crops)
        return real_to_blob(crops)

    with mock.patch("vision.classify.to_blob", counted):
        for frame in frames:
            vision.classify._remembered.clear()
            counts.append(0)
            read(frame, params)
    return counts


def _network_ms_per_crop(frame: Frame, crops: int = 16, runs: int = 21) -> float:
    """The classifier network's CPU milliseconds a crop, on ``crops`` crops of ``frame`` run
    together (median of ``runs``): the yardstick of how fast the machine is during this run."""
    pyramid = pyramid_of(frame)
    height, width = frame.shape[:2]
    batch = [
        die_crop(pyramid, (width * (i + 1) / (crops + 1), height / 2), 60.0) for i in range(crops)
    ]
    spent = []
    for _ in range(runs):
        vision.classify._remembered.clear()
        start = time.process_time()
        vision.classify.classify(batch)
        spent.append((time.process_time() - start) * 1000.0 / crops)
    return statistics.median(spent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--no-fast-path", action="store_true", help="the pip stages read every frame"
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    params = ReaderParams(use_detector=not args.no_fast_path)
    sets = (
        ("synthetic 6 dice", synthetic_frames(args.frames)),
        ("real photos 640x480", photo_frames(args.frames)),
        ("synthetic 6 dice 1280x720", synthetic_frames(args.frames, (1280, 720))),
        ("synthetic 6 dice 1920x1080", synthetic_frames(args.frames, (1920, 1080))),
        ("12 MP (4000x3000) enlarged photos", _enlarged(photo_frames(5), (4000, 3000))),
    )
    yardstick = next((frames[:1] for _, frames in sets if frames), [])
    start_ms = _network_ms_per_crop(yardstick[0]) if yardstick else None
    for name, frames in sets:
        if not frames:
            print(f"{name}: skipped (no frames)")
            continue
        read(frames[0], params)  # warm up
        times, cpu_times = [], []
        for _ in range(args.repeat):
            for frame in frames:
                vision.classify._remembered.clear()  # no verdict kept from the repeat before
                start, start_cpu = time.perf_counter(), time.process_time()
                read(frame, params)
                times.append((time.perf_counter() - start) * 1000.0)
                cpu_times.append((time.process_time() - start_cpu) * 1000.0)
        stages = _stage_times(frames, params)
        crops = _network_crops(frames, params)
        tracemalloc.start()
        for frame in frames[:5]:
            read(frame, params)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"{name}: {len(frames)} frames, median {statistics.median(times):.2f} ms "
            f"(CPU {statistics.median(cpu_times):.2f} ms), "
            f"p90 {sorted(times)[int(0.9 * len(times))]:.2f} ms, "
            f"peak traced memory per read {peak / 1e6:.1f} MB"
        )
        if params.use_detector:
            print(
                f"  fast path read {stages.fast_read} of {len(frames)} frames, "
                f"taking (CPU) {statistics.median(stages.fast):.2f} ms a frame (median)"
            )
        if stages.pips:
            which = (
                f"on the {len(stages.pips)} frames it left" if params.use_detector else "of which"
            )
            print(
                f"  {which} (CPU): pip stages {statistics.median(stages.pips):.2f} ms, "
                f"the detector's proposals {statistics.median(stages.proposals):.2f} ms"
            )
        if params.use_judge:
            print(
                f"  judge (CPU) {statistics.median(stages.judge):.2f} ms a frame, the rest of "
                f"the reader {statistics.median(stages.rest):.2f} ms (medians)"
            )
        print(
            f"  network crops per frame: median {statistics.median(crops):g}, "
            f"mean {statistics.mean(crops):.2f}"
        )
    if start_ms is not None:
        print(
            f"classifier network: {start_ms:.2f} ms a crop before the frames, "
            f"{_network_ms_per_crop(yardstick[0]):.2f} ms after them (on a shared machine, every "
            "figure above slows with it)"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(f"peak resident memory of the process {rss:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
