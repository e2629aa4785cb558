"""Cut classifier crops where the multi-scale detector (`vision.detect.detect_scales`) proposes
dice, for the judge's network (`vision/judge_cnn.onnx`, training/README.md).

In the training part of every labelled photo folder (each photo at the factors of ``--scales``:
as it is and shrunk to 0.6) and in rendered trays, every proposal at least 0.15 strong is cut:

- a proposal within 0.4 of its width of a labelled die is that die's: four crops turned by about a
  quarter each (±20°), at its width ±10 %, half of them mirrored, each of the die's class when the
  die centre lies within 0.2 widths of the crop's centre (else "no die" with the offset to it), and
  two crops at the die's labelled centre at the proposal's width;
- any other proposal gives two crops of "no die" (the walls, side faces and clutter it takes for
  dice);
- a labelled die no proposal found gives two crops at its box's side (not for matteop65-wood,
  whose boxes are the top face's, not the die's).

``--unusual`` more rendered trays each hold dice of an unusual scheme (`UNUSUAL_SCHEMES`: an emblem
in place of the six's pips, gold or red pips) beside the tray's own: an emblem is "unreadable",
never a value (`class_of`).

``--preset NAME=N`` adds N rendered trays in the style preset NAME (`vision.render.style_like`,
e.g. ``oblique-table``), each die where its label box lies (`vision.evaluation.rendered_labels`:
on a tilted camera's view, its top face).

``--held-out`` cuts the photos held out from training instead (as they are, with no renders), for
measuring a network on photos it never saw (`train_dice_cnn.py --check`); a crop's ``source`` is
its folder's number in `labelled_folders` (from 1), 0 for a render.

``--size S`` cuts crops S pixels square (`vision.crops.die_crop`) for a network that reads them
at that size; `train_dice_cnn.py` takes the size from the crops.

Usage: .venv/bin/python training/make_proposal_crops.py OUT.npz [--synthetic 2500] [--unusual 800]
           [--no-photos | --held-out] [--scales 1,0.6] [--preset NAME=N ...] [--size 32]
           [--seed 5]
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision_accuracy import labelled_folders, labelled_photos
from training.make_crops import UNREADABLE, Sink, _turned
from training.split import is_training
from vision.crops import CROP_SIZE, die_crop, pyramid_of
from vision.detect import detect_scales
from vision.evaluation import rendered_labels, resized
from vision.render import (
    PRESETS,
    UNUSUAL_SCHEMES,
    RenderedDie,
    RenderedTray,
    render_tray,
    style_from_seed,
    style_like,
)
from vision.types import Frame

LEAST = 0.15
"""Proposals this strong or more are cut."""
SCALES = (1.0, 0.6)
"""Each training photo is cut as it is and shrunk by these (``--scales``)."""
TOP_FACE_BOXES = ("matteop65-wood",)
"""Folders whose label boxes hold only the top face (their side is no die's width)."""
SYNTHETIC_SEEDS = 900_000
"""The rendered trays' seeds (apart from the benchmarks')."""
UNUSUAL_SEEDS = 950_000
"""The seeds of the rendered trays with dice of an unusual scheme (`UNUSUAL_SCHEMES`)."""
PRESET_SEEDS = 970_000
"""The seeds of the rendered trays in a style preset (``--preset``)."""

Die = tuple[float, float, float | None, int]
"""A labelled die: centre x, y, its box's side (None: not a die's width) and class."""


def cut(
    frame: Frame,
    dice: Sequence[Die],
    rng: np.random.Generator,
    sink: Sink,
    source: int,
    size: int = CROP_SIZE,
) -> None:
    """The crops (``size`` pixels square) of one frame whose labelled dice are ``dice`` (module
    docstring)."""
    pyramid = pyramid_of(frame)
    proposals = [p for p in detect_scales(pyramid, LEAST) if p.strength >= LEAST]
    left = list(range(len(dice)))
    for p in sorted(proposals, key=lambda p: -p.strength):
        near = [
            (math.hypot(p.x - dice[i][0], p.y - dice[i][1]), i)
            for i in left
            if math.hypot(p.x - dice[i][0], p.y - dice[i][1]) < 0.4 * p.width
        ]
        if not near:
            for _ in range(2):
                sink.add(
                    die_crop(pyramid, (p.x, p.y), p.width, rng.uniform(0, 360), size),
                    0,
                    None,
                    source,
                )
            continue
        i = min(near)[1]
        left.remove(i)
        x, y, _, cls = dice[i]
        for k in range(4):
            angle = 90.0 * k + rng.uniform(-20, 20)
            width = p.width * math.exp(rng.uniform(-0.1, 0.1))
            crop = die_crop(pyramid, (p.x, p.y), width, angle, size)
            dx, dy = _turned((x - p.x) / width, (y - p.y) / width, angle)
            if rng.random() < 0.5:
                crop, dx = crop[:, ::-1].copy(), -dx
            sink.add(crop, cls if math.hypot(dx, dy) < 0.2 else 0, (dx, dy), source)
        for _ in range(2):
            width = p.width * math.exp(rng.uniform(-0.1, 0.1))
            crop = die_crop(pyramid, (x, y), width, rng.uniform(0, 360), size)
            sink.add(crop, cls, (0.0, 0.0), source)
    for i in left:
        x, y, side, cls = dice[i]
        if side:
            for _ in range(2):
                crop = die_crop(pyramid, (x, y), side, rng.uniform(0, 360), size)
                sink.add(crop, cls, (0.0, 0.0), source)


def rendered_dice(tray: RenderedTray) -> list[Die]:
    """A rendered tray's dice as `cut` takes them: where their label boxes lie, the box's
    wider side, the class."""
    return [
        (
            *label.center,
            float(max(label.x_max - label.x_min, label.y_max - label.y_min)),
            class_of(die),
        )
        for die, label in zip(tray.dice, rendered_labels(tray.dice), strict=True)
    ]


def class_of(die: RenderedDie) -> int:
    """A rendered die's class: the value a reader may give it (`RenderedDie.readable_value`),
    else unreadable (a cocked die, an emblem in place of a six's pips)."""
    return die.readable_value or UNREADABLE


def _scales(text: str) -> tuple[float, ...]:
    """``--scales``: positive factors, comma-separated."""
    try:
        scales = tuple(float(part) for part in text.split(","))
    except ValueError:
        scales = ()
    if not scales or not all(0 < scale <= 4 for scale in scales):
        raise argparse.ArgumentTypeError(f"{text!r}: factors between 0 and 4, e.g. 1,0.6")
    return scales


def _preset(text: str) -> tuple[str, int]:
    """``--preset``: a style preset's name and a count of trays, NAME=N."""
    name, _, count = text.partition("=")
    if name not in PRESETS or not count.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: NAME=N, NAME one of {', '.join(PRESETS)}")
    return name, int(count)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--synthetic", type=int, default=2500, help="rendered trays")
    parser.add_argument(
        "--unusual", type=int, default=800, help="rendered trays with dice of an unusual scheme"
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--no-photos", action="store_true", help="cut no labelled photos")
    which.add_argument(
        "--held-out", action="store_true", help="cut the held-out photos, as they are, alone"
    )
    parser.add_argument(
        "--scales",
        type=_scales,
        default=SCALES,
        help="the factors each training photo is cut at (1,0.6)",
    )
    parser.add_argument(
        "--preset",
        type=_preset,
        action="append",
        default=[],
        metavar="NAME=N",
        help="N rendered trays in the style preset NAME (vision.render.style_like)",
    )
    parser.add_argument(
        "--size", type=int, default=CROP_SIZE, help=f"the crops' side in pixels ({CROP_SIZE})"
    )
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if not 16 <= args.size <= 128 or args.size % 8:
        parser.error(f"--size {args.size}: a multiple of 8 from 16 to 128")
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    sink = Sink()
    scales = (1.0,) if args.held_out else args.scales
    for source, folder in enumerate([] if args.no_photos else labelled_folders(), start=1):
        photos = 0
        for image, photo, labels in labelled_photos(folder):
            if is_training(f"{folder.name}/{image}") == args.held_out:
                continue
            for scale in scales:
                dice = [
                    (
                        (label.center[0] + 0.5) * scale - 0.5,
                        (label.center[1] + 0.5) * scale - 0.5,
                        None
                        if folder.name in TOP_FACE_BOXES
                        else scale * min(label.x_max - label.x_min, label.y_max - label.y_min),
                        int(label.value or UNREADABLE),
                    )
                    for label in labels
                ]
                cut(resized(photo, scale), dice, rng, sink, source, args.size)
            photos += 1
        kind = "held-out" if args.held_out else "training"
        print(f"  {folder.name}: {photos} {kind} photos, {len(sink.crops)} crops", flush=True)
    synthetic = 0 if args.held_out else args.synthetic
    for n in range(synthetic):
        values = [
            None if rng.random() < 0.06 else int(rng.integers(1, 7))
            for _ in range(int(rng.integers(1, 9)))
        ]
        tray = render_tray(values, seed=SYNTHETIC_SEEDS + n)
        cut(tray.frame, rendered_dice(tray), rng, sink, 0, args.size)
    print(f"  synthetic: {synthetic} trays, {len(sink.crops)} crops", flush=True)
    unusual = sorted(UNUSUAL_SCHEMES)
    unusual_trays = 0 if args.held_out else args.unusual
    for n in range(unusual_trays):
        seed = UNUSUAL_SEEDS + n
        style = style_from_seed(seed)
        style = replace(style, schemes=(*style.schemes, unusual[n % len(unusual)]))
        values = [int(rng.integers(1, 7)) for _ in range(int(rng.integers(1, 9)))]
        tray = render_tray(values, seed=seed, style=style)
        cut(tray.frame, rendered_dice(tray), rng, sink, 0, args.size)
    print(f"  unusual schemes: {unusual_trays} trays, {len(sink.crops)} crops", flush=True)
    for name, count in [] if args.held_out else args.preset:
        for n in range(count):
            seed = PRESET_SEEDS + n
            values = [int(rng.integers(1, 7)) for _ in range(int(rng.integers(1, 13)))]
            tray = render_tray(values, seed=seed, style=style_like(name, seed))
            cut(tray.frame, rendered_dice(tray), rng, sink, 0, args.size)
        print(f"  {name}: {count} trays, {len(sink.crops)} crops", flush=True)
    sink.save(args.out)
    print(f"{len(sink.crops)} crops -> {args.out}, by class {np.bincount(sink.classes).tolist()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
