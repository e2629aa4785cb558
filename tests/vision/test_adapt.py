"""Fitting the classifiers' last layers to a table's dice (`vision.adapt`): dice they did not know
are read after, by the reader's network and the judge's, the dice they knew still are, and
`classify` takes the layer as a parameter."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import adapt as adapt_module
from vision import read
from vision.adapt import (
    REHEARSAL,
    AdaptParams,
    Refit,
    adapt_last_layer,
    cut_crops,
    fit_network,
    judged_crops,
    rehearsal_computed,
    rehearsal_features,
    rehearsal_key,
    rehearsal_networks,
    score_with,
    wrong_values,
)
from vision.classify import (
    CLASSES,
    NO_DIE,
    Adapted,
    InvalidLastLayer,
    LastLayer,
    adapted_layers,
    classify,
    classify_with,
    last_layer,
    shipped_last_layer,
)
from vision.crops import die_crop, pyramid_of
from vision.evaluation import LabelledDie, Score, rendered_labels, score_image
from vision.judge import judge_classifier, judge_network
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


def _judge_right(crops: list[Frame], values: list[int]) -> float:
    """The share of ``crops`` whose value the judge's classifier reads right (in the block's
    layers)."""
    verdicts = judge_classifier(crops)
    return float(np.mean([v.best == t for v, t in zip(verdicts, values, strict=True)]))


@pytest.fixture(scope="module")
def adapted() -> Adapted:
    photos = []
    for seed in range(40, 46):
        tray = render_tray([6, 6, 3, 5, 2], seed=seed, style=GOLD)
        photos.append((tray.frame, rendered_labels(tray.dice)))
    layers, dice = adapt_last_layer(photos, FAST)
    assert dice == 30
    assert layers.judge is not None
    return layers


def test_dice_it_did_not_know_are_read_after_adapting(adapted: Adapted) -> None:
    crops, values = _crops(range(60, 64), GOLD)
    before, after = _right(crops, values, None), _right(crops, values, adapted.reader)
    assert before <= 0.5  # the emblem sixes (half the dice) are no sixes to it
    assert after >= 0.9


def test_the_judge_reads_them_too_inside_the_block(adapted: Adapted) -> None:
    crops, values = _crops(range(60, 64), GOLD)
    sixes = [crop for crop, value in zip(crops, values, strict=True) if value == 6]
    assert _judge_right(sixes, [6] * len(sixes)) <= 0.2  # the shipped judge knows no emblem
    with last_layer(adapted.reader):  # the reader's layer alone: the judge stays as shipped
        assert _judge_right(sixes, [6] * len(sixes)) <= 0.2
    with last_layer(adapted):
        assert adapted_layers() == adapted
        assert _judge_right(sixes, [6] * len(sixes)) >= 0.9
        assert _judge_right(crops, values) >= 0.9
    assert adapted_layers() is None


def _read_sixes(layers: Adapted | None) -> tuple[float, int]:
    """The share of the emblem sixes of trays showing 6 6 4 1 that the whole reader reads as
    sixes with ``layers`` in force, and how many dice it gave a wrong value."""
    total = Score()
    sixes = read_six = 0
    with last_layer(layers):
        for seed in range(60, 76):
            tray = render_tray([6, 6, 4, 1], seed=seed, style=GOLD)
            reading = read(tray.frame)
            total += score_image(reading, rendered_labels(tray.dice))
            sixes += 2
            read_six += min(2, sum(v == 6 for v in reading.values))
    return read_six / sixes, total.reported - total.unread - total.correct


def test_the_judge_values_the_dice_it_left_not_sure(adapted: Adapted) -> None:
    # The shipped judge leaves every emblem six "not sure" (None): no stage reads its value,
    # and the detector alone finds it, off its centre. Adapted where the judge looks at such
    # candidates (`judged_crops`), it is sure of them, and gives no die a wrong value.
    assert _read_sixes(None) == (0.0, 0)
    share, wrong = _read_sixes(adapted)
    assert share >= 0.85 and wrong == 0


def test_judged_crops_are_cut_where_the_judge_looks_at_labelled_dice() -> None:
    tray = render_tray([6, 6, 3], seed=40, style=GOLD)
    labels = rendered_labels(tray.dice)
    params = AdaptParams(at_candidate=3)
    crops, classes = judged_crops(tray.frame, labels, np.random.default_rng(0), params)
    assert len(crops) == len(classes) and len(crops) % 3 == 0 and len(crops) >= 9
    assert sorted(set(classes)) == [3, 6]  # every die, the emblem sixes too, under its value
    assert all(crop.shape == crops[0].shape for crop in crops)
    first, first_classes = judged_crops(tray.frame, labels[:1], np.random.default_rng(0), params)
    assert 0 < len(first) < len(crops)  # only the candidates on the dice labelled
    assert set(first_classes) == {labels[0].value}
    every, every_classes = judged_crops(
        tray.frame, labels[:1], np.random.default_rng(0), params, unlabelled=True
    )
    assert len(every) == len(crops)  # the candidates on the other dice too, as no die
    assert every_classes.count(NO_DIE) == len(crops) - len(first)


def test_the_dice_it_knew_are_still_read(adapted: Adapted) -> None:
    crops, values = _crops(range(70, 74), TrayStyle())
    assert _right(crops, values, None) == 1.0
    assert _right(crops, values, adapted.reader) == 1.0
    assert _judge_right(crops, values) == 1.0
    with last_layer(adapted):
        assert _judge_right(crops, values) == 1.0


def test_the_layer_is_a_parameter_or_set_for_a_block(adapted: Adapted) -> None:
    crops, _ = _crops(range(60, 61), GOLD)
    given = classify(crops, layer=adapted.reader)
    with last_layer(adapted):
        inside = classify(crops)
    with last_layer(adapted.reader):
        assert classify(crops) == inside
    assert inside == given != classify(crops)  # the cache tells the layers apart
    shipped = shipped_last_layer()
    assert [v.best for v in classify(crops, layer=shipped)] == [v.best for v in classify(crops)]


def test_any_network_of_the_classifiers_shape_takes_a_layer(adapted: Adapted) -> None:
    crops, _ = _crops(range(60, 61), GOLD)
    net = judge_network()
    assert adapted.judge is not None
    own = shipped_last_layer(net)
    assert not np.array_equal(own.weights, shipped_last_layer().weights)
    as_shipped = classify_with(net, crops, own)
    for mine, theirs in zip(as_shipped, classify_with(net, crops), strict=True):
        assert np.allclose(mine.probabilities, theirs.probabilities, atol=1e-5)
    with last_layer(adapted):
        assert judge_classifier(crops) == classify_with(net, crops, adapted.judge)


def test_a_layer_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(InvalidLastLayer):
        LastLayer(np.zeros((CLASSES, 3), np.float32), np.zeros(CLASSES + 1, np.float32))
    with pytest.raises(InvalidLastLayer):
        LastLayer(np.full((CLASSES, 3), np.nan, np.float32), np.zeros(CLASSES, np.float32))
    wrong = LastLayer(np.zeros((CLASSES, 3), np.float32), np.zeros(CLASSES, np.float32))
    crops, _ = _crops(range(60, 61), GOLD)
    with pytest.raises(InvalidLastLayer):
        classify(crops, layer=wrong)


def test_a_refit_is_used_only_when_it_reads_the_held_back_photos_as_well(
    adapted: Adapted,
) -> None:
    before = Score(labelled=20, reported=20, correct=16, images=4, unread=3)  # 1 wrong value
    as_well = Refit(adapted, 30, 8, 2, before, before)
    assert as_well.reads_as_well  # the same reading: nothing lost
    surer = Score(labelled=20, reported=20, correct=19, images=4, unread=0)
    assert replace(as_well, after=surer).reads_as_well
    assert wrong_values(before) == 1 and wrong_values(surer) == 1
    fewer_right = Score(labelled=20, reported=20, correct=15, images=4, unread=4)
    assert not replace(as_well, after=fewer_right).reads_as_well
    more_wrong = Score(labelled=20, reported=20, correct=18, images=4, unread=0)  # 2 wrong
    assert not replace(as_well, after=more_wrong).reads_as_well
    silent = replace(surer, silent=1)
    assert not replace(as_well, after=silent).reads_as_well


def test_a_box_struck_out_gives_crops_of_no_die_and_is_no_die_when_scored() -> None:
    tray = render_tray([3, 5], seed=7)
    dice = rendered_labels(tray.dice)
    struck = LabelledDie(10, 10, 40, 40, NO_DIE)  # where the reader was fooled
    _, plain = cut_crops(tray.frame, dice, np.random.default_rng(0), FAST, whole=False)
    _, classes = cut_crops(tray.frame, [*dice, struck], np.random.default_rng(0), FAST, whole=False)
    assert NO_DIE not in plain and classes.count(NO_DIE) == FAST.on_die
    assert score_with([(tray.frame, [*dice, struck])], None) == score_with(
        [(tray.frame, dice)], None
    )


def test_a_photo_with_dice_missed_gives_no_crops_of_no_die() -> None:
    tray = render_tray([3, 5, 2], seed=7)
    seen = rendered_labels(tray.dice)[:2]  # the third die lies there unlabelled
    _, whole = cut_crops(tray.frame, seen, np.random.default_rng(0), FAST)
    _, partial = cut_crops(tray.frame, seen, np.random.default_rng(0), FAST, whole=False)
    assert NO_DIE in whole
    assert sorted(set(partial)) == [3, 5] and len(partial) == 2 * FAST.on_die


def test_the_shipped_rehearsal_features_are_the_shipped_networks_own() -> None:
    """`vision/rehearsal.npz` was made for the default params and the networks in the package,
    and on its first trays' crops each network's shipped layer gives the verdicts it gives on the
    crops rendered now (run ``python -m training.make_rehearsal`` after changing either network).
    Verdicts, not features: OpenCV 4 draws the trays a little unlike the lock's OpenCV 5."""
    stored = adapt_module._shipped_rehearsal()
    assert stored is not None, f"vision/{REHEARSAL} is missing or unreadable"
    assert np.array_equal(stored["networks"], rehearsal_networks()), (
        f"vision/{REHEARSAL} is of other networks: run python -m training.make_rehearsal"
    )
    assert np.array_equal(stored["params"], rehearsal_key(AdaptParams()))
    first = rehearsal_computed(replace(AdaptParams(), rehearsal=2))
    for name, computed, net in zip(
        ("reader", "judge"), first, (None, judge_network()), strict=True
    ):
        assert len(computed) > 100
        layer = shipped_last_layer(net)
        verdicts = [
            np.argmax(found @ layer.weights.T + layer.bias, axis=1)
            for found in (stored[name][: len(computed)], computed)
        ]
        assert np.mean(verdicts[0] == verdicts[1]) >= 0.98, name


def test_a_refit_under_the_default_params_renders_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_render(*args: object, **kwargs: object) -> None:
        raise AssertionError("rendered a rehearsal tray")

    monkeypatch.setattr(adapt_module, "render_tray", no_render)
    reader, judge = rehearsal_features(AdaptParams())
    assert reader.shape == judge.shape == (len(reader), 128)
    with pytest.raises(AssertionError, match="rendered"):
        rehearsal_features(FAST)  # other params: the crops are rendered


def test_a_fit_refuses_features_and_classes_of_other_counts() -> None:
    parts = [np.zeros((2, 128), np.float16), np.ones((1, 128), np.float16)]
    with pytest.raises(ValueError, match="3 crops' features for 2 classes"):
        fit_network(None, parts, [1, 2], np.zeros((0, 128), np.float32), FAST)
    layer = fit_network(None, parts, [1, 2, 0], np.zeros((0, 128), np.float32), FAST)
    assert layer.weights.shape == shipped_last_layer().weights.shape


@pytest.mark.parametrize("content", [None, b"not a zip", b"PK\x03\x04 cut short"])
def test_a_missing_or_broken_rehearsal_file_is_computed_instead(
    content: bytes | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if content is not None:
        (tmp_path / REHEARSAL).write_bytes(content)
    monkeypatch.setattr("importlib.resources.files", lambda package: tmp_path)
    found = adapt_module._shipped_rehearsal.__wrapped__()
    assert found is None
    monkeypatch.setattr(adapt_module, "_shipped_rehearsal", lambda: found)

    def rendered(*args: object, **kwargs: object) -> None:
        raise AssertionError("rendered a rehearsal tray")

    monkeypatch.setattr(adapt_module, "render_tray", rendered)
    with pytest.raises(AssertionError, match="rendered"):
        rehearsal_features(AdaptParams())
