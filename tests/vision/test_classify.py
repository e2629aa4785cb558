"""The die classifier on rendered dice: values, an empty tray, where the die centre lies, crops
seen again."""

from __future__ import annotations

import math
from importlib import resources

import numpy as np
import pytest

from vision import classify as classify_module
from vision.classify import NO_DIE, classify, classify_with, feature_count, features
from vision.crops import die_crop, pyramid_of
from vision.errors import ReaderUnavailable
from vision.network import read_onnx
from vision.render import render_empty_tray, render_tray, style_from_seed


def _trays() -> list:
    return [
        render_tray([v, (v % 6) + 1], seed=100 + 7 * v + k) for v in range(1, 7) for k in range(3)
    ]


def test_rendered_dice_are_classified_by_their_face() -> None:
    right = total = 0
    for tray in _trays():
        pyramid = pyramid_of(tray.frame)
        dice = [d for d in tray.dice if d.value is not None and not d.is_covered]
        verdicts = classify([die_crop(pyramid, d.center, d.size_px) for d in dice])
        for die, verdict in zip(dice, verdicts, strict=True):
            total += 1
            right += verdict.best == die.value
    assert total >= 30
    assert right >= 0.9 * total, f"{right} of {total} dice classified right"


def test_an_empty_tray_holds_no_die() -> None:
    crops = []
    for seed in range(6):
        tray = render_empty_tray(seed=seed, style=style_from_seed(seed))
        pyramid = pyramid_of(tray.frame)
        width = tray.style.die_size[0]
        crops += [die_crop(pyramid, (x, y), width) for x in (160, 320, 480) for y in (120, 360)]
    verdicts = classify(crops)
    empty = sum(1 for v in verdicts if v.best == NO_DIE)
    assert empty >= 0.9 * len(crops), f"{empty} of {len(crops)} empty crops said empty"


def test_a_crop_beside_a_die_points_to_its_centre() -> None:
    errors = []
    for tray in _trays()[:8]:
        pyramid = pyramid_of(tray.frame)
        die = tray.dice[0]
        width = die.size_px
        start = (die.center[0] + 0.4 * width, die.center[1] - 0.2 * width)
        (verdict,) = classify([die_crop(pyramid, start, width)])
        guess = (start[0] + verdict.offset[0] * width, start[1] + verdict.offset[1] * width)
        errors.append(math.hypot(guess[0] - die.center[0], guess[1] - die.center[1]) / width)
    errors.sort()
    assert errors[len(errors) // 2] < 0.15, errors


def test_missing_weights_are_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(classify_module, "MODEL", "no_such_weights.onnx")
    classify_module._remembered.clear()
    tray = render_tray([3], seed=1)
    with pytest.raises(ReaderUnavailable, match=r"no_such_weights\.onnx"):
        classify([die_crop(pyramid_of(tray.frame), tray.dice[0].center, 40.0)])


class _CountingNetwork:
    """The classifier's network, counting the crops it is given."""

    def __init__(self) -> None:
        self.net, self.crops = classify_module._network(), 0

    def setInput(self, blob: np.ndarray) -> None:  # named as cv2.dnn.Net names it
        self.crops += len(blob)
        self.net.setInput(blob)

    def forward(self, *names: object) -> object:
        return self.net.forward(*names)

    def getUnconnectedOutLayersNames(self) -> object:  # named as cv2.dnn.Net names it
        return self.net.getUnconnectedOutLayersNames()


def test_a_crop_seen_again_gets_the_verdict_it_got_without_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tray = render_tray([4, 2, 6], seed=5)
    pyramid = pyramid_of(tray.frame)
    crops = [die_crop(pyramid, d.center, d.size_px) for d in tray.dice]
    network = _CountingNetwork()
    monkeypatch.setattr(classify_module, "_network", lambda: network)
    classify_module._remembered.clear()
    first = classify(crops[1:])
    assert network.crops == 2
    # Only the crop not seen yet is run, once, however often it is given.
    again = classify([crops[0], *crops, crops[0]])
    assert network.crops == 3
    assert again[2:4] == first and again[0] == again[1] == again[4]
    # The verdict remembered is the one the network gives that crop among any others.
    classify_module._remembered.clear()
    assert classify(crops[::-1])[::-1][1:] == first
    # A crop that differs in one pixel value is another crop.
    changed = crops[0].copy()
    changed[0, 0, 0] ^= 1
    classify([changed])
    assert network.crops == 7


def test_only_the_latest_verdicts_are_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(classify_module, "REMEMBERED", 3)
    classify_module._remembered.clear()
    crops = [np.full((32, 32, 3), level, dtype=np.uint8) for level in range(0, 250, 50)]
    classify(crops)
    assert len(classify_module._remembered) == 3
    network = _CountingNetwork()
    monkeypatch.setattr(classify_module, "_network", lambda: network)
    classify(crops[-3:])
    assert network.crops == 0
    classify(crops[:1])
    assert network.crops == 1
    classify_module._remembered.clear()


def test_a_network_passed_in_reads_as_the_shipped_one_does_when_it_is_the_same() -> None:
    tray = render_tray([2, 6, 3], seed=17)
    pyramid = pyramid_of(tray.frame)
    crops = [die_crop(pyramid, d.center, d.size_px) for d in tray.dice]
    shipped = classify(crops)
    same = classify_with(read_onnx(_shipped_path()), crops)
    assert [v.best for v in same] == [v.best for v in shipped] == [d.value for d in tray.dice]
    for mine, theirs in zip(same, shipped, strict=True):
        assert np.allclose(mine.probabilities, theirs.probabilities, atol=1e-6)
        assert np.allclose(mine.offset, theirs.offset, atol=1e-6)
    assert classify_with(read_onnx(_shipped_path()), []) == []


def _shipped_path() -> str:
    return str(resources.files("vision").joinpath(classify_module.MODEL))


def test_crops_beyond_a_batch_are_read_in_batches_each_as_it_is_alone() -> None:
    tray = render_tray([1, 2, 3, 4, 5, 6], seed=23)
    pyramid = pyramid_of(tray.frame)
    angles = range(0, 360, 12)
    crops = [die_crop(pyramid, d.center, d.size_px, a) for d in tray.dice for a in angles]
    assert len(crops) > 2 * classify_module.BATCH
    network = read_onnx(_shipped_path())
    together = classify_with(network, crops)
    alone = [classify_with(network, [crop])[0] for crop in crops]
    for mine, theirs in zip(together, alone, strict=True):
        assert np.allclose(mine.probabilities, theirs.probabilities, atol=1e-5)
    found = features(crops, network)
    assert found.shape == (len(crops), feature_count(network))
    assert np.allclose(found[-1], features(crops[-1:], network)[0], atol=1e-5)
