"""Tests of the judge: a die kept only when it is likely one, and its value given only when the
evidence makes it likely right."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from vision import ReaderParams, read
from vision.candidates import Candidate
from vision.classify import Verdict
from vision.crops import die_crop, pyramid_of
from vision.errors import InvalidParams, ReaderUnavailable
from vision.face import Face
from vision.judge import (
    COUNTED,
    DIE_FEATURES,
    LOOKS,
    SETTLING,
    VALUE_FEATURES,
    Logistic,
    Looks,
    Model,
    context_of,
    decide,
    die_evidence,
    judge,
    judge_classifier,
    look_crop,
    looks_at,
    settled,
    shipped_model,
    value_evidence,
    values_in_question,
)
from vision.reader import die_reading
from vision.render import render_tray
from vision.types import Frame

FLAT = np.repeat(np.tile(np.arange(200, dtype=np.uint8), (120, 1))[:, :, None], 3, axis=2)
"""A frame as bright at each place as it is far from the left edge: the crops of candidates at
different places tell the `StandIn` which candidate they are of."""


def face(
    x: float, value: int | None, confidence: float = 0.8, width: float = 30.0, strength: float = 0.0
) -> Candidate:
    """A candidate whose pips the pip stages found (one per value: none when not read)."""
    pips = tuple(range(value or 0))
    return Candidate(
        Face(x, 60.0, (8.0, 0.0), (0.0, 8.0), pips, value, width, confidence), strength
    )


def probabilities(given: dict[int, float]) -> tuple[float, ...]:
    rest = (1.0 - sum(given.values())) / (8 - len(given))
    return tuple(given.get(c, rest) for c in range(8))


class StandIn:
    """A classifier that gives every look at the i-th candidate the i-th verdict it was made with,
    and counts the crops of each batch. The first batch holds one crop of each candidate, in
    order; a later crop is of the candidate whose first crop's centre (on `FLAT`) was as bright."""

    def __init__(self, *given: dict[int, float], offset: tuple[float, float] = (0.0, 0.0)) -> None:
        self.verdicts = [Verdict(probabilities(p), offset) for p in given]
        self.calls: list[int] = []
        self.centres: list[float] = []

    def __call__(self, crops: Sequence[Frame]) -> list[Verdict]:
        self.calls.append(len(crops))
        centres = [float(crop[15:17, 15:17].mean()) for crop in crops]
        if not self.centres:
            assert len(crops) == len(self.verdicts), "the first batch is one crop a candidate"
            self.centres = centres
        nearest = [int(np.argmin([abs(c - m) for m in self.centres])) for c in centres]
        return [self.verdicts[i] for i in nearest]


def weighing(names: tuple[str, ...], weights: dict[str, float], bias: float = 0.0) -> Logistic:
    """A logistic model that weighs only the named features, as they are."""
    return Logistic(
        (0.0,) * len(names),
        (1.0,) * len(names),
        tuple(weights.get(name, 0.0) for name in names),
        bias,
    )


def model(least_value: float = 0.5, least_die: float = 0.5) -> Model:
    """A die where the looks find one more probable than not (log 0.5 = -0.69); a value as
    likely as its share of the die probability."""
    die = weighing(DIE_FEATURES, {"log_die": 20.0}, bias=20.0 * 0.693)
    value = weighing(VALUE_FEATURES, {"log_share": 10.0}, bias=10.0 * 0.693)
    return Model(die, value, least_die, least_value)


def test_a_value_the_looks_confirm_is_given_and_one_they_doubt_is_not() -> None:
    sure, doubt = {4: 0.95}, {4: 0.45, 5: 0.45}
    classifier = StandIn(sure, doubt)
    judged = judge(pyramid_of(FLAT), [face(40, 4), face(140, 4)], classifier, model(0.8))
    assert [(f.x, f.value) for f in sorted(judged, key=lambda f: f.x)] == [(40, 4), (140, None)]
    # The upright looks in one batch, the settling looks in one more, the rest where in doubt.
    assert classifier.calls == [2, 2 * (SETTLING - 1), len(LOOKS) - SETTLING]


def test_a_die_given_no_value_carries_the_likeliest_for_the_players_to_confirm() -> None:
    classifier = StandIn({4: 0.97}, {5: 0.6, 4: 0.3})
    judged = judge(pyramid_of(FLAT), [face(40, 4), face(140, 4)], classifier, model(0.95))
    assert sorted((f.x, f.value, f.likely) for f in judged) == [(40, 4, None), (140, None, 5)]


def test_the_reading_of_a_die_not_read_keeps_its_likeliest_value() -> None:
    unsure = Face(50.0, 50.0, (8.0, 0.0), (0.0, 8.0), (), None, 30.0, 0.7, likely=3)
    assert die_reading(unsure, 100, 100, ReaderParams()).likely == 3
    assert die_reading(replace(unsure, likely=None), 100, 100, ReaderParams()).likely is None


def test_looks_that_agree_surely_settle_a_candidate_and_others_do_not() -> None:
    def looks(*given: dict[int, float]) -> np.ndarray:
        return np.array([probabilities(p) for p in given])

    assert settled(looks({4: 0.95}, {4: 0.92}))
    assert settled(looks({0: 0.97}, {0: 0.95}))  # no die, surely
    assert not settled(looks({4: 0.95}, {4: 0.6}))
    assert not settled(looks({4: 0.95}, {5: 0.95}))
    assert not settled(looks({7: 0.95}, {7: 0.95}))  # unreadable: the other looks may read it


def test_the_looks_see_a_die_turned_by_every_quarter_and_mirrored() -> None:
    frame = np.zeros((120, 200, 3), np.uint8)
    frame[50:60, 90:95] = 255  # a mark that looks different however it is turned or mirrored
    frame[50:53, 95:105] = 255
    pyramid = pyramid_of(frame)
    crops = [look_crop(pyramid, (95.0, 60.0), 30.0, look) for look in LOOKS]
    assert len({crop.tobytes() for crop in crops}) == len(LOOKS) == 8
    for (angle, mirrored), crop in zip(LOOKS, crops, strict=True):
        turned = die_crop(pyramid, (95.0, 60.0), 30.0, angle)
        assert np.array_equal(crop, turned[:, ::-1] if mirrored else turned)


def test_a_candidate_off_the_die_centre_is_moved_there_and_looked_at_again() -> None:
    classifier = StandIn({3: 0.95}, offset=(0.3, 0.0))
    (judged,) = judge(pyramid_of(FLAT), [face(40, 3)], classifier, model())
    assert judged.x == pytest.approx(40 + 0.3 * 30.0) and judged.value == 3
    assert classifier.calls == [1, SETTLING]  # the upright look again where the die lies
    seen = replace(face(40, 3, strength=0.6), pips_on=3, elongation=1.3)
    (placed,), _ = looks_at(pyramid_of(FLAT), [seen], StandIn({3: 0.95}, offset=(0.3, 0.0)))
    assert placed == replace(seen, face=replace(seen.face, x=40 + 0.3 * 30.0))  # all else kept
    far = StandIn({3: 0.95}, offset=(0.9, 0.0))  # that look saw another die: not moved
    assert [f.x for f in judge(pyramid_of(FLAT), [face(40, 3)], far, model())] == [40]


def test_a_die_the_fast_path_read_is_looked_at_turned_and_again_only_when_that_doubts_it() -> None:
    def quick(x: float, value: int) -> Candidate:
        return Candidate(Face(x, 60.0, (8.0, 0.0), (0.0, 8.0), (), value, 30.0, 0.97), 0.0)

    read = [quick(40, 4), quick(140, 4), quick(100, 5)]
    crops: list[Frame] = []
    stand_in = StandIn({4: 0.95}, {4: 0.5, 5: 0.4}, {4: 0.95}, offset=(0.3, 0.0))

    def classifier(batch: Sequence[Frame]) -> list[Verdict]:
        crops.extend(batch)
        return stand_in(batch)

    placed, looks = looks_at(pyramid_of(FLAT), read, classifier)
    # The fast path looked upright already: a quarter turned first, where it centred the die.
    assert [c.tobytes() for c in crops[:3]] == [
        look_crop(pyramid_of(FLAT), (x, 60.0), 30.0, LOOKS[1]).tobytes() for x in (40, 140, 100)
    ]
    assert placed == read
    # Every other look where the turned one doubts the value, or surely finds another.
    assert stand_in.calls == [3, 2 * (len(LOOKS) - 1)]
    assert looks[0].offset == pytest.approx(0.3)


def test_a_place_only_the_detector_proposed_is_weighed_as_a_candidate_without_pips() -> None:
    proposed = Candidate(Face(40, 60.0, (8.0, 0.0), (0.0, 8.0), (), None, 30.0, 0.0), 0.8)
    classifier = StandIn({2: 0.96})
    (judged,) = judge(pyramid_of(FLAT), [proposed], classifier, model(0.8))
    assert judged.value == 2
    placed = [proposed, face(140, 2, strength=0.8)]
    looks = [Looks(*(np.array(probabilities({2: 0.9})),) * 3)] * 2
    context = context_of(placed, looks)
    without, with_pips = (
        dict(zip(VALUE_FEATURES, value_evidence(c, look, 2, context), strict=True))
        for c, look in zip(placed, looks, strict=True)
    )
    assert without["read_so"] == 0.0 and without["strength"] == 0.8
    assert with_pips["read_so"] == 1.0 and with_pips["pips_read_so"] == pytest.approx(2 / 6)


def test_a_place_the_looks_find_no_die_is_left_out() -> None:
    classifier = StandIn({3: 0.9}, {0: 0.9})
    judged = judge(pyramid_of(FLAT), [face(40, 3), face(140, 3)], classifier, model())
    assert [(f.x, f.value) for f in judged] == [(40, 3)]


def test_the_value_the_looks_favour_is_weighed_beside_the_one_read() -> None:
    look = Looks(np.array(probabilities({6: 0.9})), *(np.array(probabilities({6: 0.9})),) * 2)
    assert values_in_question(face(0, 2).face, look) == [2, 6]
    assert values_in_question(face(0, None).face, look) == [6]
    # A die read as 2 that the looks take surely for a 6 is given 6; one read as None too.
    classifier = StandIn({6: 0.95}, {6: 0.95})
    judged = judge(pyramid_of(FLAT), [face(40, 2), face(140, None)], classifier, model(0.8))
    assert sorted(f.value or 0 for f in judged) == [6, 6]


def test_of_two_faces_on_one_die_the_likelier_stays() -> None:
    classifier = StandIn({5: 0.7}, {5: 0.97})
    judged = judge(pyramid_of(FLAT), [face(40, 5), face(50, 5)], classifier, model())
    assert [f.x for f in judged] == [50]


def test_of_two_candidates_closer_than_a_die_lying_flat_allows_one_is_left_out() -> None:
    """Touching dice (a width apart) both stay; a side face beside its die's top does not."""
    touching = judge(
        pyramid_of(FLAT), [face(40, 5), face(70, 5)], StandIn({5: 0.97}, {5: 0.9}), model()
    )
    assert sorted(f.x for f in touching) == [40, 70]
    side = judge(
        pyramid_of(FLAT),
        [face(40, 5), face(40 + 0.6 * 30, 2)],
        StandIn({5: 0.97}, {2: 0.9}),
        model(),
    )
    assert [f.x for f in side] == [40]


def test_the_context_of_a_frame() -> None:
    faces = [face(40, 2), face(100, 3), face(160, None, width=90.0, strength=0.9)]
    looks = [
        Looks(*(np.array(probabilities({2: 0.9})),) * 3),
        Looks(*(np.array(probabilities({5: 0.9})),) * 3),
        Looks(*(np.array(probabilities({0: 0.9})),) * 3),
    ]
    context = context_of(faces, looks)
    assert context.width == 30.0  # the third is no die by the looks
    assert context.disagreement == 0.5  # one of the two valued faces read otherwise
    assert context.count == 3
    seen = dict(zip(VALUE_FEATURES, value_evidence(faces[1], looks[1], 3, context), strict=True))
    assert seen["read_so"] == 1.0 and seen["most_probable"] == 0.0
    assert seen["log_width"] == pytest.approx(np.log(30.0))


def test_no_faces_are_no_looks() -> None:
    classifier = StandIn()
    assert judge(pyramid_of(FLAT), [], classifier, model()) == []
    assert decide([], [], model()) == []
    assert classifier.calls == []


def test_a_model_round_trips_through_its_text_and_a_broken_one_is_refused() -> None:
    assert Model.from_json(model(0.7).to_json()) == model(0.7)
    with pytest.raises(ReaderUnavailable, match="cannot be read"):
        Model.from_json("{not json")
    short = Logistic((0.0,), (1.0,), (1.0,), 0.0)
    with pytest.raises(ReaderUnavailable, match="features"):
        Model(short, model().value, 0.5, 0.5)
    with pytest.raises(ReaderUnavailable, match="probabilities"):
        Model.from_json(model(1.5).to_json())


def test_the_shipped_judge_keeps_a_clear_die_and_never_gives_a_misread_value() -> None:
    tray = render_tray([5], seed=7)
    die = tray.dice[0]
    pips = (0, 1, 2, 3, 4)
    on_die = Candidate(Face(*die.center, (8.0, 0.0), (0.0, 8.0), pips, 5, die.size_px, 0.9), 0.9)
    misread = Candidate(
        Face(*die.center, (8.0, 0.0), (0.0, 8.0), pips[:2], 2, die.size_px, 0.9), 0.9
    )
    pyramid = pyramid_of(tray.frame)
    assert [f.value for f in judge(pyramid, [on_die], judge_classifier, shipped_model())] == [5]
    assert [f.value for f in judge(pyramid, [misread], judge_classifier, shipped_model())] in (
        [5],
        [None],
    )
    blank = Candidate(Face(30.0, 30.0, (8.0, 0.0), (0.0, 8.0), (), None, die.size_px, 0.0), 0.2)
    assert all(f.value is None for f in judge(pyramid, [blank], judge_classifier, shipped_model()))


def test_the_reader_as_shipped_gives_each_rendered_die_its_value_or_none() -> None:
    """With the judge, the reader never gives a rendered die a wrong value, and gives most
    their value."""
    valued = dice = 0
    for seed in range(12):
        values = [1 + (seed * 5 + k) % 6 for k in range(2 + seed % 5)]
        tray = render_tray(values, seed=4_000 + seed)
        reading = read(tray.frame)
        assert len(reading.dice) == len(values)
        for die in tray.dice:
            (near,) = [d for d in reading.dice if math.dist(d.center, die.center) < die.size_px / 2]
            assert near.value in (die.value, None)
            valued += near.value is not None
        dice += len(values)
    assert valued >= 0.9 * dice


def _die_chance(model_: Model, candidates: list[Candidate], looks: list[Looks]) -> list[float]:
    context = context_of(candidates, looks)
    return [
        model_.die.chance(die_evidence(i, candidates, looks, context))
        for i in range(len(candidates))
    ]


def _looks(*given: dict[int, float]) -> list[Looks]:
    return [Looks(*(np.array(probabilities(p)),) * 3) for p in given]


SURE, LIKELY, DOUBTFUL, UNLIKE = ({3: 0.95}, {5: 0.8}, {0: 0.52, 4: 0.4}, {0: 0.7, 4: 0.25})
"""Looks at a candidate: surely a 3, likely a 5, a die less likely than not (the die model of
`model` gives it a chance between `COUNTED` and 0.5), unlike a die (under `COUNTED`)."""


def test_the_looks_used_for_the_count_are_the_kinds_they_are_named() -> None:
    candidates = [face(40, 3), face(100, 5), face(160, None), face(220, None)]
    chances = _die_chance(model(), candidates, _looks(SURE, LIKELY, DOUBTFUL, UNLIKE))
    assert chances[0] > chances[1] >= 0.5 > chances[2] >= COUNTED > chances[3]


def test_with_the_count_known_a_die_beyond_it_is_left_out_the_likeliest_stay() -> None:
    candidates = [face(40, 3), face(100, 5), face(160, None)]
    looks = _looks(SURE, LIKELY, LIKELY)
    assert len(decide(candidates, looks, model())) == 3
    two = decide(candidates, looks, model(), expected=2)
    assert len(two) == 2 and two[0].x == 40


def test_with_the_count_known_a_doubtful_candidate_makes_it_up_and_an_unlike_one_never() -> None:
    candidates = [face(40, 3), face(100, None), face(160, None)]
    looks = _looks(SURE, DOUBTFUL, UNLIKE)
    assert [f.x for f in decide(candidates, looks, model())] == [40]
    assert [f.x for f in decide(candidates, looks, model(), expected=2)] == [40, 100]
    # Three expected: the candidate unlike a die is not made one; the players are asked.
    assert [f.x for f in decide(candidates, looks, model(), expected=3)] == [40, 100]


def test_the_count_never_gives_a_die_a_value() -> None:
    """Each die kept with the count is valued as the judge values it without the count (its
    chance of being a die aside): a die the count added keeps the value and confidence it has
    when the die threshold alone is lowered, here none."""
    candidates = [face(40, 3), face(100, None), face(160, 2)]
    looks = _looks(SURE, DOUBTFUL, LIKELY)
    strict = model(least_value=0.999)
    counted = decide(candidates, looks, strict, expected=3)
    lowered = decide(candidates, looks, model(least_value=0.999, least_die=COUNTED))
    assert sorted(counted, key=lambda f: f.x) == sorted(lowered, key=lambda f: f.x)
    assert [f.value for f in sorted(counted, key=lambda f: f.x)][1] is None


def test_a_candidate_outside_the_throwing_area_does_not_count() -> None:
    candidates = [face(40, 3), face(100, 5)]
    looks = _looks(SURE, LIKELY)
    inside = decide(candidates, looks, model(), expected=1, admits=lambda f: f.x > 50)
    assert [f.x for f in inside] == [100]


@pytest.mark.parametrize("expected", [0, -1, 31, 2.0, True])
def test_a_count_outside_one_to_thirty_is_refused(expected: object) -> None:
    with pytest.raises(InvalidParams, match="dice expected must be 1 to 30"):
        read(FLAT, expected=expected)


def test_the_reader_told_the_count_reads_that_many_rendered_dice() -> None:
    for seed in range(4):
        values = [1 + (seed + k) % 6 for k in range(2 + seed)]
        tray = render_tray(values, seed=4_100 + seed)
        reading = read(tray.frame, expected=len(values))
        assert len(reading.dice) == len(values)
        for die in tray.dice:
            (near,) = [d for d in reading.dice if math.dist(d.center, die.center) < die.size_px / 2]
            assert near.value in (die.value, None)
