"""Smoke test of the reader on a few real photos from ../shared/datasets (skipped when absent).

The accuracy figures themselves come from benchmarks/vision_accuracy.py; this only guards against a
reader that has stopped working on real photos.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.vision_accuracy import labelled_photos
from vision import ReaderParams, read
from vision.crops import pyramid_of
from vision.evaluation import LabelledDie, Score, resized, score_image
from vision.quick import quick_faces
from vision.reader import working_copy

DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"

# Dataset, photos taken (every n-th labelled photo; a crop folder's crops framed as the benchmark
# frames them), the least dice recall and precision accepted (well below what
# benchmarks/vision_accuracy.py measures on the whole folders).
CASES = [
    ("matteop65-wood", 13, 0.85, 0.8),
    ("nell-byler-d6", 25, 0.25, 0.5),
    ("epanemu-ctu", 19, 0.3, 0.3),
    ("chase-casino-crops", 14, 0.4, 0.4),
]


def labelled(folder: Path) -> dict[str, list[LabelledDie]]:
    dice: dict[str, list[LabelledDie]] = defaultdict(list)
    with (folder / "labels.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            x_min, y_min, x_max, y_max = (
                float(row[k]) for k in ("x_min", "y_min", "x_max", "y_max")
            )
            dice[row["image"]].append(LabelledDie(x_min, y_min, x_max, y_max, int(row["value"])))
    return dice


@pytest.mark.parametrize(("name", "step", "least_recall", "least_precision"), CASES)
def test_real_photos_are_mostly_read_right(
    name: str, step: int, least_recall: float, least_precision: float
) -> None:
    folder = DATASETS / name
    if not (folder / "labels.csv").is_file():
        pytest.skip(f"no labelled photos at {folder} (the shared datasets folder is missing)")
    total = Score()
    for _, frame, dice in list(labelled_photos(folder))[::step]:
        total += score_image(read(frame), dice)
    assert total.images >= 5
    assert total.recall >= least_recall, total
    assert total.precision >= least_precision, total


def _photo(folder: str, name: str) -> np.ndarray:
    """A photo of a dataset folder, as a BGR frame; the test is skipped without it."""
    path = DATASETS / folder / "images" / name
    if not path.is_file():
        pytest.skip(f"no photo at {path} (the shared datasets folder is missing)")
    frame = cv2.imread(str(path))
    assert frame is not None, path
    return np.asarray(frame, dtype=np.uint8)


def test_a_one_read_at_the_frames_width_is_not_read_again_narrower() -> None:
    # matteop65-wood dice_38 resized by 1.5: four ones about 60 px wide. One of them, read at
    # 48 px, read surer as narrow as its pip tells (32 px), made the width the former stage 4
    # searched at narrower, and a false two was found (training/README.md, "What stage 4 was
    # tuned on").
    # The judge may leave a die's side face as a die not sure of (None): never a false value.
    frame = _photo("matteop65-wood", "dice_38.jpg")
    values = read(resized(frame, 1.5)).values
    assert values.count(1) == 4 and set(values) <= {1, None}


def test_an_elongated_symbol_far_from_the_dice_is_not_read_as_a_die_unsurely() -> None:
    # matteop65-wood four_9: a four on a desk beside a keyboard. A key's lit symbol, far from
    # the four and more elongated than its pips, looked around as a pip by the former stage 4,
    # was a one to the classifier, read 0.92.
    frame = _photo("matteop65-wood", "four_9.jpg")
    assert read(frame).values == (4,)


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("00079_jpg.rf.04a6de8b107db1a26eaf1d2a7b9d8b42.jpg", [5, 5, 5]),
        ("00137_jpg.rf.b664970879a94c692b1e01ec7202c49f.jpg", [5, 5, 5]),
        ("00188_jpg.rf.dfe9aeb930fdeae4ff045a5a95ed5149.jpg", [2, 3, 5]),
    ],
)
def test_dice_wider_than_the_frame_halved_shows_are_all_read(name: str, values: list[int]) -> None:
    # rune55-trainval close-ups (held out) of dice 170-290 px wide. The frame halved proposed
    # only one or two of them, read surely, and the fast path took the frame with the others
    # missing; the frame quartered proposes those, and the frame is left to the judge.
    frame = _photo("rune55-trainval", f"valid/{name}")
    working, _ = working_copy(frame)
    assert quick_faces(pyramid_of(working), ReaderParams()) is None
    assert sorted(v for v in read(frame).values if v is not None) == values
