"""Dice reader accuracy on the labelled real photos in <repo>/../shared/datasets (and on synthetic
throws): per dataset, and per kind of scene where a folder mixes several, for all its photos and
for those held out from training (by original photo): dice recall, dice precision, throws read
exactly, silent misreads (throws read with the right count, every die valued, a value wrong: the
table would score them wrongly) and the dice reported as seen but not read (None). A folder of
crops of one die each (chase-casino-crops) is read crop by crop, each set in a frame of a plain
cloth of its own border's colour (`framed`).

Usage: .venv/bin/python benchmarks/vision_accuracy.py [--dataset NAME] [--synthetic N]
           [--in-a-row N] [--failures] [--scale F] [--no-fast-path] [--expect]

Each set's figures are followed by the same as a game sees them: dice given a value but wrong,
dice left not sure, and six-dice throws read whole. ``--expect`` reads each photo again told its
labelled number of dice (as the table tells the reader how many were thrown) and prints both.

``--scale`` reads each photo resized by F (its labels too): the same trays as a camera with more
pixels, or nearer, or farther, would see them. The reader is to handle dice from about 20 px to
150 px wide without retuning, and it is measured on photos from other cameras. ``--in-a-row``
reads N more synthetic throws whose 2-4 dice lie edge to edge in one row, square to each other:
touching dice at their hardest. Each synthetic set also tells which dice colour schemes have the
most dice not read right (missed, misread or unread), to show where the reader is weakest.
``--no-fast-path`` measures the reader without its fast path (`vision.quick`, tried first by
default): the pip stages and the classifier read every frame.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from training.split import is_training, original_photo
from vision import Frame, ReaderParams, read
from vision.evaluation import (
    LabelledDie,
    Score,
    read_right,
    rendered_labels,
    resized,
    score_image,
)
from vision.reader import MOST_DICE

ROOT = Path(__file__).resolve().parent.parent

DATASETS = ROOT.parent / "shared" / "datasets"
ERRATA = Path(__file__).resolve().parent / "label_errata.csv"
"""Dice labelled with a value their photo does not show, each checked by eye: the die at (x, y)
of an image, the value it was labelled with, the value it shows, and what is seen. Found where the
reader read another value with confidence; the labels are corrected as they are loaded."""
CROP_FOLDERS = frozenset({"chase-casino-crops"})
"""Dataset folders of crops of one die each, the box the whole crop: each is read as a frame of
one die (`framed`)."""
CROP_MARGIN = 1.0
"""A crop of one die is set in a frame this many of its sides wider on every side (`framed`)."""
_ROW_SEEDS = 100_000
"""The seeds of the throws in a row (``--in-a-row``): apart from the other synthetic throws'."""


def load_labels(folder: Path) -> dict[str, list[LabelledDie]]:
    """The labelled dice of each image in a dataset folder, by image path relative to it, with
    the folder's label errata (`ERRATA`) corrected."""
    labels: dict[str, list[LabelledDie]] = defaultdict(list)
    with (folder / "labels.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            labels[row["image"]].append(LabelledDie.from_row(row))
    for erratum in errata(folder.name):
        dice = labels.get(erratum["image"], [])
        x, y = float(erratum["x"]), float(erratum["y"])
        at = [
            i
            for i, die in enumerate(dice)
            if die.x_min <= x <= die.x_max
            and die.y_min <= y <= die.y_max
            and str(die.value) == erratum["labelled"]
        ]
        if len(at) != 1:
            raise ValueError(
                f"{ERRATA.name}: no single die labelled {erratum['labelled']} at ({x}, {y}) in "
                f"{folder.name}/{erratum['image']}"
            )
        dice[at[0]] = replace(dice[at[0]], value=int(erratum["shows"]))
    return labels


def errata(folder: str) -> list[dict[str, str]]:
    """The label errata of a dataset folder (`ERRATA`)."""
    with ERRATA.open(newline="") as handle:
        return [row for row in csv.DictReader(handle) if row["folder"] == folder]


def labelled_folders(*, crops: bool = False) -> list[Path]:
    """The dataset folders that hold a ``labels.csv``, in name order (none when `DATASETS` is
    missing): the folders of whole photos, and with ``crops`` the folders of crops of one die
    each (`CROP_FOLDERS`) too."""
    if not DATASETS.is_dir():
        return []
    return sorted(
        p
        for p in DATASETS.iterdir()
        if (p / "labels.csv").is_file() and (crops or p.name not in CROP_FOLDERS)
    )


def set_names(folder: str, image: str) -> list[str]:
    """The sets a labelled photo counts in, for figures by set: its folder and its kind of scene
    (`scene_of`), each again as "…, held out" when the photo is held out from training."""
    names = sorted({folder, scene_of(folder, image)})
    if not is_training(f"{folder}/{image}"):
        names += [f"{name}, held out" for name in names]
    return names


def labelled_photos(folder: Path) -> Iterator[tuple[str, Frame, list[LabelledDie]]]:
    """Each labelled image of a dataset folder, in name order: its path relative to the folder,
    the image and its labelled dice; an image that cannot be read is skipped, with a message.
    A crop of a folder of crops (`CROP_FOLDERS`) comes set in a frame (`framed`).
    The benchmark reads them, and the training scripts cut their crops and trays from them."""
    crops = folder.name in CROP_FOLDERS
    for image, dice in sorted(load_labels(folder).items()):
        loaded = cv2.imread(str(folder / image))
        if loaded is None:
            print(f"  cannot read {image!r}, skipped", file=sys.stderr)
            continue
        frame = np.asarray(loaded, dtype=np.uint8)
        yield (image, *framed(frame, dice)) if crops else (image, frame, dice)


def framed(crop: Frame, dice: list[LabelledDie]) -> tuple[Frame, list[LabelledDie]]:
    """A crop of one die set in the middle of a frame of its border's median colour, wider by
    `CROP_MARGIN` of the crop's longer side on every side, and its labels moved with it: a die
    alone on a plain cloth, as a frame the reader reads whole."""
    margin = round(CROP_MARGIN * max(crop.shape[:2]))
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    colour = [float(c) for c in np.median(border, axis=0)]
    frame = cv2.copyMakeBorder(
        crop, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=colour
    )
    moved = [
        replace(
            die,
            x_min=die.x_min + margin,
            y_min=die.y_min + margin,
            x_max=die.x_max + margin,
            y_max=die.y_max + margin,
        )
        for die in dice
    ]
    return np.asarray(frame, dtype=np.uint8), moved


def scene_of(folder: str, image: str) -> str:
    """The kind of scene a photo shows, for the figures by scene: the folder's name, and for
    rune55-trainval the family its original photo's name tells (SOURCE.md there)."""
    if folder != "rune55-trainval":
        return folder
    name = Path(original_photo(f"{folder}/{image}")).name
    if name.startswith("PXL"):
        return f"{folder} coloured dice in felt trays"
    if name.isdigit():
        return f"{folder} greyscale close-ups"
    if name.startswith("IMG"):
        return f"{folder} board game"
    return f"{folder} oblique white tables"


def evaluate_folder(
    folder: Path,
    params: ReaderParams,
    show_failures: bool,
    scale: float = 1.0,
    *,
    told: dict[str, tuple[Score, Score]] | None = None,
) -> dict[str, tuple[Score, Score]]:
    """Read every labelled image of one dataset, resized by ``scale``, and add up the score by
    kind of scene (`scene_of`): of all the images, and of the images held out from training
    (training/split.py: by original photo). ``told``, when given, gets the same scores of each
    image read again told its labelled number of dice (``read(..., expected=n)``)."""
    scores: dict[str, tuple[Score, Score]] = {}
    seconds = 0.0
    images = 0
    for image, photo, dice in labelled_photos(folder):
        frame = resized(photo, scale)
        dice = [die.scaled(scale) for die in dice]
        start = time.perf_counter()
        reading = read(frame, params)
        seconds += time.perf_counter() - start
        score = score_image(reading, dice)
        scene = scene_of(folder.name, image)
        held = not is_training(f"{folder.name}/{image}")
        _add(scores, scene, score, held)
        if told is not None and 1 <= len(dice) <= MOST_DICE:
            _add(told, scene, score_image(read(frame, params, expected=len(dice)), dice), held)
        images += 1
        if images % 100 == 0:
            print(f"  {folder.name}: {images} photos read", file=sys.stderr, flush=True)
        if show_failures and not score.throws_right:
            got = [v if v is not None else 0 for v in reading.values]
            silent = " (silent)" if score.silent else ""
            print(
                f"  {image}: read {sorted(got)} labelled {sorted(d.value or 0 for d in dice)}"
                f"{silent}"
            )
    _print_time(folder.name, seconds, images)
    for found in (scores, told):
        if found is not None and len(found) > 1:
            found[folder.name] = (
                sum((t for t, _ in found.values()), Score()),
                sum((h for _, h in found.values()), Score()),
            )
    return scores


def _add(scores: dict[str, tuple[Score, Score]], scene: str, score: Score, held: bool) -> None:
    """Add one image's score to its scene's, all and (``held``) held out."""
    total, held_out = scores.get(scene, (Score(), Score()))
    scores[scene] = (total + score, held_out + score if held else held_out)


def _print_time(name: str, seconds: float, frames: int) -> None:
    """Print the mean time the reader took per frame (one OpenCV thread)."""
    if frames:
        print(f"  {name}: {1000.0 * seconds / frames:.1f} ms per frame read ({frames} frames)")


def evaluate_synthetic(
    throws: int,
    params: ReaderParams,
    *,
    in_a_row: bool = False,
    by_scheme: Counter[tuple[str, bool]] | None = None,
) -> Score | None:
    """Per-die accuracy on synthetic throws of 1-6 dice, or None when the renderer is missing.
    ``in_a_row``: throws of 2-4 dice lying edge to edge in one row (`vision.render.style`), the
    arrangement where touching dice are hardest to tell apart, from other seeds. ``by_scheme``,
    when given, counts the dice of each colour scheme, (scheme, True) those read right."""
    try:
        render = importlib.import_module("vision.render")
        render_style = importlib.import_module("vision.render.style")
    except ImportError:
        return None
    import random

    rng = random.Random(1234 if not in_a_row else 4321)
    total = Score()
    seconds = 0.0
    for throw in range(throws):
        if in_a_row:
            seed = _ROW_SEEDS + throw
            values = [rng.randint(1, 6) for _ in range(rng.randint(2, 4))]
            style = replace(render_style.style_from_seed(seed), in_a_row=True)
            tray = render.render_tray(values, seed=seed, style=style)
        else:
            values = [rng.randint(1, 6) for _ in range(rng.randint(1, 6))]
            tray = render.render_tray(values, seed=throw)
        labels = rendered_labels(tray.dice)
        start = time.perf_counter()
        reading = read(tray.frame, params)
        seconds += time.perf_counter() - start
        total += score_image(reading, labels)
        if by_scheme is not None:
            right = read_right(reading, labels)
            for index, die in enumerate(tray.dice):
                by_scheme[(die.scheme, False)] += 1
                by_scheme[(die.scheme, True)] += index in right
    _print_time("synthetic in a row" if in_a_row else "synthetic", seconds, throws)
    return total


def _print_score(name: str, score: Score) -> None:
    """One line of figures for a set of labelled photos, then one as a game sees them: dice
    given a value but wrong (of those valued), dice left not sure (of those labelled), and
    throws of six dice read whole (the share of dice read right, to the sixth power: photos of
    one to 25 dice compare with a game's throws)."""
    print(
        f"{name}: images {score.images}, dice {score.labelled}, "
        f"recall {score.recall:.4f}, precision {score.precision:.4f}, "
        f"throw accuracy {score.throw_accuracy:.4f}, "
        f"silent misreads {score.silent_misreads:.4f} ({score.silent} throws), "
        f"dice reported None {score.unread} (likeliest value right {score.likely_right}), "
        f"precision of values read {score.value_precision:.4f}"
    )
    not_sure = score.unread / score.labelled if score.labelled else 0.0
    print(
        f"  as a game: right {score.recall:.4f}, wrong when valued "
        f"{1.0 - score.value_precision:.4f}, not sure {not_sure:.4f}, "
        f"six-dice throws read whole {score.recall**6:.4f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", help="only this dataset folder name (or synthetic)")
    parser.add_argument(
        "--synthetic", type=int, default=10000, help="synthetic throws (0: none; default 10000)"
    )
    parser.add_argument(
        "--in-a-row",
        type=int,
        default=0,
        help="synthetic throws of 2-4 dice lying edge to edge in a row (default 0: none)",
    )
    parser.add_argument("--failures", action="store_true", help="list the images read wrong")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="read each photo resized by this factor"
    )
    parser.add_argument(
        "--no-fast-path", action="store_true", help="the pip stages read every frame"
    )
    parser.add_argument(
        "--expect",
        action="store_true",
        help="read each photo again told its labelled number of dice, and print both",
    )
    args = parser.parse_args()
    if not 0.1 <= args.scale <= 8.0:
        parser.error(f"--scale must be between 0.1 and 8, not {args.scale}")
    cv2.setNumThreads(1)
    params = ReaderParams(use_detector=not args.no_fast_path)
    if args.no_fast_path:
        print("without the fast path: the pip stages read every frame")
    if not DATASETS.is_dir():
        print(f"skipped real photos: {DATASETS} is missing")
    else:
        for folder in labelled_folders(crops=True):
            if args.dataset and folder.name != args.dataset:
                continue
            told: dict[str, tuple[Score, Score]] | None = {} if args.expect else None
            scores = evaluate_folder(folder, params, args.failures, args.scale, told=told)
            for scene, (score, held_out) in scores.items():
                name = scene if args.scale == 1.0 else f"{scene} at scale {args.scale:g}"
                _print_score(name, score)
                _print_score(f"{name} held out from training", held_out)
                if told is not None:
                    _print_score(f"{name} told the count", told[scene][0])
                    _print_score(f"{name} held out from training told the count", told[scene][1])
    for throws, in_a_row, name in (
        (args.synthetic, False, "synthetic"),
        (args.in_a_row, True, "synthetic in a row"),
    ):
        if throws <= 0 or args.dataset not in (None, "synthetic"):
            continue
        by_scheme: Counter[tuple[str, bool]] = Counter()
        synthetic = evaluate_synthetic(throws, params, in_a_row=in_a_row, by_scheme=by_scheme)
        if synthetic is None:
            print(f"skipped {name} throws: vision.render is not there yet")
        else:
            print(
                f"{name} ({throws} throws): dice {synthetic.labelled}, "
                f"per-die accuracy {synthetic.recall:.4f}, precision {synthetic.precision:.4f}, "
                f"throw accuracy {synthetic.throw_accuracy:.4f}, "
                f"silent misreads {synthetic.silent_misreads:.4f} ({synthetic.silent} throws), "
                f"dice reported None {synthetic.unread} "
                f"(likeliest value right {synthetic.likely_right}), "
                f"precision of values read {synthetic.value_precision:.4f}"
            )
            print(f"  dice not read right, by colour scheme: {_worst_schemes(by_scheme)}")
    return 0


def _worst_schemes(by_scheme: Counter[tuple[str, bool]], shown: int = 8) -> str:
    """The colour schemes with the most dice not read right: "name missed of dice", worst first."""
    schemes = {scheme for scheme, _ in by_scheme}
    missed = {s: by_scheme[(s, False)] - by_scheme[(s, True)] for s in schemes}
    worst = sorted(schemes, key=lambda s: (-missed[s], s))[:shown]
    return ", ".join(f"{s} {missed[s]} of {by_scheme[(s, False)]}" for s in worst)


if __name__ == "__main__":
    sys.exit(main())
