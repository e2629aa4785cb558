"""Calibration on rendered trays: how close the throwing area comes to the tray's true outline,
how the measured die width compares with the dice's true edge, which checks fire on the renderer's
looks, and what it costs.

Scenes (tests/vision/calibration_scenes.py): every style set on a table among clutter with a hand
reaching over the tray's edge ("on a table"), and the renderer's own box pictures with a hand
("box"). The reader without a calibration is unchanged by construction: its empty-tray check runs
only when ``ReaderParams.empty_tray`` is set, and the area only when ``roi`` is.

Usage: .venv/bin/python benchmarks/calibration.py [--seeds N]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vision
from tests.vision.calibration_scenes import (
    STYLES,
    boundary_distance,
    on_table,
    rendered,
    style_named,
)
from vision.calibration import calibrate, find_area
from vision.types import Frame

BOXES = ("felt-box", "wood-box", "plastic-box", "light-box")


def _best_ms(frame: Frame, params: vision.ReaderParams, repeats: int = 3) -> float:
    """The fastest of ``repeats`` readings of ``frame``, in milliseconds (the machine is
    shared)."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        vision.read(frame, params)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="seeds per style (default 12)")
    args = parser.parse_args()
    seeds = range(args.seeds)
    print(
        f"area: largest distance (px, 640x480) between found and true outline, {len(seeds)} seeds"
    )
    print(f"{'scene':<24} {'median':>6} {'90%':>6} {'max':>6} {'<=5px':>6} {'none':>5} {'ms':>5}")
    widths: list[float] = []
    fired: Counter[str] = Counter()
    read_ms: list[float] = []
    checked_ms: list[float] = []
    for kind in ("on a table", "box"):
        for name in STYLES if kind == "on a table" else BOXES:
            distances, missing, times = [], 0, []
            for seed in seeds:
                style = style_named(name, seed)
                scene = (
                    on_table(style, seed)
                    if kind == "on a table"
                    else rendered(style, seed, hand=True)
                )
                start = time.perf_counter()
                area = find_area(scene.empty)
                times.append((time.perf_counter() - start) * 1000)
                if area is None:
                    missing += 1
                    continue
                distances.append(boundary_distance(area, scene.floor))
                if kind == "on a table" and seed < 3:
                    plain = vision.ReaderParams(roi=area)
                    checked = vision.ReaderParams(roi=area, empty_tray=scene.empty)
                    reading = vision.read(scene.throw, plain)  # warm up once
                    read_ms.append(_best_ms(scene.throw, plain))
                    checked_ms.append(_best_ms(scene.throw, checked))
                    result = calibrate(scene.empty, scene.throw, reading, area)
                    assert result is not None
                    if result.die_width_px is not None:
                        widths.append(result.die_width_px / scene.die_px)
                    fired.update(f"{c.name}" for c in result.checks if not c.ok)
            d = np.array(distances) if distances else np.array([np.nan])
            print(
                f"{kind + ': ' + name:<24} {np.median(d):6.1f} {np.percentile(d, 90):6.1f} "
                f"{d.max():6.1f} {np.mean(d <= 5):6.0%} {missing:5d} {np.median(times):5.0f}"
            )
    w = np.array(widths)
    print(
        f"die width measured / true edge: median {np.median(w):.2f}, "
        f"10-90% {np.percentile(w, 10):.2f}-{np.percentile(w, 90):.2f} ({len(w)} throws)"
    )
    print(f"checks failing on the renderer's looks (3 seeds x {len(STYLES)} styles): {dict(fired)}")
    print(
        f"reader ms per frame (best of 3): {np.median(read_ms):.0f} with the area, "
        f"{np.median(checked_ms):.0f} with the area and the empty tray"
    )


if __name__ == "__main__":
    main()
