"""Tests of what make_proposal_crops.py teaches the judge's network on rendered dice: the classes
(an emblem in place of a six's pips is never a value), where each die lies (on an oblique view,
its top face), what a proposal on a die is taught (proposed twice, off its centre, on no labelled
die a classifier doubts), and its arguments."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

import cv2
import numpy as np
import pytest

from training.make_crops import UNREADABLE, Sink
from training.make_proposal_crops import (
    _preset,
    _scales,
    class_of,
    cut,
    cut_from,
    rendered_dice,
)
from vision.classify import Verdict
from vision.detect import Proposal
from vision.render import TrayStyle, render_tray, style_like
from vision.types import Frame


def test_an_emblem_six_is_unreadable_and_every_other_die_its_value() -> None:
    emblem = render_tray([6, 1, 4, None], seed=3, style=TrayStyle(schemes=("emblem-six",)))
    assert [class_of(d) for d in emblem.dice] == [UNREADABLE, 1, 4, UNREADABLE]
    gold = render_tray([6, 2], seed=3, style=TrayStyle(schemes=("red-on-clear",)))
    assert [class_of(d) for d in gold.dice] == [6, 2]


def test_a_die_seen_from_above_is_cut_at_its_centre_and_size() -> None:
    tray = render_tray([1, 5, 3], seed=11)
    for (x, y, side, cls), die in zip(rendered_dice(tray), tray.dice, strict=True):
        assert math.hypot(x - die.center[0], y - die.center[1]) < 1e-6
        assert side == pytest.approx(die.size_px)
        assert cls == die.value


def test_a_die_seen_obliquely_is_cut_where_its_top_face_looks() -> None:
    tray = render_tray([2, 4, 6, 1], seed=970_003, style=style_like("oblique-table", 970_003))
    for (x, y, side, _), die in zip(rendered_dice(tray), tray.dice, strict=True):
        assert die.face_bounds is not None
        x0, y0, x1, y1 = die.face_bounds
        assert (x, y) == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))
        assert side == pytest.approx(max(x1 - x0, y1 - y0))
        # Foreshortened: the face looks shorter one way than the other.
        assert min(x1 - x0, y1 - y0) < 0.95 * side


@pytest.mark.parametrize("text", ["nope=3", "oblique-table=x", "oblique-table", "=2"])
def test_a_preset_not_named_name_equals_count_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        _preset(text)


def test_presets_and_scales_are_read() -> None:
    assert _preset("oblique-table=1500") == ("oblique-table", 1500)
    assert _scales("1,0.8,0.6") == (1.0, 0.8, 0.6)
    for bad in ("", "1,a", "0", "-1", "5"):
        with pytest.raises(argparse.ArgumentTypeError):
            _scales(bad)


def test_a_tray_is_cut_at_the_size_asked_with_the_same_dice() -> None:
    tray = render_tray([3, 5], seed=21)
    sinks = {size: Sink() for size in (32, 48)}
    for size, sink in sinks.items():
        cut(tray.frame, rendered_dice(tray), np.random.default_rng(0), sink, 0, size)
    small, large = sinks[32], sinks[48]
    assert {c.shape for c in small.crops} == {(32, 32, 3)}
    assert {c.shape for c in large.crops} == {(48, 48, 3)}
    assert large.classes == small.classes and large.offsets == small.offsets
    # The same places at 1.5 times the pixels: shrunk back, each large crop is its small one.
    for big, crop in zip(large.crops, small.crops, strict=True):
        again = cv2.resize(big, (32, 32), interpolation=cv2.INTER_AREA)
        assert np.abs(again.astype(int) - crop).mean() < 5


def _one_die() -> tuple[tuple[float, float, float | None, int], Frame]:
    tray = render_tray([5], seed=31)
    (die,) = rendered_dice(tray)
    return die, tray.frame


def test_a_die_proposed_twice_is_that_die_both_times() -> None:
    die, frame = _one_die()
    x, y, side, value = die
    assert side is not None
    proposals = [Proposal(x, y, side, 0.9), Proposal(x + 0.05 * side, y, 1.1 * side, 0.4)]
    sink = Sink()
    cut(frame, [die], np.random.default_rng(0), sink, 0, proposals=proposals)
    # Four crops at each proposal and two at the labelled centre, once: every one the die's.
    assert sink.classes == [value] * 10


@pytest.mark.parametrize(("centred", "expected"), [(0.2, 0), (0.4, 5)])
def test_a_crop_a_third_of_a_die_off_its_centre_is_the_die_only_when_that_is_near_enough(
    centred: float, expected: int
) -> None:
    die, frame = _one_die()
    x, y, side, value = die
    assert side is not None and value == 5
    sink = Sink()
    off = Proposal(x + 0.3 * side, y, side, 0.9)
    cut(frame, [die], np.random.default_rng(0), sink, 0, centred=centred, proposals=[off])
    assert sink.classes[:4] == [expected] * 4  # the crops at the proposal
    assert sink.classes[4:] == [value] * 2  # the crops at the labelled centre
    for dx, dy in sink.offsets[:4]:
        assert math.hypot(dx, dy) == pytest.approx(0.3, abs=0.04)


def _sure(die: float) -> list[Verdict]:
    rest = (1.0 - die) / 7
    return [Verdict((1.0 - die, *[rest] * 7), (0.0, 0.0))]


@pytest.mark.parametrize(("die", "crops"), [(0.95, 0), (0.5, 2)])
def test_a_proposal_on_no_labelled_die_is_left_out_when_the_doubting_classifier_sees_a_die(
    die: float, crops: int
) -> None:
    _, frame = _one_die()
    looked: list[int] = []

    def doubt(batch: Sequence[Frame]) -> list[Verdict]:
        looked.append(len(batch))
        return _sure(die) * len(batch)

    sink = Sink()
    elsewhere = Proposal(20.0, 20.0, 40.0, 0.5)
    cut(frame, [], np.random.default_rng(0), sink, 0, doubt=doubt, proposals=[elsewhere])
    assert looked == [2]  # upright and turned a quarter
    assert sink.classes == [0] * crops
    sink = Sink()
    cut(frame, [], np.random.default_rng(0), sink, 0, proposals=[elsewhere])
    assert sink.classes == [0, 0]


def test_a_share_of_the_originals_and_the_other_share_split_the_photos_between_them() -> None:
    names = [f"rune55-trainval/images/p{n}_jpg.rf.{n:08x}.jpg" for n in range(200)]
    half = [cut_from(name, 0.5) for name in names]
    assert [cut_from(name, 0.5, other=True) for name in names] == [not h for h in half]
    assert 60 < sum(half) < 140
    assert all(cut_from(name, 1.0) for name in names)
    copies = [
        "rune55-trainval/images/p7_jpg.rf.aaaa.jpg",
        "rune55-trainval/images/p7_jpg.rf.bbbb.jpg",
    ]
    assert cut_from(copies[0], 0.5) == cut_from(copies[1], 0.5)
