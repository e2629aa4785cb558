"""Fit the judge's models (`vision/judge.json`) on the dice the reader finds in the training part of
the labelled photos and in rendered trays, choose the value threshold there, and print how the
judge does on the held-out part beside the reader without it.

Usage: .venv/bin/python training/fit_judge.py [--out vision/judge.json] [--silent 0.01]
           [--network vision/judge_cnn.onnx] [--synthetic 1000] [--evidence F.pkl] [--expect]
           [--fit-without FOLDER ...]

``--fit-without FOLDER`` reads and scores that folder's photos but fits nothing to them, nor
chooses the threshold on them: the judge meets them as it meets a table it never saw.
``--expect`` reads and decides every photo told its labelled number of dice (as the table would
tell the reader), and chooses the value threshold so.

Each photo of every folder in ../shared/datasets, and ``--synthetic`` rendered trays, are read by
the stages before the judge (`vision.reader.candidates_of`, on the working copy as the reader reads
it) and the judge's classifier network looks at every candidate (`vision.judge.looks_at`). A
candidate is a die when it lies on a labelled die (within 0.4 of the wider's width of its centre,
and at least 0.4 times its width); a value is right when it is that die's. The die model is fitted
to every candidate of the training photos, the value model to each value in question of the
candidates on a die, each folder weighing the same (numpy, Newton's method with a little weight
decay). The value threshold is the lowest at which, in every kind of scene (`scene_of`) and the
rendered trays, at most ``--silent`` of the training photos are misread silently (the right count,
every die valued, a value wrong) as models fitted without them decide them (five folds by original
photo), counted by original photo (the augmented copies of one are one throw; at most one in a
scene of fewer than 1 / ``--silent`` originals). The candidates and looks are kept in
``--evidence`` (read again when it exists), so that refitting takes seconds; gathering them takes
about 10 minutes.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
import zlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from benchmarks.vision_accuracy import labelled_folders, labelled_photos, set_names
from training.split import original_photo
from vision.candidates import Candidate
from vision.classify import classify_with
from vision.crops import pyramid_of
from vision.evaluation import LabelledDie, Score, rendered_labels, score_image
from vision.face import Face
from vision.judge import (
    DIE_FEATURES,
    VALUE_FEATURES,
    Logistic,
    Looks,
    Model,
    context_of,
    decide,
    die_evidence,
    looks_at,
    value_evidence,
    values_in_question,
)
from vision.network import read_onnx
from vision.params import ReaderParams
from vision.reader import MOST_DICE, candidates_of, die_reading, scaled, working_copy
from vision.render import UNUSUAL_SCHEMES, render_tray, style_from_seed
from vision.types import Frame, Reading
from vision.validate import check_frame

ROOT = Path(__file__).resolve().parent.parent
THRESHOLDS = np.round(np.arange(0.5, 0.996, 0.005), 3)
FOLDS = 5
"""The training photos fall in this many folds by original photo (`fold_of`): the value threshold
is chosen on each fold as models fitted on the others decide it (`out_of_fold`)."""
UNUSUAL_EVERY = 4
"""Of every this many pairs of rendered trays, one holds dice of an unusual scheme too
(`UNUSUAL_SCHEMES`): an emblem in place of a six's pips is labelled "not sure" (never to be read
as a value)."""
SYNTHETIC_SEEDS = 50_000
"""The rendered trays' seeds (apart from the benchmarks')."""
REACH, NARROWEST = 0.4, 0.4
"""A face is on a labelled die within REACH of the wider's width of its centre, and at least
NARROWEST times the label's width wide (no wider bound: matteop65-wood's boxes cover only the pips,
a one's box only its pip)."""


@dataclass(frozen=True, slots=True)
class Photo:
    """One frame as the stages before the judge read it: the sets it counts in, the original
    photo it is a copy of (`training.split.original_photo`), whether it is training, the
    candidates (on the working copy, whose size is the frame's times ``factor``), the judge's
    looks at each, and the labelled dice."""

    names: tuple[str, ...]
    original: str
    training: bool
    factor: float
    found: tuple[Candidate, ...]
    looks: tuple[Looks, ...]
    labels: tuple[LabelledDie, ...]

    @property
    def group(self) -> str:
        """The folder (or "synthetic") the frame comes from."""
        return self.names[0]

    @property
    def scene(self) -> str:
        """The kind of scene the frame shows (`scene_of`; "synthetic" for a rendered tray)."""
        kinds = [name for name in self.names if not name.endswith("held out")]
        return kinds[-1]


def read_before_judge(
    frame: Frame, network: cv2.dnn.Net, expected: int | None = None
) -> tuple[float, list[Candidate], list[Looks]]:
    """The working copy's factor, the candidates (placed by the judge's looks) and the looks;
    ``expected``: the number of dice, as the reader is told it."""
    working, factor = working_copy(check_frame(frame))
    pyramid = pyramid_of(working)
    found = candidates_of(working, pyramid, ReaderParams(), expected=expected)
    placed, looks = looks_at(pyramid, found, lambda crops: classify_with(network, crops))
    return factor, placed, looks


def gather(network: cv2.dnn.Net, synthetic: int, *, counted: bool = False) -> list[Photo]:
    """Every labelled photo and ``synthetic`` rendered trays (every other one held out), read
    (``counted``: each told its labelled number of dice, `told`)."""
    photos = []
    rng = random.Random(SYNTHETIC_SEEDS)
    unusual = sorted(UNUSUAL_SCHEMES)
    for n in range(synthetic):
        values = [rng.randint(1, 6) for _ in range(rng.randint(1, 8))]
        seed = SYNTHETIC_SEEDS + n
        style = style_from_seed(seed)
        if n // 2 % UNUSUAL_EVERY == UNUSUAL_EVERY - 1:  # a training tray and a held-out one
            name = unusual[n // (2 * UNUSUAL_EVERY) % len(unusual)]
            style = replace(style, schemes=(*style.schemes, name))
        tray = render_tray(values, seed=seed, style=style)
        expected = told(len(tray.dice)) if counted else None
        factor, found, looks = read_before_judge(tray.frame, network, expected)
        names: tuple[str, ...] = ("synthetic",)
        if n % 2:
            names += ("synthetic, held out",)
        labels = tuple(
            replace(label, value=die.readable_value)
            for die, label in zip(tray.dice, rendered_labels(tray.dice), strict=True)
        )
        original = f"synthetic/{n}"
        photos.append(
            Photo(names, original, n % 2 == 0, factor, tuple(found), tuple(looks), labels)
        )
    print(f"  synthetic: {synthetic} trays", file=sys.stderr, flush=True)
    for folder in labelled_folders():
        for count, (image, photo, dice) in enumerate(labelled_photos(folder), start=1):
            expected = told(len(dice)) if counted else None
            factor, found, looks = read_before_judge(photo, network, expected)
            names = tuple(set_names(folder.name, image))
            training = not any(name.endswith("held out") for name in names)
            original = original_photo(f"{folder.name}/{image}")
            photos.append(
                Photo(names, original, training, factor, tuple(found), tuple(looks), tuple(dice))
            )
            if count % 200 == 0:
                print(f"  {folder.name}: {count} photos", file=sys.stderr, flush=True)
    return photos


def label_of(face: Face, factor: float, labels: Sequence[LabelledDie]) -> LabelledDie | None:
    """The labelled die a face (on the working copy) lies on, if any (module docstring)."""
    x, y, width = face.x / factor, face.y / factor, face.width / factor
    best: tuple[float, LabelledDie] | None = None
    for label in labels:
        side = max(label.x_max - label.x_min, label.y_max - label.y_min, 1)
        distance = math.hypot(x - label.center[0], y - label.center[1])
        if (
            distance <= REACH * max(side, width)
            and NARROWEST * side <= width
            and (best is None or distance < best[0])
        ):
            best = (distance, label)
    return best[1] if best else None


def evidence(photos: Sequence[Photo]) -> dict[str, npt.NDArray[np.float64]]:
    """The training photos' evidence: die rows (features, is a die, weight) and value rows
    (features, right, weight), each folder weighing the same."""
    counts: dict[str, int] = defaultdict(int)
    for photo in photos:
        if photo.training:
            counts[photo.group] += len(photo.found)
    die_x, die_y, die_w, value_x, value_y, value_w = [], [], [], [], [], []
    for photo in photos:
        if not photo.training:
            continue
        weight = sum(counts.values()) / len(counts) / counts[photo.group]
        context = context_of(photo.found, photo.looks)
        for index, (candidate, look) in enumerate(zip(photo.found, photo.looks, strict=True)):
            label = label_of(candidate.face, photo.factor, photo.labels)
            die_x.append(die_evidence(index, photo.found, photo.looks, context))
            die_y.append(float(label is not None))
            die_w.append(weight)
            if label is None:
                continue
            for value in values_in_question(candidate.face, look):  # none right: "not sure"
                value_x.append(value_evidence(candidate, look, value, context))
                value_y.append(float(value == label.value))
                value_w.append(weight)
    return {
        name: np.asarray(rows, dtype=np.float64)
        for name, rows in (
            ("die_x", die_x), ("die_y", die_y), ("die_w", die_w),
            ("value_x", value_x), ("value_y", value_y), ("value_w", value_w),
        )
    }  # fmt: skip


def fit(
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    weight: npt.NDArray[np.float64],
    decay: float = 1e-2,
) -> Logistic:
    """A logistic model of ``y`` on ``x`` (rows weighed by ``weight``), by Newton's method."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = decay * np.eye(len(w))
    penalty[-1, -1] = 0.0
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        gradient = z.T @ (weight * (p - y)) + penalty @ w
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + penalty + 1e-9 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return Logistic(tuple(mean), tuple(scale), tuple(w[:-1]), float(w[-1]))


def told(count: int) -> int | None:
    """The number of dice a photo of ``count`` labelled dice tells the reader (None for a count
    the reader is never told)."""
    return count if 1 <= count <= MOST_DICE else None


def scores(
    photos: Sequence[Photo], model: Model | None, *, counted: bool = False
) -> dict[str, Score]:
    """The figures of every set, the dice as the judge decides them (None: without the judge,
    the faces the fast path or the pip stages found), each photo told its number of dice when
    ``counted``."""
    params = ReaderParams()
    out: dict[str, Score] = defaultdict(Score)
    for photo in photos:
        if model is not None:
            expected = told(len(photo.labels)) if counted else None
            faces = decide(photo.found, photo.looks, model, expected=expected)
        else:
            faces = [c.face for c in photo.found if c.has_pips or c.is_quick]
        unbounded = 10**6  # boxes are not clipped to the frame: the scoring is by centre
        dice = [
            die_reading(scaled(face, 1.0 / photo.factor), unbounded, unbounded, params)
            for face in faces
        ]
        score = score_image(Reading(tuple(dice)), photo.labels)
        for name in photo.names:
            out[name] += score
    return out


def fitted(photos: Sequence[Photo]) -> tuple[Logistic, Logistic]:
    """The die and value models fitted on the training photos among ``photos``."""
    rows = evidence(photos)
    die = fit(rows["die_x"], rows["die_y"], rows["die_w"])
    return die, fit(rows["value_x"], rows["value_y"], rows["value_w"])


def fitted_without(photos: Sequence[Photo], folders: Sequence[str]) -> list[Photo]:
    """``photos``, those of ``folders`` no longer training: read and scored, never fitted on."""
    return [replace(p, training=False) if p.group in folders else p for p in photos]


def fold_of(photo: Photo) -> int:
    """The fold (of `FOLDS`) a photo falls in, by its original photo."""
    return zlib.crc32(photo.original.encode("utf-8")) % FOLDS


def out_of_fold(photos: Sequence[Photo]) -> list[tuple[Photo, Logistic, Logistic]]:
    """Every training photo with the die and value models fitted on the other folds' training
    photos (`fold_of`): how models fitted without it decide it."""
    training = [p for p in photos if p.training]
    judged = []
    for fold in range(FOLDS):
        die, value = fitted([p for p in training if fold_of(p) != fold])
        judged += [(p, die, value) for p in training if fold_of(p) == fold]
    return judged


def misread_silently(
    judged: Sequence[tuple[Photo, Model]], *, counted: bool = False
) -> dict[str, tuple[float, float]]:
    """By kind of scene: the original photos (each copy of one weighing 1 / its copies) and how
    many of them are misread silently, each photo's dice as its model decides them."""
    copies: dict[str, int] = defaultdict(int)
    for photo, _ in judged:
        copies[photo.original] += 1
    out: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for photo, model in judged:
        score = scores([photo], model, counted=counted)[photo.names[0]]
        out[photo.scene][0] += 1.0 / copies[photo.original]
        out[photo.scene][1] += score.silent / copies[photo.original]
    return {name: (n, silent) for name, (n, silent) in out.items()}


def least_value(
    judged: Sequence[tuple[Photo, Logistic, Logistic]],
    least_die: float,
    silent: float,
    *,
    counted: bool = False,
) -> float:
    """The lowest value threshold at which, in every kind of scene, at most ``silent`` of the
    training photos are misread silently (at most one, in a scene of fewer than 1 / ``silent``),
    each photo decided by the models fitted without its fold (`out_of_fold`), counted by
    original photo: the augmented copies of one photo are one throw, not several."""
    for threshold in THRESHOLDS:
        by_set = misread_silently(
            [(p, Model(die, value, least_die, float(threshold))) for p, die, value in judged],
            counted=counted,
        )
        if all(bad <= max(1.0, silent * n) + 1e-9 for n, bad in by_set.values()):
            return float(threshold)
    return float(THRESHOLDS[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / "judge.json")
    parser.add_argument("--network", type=Path, default=ROOT / "vision" / "judge_cnn.onnx")
    parser.add_argument("--silent", type=float, default=0.01)
    parser.add_argument("--least-die", type=float, default=0.5)
    parser.add_argument("--least-value", type=float, help="the value threshold, not chosen")
    parser.add_argument("--synthetic", type=int, default=1000)
    parser.add_argument("--evidence", type=Path, default=Path("/tmp/judge-evidence.pkl"))
    parser.add_argument(
        "--expect",
        action="store_true",
        help="every photo read told its labelled number of dice, the threshold chosen so",
    )
    parser.add_argument(
        "--fit-without",
        action="append",
        default=[],
        metavar="FOLDER",
        help="a folder whose photos are read and scored but not fitted on (again for more)",
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.evidence.is_file():
        with args.evidence.open("rb") as file:
            photos = pickle.load(file)
    else:
        photos = gather(read_onnx(str(args.network)), args.synthetic, counted=args.expect)
        with args.evidence.open("wb") as file:
            pickle.dump(photos, file)
    photos = fitted_without(photos, args.fit_without)
    die, value = fitted(photos)
    least = args.least_value or least_value(
        out_of_fold(photos), args.least_die, args.silent, counted=args.expect
    )
    model = Model(die, value, args.least_die, least)
    args.out.write_text(model.to_json(), encoding="utf-8")
    print(f"{len(DIE_FEATURES)} + {len(VALUE_FEATURES)} features; value threshold {least}")
    print(f"-> {args.out}")
    before, after = scores(photos, None), scores(photos, model, counted=args.expect)
    print(f"  {'set':<52} {'without the judge':>36}   {'judged':>36}")
    columns = "recall  prec.  exact silent  None"
    print(f"  {'':<52} {columns:>36}   {columns:>36}")
    for name in sorted(after):
        row = []
        for s in (before[name], after[name]):
            none = s.unread / max(s.reported, 1)
            row.append(f"{s.recall:6.3f} {s.precision:6.3f} {s.throw_accuracy:6.3f} "
                       f"{s.silent_misreads:6.3f} {none:5.3f}")  # fmt: skip
        print(f"  {name:<52} {row[0]:>36}   {row[1]:>36}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
