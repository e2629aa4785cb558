"""Tests of the judge: each die's value given only when the evidence makes it likely right."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from vision.classify import Verdict, classify
from vision.crops import pyramid_of
from vision.errors import ReaderUnavailable
from vision.face import Face
from vision.judge import FEATURES, LOOKS, Model, evidence, judge, shipped_model
from vision.render import render_tray
from vision.types import Frame

FLAT = np.full((120, 160, 3), 90, np.uint8)


def face(x: float, value: int | None, confidence: float = 0.8) -> Face:
    return Face(x, 60.0, (8.0, 0.0), (0.0, 8.0), (), value, 30.0, confidence)


def verdict_of(probabilities: dict[int, float]) -> tuple[float, ...]:
    rest = (1.0 - sum(probabilities.values())) / (8 - len(probabilities))
    return tuple(probabilities.get(c, rest) for c in range(8))


class StandIn:
    """A classifier that gives each crop, in turn, the next of the verdicts it was made with,
    and counts the crops it was given."""

    def __init__(self, *probabilities: dict[int, float]) -> None:
        self.verdicts = [Verdict(verdict_of(p), (0.0, 0.0)) for p in probabilities]
        self.calls: list[int] = []

    def __call__(self, crops: Sequence[Frame]) -> list[Verdict]:
        self.calls.append(len(crops))
        given, self.verdicts = self.verdicts[: len(crops)], self.verdicts[len(crops) :]
        assert len(given) == len(crops), "more crops than verdicts"
        return given


def on_value_only(least: float) -> Model:
    """A model that weighs only how probable the classifier finds the value: a chance of one
    half where that is 0.5 (log 0.5 = -0.69), more above."""
    weights = tuple(4.0 if name == "log_value" else 0.0 for name in FEATURES)
    mean = tuple(-0.693 if name == "log_value" else 0.0 for name in FEATURES)
    return Model(mean, (1.0,) * len(FEATURES), weights, 0.0, least)


def test_a_value_the_classifier_confirms_is_given_and_one_it_doubts_is_not() -> None:
    sure = {4: 0.95}
    doubt = {4: 0.3, 5: 0.6}
    classifier = StandIn(sure, sure, doubt, doubt)
    pyramid = pyramid_of(FLAT)
    judged = judge(pyramid, [face(40, 4), face(110, 4)], classifier, on_value_only(0.6))
    assert [f.value for f in judged] == [4, None]
    assert judged[0].confidence > 0.9
    assert judged[1].confidence < 0.2
    # One batch: every look at every die valued.
    assert classifier.calls == [2 * len(LOOKS)]


def test_a_die_already_unread_is_kept_as_it_is_and_not_looked_at() -> None:
    classifier = StandIn({2: 0.9}, {2: 0.9})
    unread = face(40, None, confidence=0.4)
    judged = judge(pyramid_of(FLAT), [unread, face(110, 2)], classifier, on_value_only(0.5))
    assert judged[0] == unread
    assert judged[1].value == 2
    assert classifier.calls == [len(LOOKS)]


def test_no_dice_are_no_looks() -> None:
    classifier = StandIn()
    assert judge(pyramid_of(FLAT), [], classifier, on_value_only(0.5)) == []
    assert classifier.calls == []


def test_the_least_of_the_looks_and_the_margin_over_the_next_value_are_evidence() -> None:
    upright = Verdict(verdict_of({3: 0.9, 5: 0.05}), (0.0, 0.0))
    turned = Verdict(verdict_of({3: 0.5, 5: 0.4}), (0.0, 0.0))
    seen = dict(zip(FEATURES, evidence(face(0, 3), 3, [upright, turned]), strict=True))
    assert seen["log_value"] == pytest.approx(np.log(0.7))
    assert seen["log_least_value"] == pytest.approx(np.log(0.5))
    assert seen["margin"] == pytest.approx(0.7 - 0.225)
    assert seen["confidence"] == 0.8
    assert seen["log_width"] == pytest.approx(np.log(30.0))


def test_a_model_round_trips_through_its_text_and_a_broken_one_is_refused() -> None:
    model = on_value_only(0.7)
    assert Model.from_json(model.to_json()) == model
    with pytest.raises(ReaderUnavailable, match="cannot be read"):
        Model.from_json("{not json")
    with pytest.raises(ReaderUnavailable, match="features"):
        Model((0.0,), (1.0,), (1.0,), 0.0, 0.5)
    with pytest.raises(ReaderUnavailable, match="features"):
        Model.from_json(on_value_only(1.5).to_json())


def test_the_shipped_model_gives_a_clear_rendered_die_its_value_and_a_blank_place_none() -> None:
    tray = render_tray([5], seed=7)
    die = tray.dice[0]
    pyramid = pyramid_of(tray.frame)
    on_die = Face(*die.center, (8.0, 0.0), (0.0, 8.0), (), 5, float(die.size_px), 0.9)
    wrong = Face(*die.center, (8.0, 0.0), (0.0, 8.0), (), 2, float(die.size_px), 0.9)
    height, width = tray.frame.shape[:2]
    corner = (min(30.0, width / 8), min(30.0, height / 8))
    blank = Face(*corner, (8.0, 0.0), (0.0, 8.0), (), 3, float(die.size_px), 0.9)
    judged = judge(pyramid, [on_die, wrong, blank], classify, shipped_model())
    assert [f.value for f in judged] == [5, None, None]
