"""The synthetic tray renderer for humans: contact sheets of rendered trays (random styles, each
look-alike preset, one throw) as PNG, the render speed (milliseconds per 640×480 frame), and with
``--reader N`` the dice reader's accuracy on N throws of each look-alike preset, to set beside its
accuracy on the real photos the presets imitate (benchmarks/vision_accuracy.py).

Usage: .venv/bin/python benchmarks/render_gallery.py [--out DIR] [--seeds N] [--boxes]
           [--speed-frames N] [--reader N] [--preset NAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from vision.render import (
    PRESETS,
    RenderedTray,
    render_throw,
    render_tray,
    style_like,
)

# What each preset imitates: the real dataset, frame size and dice per throw.
PRESET_SHAPES = {
    "phone-box": ("nell-byler-d6", (640, 640), (2, 10)),
    "webcam-desk": ("matteop65-wood", (640, 480), (1, 5)),
    "oblique-table": ("rune55-trainval oblique white tables", (640, 640), (1, 6)),
    "felt-tray": ("rune55-trainval coloured dice in felt trays", (640, 640), (4, 20)),
}


def annotate(tray: RenderedTray) -> np.ndarray:
    """The frame with each die's ground-truth box and value drawn on it, and for an oblique
    camera its label's box (the top face, `rendered_labels`) in yellow."""
    img = tray.frame.copy()
    for die in tray.dice:
        b = die.box
        color = (0, 0, 255) if die.value is None else (0, 255, 0)
        cv2.rectangle(img, (b.x, b.y), (b.x + b.w - 1, b.y + b.h - 1), color, 1)
        if die.face_bounds is not None:
            x0, y0, x1, y1 = (round(v) for v in die.face_bounds)
            cv2.rectangle(img, (x0, y0), (x1, y1), (0, 230, 255), 1)
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
    parser.add_argument("--reader", type=int, default=0, help="throws per preset for the reader")
    parser.add_argument(
        "--preset", choices=PRESETS, action="append", help="only these presets (repeatable)"
    )
    args = parser.parse_args(argv)
    for name in ("seeds", "speed_frames"):
        if getattr(args, name) < 1:
            parser.error(
                f"--{name.replace('_', '-')} must be at least 1, not {getattr(args, name)}"
            )
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
    presets = tuple(args.preset) if args.preset else PRESETS
    for preset in presets:
        _name, size, (lo, hi) = PRESET_SHAPES[preset]
        shots = []
        for seed in range(8):
            n = int(rng.integers(lo, hi + 1))
            values = [int(v) for v in rng.integers(1, 7, n)]
            shots.append(render_tray(values, seed=seed, size=size, style=style_like(preset, seed)))
        path = args.out / f"preset-{preset}.png"
        cv2.imwrite(str(path), sheet([pick(t) for t in shots], 4, 0.5))
        print(f"wrote {path}")
    throw = render_throw([1, 2, 3, 4, 5, 6], seed=7, moving_frames=8, still_frames=4, hand=True)
    path = args.out / "throw.png"
    cv2.imwrite(str(path), sheet([pick(t) for t in throw], 4, 0.5))
    print(f"wrote {path}")

    # CPU time of this process (one OpenCV thread) as well as wall time: on a shared machine the
    # wall time mostly measures the neighbours.
    wall, cpu = [], []
    for seed in range(args.speed_frames):
        w0, c0 = time.perf_counter(), time.process_time()
        render_tray([1, 2, 3, 4, 5, 6], seed=1000 + seed)
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    print(
        f"render_tray, 6 dice, 640x480, random styles: median {statistics.median(cpu):.1f} ms "
        f"CPU ({statistics.median(wall):.1f} ms wall) per frame"
    )
    oblique = []
    for seed in range(args.speed_frames):
        style = style_like("oblique-table", 1000 + seed)
        c0 = time.process_time()
        render_tray([1, 2, 3, 4, 5, 6], seed=1000 + seed, style=style)
        oblique.append((time.process_time() - c0) * 1000)
    print(
        f"render_tray, 6 dice, 640x480, oblique-table: median "
        f"{statistics.median(oblique):.1f} ms CPU"
    )
    w0, c0 = time.perf_counter(), time.process_time()
    frames = render_throw([1, 2, 3, 4, 5, 6], seed=5, moving_frames=20, still_frames=20)
    per_cpu = (time.process_time() - c0) * 1000 / len(frames)
    per_wall = (time.perf_counter() - w0) * 1000 / len(frames)
    print(
        f"render_throw, 6 dice, 640x480: {per_cpu:.1f} ms CPU ({per_wall:.1f} ms wall) per frame,"
        f" {1000 / per_cpu:.0f} frames/s on one free core"
    )
    if args.reader > 0:
        compare_reader(args.reader, presets)
    return 0


def compare_reader(throws: int, presets: tuple[str, ...] = PRESETS) -> None:
    """Print the reader's accuracy on ``throws`` synthetic throws of each look-alike preset, the
    dice labelled as the real datasets label them (`rendered_labels`)."""
    from vision import ReaderParams, read
    from vision.evaluation import LabelledDie, Score, rendered_labels, score_image

    rng = np.random.default_rng(99)
    for preset in presets:
        dataset, size, (lo, hi) = PRESET_SHAPES[preset]
        total = Score()
        for seed in range(throws):
            n = int(rng.integers(lo, hi + 1))
            values = [int(v) for v in rng.integers(1, 7, n)]
            tray = render_tray(values, seed=seed, size=size, style=style_like(preset, seed))
            labels = [
                LabelledDie(x.x_min, x.y_min, x.x_max, x.y_max, x.value or 0)
                for x in rendered_labels(tray.dice)
            ]
            total += score_image(read(tray.frame, ReaderParams()), labels)
        print(
            f"reader on {preset} (like {dataset}), {throws} throws: recall {total.recall:.4f}, "
            f"precision {total.precision:.4f}, throw accuracy {total.throw_accuracy:.4f}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
