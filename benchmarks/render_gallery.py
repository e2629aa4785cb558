"""The synthetic tray renderer for humans: a contact sheet of rendered trays (and one throw) as PNG,
and the render speed (milliseconds per 640×480 frame on one core).

Usage: python benchmarks/render_gallery.py [--out DIR] [--seeds N] [--boxes] [--speed-frames N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.render import RenderedTray, render_throw, render_tray  # noqa: E402


def annotate(tray: RenderedTray) -> np.ndarray:
    """The frame with each die's ground-truth box and value drawn on it."""
    img = tray.frame.copy()
    for die in tray.dice:
        b = die.box
        color = (0, 0, 255) if die.value is None else (0, 255, 0)
        cv2.rectangle(img, (b.x, b.y), (b.x + b.w - 1, b.y + b.h - 1), color, 1)
        label = "?" if die.value is None else str(die.value)
        org = (int(die.center[0]) - 4, int(die.center[1]) + 4)
        cv2.putText(img, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5, color, 1, cv2.LINE_AA)
    return img


def sheet(images: list[np.ndarray], columns: int, scale: float) -> np.ndarray:
    """Tile equally sized images into rows of ``columns``, scaled by ``scale``."""
    small = [cv2.resize(i, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) for i in images]
    while len(small) % columns:
        small.append(np.zeros_like(small[0]))
    rows = [np.hstack(small[i : i + columns]) for i in range(0, len(small), columns)]
    return np.vstack(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/dicekeeper-render"))
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--boxes", action="store_true", help="draw ground-truth boxes and values")
    parser.add_argument("--speed-frames", type=int, default=60)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    trays = []
    for seed in range(args.seeds):
        n = int(rng.integers(1, 7))
        values: list[int | None] = [int(v) for v in rng.integers(1, 7, n)]
        if seed % 5 == 4:
            values.append(None)  # a cocked die now and then
        trays.append(render_tray(values, seed=seed))
    pick = annotate if args.boxes else (lambda t: t.frame)
    path = args.out / "trays.png"
    cv2.imwrite(str(path), sheet([pick(t) for t in trays], 4, 0.5))
    print(f"wrote {path}")
    throw = render_throw([1, 2, 3, 4, 5, 6], seed=7, moving_frames=8, still_frames=4, hand=True)
    path = args.out / "throw.png"
    cv2.imwrite(str(path), sheet([pick(t) for t in throw], 4, 0.5))
    print(f"wrote {path}")

    times = []
    for seed in range(args.speed_frames):
        start = time.perf_counter()
        render_tray([1, 2, 3, 4, 5, 6], seed=1000 + seed)
        times.append((time.perf_counter() - start) * 1000)
    print(f"render_tray, 6 dice, 640x480: median {statistics.median(times):.1f} ms/frame")
    start = time.perf_counter()
    frames = render_throw([1, 2, 3, 4, 5, 6], seed=5, moving_frames=20, still_frames=20)
    per = (time.perf_counter() - start) * 1000 / len(frames)
    print(f"render_throw, 6 dice, 640x480: {per:.1f} ms/frame ({1000 / per:.0f} frames/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
