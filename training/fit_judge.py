"""Fit the judge's model (`vision/judge.json`) on the dice the reader finds in the training part of
the labelled photos, choose its threshold there, and print how it does on the held-out part.

Usage: .venv/bin/python training/fit_judge.py [--out vision/judge.json] [--silent 0.01]
           [--evidence F.npz]

Each photo of every folder in ../shared/datasets is read by the stages before the judge
(`vision.reader.candidate_faces`); each die read with a value and matched to a label (by centre,
`vision.evaluation.matched`) gives the judge's evidence (`vision.judge.evidence`) and whether its
value is the label's. A logistic model is fitted to the training photos' dice (numpy, gradient
descent with a little weight decay). Its threshold (``least``) is the lowest at which, in every
kind of scene (`benchmarks/vision_accuracy.scene_of`), at most ``--silent`` of the training
photos would be misread silently (the right count, every die valued, a value wrong). The
evidence is kept in ``--evidence`` (read again when it exists) so that refitting takes seconds.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision_accuracy import labelled_folders, labelled_photos, scene_of
from training.split import is_training
from vision.classify import classify
from vision.crops import pyramid_of
from vision.evaluation import matched
from vision.judge import FEATURES, Model, evidence, looks_at
from vision.params import ReaderParams
from vision.reader import candidate_faces, die_reading
from vision.types import Reading
from vision.validate import check_frame

ROOT = Path(__file__).resolve().parent.parent

THRESHOLDS = np.round(np.arange(0.0, 0.991, 0.01), 2)


def gather(path: Path) -> dict[str, np.ndarray]:
    """The judge's evidence on every die read with a value in every labelled photo, with the
    photo it lies in; and each photo's labelled values, dice read and dice left unread."""
    params = ReaderParams()
    rows: list[list[float]] = []
    photos: list[tuple[str, str, bool, int, int, str]] = []
    for folder in labelled_folders():
        for count, (image, photo, labels) in enumerate(labelled_photos(folder), start=1):
            frame = check_frame(photo)
            pyramid = pyramid_of(frame)
            faces = candidate_faces(frame, pyramid, params)
            height, width = frame.shape[:2]
            dice = tuple(die_reading(face, width, height, params) for face in faces)
            found = matched(Reading(dice), labels)
            index = len(photos)
            valued = [(i, f) for i, f in enumerate(faces) if f.value is not None]
            looks = looks_at(pyramid, [f for _, f in valued], classify)
            for (i, face), verdicts in zip(valued, looks, strict=True):
                label = labels[found[i]].value if i in found else None
                assert face.value is not None
                right = float(label == face.value)
                rows.append([index, right, label or 0, *evidence(face, face.value, verdicts)])
            values = "".join(str(d.value or 0) for d in labels)
            name = f"{folder.name}/{image}"
            photos.append(
                (name, scene_of(folder.name, image), is_training(name), len(faces),
                 len(faces) - len(valued), values)
            )  # fmt: skip
            if count % 100 == 0:
                print(f"  {folder.name}: {count} photos", file=sys.stderr, flush=True)
    data = {"rows": np.asarray(rows, dtype=np.float64), "photos": np.asarray(photos, dtype=object)}
    np.savez(path, **data)
    return data


def fit(x: np.ndarray, y: np.ndarray, steps: int = 4000, decay: float = 1e-3) -> Model:
    """A logistic model of ``y`` (1: right) on the evidence ``x``, threshold 0."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mean) / scale
    weights, bias = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ weights + bias)))
        weights -= 0.5 * (z.T @ (p - y) / len(y) + decay * weights)
        bias -= 0.5 * float(np.mean(p - y))
    return Model(tuple(mean), tuple(scale), tuple(weights), bias, 0.0)


def throws(
    data: dict[str, np.ndarray], chances: np.ndarray, least: float, training: bool
) -> dict[str, list[int]]:
    """By kind of scene, over the photos of one part: photos, read exactly, misread silently,
    with a die not read, were the values whose chance is under ``least`` not given."""
    rows, photos = data["rows"], data["photos"]
    given: dict[int, list[int]] = defaultdict(list)
    for row, chance in zip(rows, chances, strict=True):
        if chance >= least:
            given[int(row[0])].append(int(row[2]) if row[1] else -1)
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for index, (_, scene, is_train, read, _, values) in enumerate(photos):
        if bool(is_train) != training:
            continue
        labelled = sorted(int(c) for c in values)
        values_given = given.get(index, [])
        unread = read - len(values_given)
        exact = unread == 0 and sorted(values_given) == labelled
        silent = not exact and unread == 0 and read == len(labelled)
        counts = out[scene]
        counts[0] += 1
        counts[1] += exact
        counts[2] += silent
        counts[3] += unread > 0
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / "judge.json")
    parser.add_argument("--silent", type=float, default=0.01)
    parser.add_argument("--evidence", type=Path, default=Path("/tmp/judge-evidence.npz"))
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.evidence.is_file():
        data = dict(np.load(args.evidence, allow_pickle=True))
    else:
        data = gather(args.evidence)
    rows, photos = data["rows"], data["photos"]
    training = np.array([bool(p[2]) for p in photos])[rows[:, 0].astype(int)]
    labelled = rows[:, 2] > 0  # a die matched to no label is no die: the judge is on values
    x, y = rows[:, 3:], rows[:, 1]
    model = fit(x[training & labelled], y[training & labelled])
    chances = np.array([model.chance_right(e) for e in x])
    least = next(
        (
            float(t)
            for t in THRESHOLDS
            if all(s <= args.silent * n for n, _, s, _ in throws(data, chances, t, True).values())
        ),
        float(THRESHOLDS[-1]),
    )
    model = Model(model.mean, model.scale, model.weights, model.bias, least)
    args.out.write_text(model.to_json(), encoding="utf-8")
    print(f"{len(FEATURES)} features, weights {np.round(model.weights, 3).tolist()}")
    print(f"threshold {least:.2f} -> {args.out}")
    for part, is_train in (("training", True), ("held out", False)):
        for name, least_shown in (("no judge", 0.0), ("judged", least)):
            for scene, (n, exact, silent, unread) in sorted(
                throws(data, chances, least_shown, is_train).items()
            ):
                print(
                    f"  {part:8s} {name:8s} {scene:45s} photos {n:4d}  exact {exact / n:.3f}  "
                    f"silent {silent / n:.3f}  with a die not read {unread / n:.3f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
