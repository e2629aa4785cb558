"""The reader on the synthetic tray renderer's photos, whose ground truth is known."""

from __future__ import annotations

import pytest

from vision import read
from vision.evaluation import Score, rendered_labels, score_image
from vision.render import TrayStyle, render_tray


def truth(values: list[int], seed: int, style: TrayStyle | None = None) -> Score:
    tray = render_tray(values, seed=seed, style=style)
    labels = rendered_labels(d for d in tray.dice if d.value is not None)
    return score_image(read(tray.frame), labels)


CLEAN = TrayStyle(
    die_size=(60.0, 70.0),
    background="felt",
    perspective=0.0,
    noise=0.0,
    blur=0.0,
    clutter=0.0,
)


@pytest.mark.parametrize("value", range(1, 7))
def test_each_face_of_a_clean_render_is_read(value: int) -> None:
    score = truth([value, value], seed=value, style=CLEAN)
    assert score.throws_right == 1, score


def test_most_dice_of_varied_renders_are_read() -> None:
    total = Score()
    for seed in range(12):
        total += truth([1 + (seed + k) % 6 for k in range(1 + seed % 6)], seed=seed)
    assert total.recall >= 0.5, total
    assert total.precision >= 0.6, total
