"""Tests of what make_proposal_crops.py teaches the judge's network on rendered dice: the classes
(an emblem in place of a six's pips is never a value), where each die lies (on an oblique view,
its top face), and its arguments."""

from __future__ import annotations

import argparse
import math

import cv2
import numpy as np
import pytest

from training.make_crops import UNREADABLE, Sink
from training.make_proposal_crops import _preset, _scales, class_of, cut, rendered_dice
from vision.render import TrayStyle, render_tray, style_like


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
