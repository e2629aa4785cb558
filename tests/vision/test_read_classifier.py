"""The reader with its classifier against the pip stages alone, on pips that are hard to see."""

from __future__ import annotations

from dataclasses import replace

from vision import ReaderParams, read
from vision.evaluation import Score, rendered_labels, score_image
from vision.render import render_tray, style_from_seed

HARD = ("black-red", "marbled", "swirl-blue", "swirl-red", "smoke-red")
"""Schemes whose pips differ from the face mostly in colour or sit on a patterned face."""


def _score(params: ReaderParams) -> Score:
    total = Score()
    for seed in range(12):
        style = replace(
            style_from_seed(seed, die_size=(44.0, 50.0)), schemes=(HARD[seed % len(HARD)],)
        )
        values = [1 + (seed + k) % 6 for k in range(4)]
        tray = render_tray(values, seed=500 + seed, style=style)
        total += score_image(read(tray.frame, params), rendered_labels(tray.dice))
    return total


def test_the_classifier_reads_dice_the_pip_stages_miss() -> None:
    alone = _score(ReaderParams(use_classifier=False))
    both = _score(ReaderParams(use_detector=False))
    assert both.correct >= alone.correct + 4, (alone, both)
    assert both.precision >= alone.precision - 0.02, (alone, both)
