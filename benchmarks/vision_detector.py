"""How many of the labelled dice the die detector proposes, by kind of scene and on the held-out
photos: the first stage of the reader, measured on its own.

    .venv/bin/python benchmarks/vision_detector.py [--model FILE.onnx] [--one-level]
                                                   [--synthetic N] [--folders NAME ...]
                                                   [--scale F]

A labelled die is found when a proposal at least 0.1 (or 0.3) strong lies within 0.4 of the
proposal's width of the label's centre, each proposal standing for one die. "width ok" is the
share of the found dice whose proposed width is within 25 % of the label box's shorter side
(matteop65-wood's boxes cover only the pips: not counted there). "false" is proposals at least
0.3 strong that stand for no labelled die, per photo. By default `vision.detect.detect_scales`
reads each frame at the scales its dice need, with its network (`dice_det_scales.onnx`);
``--one-level`` reads the frame halved alone as the reader does (`vision.detect.detect`, with
`dice_det.onnx`); ``--model`` gives either another network (an ONNX file from
training/train_dice_det.py);
``--scale`` resizes every photo (and its labels) by a factor, as a nearer camera would see it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2

from benchmarks.vision_accuracy import labelled_folders, labelled_photos, set_names
from vision.crops import pyramid_of
from vision.detect import Proposal, detect, detect_scales
from vision.evaluation import LabelledDie, resized
from vision.network import read_onnx
from vision.render import render_tray
from vision.types import Frame

Die = tuple[float, float, float | None]
"""A labelled die: its centre (x, y) and width (None where the label box does not tell it)."""
PIP_BOXES = {"matteop65-wood"}
"""Folders whose label boxes cover only the pips: their widths are not compared."""


@dataclass
class Tally:
    """Dice and proposals counted over some photos."""

    photos: int = 0
    dice: int = 0
    found: dict[float, int] = field(default_factory=lambda: {0.1: 0, 0.3: 0})
    widths: int = 0
    widths_ok: int = 0
    false: int = 0

    def add(self, proposals: list[Proposal], dice: list[Die]) -> None:
        """Count one photo: its proposals and its dice (x, y, width or None)."""
        self.photos += 1
        self.dice += len(dice)
        for least in self.found:
            matched = _matched([p for p in proposals if p.strength >= least], dice)
            self.found[least] += len(matched)
            if least == 0.3:
                self.false += sum(1 for p in proposals if p.strength >= least) - len(matched)
            else:
                for proposal, (_, _, width) in matched:
                    if width is not None:
                        self.widths += 1
                        self.widths_ok += abs(proposal.width / width - 1.0) <= 0.25

    def row(self, name: str) -> str:
        share = {k: v / max(self.dice, 1) for k, v in self.found.items()}
        width = f"{self.widths_ok / self.widths:.3f}" if self.widths else "-"
        return (
            f"{name:<44} {self.photos:>6} {self.dice:>6} {share[0.1]:>8.4f} {share[0.3]:>8.4f}"
            f" {width:>8} {self.false / max(self.photos, 1):>7.2f}"
        )


def _matched(proposals: list[Proposal], dice: list[Die]) -> list[tuple[Proposal, Die]]:
    """Proposals paired with the dice they stand for, strongest first, one die each."""
    left = list(dice)
    pairs = []
    for proposal in sorted(proposals, key=lambda p: -p.strength):
        near = [
            (math.hypot(proposal.x - d[0], proposal.y - d[1]), i)
            for i, d in enumerate(left)
            if math.hypot(proposal.x - d[0], proposal.y - d[1]) < 0.4 * proposal.width
        ]
        if near:
            pairs.append((proposal, left.pop(min(near)[1])))
    return pairs


def _labelled(folder: str, labels: Iterable[LabelledDie]) -> list[Die]:
    return [
        (
            *label.center,
            None
            if folder in PIP_BOXES
            else min(label.x_max - label.x_min, label.y_max - label.y_min),
        )
        for label in labels
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="an ONNX detector to measure instead of the shipped one")
    parser.add_argument("--one-level", action="store_true", help="read the frame halved alone")
    parser.add_argument("--synthetic", type=int, default=300, help="rendered trays (seeds 0-N)")
    parser.add_argument("--folders", nargs="*", help="dataset folders (default: all)")
    parser.add_argument("--scale", type=float, default=1.0, help="photos resized by this factor")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    net = read_onnx(args.model) if args.model else None

    def proposals_of(frame: Frame) -> list[Proposal]:
        pyramid = pyramid_of(frame)
        if args.one_level:
            return detect(pyramid[1], 0.1, net)
        return detect_scales(pyramid, 0.1, net)

    tallies: dict[str, Tally] = defaultdict(Tally)
    if args.synthetic:
        for seed in range(args.synthetic):
            tray = render_tray([1 + (seed + k) % 6 for k in range(1 + seed % 8)], seed=seed)
            dice: list[Die] = [(*d.center, float(d.size_px)) for d in tray.dice]
            tallies["synthetic"].add(proposals_of(tray.frame), dice)
    for folder in labelled_folders():
        if args.folders and folder.name not in args.folders:
            continue
        for image, photo, labels in labelled_photos(folder):
            found = proposals_of(resized(photo, args.scale))
            dice = [
                (x * args.scale, y * args.scale, None if w is None else w * args.scale)
                for x, y, w in _labelled(folder.name, labels)
            ]
            for name in set_names(folder.name, image):
                tallies[name].add(found, dice)
    model = args.model or ("dice_det.onnx" if args.one_level else "dice_det_scales.onnx")
    print(f"detector: {model}, {'frame halved only' if args.one_level else 'detect_scales'}")
    head = ("photos", "dice", ">=0.1", ">=0.3", "width ok", "false")
    print(f"{'set':<44} {head[0]:>6} {head[1]:>6} " + " ".join(f"{h:>8}" for h in head[2:]))
    for name in sorted(tallies):
        print(tallies[name].row(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
