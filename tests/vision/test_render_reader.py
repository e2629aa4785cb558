"""The dice reader on clean rendered trays: the renderer's ground truth and the reader agree."""

from __future__ import annotations

import dataclasses
import math

from vision import ReaderParams, read
from vision.render import RenderedTray, TrayStyle, render_tray

EASY = TrayStyle(
    die_size=(40.0, 60.0),
    background="felt",
    perspective=0.2,
    noise=2.0,
    blur=0.5,
    gloss=0.2,
    shadow=0.3,
    touching=0.0,
    clutter=0.0,
)


def right_and_extra(tray: RenderedTray) -> tuple[int, int]:
    """How many rendered dice were read with their value, and how many dice read were not there."""
    reading = read(tray.frame, ReaderParams())
    free = list(reading.dice)
    right = 0
    for die in tray.dice:
        near = [d for d in free if math.dist(d.center, die.center) < die.size_px / 2]
        if near:
            best = min(near, key=lambda d: math.dist(d.center, die.center))
            free.remove(best)
            right += best.value == die.value
    return right, len(free)


SCHEMES_TRIED = ("white", "ivory", "black", "red", "blue", "green")


def test_reader_reads_clean_rendered_trays() -> None:
    right, extra, dice = 0, 0, 0
    per_scheme = {}
    for scheme in SCHEMES_TRIED:
        style = dataclasses.replace(EASY, schemes=(scheme,))
        trays = [render_tray([1, 2, 3, 4, 5, 6], seed=seed, style=style) for seed in (0, 1, 2)]
        results = [right_and_extra(t) for t in trays]
        per_scheme[scheme] = sum(r for r, _ in results)
        right += per_scheme[scheme]
        extra += sum(e for _, e in results)
        dice += sum(len(t.dice) for t in trays)
    assert right >= 0.9 * dice, f"{right} of {dice} dice read right: {per_scheme}"
    assert extra <= 0.1 * dice, f"{extra} dice read that are not there"
    assert min(per_scheme.values()) >= 0.75 * 18, f"a colour scheme is read badly: {per_scheme}"
