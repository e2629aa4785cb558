"""How much adapting to a table's own dice (`dicekeeper adapt`) helps on real photos.

Each kind of scene in the labelled photo folders (`benchmarks.vision_accuracy.scene_of`: a
folder, or a family of rune55-trainval's photos) stands for one table. The table keeps its
throws as `dicekeeper` does (`benchmarks.adaptation.kept_throw`): each training photo of the
scene (one copy of each original photo, in name order) is read and kept with the dice as read
and their true values, as the players confirm or correct them (dice the reader missed added by
value alone: a partial photo). After the first 10, 25 and 50 kept throws the table refits its
last layers as it does by itself (`vision.adapt.refit`: fitted to all but the newest quarter of
the throws read whole, used only when it reads those at least as well as the layers in use, else
the table goes on with those; not below `dicekeeper adapt`'s minimums), and the scene's held-out
photos (by original photo, `training/split.py`) are read before and after each: per die (dice
read with their value / dice labelled), dice left "not sure", throws exact and silent misreads
(`vision.evaluation`).
After the last size, the other scenes' held-out photos are read too: what one table's
adaptation costs the rest.

Needs ../shared/datasets (skipped with a message without it).

Usage: python benchmarks/adaptation_photos.py [--scenes SUBSTRING,...] [--sizes 10,25,50]
                                              [--others N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from benchmarks.adaptation import kept, scene_photos, scored, split
from benchmarks.vision_accuracy import DATASETS
from device.adaptation import (
    MIN_DICE,
    MIN_PHOTOS,
    Adaptation,
    adapted_bytes,
    checked_line,
)
from vision.adapt import held_back, refit
from vision.classify import NO_DIE
from vision.evaluation import Score


def line(name: str, before: Score, after: Score) -> str:
    """One line of figures, before -> after: per die right, not sure, wrong when valued (of the
    dice given a value), six-dice throws read whole (right to the sixth power), throws exact and
    silent misreads."""

    def wrong(score: Score) -> float:
        return 1.0 - score.value_precision

    return (
        f"  {name}: per die {before.recall:.3f} -> {after.recall:.3f}, not sure "
        f"{before.unread} -> {after.unread}, wrong when valued {wrong(before):.3f} -> "
        f"{wrong(after):.3f}, six dice whole {before.recall**6:.3f} -> {after.recall**6:.3f}, "
        f"throws exact {before.throw_accuracy:.3f} -> {after.throw_accuracy:.3f}, silent "
        f"misreads {before.silent} -> {after.silent} of {after.images}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="", help="only scenes whose names hold one of these")
    parser.add_argument("--sizes", default="10,25,50", help="kept throws to adapt to")
    parser.add_argument(
        "--others", type=int, default=60, help="held-out photos of each other scene (0: all)"
    )
    args = parser.parse_args(argv)
    try:
        sizes = sorted(int(s) for s in args.sizes.split(","))
    except ValueError:
        parser.error(f"--sizes {args.sizes!r}: numbers separated by commas")
    if not sizes or sizes[0] < 1:
        parser.error(f"--sizes {args.sizes!r}: at least one throw each")
    if not DATASETS.is_dir():
        print(f"skipped: {DATASETS} is missing")
        return 0
    scenes = scene_photos()
    wanted = [w for w in args.scenes.split(",") if w]
    others = {
        name: held[: args.others] if args.others else held for name, (_, held) in scenes.items()
    }
    before_others = {name: scored(held, None) for name, held in others.items()}
    for name, (training, held) in scenes.items():
        if wanted and not any(w in name for w in wanted):
            continue
        before = scored(held, None)
        table, story = kept(training, sizes[-1])
        print(
            f"{name}: {len(training)} training originals, table: {story}; "
            f"{len(held)} held-out photos, {before.labelled} dice",
            flush=True,
        )
        layer = None
        for size in sizes:
            if size > len(table):
                print(f"  only {len(table)} kept throws: no fit to {size}")
                break
            whole, partial = split(table[:size])
            dice = sum(die.value != NO_DIE for _, d in whole + partial for die in d)
            checked_on = held_back([sum(die.value != NO_DIE for die in d) for _, d in whole])
            if size < MIN_PHOTOS or dice < MIN_DICE or checked_on is None:
                print(
                    f"  after {size} throws: {dice} dice, {len(whole)} throws read whole, too "
                    "few to adapt (as the table)"
                )
                continue
            start = time.perf_counter()
            checked = refit(whole, layer, partial=partial, held=checked_on)
            seconds = time.perf_counter() - start
            if not checked.reads_as_well:
                print(
                    f"  after {size} throws: refit refused ({seconds:.0f} s), "
                    + checked_line(checked)
                )
                continue
            layer = checked.layers
            after = scored(held, layer)
            size_kb = (
                len(adapted_bytes(Adaptation(checked.layers, checked.fitted, checked.dice))) / 1000
            )
            what = f"after {size} throws ({checked.dice} dice, {seconds:.0f} s, {size_kb:.0f} KB)"
            print(line(what, before, after))
            sys.stdout.flush()
        if layer is None:
            continue
        for other, photos in others.items():
            if other != name:
                print(line(f"{other} (held out)", before_others[other], scored(photos, layer)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
