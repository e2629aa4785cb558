"""How much adapting the classifier to a table's own dice helps (`dicekeeper adapt`), and what it
costs on the dice the reader already knew.

For each kind of die the reader was never shown (`vision.render.UNUSUAL_SCHEMES`: an emblem in
place of the six's pips, gold pips and emblem on black, red pips on clear plastic), throws are
rendered on one table (the same tray and light, as at a real table) with known values and read by
the shipped reader. The table keeps a throw as a labelled photo as `device.photos` does: the
boxes as read and the values as the players confirm or correct them (the rendered truth), a die
read where none lies struck out and the dice the reader missed added by value alone. The last layers
of the classifier and of the judge's network are fitted to the first 10, 25 and 50 kept throws
(`vision.adapt`, as `dicekeeper adapt` does), and each pair of layers reads:

- fresh throws of those dice (other seeds): per-die accuracy (dice read with their value /
  dice thrown) and throws read exactly;
- ordinary rendered dice (random styles, as `vision_accuracy.py --synthetic`): per-die accuracy;
- the held-out development photos (`training/split.py`), when ../shared/datasets is there:
  recall and silent misreads, before and after the 50-throw layer.

Usage: python benchmarks/adaptation.py [--schemes NAME,...] [--test N] [--ordinary N]
                                       [--photos N] [--sizes 10,25,50]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence

from benchmarks.vision_accuracy import DATASETS, labelled_folders, labelled_photos, scene_of
from training.split import is_training, original_photo
from vision import read
from vision.adapt import Photo, adapt_last_layer, score_with
from vision.classify import NO_DIE, Adapted, last_layer
from vision.evaluation import LabelledDie, Score, matched, rendered_labels, score_image
from vision.render import UNUSUAL_SCHEMES, RenderedTray, TrayStyle, render_tray
from vision.types import Frame

_KEPT_SEEDS = 700_000
_TEST_SEEDS = 800_000
_ORDINARY_SEEDS = 900_000


def throws(style: TrayStyle, first_seed: int, count: int) -> Iterator[RenderedTray]:
    """``count`` throws of 2-6 dice with random values on the table ``style``."""
    rng = random.Random(first_seed)
    for i in range(count):
        values = [rng.randint(1, 6) for _ in range(rng.randint(2, 6))]
        yield render_tray(values, seed=first_seed + i, style=style)


Kept = tuple[Photo, bool]
"""A kept throw: its photo, and whether its every die is labelled (else the reader missed some,
which the players added by their values alone: `device.photos`)."""


def kept_photos(style: TrayStyle, count: int) -> tuple[list[Kept], str]:
    """The first ``count`` throws the table keeps, as labelled photos, and how they went."""
    trays = throws(style, _KEPT_SEEDS, 50 * count)
    return kept(((tray.frame, rendered_labels(tray.dice)) for tray in trays), count)


def kept(photos: Iterable[Photo], count: int) -> tuple[list[Kept], str]:
    """The first ``count`` of the throws ``photos`` that the table keeps (`kept_throw`), and how
    the throws went."""
    table: list[Kept] = []
    nothing = corrected = partial = 0
    for frame, labels in photos:
        if len(table) >= count:
            break
        dice, missed, was_corrected = kept_throw(frame, list(labels))
        if all(d.value == NO_DIE for d in dice):  # no die read on a die: nothing to keep
            nothing += 1
            continue
        corrected += was_corrected
        partial += missed > 0
        table.append(((frame, dice), missed == 0))
    return table, (
        f"{len(table)} kept ({corrected} corrected, {partial} with dice the reader missed added "
        f"by value), {nothing} with no die read"
    )


def scene_photos() -> dict[str, tuple[list[Photo], list[Photo]]]:
    """Each scene's training photos (one copy of each original) and held-out photos (every
    copy), in name order."""
    scenes: dict[str, tuple[list[Photo], list[Photo]]] = {}
    for folder in labelled_folders():
        seen: set[str] = set()
        for image, photo, dice in labelled_photos(folder):
            name = f"{folder.name}/{image}"
            training, held = scenes.setdefault(scene_of(folder.name, image), ([], []))
            if not is_training(name):
                held.append((photo, dice))
            elif original_photo(name) not in seen:
                seen.add(original_photo(name))
                training.append((photo, dice))
    return scenes


def split(table: Sequence[Kept]) -> tuple[list[Photo], list[Photo]]:
    """The photos of ``table`` whose every die is labelled, and the others."""
    return [p for p, whole in table if whole], [p for p, whole in table if not whole]


def kept_throw(frame: Frame, labels: list[LabelledDie]) -> tuple[list[LabelledDie], int, bool]:
    """What the table keeps of a throw whose dice are ``labels``, as `device.photos` does: the
    dice read on a labelled die, each with its true value (as the players confirm or correct
    it), a die read where none lies struck out (value 0: no die), how many labelled dice the
    reader missed (the players add them by value), and whether the players had to correct
    anything."""
    reading = read(frame)
    pairs = matched(reading, labels)
    dice = []
    for d_index, die in enumerate(reading.dice):
        box = die.box
        value = labels[pairs[d_index]].value if d_index in pairs else NO_DIE
        dice.append(LabelledDie(box.x, box.y, box.x + box.w, box.y + box.h, value))
    missed = len(labels) - len(pairs)
    wrong = any(reading.dice[d].value != labels[i].value for d, i in pairs.items())
    return dice, missed, wrong or missed > 0 or len(pairs) < len(reading.dice)


def score_throws(trays: Sequence[RenderedTray], layer: Adapted | None) -> Score:
    """The reader's score on ``trays`` with the classifier's ``layer`` (None: shipped)."""
    return scored(((tray.frame, rendered_labels(tray.dice)) for tray in trays), layer)


def scored(photos: Iterable[Photo], layer: Adapted | None) -> Score:
    """The reader's score on ``photos`` with the classifier's ``layer`` (None: shipped)."""
    return score_with(list(photos), layer)


def score_photos(limit: int, layer: Adapted | None) -> Score | None:
    """The reader's score on the held-out development photos (at most ``limit`` of each
    folder; 0: all), or None when the datasets are missing."""
    if not DATASETS.is_dir():
        return None
    total = Score()
    with last_layer(layer):
        for folder in labelled_folders():
            count = 0
            for image, photo, dice in labelled_photos(folder):
                if is_training(f"{folder.name}/{image}"):
                    continue
                total += score_image(read(photo), dice)
                count += 1
                if limit and count >= limit:
                    break
    return total


def _line(name: str, before: Score, after: Score) -> str:
    return (
        f"  {name}: per die {before.recall:.4f} -> {after.recall:.4f}, throws exact "
        f"{before.throw_accuracy:.4f} -> {after.throw_accuracy:.4f}, silent misreads "
        f"{before.silent} -> {after.silent} of {after.images}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schemes", default=",".join(UNUSUAL_SCHEMES))
    parser.add_argument("--test", type=int, default=60, help="fresh throws of the table's dice")
    parser.add_argument("--ordinary", type=int, default=100, help="ordinary rendered throws")
    parser.add_argument(
        "--photos", type=int, default=0, help="held-out photos per folder (0: all, -1: none)"
    )
    parser.add_argument("--sizes", default="10,25,50", help="kept throws to adapt to")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    ordinary = [
        render_tray([rng.randint(1, 6) for _ in range(rng.randint(1, 6))], seed=_ORDINARY_SEEDS + i)
        for rng in [random.Random(5)]
        for i in range(args.ordinary)
    ]
    base_ordinary = score_throws(ordinary, None)
    base_photos = score_photos(args.photos, None) if args.photos >= 0 else None
    for name in args.schemes.split(","):
        style = TrayStyle(schemes=(name,))
        test = list(throws(style, _TEST_SEEDS, args.test))
        before = score_throws(test, None)
        print(f"{name}: {args.test} test throws, {before.labelled} dice", flush=True)
        photos, story = kept_photos(style, max(sizes))
        print(f"  table: {story}", flush=True)
        layer = None
        for size in sizes:
            start = time.perf_counter()
            whole, partial = split(photos[:size])
            layer, dice = adapt_last_layer(whole, partial=partial)
            seconds = time.perf_counter() - start
            after = score_throws(test, layer)
            print(
                _line(
                    f"after {size} throws ({dice} dice, fitted in {seconds:.1f} s)", before, after
                )
            )
            print(_line("ordinary rendered dice", base_ordinary, score_throws(ordinary, layer)))
            sys.stdout.flush()
        if base_photos is not None and layer is not None:
            after_photos = score_photos(args.photos, layer)
            assert after_photos is not None
            print(_line(f"held-out photos after {sizes[-1]}", base_photos, after_photos))
    if base_photos is None and args.photos >= 0:
        print(f"skipped the development photos: {DATASETS} is missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
