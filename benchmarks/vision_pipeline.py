"""The reader issue 46 asks for, measured before it is built: the detector's proposals, the
classifier's looks at each, and one threshold, with none of the pip stages or the fast path's
rules. It tells how far a detector and a classifier (the shipped ones, or candidates from
training/) are from the bars, and which of the two is short.

    .venv/bin/python benchmarks/vision_pipeline.py [--detector FILE.onnx] [--classifier FILE.onnx]
                                                   [--synthetic N] [--folders NAME ...]
                                                   [--sure P ...]

Each frame: the proposals of `vision.detect.detect_scales` at least 0.15 strong; the classifier
looks at each, once where it was proposed and then, moved where that look places the die centre
(when it is 0.15-0.7 of a width away), four times turned by a quarter; the four looks' class
probabilities are averaged. A proposal is a die when that average is at least 0.5 sure of a die;
of two dice closer than half the narrower's width the surer is kept. A die's value is the most
probable face, given only when its share of the die probability is at least ``--sure`` (several
may be given: one table each) and no smaller than the "cannot be read" class's; else the die is
reported `None`. The figures are those of `vision_accuracy.py` (recall, precision, throws read
exactly, silent misreads, dice reported None), for every folder and kind of scene, all photos and
held out (training/split.py).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from benchmarks.vision_accuracy import labelled_folders, labelled_photos, set_names
from vision.classify import NO_DIE, UNREADABLE, Verdict, classify, classify_with
from vision.crops import die_crop, pyramid_of
from vision.detect import detect_scales
from vision.evaluation import LabelledDie, Score, rendered_labels, score_image
from vision.network import read_onnx
from vision.render import render_tray
from vision.types import Box, DieReading, Frame, Reading

LEAST = 0.15
"""Proposals this strong or more are looked at."""
TURNS = (0.0, 90.0, 180.0, 270.0)
"""The angles (degrees) of the looks whose probabilities are averaged."""
MOVE = (0.15, 0.7)
"""A first look that places the die this many widths away is followed (nearer: the die is there;
farther: the look saw another die)."""
DIE = 0.5
"""A proposal whose averaged looks are this sure of a die is one."""

Looks = Callable[[Sequence[Frame]], list[Verdict]]
"""A classifier: its verdict on each crop."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A proposal as the classifier saw it: centre, width and its looks' averaged probabilities."""

    x: float
    y: float
    width: float
    probabilities: npt.NDArray[np.float64]

    @property
    def die(self) -> float:
        """How sure the looks are that a die (readable or not) is centred here."""
        return 1.0 - float(self.probabilities[NO_DIE])


def candidates(frame: Frame, detector: cv2.dnn.Net | None, look: Looks) -> list[Candidate]:
    """The frame's proposals, each looked at by the classifier (module docstring)."""
    pyramid = pyramid_of(frame)
    proposals = [p for p in detect_scales(pyramid, LEAST, detector) if p.strength >= LEAST]
    if not proposals:
        return []
    first = look([die_crop(pyramid, (p.x, p.y), p.width) for p in proposals])
    places = []
    for proposal, verdict in zip(proposals, first, strict=True):
        dx, dy = verdict.offset
        moved = MOVE[0] < math.hypot(dx, dy) < MOVE[1]
        x = proposal.x + dx * proposal.width if moved else proposal.x
        y = proposal.y + dy * proposal.width if moved else proposal.y
        places.append((x, y, proposal.width))
    looks = look([die_crop(pyramid, (x, y), w, angle) for x, y, w in places for angle in TURNS])
    found = []
    for index, (x, y, width) in enumerate(places):
        turned = looks[index * len(TURNS) : (index + 1) * len(TURNS)]
        mean = np.mean([v.probabilities for v in turned], axis=0)
        found.append(Candidate(x, y, width, mean))
    return found


def reading(found: list[Candidate], sure: float) -> Reading:
    """The dice of one frame's candidates, values given at ``sure`` (module docstring)."""
    kept: list[Candidate] = []
    for candidate in sorted((c for c in found if c.die >= DIE), key=lambda c: -c.die):
        if all(
            math.hypot(candidate.x - k.x, candidate.y - k.y) >= 0.5 * min(candidate.width, k.width)
            for k in kept
        ):
            kept.append(candidate)
    dice = []
    for candidate in kept:
        p = candidate.probabilities
        value = 1 + int(np.argmax(p[1:7]))
        share = float(p[value]) / max(candidate.die, 1e-9)
        given = share >= sure and p[value] >= p[UNREADABLE]
        half = candidate.width / 2
        box = Box(
            round(candidate.x - half),
            round(candidate.y - half),
            round(candidate.width),
            round(candidate.width),
        )
        dice.append(DieReading(value if given else None, (candidate.x, candidate.y), box, share))
    return Reading(tuple(dice))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--detector", help="an ONNX detector (default dice_det_scales.onnx)")
    parser.add_argument("--classifier", help="an ONNX classifier (default dice_cnn.onnx)")
    parser.add_argument("--synthetic", type=int, default=300, help="rendered throws")
    parser.add_argument("--folders", nargs="*", help="dataset folders (default: all)")
    parser.add_argument("--sure", type=float, nargs="*", default=[0.0, 0.9, 0.97])
    args = parser.parse_args()
    cv2.setNumThreads(1)
    detector = read_onnx(args.detector) if args.detector else None
    net = read_onnx(args.classifier) if args.classifier else None

    def look(crops: Sequence[Frame]) -> list[Verdict]:
        return classify_with(net, crops) if net is not None else classify(crops)

    frames: list[tuple[list[str], list[Candidate], list[LabelledDie]]] = []
    for seed in range(args.synthetic):
        tray = render_tray([1 + (seed + k) % 6 for k in range(1 + seed % 8)], seed=10_000 + seed)
        frames.append(
            (["synthetic"], candidates(tray.frame, detector, look), rendered_labels(tray.dice))
        )
    for folder in labelled_folders():
        if args.folders and folder.name not in args.folders:
            continue
        for image, photo, labels in labelled_photos(folder):
            names = set_names(folder.name, image)
            frames.append((names, candidates(photo, detector, look), labels))
        print(f"  {folder.name}: read", file=sys.stderr, flush=True)
    print(
        f"detector {args.detector or 'dice_det_scales.onnx'}, "
        f"classifier {args.classifier or 'dice_cnn.onnx'}"
    )
    for sure in args.sure:
        scores: dict[str, Score] = defaultdict(Score)
        for names, found, labels in frames:
            score = score_image(reading(found, sure), labels)
            for name in names:
                scores[name] += score
        print(f"values given at {sure}:")
        print(f"  {'set':<56} {'recall':>7} {'prec.':>7} {'exact':>7} {'silent':>7} {'None':>7}")
        for name in sorted(scores):
            s = scores[name]
            print(
                f"  {name:<56} {s.recall:>7.4f} {s.precision:>7.4f} {s.throw_accuracy:>7.4f}"
                f" {s.silent_misreads:>7.4f} {s.unread / max(s.reported, 1):>7.4f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
