"""Cut classifier crops where the multi-scale detector (`vision.detect.detect_scales`) proposes
dice, for the judge's network (`vision/judge_cnn.onnx`, training/README.md).

In the training part of every labelled folder (each photo at the factors of ``--scales``: as it
is and shrunk to 0.6; a folder of crops' crops each set in a frame, `benchmarks.vision_accuracy.
framed`) and in rendered trays, every proposal at least 0.15 strong is cut:

- a proposal within 0.4 of its width of a labelled die is that die's: four crops turned by about a
  quarter each (±20°), at its width ±10 %, half of them mirrored, each of the die's class when the
  die centre lies within 0.2 widths (``--centred``) of the crop's centre (else "no die" with the
  offset to it), and, for the die's strongest proposal, two crops at the die's labelled centre at
  the proposal's width (a die proposed twice, at two scales, is that die both times);
- any other proposal gives two crops of "no die" (the walls, side faces and clutter it takes for
  dice), unless ``--doubt`` is given and the judge's network as shipped finds a die there at
  least `DOUBTED` probable, turned either way: the photos' labels are not complete (dice at the
  edge or in a heap left out, faces bearing an emblem), and such a crop is left out rather than
  taught as no die;
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
its photo's kind of scene's number in `SCENES` (from 1), 0 for a render.

``--originals SHARE`` cuts only that share (0-1) of the training photos' originals
(`training.split.in_share`: a smaller share lies inside a larger one), for a learning curve;
with ``--other-originals``, the training originals outside that share instead (the other fold,
for networks that each leave some photos unlearnt).

``--size S`` cuts crops S pixels square (`vision.crops.die_crop`) for a network that reads them
at that size; `train_dice_cnn.py` takes the size from the crops.

Usage: .venv/bin/python training/make_proposal_crops.py OUT.npz [--synthetic 2500] [--unusual 800]
           [--no-photos | --held-out] [--scales 1,0.6] [--preset NAME=N ...] [--size 32]
           [--centred 0.2] [--doubt] [--originals 1 [--other-originals]] [--seed 5]
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision_accuracy import labelled_folders, labelled_photos, scene_of
from training.make_crops import UNREADABLE, Sink, _turned
from training.split import in_share, is_training
from vision.crops import CROP_SIZE, Pyramid, die_crop, pyramid_of
from vision.detect import Proposal, detect_scales
from vision.evaluation import rendered_labels, resized
from vision.judge import Classifier, judge_classifier
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

SCENES = (
    "matteop65-wood",
    "nell-byler-d6",
    "rune55-trainval coloured dice in felt trays",
    "rune55-trainval greyscale close-ups",
    "rune55-trainval oblique white tables",
    "rune55-trainval board game",
    "epanemu-ctu",
    "chase-casino-crops",
)
"""The kinds of scene of the labelled photos (`benchmarks.vision_accuracy.scene_of`), in the
order of the crops' ``source`` numbers (from 1; a scene not listed is numbered after them)."""
CENTRED = 0.2
"""A crop of a proposal on a labelled die is of the die's class when the die centre lies this
near its centre, in die widths (``--centred``), else "no die" with the offset to it."""
DOUBTED = 0.9
"""With ``--doubt``, a proposal on no labelled die that the shipped judge's network finds a die
this probable (both looks) is not cut as "no die"."""
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
    doubt: Classifier | None = None,
    centred: float = CENTRED,
    proposals: Sequence[Proposal] | None = None,
) -> None:
    """The crops (``size`` pixels square) of one frame whose labelled dice are ``dice``, at
    ``proposals`` (default: where the detector proposes dice at least `LEAST` strong; module
    docstring); a crop is of a die's class when the die centre lies within ``centred`` die widths
    of its centre; ``doubt`` (a classifier) leaves out the proposals on no labelled die that it
    finds dice."""
    pyramid = pyramid_of(frame)
    if proposals is None:
        proposals = [p for p in detect_scales(pyramid, LEAST) if p.strength >= LEAST]
    left = set(range(len(dice)))
    for p in sorted(proposals, key=lambda p: -p.strength):
        near = [
            (math.hypot(p.x - x, p.y - y), i)
            for i, (x, y, _, _) in enumerate(dice)
            if math.hypot(p.x - x, p.y - y) < 0.4 * p.width
        ]
        if not near:
            if doubt is None or not _a_die_to(doubt, pyramid, p):
                for _ in range(2):
                    angle = rng.uniform(0, 360)
                    sink.add(die_crop(pyramid, (p.x, p.y), p.width, angle, size), 0, None, source)
            continue
        i = min(near)[1]
        x, y, _, cls = dice[i]
        for k in range(4):
            angle = 90.0 * k + rng.uniform(-20, 20)
            width = p.width * math.exp(rng.uniform(-0.1, 0.1))
            crop = die_crop(pyramid, (p.x, p.y), width, angle, size)
            dx, dy = _turned((x - p.x) / width, (y - p.y) / width, angle)
            if rng.random() < 0.5:
                crop, dx = crop[:, ::-1].copy(), -dx
            sink.add(crop, cls if math.hypot(dx, dy) < centred else 0, (dx, dy), source)
        if i in left:
            left.remove(i)
            for _ in range(2):
                width = p.width * math.exp(rng.uniform(-0.1, 0.1))
                crop = die_crop(pyramid, (x, y), width, rng.uniform(0, 360), size)
                sink.add(crop, cls, (0.0, 0.0), source)
    for i in sorted(left):
        x, y, side, cls = dice[i]
        if side:
            for _ in range(2):
                crop = die_crop(pyramid, (x, y), side, rng.uniform(0, 360), size)
                sink.add(crop, cls, (0.0, 0.0), source)


def _a_die_to(classifier: Classifier, pyramid: Pyramid, proposal: Proposal) -> bool:
    """Whether ``classifier`` finds a die at ``proposal`` at least `DOUBTED` probable, upright
    and turned a quarter."""
    center = (proposal.x, proposal.y)
    crops = [die_crop(pyramid, center, proposal.width, angle) for angle in (0.0, 90.0)]
    return all(v.die_probability >= DOUBTED for v in classifier(crops))


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


def cut_from(name: str, share: float, *, other: bool = False) -> bool:
    """Whether the training photo ``name`` is cut: its original is among ``share`` of them
    (`training.split.in_share`), or with ``other`` is not."""
    return in_share(name, share) != other


def scene_number(scene: str) -> int:
    """The ``source`` number of a photo of the kind of scene ``scene`` (`SCENES`)."""
    return SCENES.index(scene) + 1 if scene in SCENES else len(SCENES) + 1


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
    parser.add_argument(
        "--doubt",
        action="store_true",
        help="leave out proposals on no labelled die that the judge's network finds dice",
    )
    parser.add_argument(
        "--centred",
        type=float,
        default=CENTRED,
        help=f"die widths from a die's centre within which a crop is of its class ({CENTRED})",
    )
    parser.add_argument(
        "--originals",
        type=float,
        default=1.0,
        help="the share of the training photos' originals cut (1: all)",
    )
    parser.add_argument(
        "--other-originals",
        action="store_true",
        help="cut the training originals outside the --originals share instead",
    )
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if not 0 < args.originals <= 1:
        parser.error(f"--originals {args.originals}: a share above 0, at most 1")
    if args.other_originals and args.originals >= 1:
        parser.error("--other-originals: the originals outside an --originals share below 1")
    if args.held_out and args.originals < 1:
        parser.error("--originals: a share of the training photos, not with --held-out")
    if not 16 <= args.size <= 128 or args.size % 8:
        parser.error(f"--size {args.size}: a multiple of 8 from 16 to 128")
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    sink = Sink()
    doubt = judge_classifier if args.doubt else None
    scales = (1.0,) if args.held_out else args.scales
    for folder in [] if args.no_photos else labelled_folders(crops=True):
        photos = 0
        for image, photo, labels in labelled_photos(folder):
            name = f"{folder.name}/{image}"
            if is_training(name) == args.held_out:
                continue
            if not cut_from(name, args.originals, other=args.other_originals):
                continue
            source = scene_number(scene_of(folder.name, image))
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
                cut(resized(photo, scale), dice, rng, sink, source, args.size, doubt, args.centred)
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
        cut(tray.frame, rendered_dice(tray), rng, sink, 0, args.size, None, args.centred)
    print(f"  synthetic: {synthetic} trays, {len(sink.crops)} crops", flush=True)
    unusual = sorted(UNUSUAL_SCHEMES)
    unusual_trays = 0 if args.held_out else args.unusual
    for n in range(unusual_trays):
        seed = UNUSUAL_SEEDS + n
        style = style_from_seed(seed)
        style = replace(style, schemes=(*style.schemes, unusual[n % len(unusual)]))
        values = [int(rng.integers(1, 7)) for _ in range(int(rng.integers(1, 9)))]
        tray = render_tray(values, seed=seed, style=style)
        cut(tray.frame, rendered_dice(tray), rng, sink, 0, args.size, None, args.centred)
    print(f"  unusual schemes: {unusual_trays} trays, {len(sink.crops)} crops", flush=True)
    for name, count in [] if args.held_out else args.preset:
        for n in range(count):
            seed = PRESET_SEEDS + n
            values = [int(rng.integers(1, 7)) for _ in range(int(rng.integers(1, 13)))]
            tray = render_tray(values, seed=seed, style=style_like(name, seed))
            cut(tray.frame, rendered_dice(tray), rng, sink, 0, args.size, None, args.centred)
        print(f"  {name}: {count} trays, {len(sink.crops)} crops", flush=True)
    sink.save(args.out)
    print(f"{len(sink.crops)} crops -> {args.out}, by class {np.bincount(sink.classes).tolist()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
