"""Whole trays for the die detector (vision.detect): each image halved, as the detector reads it,
with the centre and width of every die on it (frame pixels, edge to edge).

Synthetic trays come from `vision.render` at seeds far from the ones the benchmarks read; one in
ten is crowded (touching dice, sometimes in a row), one in ten is a look-alike style preset
(`vision.render.style_like`, up to 12 dice), one in ten may be empty, and 6 % of the dice are
unreadable (cocked, covered): the detector is to find them too, for the reader to send to its pip
stages. Real trays are the training half of the labelled photos (`training/split.py`); a die's
width is the one told by the face the reader's judge keeps nearest its label (`photo_widths`,
`vision.widths.true_width`), else its label box's shorter side (in matteop65-wood, whose boxes
cover only the pips, the median of the photo's faces first). Each photo is also shrunk by 2 and 4
while its dice stay 16 px wide (`scales`), so the detector learns dice of 16-400 px at the widths
it reads them at.
``--held-out`` writes the other half instead, to measure on.

Usage: .venv/bin/python training/make_trays.py OUT.npz --synthetic START STOP  (~1 s a tray, 1 core)
       .venv/bin/python training/make_trays.py OUT.npz --real [--held-out]
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision_accuracy import labelled_photos
from training.split import is_training
from vision.crops import pyramid_of
from vision.params import ReaderParams
from vision.reader import read_faces
from vision.render import PRESETS, render_tray, style_from_seed, style_like
from vision.widths import true_width

ROOT = Path(__file__).resolve().parent.parent

DATASETS = ROOT.parent / "shared" / "datasets"
PARAMS = ReaderParams()
SEED = 7
UNREADABLE_SHARE = 0.06
FRAME = (480, 640)
PIP_BOXES = {"matteop65-wood"}
"""Folders whose label boxes cover only the pips (a face-1 box is one pip): a die of theirs that no
face the judge keeps tells is given the median width of the photo's faces instead."""
LEAST_WIDTH = 16.0
"""The narrowest median die (frame pixels) a photo is shrunk to for training."""


def synthetic(start: int, stop: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Trays ``start`` to ``stop`` (each its own seed), halved, with their dice."""
    images, dice = [], []
    for index in range(start, stop):
        rng = np.random.default_rng([SEED, index])
        kind = index % 10
        tray_seed = SEED * 1_000_003 + 600_000 + index
        style = None
        if kind == 7:
            touching = float(rng.uniform(0.6, 1.0))
            in_a_row = index % 20 == 7
            style = replace(style_from_seed(tray_seed), touching=touching, in_a_row=in_a_row)
        elif kind == 8:
            style = style_like(PRESETS[index % 2], tray_seed)
        most = 12 if kind == 8 else 6
        if kind == 7 and index % 20 == 7:
            count = int(rng.integers(2, 5))
        else:
            count = int(rng.integers(0 if kind == 9 else 1, most + 1))
        values = [
            None if rng.random() < UNREADABLE_SHARE else int(rng.integers(1, 7))
            for _ in range(count)
        ]
        tray = render_tray(values, seed=tray_seed, style=style)
        if tray.frame.shape[:2] != FRAME:
            continue
        images.append(cv2.pyrDown(tray.frame))
        dice.append(_table([(*d.center, d.size_px) for d in tray.dice]))
        if index % 200 == 0:
            print(index, flush=True)
    return images, dice


def real(held_out: bool) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The labelled photos of one half, halved, with their dice."""
    images, dice = [], []
    for folder in sorted(DATASETS.iterdir()):
        if not (folder / "labels.csv").exists():
            continue
        for image, photo, labels in labelled_photos(folder):
            if is_training(f"{folder.name}/{image}") == held_out:
                continue
            widths = photo_widths(photo)
            middle = float(np.median([w for _, _, w in widths])) if widths else None
            rows = []
            for label in labels:
                x, y = label.center
                near = [w for fx, fy, w in widths if math.hypot(fx - x, fy - y) < 0.5 * w]
                box = min(label.x_max - label.x_min, label.y_max - label.y_min)
                guess = (middle or box) if folder.name in PIP_BOXES else box
                rows.append((x, y, near[0] if near else guess))
            for factor in scales(float(np.median([w for _, _, w in rows])) if rows else 0.0):
                resized = photo if factor == 1.0 else _resized(photo, factor)
                images.append(cv2.pyrDown(resized))
                dice.append(_table([(x * factor, y * factor, w * factor) for x, y, w in rows]))
    print(f"{len(images)} trays of photos", flush=True)
    return images, dice


def photo_widths(photo: np.ndarray) -> list[tuple[float, float, float]]:
    """The centre and width (edge to edge, `vision.widths.true_width`) of every die the reader's
    judge keeps in a photo (read whole, not shrunk), as `vision.reader.read` finds them
    (`vision.reader.read_faces`)."""
    faces = read_faces(photo, pyramid_of(photo), PARAMS)
    return [(f.x, f.y, true_width(f, PARAMS)) for f in faces]


def scales(width: float) -> list[float]:
    """The factors a photo whose median die is ``width`` frame pixels wide is trained at: as it
    is, and shrunk by 2 and by 4 where its dice are then still `LEAST_WIDTH` wide or more, so the
    detector sees every kind of die at the widths `vision.detect` reads them at (the close-ups'
    200 px dice at 50-100 px, the desk's 40 px dice at 20 px too)."""
    return [f for f in (1.0, 0.5, 0.25) if f == 1.0 or width * f >= LEAST_WIDTH]


def _resized(photo: np.ndarray, factor: float) -> np.ndarray:
    height, width = photo.shape[:2]
    size = (round(width * factor), round(height * factor))
    return np.asarray(cv2.resize(photo, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _objects(items: list[np.ndarray]) -> np.ndarray:
    """A 1-D array holding each of ``items`` (numpy would stack arrays of one shape into one)."""
    out = np.empty(len(items), dtype=object)
    for index, item in enumerate(items):
        out[index] = item
    return out


def _table(rows: list[tuple[float, float, float]]) -> np.ndarray:
    return np.array(rows, dtype=np.float32).reshape(-1, 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--synthetic", nargs=2, type=int, metavar=("START", "STOP"))
    parser.add_argument("--real", action="store_true")
    parser.add_argument("--held-out", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.real:
        images, dice = real(args.held_out)
    elif args.synthetic:
        images, dice = synthetic(*args.synthetic)
    else:
        parser.error("give --synthetic START STOP or --real")
    np.savez_compressed(args.out, images=_objects(images), dice=_objects(dice))
    print(f"{len(images)} trays -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
