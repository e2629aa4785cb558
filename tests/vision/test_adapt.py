"""Fitting the classifier's last layer to a table's dice (`vision.adapt`): dice it did not know
are read after, the dice it knew still are, and `classify` takes the layer as a parameter."""

from __future__ import annotations

import numpy as np
import pytest

from vision.adapt import AdaptParams, adapt_last_layer
from vision.classify import (
    CLASSES,
    InvalidLastLayer,
    LastLayer,
    classify,
    last_layer,
    shipped_last_layer,
)
from vision.crops import die_crop, pyramid_of
from vision.evaluation import rendered_labels
from vision.render import TrayStyle, render_tray
from vision.types import Frame

FAST = AdaptParams(on_die=12, beside=2, background=4, rehearsal=4, steps=200)
GOLD = TrayStyle(schemes=("gold-on-black",))


def _crops(seeds: range, style: TrayStyle) -> tuple[list[Frame], list[int]]:
    """Crops of every die of trays showing 6 6 4 1, centred at the truth, at its size."""
    crops, values = [], []
    for seed in seeds:
        tray = render_tray([6, 6, 4, 1], seed=seed, style=style)
        pyramid = pyramid_of(tray.frame)
        for die in tray.dice:
            if die.value is not None:
                crops.append(die_crop(pyramid, die.center, die.size_px))
                values.append(die.value)
    return crops, values


def _right(crops: list[Frame], values: list[int], layer: LastLayer | None) -> float:
    verdicts = classify(crops, layer=layer)
    return float(np.mean([v.value == t for v, t in zip(verdicts, values, strict=True)]))


@pytest.fixture(scope="module")
def adapted() -> LastLayer:
    photos = []
    for seed in range(40, 46):
        tray = render_tray([6, 6, 3, 5, 2], seed=seed, style=GOLD)
        photos.append((tray.frame, rendered_labels(tray.dice)))
    layer, dice = adapt_last_layer(photos, FAST)
    assert dice == 30
    return layer


def test_dice_it_did_not_know_are_read_after_adapting(adapted: LastLayer) -> None:
    crops, values = _crops(range(60, 64), GOLD)
    before, after = _right(crops, values, None), _right(crops, values, adapted)
    assert before <= 0.5  # the emblem sixes (half the dice) are no sixes to it
    assert after >= 0.9


def test_the_dice_it_knew_are_still_read(adapted: LastLayer) -> None:
    crops, values = _crops(range(70, 74), TrayStyle())
    assert _right(crops, values, None) == 1.0
    assert _right(crops, values, adapted) == 1.0


def test_the_layer_is_a_parameter_or_set_for_a_block(adapted: LastLayer) -> None:
    crops, _ = _crops(range(60, 61), GOLD)
    given = classify(crops, layer=adapted)
    with last_layer(adapted):
        inside = classify(crops)
    assert inside == given != classify(crops)  # the cache tells the layers apart
    shipped = shipped_last_layer()
    assert [v.best for v in classify(crops, layer=shipped)] == [v.best for v in classify(crops)]


def test_a_layer_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(InvalidLastLayer):
        LastLayer(np.zeros((CLASSES, 3), np.float32), np.zeros(CLASSES + 1, np.float32))
    with pytest.raises(InvalidLastLayer):
        LastLayer(np.full((CLASSES, 3), np.nan, np.float32), np.zeros(CLASSES, np.float32))
    wrong = LastLayer(np.zeros((CLASSES, 3), np.float32), np.zeros(CLASSES, np.float32))
    crops, _ = _crops(range(60, 61), GOLD)
    with pytest.raises(InvalidLastLayer):
        classify(crops, layer=wrong)
