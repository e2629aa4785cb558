"""Scoring patterns in the rule format: what each makes, the errors, and two Hypothesis properties
(a throw's score is the best split into the patterns; a rule set written out and read back scores
the same)."""

from __future__ import annotations

import dataclasses
import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidRules
from engine.rules import Rules, ScoringTable, find_rules
from engine.rules_toml import format_rules, parse_rules
from engine.scoring import score_throw

BASE = 'name = "x"\nbase = "farkle"\n[scoring]\n'


def _rules(scoring: str, head: str = "") -> Rules:
    return parse_rules('name = "x"\nbase = "farkle"\n' + head + "[scoring]\n" + scoring)


def _names(rules: Rules, name: str) -> list[tuple[int, ...]]:
    return sorted(c.dice for c in rules.combinations() if c.name == name)


def test_three_pairs_of_different_faces() -> None:
    rules = _rules("pairs = { 3 = 1500 }")
    pairs = _names(rules, "three pairs")
    assert len(pairs) == 20  # 6 faces choose 3
    assert (1, 1, 2, 2, 3, 3) in pairs and (2, 2, 2, 2, 3, 3) not in pairs


def test_four_of_a_kind_may_count_as_two_pairs() -> None:
    rules = _rules("pairs = { 3 = 1500 }\nfour_of_a_kind_is_two_pairs = true")
    pairs = _names(rules, "three pairs")
    assert len(pairs) == 20 + 30  # and a four of one face with a pair of another
    assert (2, 2, 2, 2, 3, 3) in pairs and (2, 2, 2, 2, 2, 2) not in pairs


def test_two_pairs_on_four_dice() -> None:
    rules = _rules("pairs = { 2 = 250 }", head="dice = 4\n")
    assert score_throw(rules, (3, 3, 6, 6)).best == 250
    assert score_throw(rules, (3, 3, 3, 3)).best == 300  # three 3s: two pairs of one face are not


def test_two_triplets_and_four_and_a_pair() -> None:
    rules = _rules("triplets = { 2 = 2500 }\nfour_and_pair = 1500")
    assert score_throw(rules, (2, 2, 2, 4, 4, 4)).best == 2500
    assert score_throw(rules, (3, 3, 3, 3, 6, 6)).best == 1500
    assert len(_names(rules, "four of a kind and a pair")) == 30


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ('"additive"', [300, 600, 900, 1200]),
        ('"doubling"', [300, 600, 1200, 2400]),
        ("{ 3 = 1, 4 = 2, 5 = 4, 6 = 10 }", [300, 600, 1200, 3000]),
    ],
)
def test_of_a_kind_rules(rule: str, expected: list[int]) -> None:
    rules = _rules(f"of_a_kind = {rule}")
    assert [score_throw(rules, (3,) * n).best for n in range(3, 7)] == expected


def test_flat_of_a_kind_wins_over_the_multiplier() -> None:
    rules = _rules("of_a_kind = { 3 = 1, 4 = 2 }\nof_a_kind_points = { 4 = 1000, 6 = 3000 }")
    assert score_throw(rules, (6, 6, 6, 6)).best == 1000
    assert score_throw(rules, (2, 2, 2, 2, 2, 2)).best == 3000
    assert score_throw(rules, (2, 2, 2, 2, 2)).best == 1000  # four flat and no five: 1000 + 0


def test_straights_of_every_length_and_place() -> None:
    rules = _rules("straights = { 4 = 400, 6 = 1500 }")
    runs = sorted(c.dice for c in rules.combinations() if c.name.startswith("straight"))
    assert runs == [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (2, 3, 4, 5), (3, 4, 5, 6)]
    assert score_throw(rules, (2, 3, 4, 5, 6)).best == 400  # 2-5 or 3-6; the 6 or the 2 is left
    assert score_throw(rules, (1, 2, 3, 4, 5)).best == 500  # 2-5 and the 1 beat 1-4 and the 5


def test_no_score_bonus_only_for_a_throw_of_all_the_dice() -> None:
    rules = _rules("no_score = 500")
    assert score_throw(rules, (2, 2, 3, 4, 6, 6)).best == 500
    assert score_throw(rules, (2, 2, 3, 4, 6)).is_bust
    assert score_throw(rules, (1, 2, 3, 4, 6, 6)).best == 100


def test_a_throw_of_no_dice_scores_zero() -> None:
    scoring = score_throw(find_rules("greed-koans"), ())
    assert (scoring.best, scoring.options, scoring.is_bust) == (0, (), False)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("singles = { 7 = 100 }", "singles.7 = 100 can never be thrown: the dice have faces 1-6"),
        ("of_a_kind = { 7 = 2 }", "of_a_kind.7 = 2 can never be thrown: it needs 7"),
        ("of_a_kind_points = { 8 = 5 }", "scoring.of_a_kind_points.8 = 5 can never be thrown"),
        ("pairs = { 4 = 100 }", "scoring.pairs.4 = 100 can never be thrown: it needs 8"),
        ("triplets = { 3 = 100 }", "scoring.triplets.3 = 100 can never be thrown: it needs 9"),
        ("straights = { 7 = 100 }", "scoring.straights.7 = 100 can never be thrown"),
        ("three_of_a_kind_overrides = { 9 = 1 }", "scoring.three_of_a_kind_overrides.9 = 1"),
        ("[[scoring.combinations]]\ndice = [1, 7]\npoints = 5", "#1 [1, 7] can never be"),
        ("[[scoring.combinations]]\ndice = [1, 1, 1, 1, 1, 1, 1]\npoints = 5", "needs 7, the"),
        ('of_a_kind = "tripling"', "'tripling': allowed values are 'additive', 'doubling'"),
        ("pairs = { 1 = 100 }", "scoring.pairs count 1: must be >= 2"),
        ("four_and_pair = -1", "scoring.four_and_pair = -1: must be a whole number >= 0"),
        ("no_score = true", "scoring.no_score = True: expected a whole number"),
        ("four_of_a_kind_is_two_pairs = 1", "four_of_a_kind_is_two_pairs = 1: expected true or"),
        ("straight = { 6 = 1 }", "unknown key 'scoring.straight': did you mean 'straights'?"),
    ],
)  # fmt: skip
def test_impossible_and_bad_entries_are_named(body: str, message: str) -> None:
    with pytest.raises(InvalidRules) as info:
        parse_rules(BASE + body, origin="x.toml")
    assert message in str(info.value)


def test_four_and_a_pair_needs_six_dice() -> None:
    with pytest.raises(InvalidRules, match="four_and_pair = 1500 can never be thrown: it needs 6"):
        _rules("four_and_pair = 1500", head="dice = 5\n")


# --- properties ---------------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> ScoringTable:
    points = st.integers(1, 40).map(lambda n: n * 50)
    kinds = draw(st.sampled_from(["plain", "additive", "doubling", "dix"]))
    of_a_kind = {
        "plain": ((3, 1),),
        "additive": ((3, 1), (4, 2), (5, 3), (6, 4)),
        "doubling": ((3, 1), (4, 2), (5, 4), (6, 8)),
        "dix": ((3, 1), (4, 2), (5, 4), (6, 10)),
    }[kinds]
    return ScoringTable(
        singles=tuple(
            draw(st.sampled_from([((1, 100), (5, 50)), ((1, 100),), ((5, 50), (6, 60))]))
        ),
        of_a_kind=of_a_kind,
        of_a_kind_points=tuple((count, draw(points)) for count in (4, 5, 6) if draw(st.booleans())),
        pairs=((3, draw(points)),) if draw(st.booleans()) else (),
        four_of_a_kind_is_two_pairs=draw(st.booleans()),
        triplets=((2, draw(points)),) if draw(st.booleans()) else (),
        four_and_pair=draw(st.sampled_from([0, 0, 1500])),
        straights=tuple((length, draw(points)) for length in (4, 5, 6) if draw(st.booleans())),
        no_score=draw(st.sampled_from([0, 0, 500])),
    )


def _best_split(rules: Rules, dice: tuple[int, ...]) -> int:
    """The best score by brute force: every subset of the dice, split every way into patterns."""
    points: dict[tuple[int, ...], int] = {}
    for combo in rules.combinations():
        points[combo.dice] = max(points.get(combo.dice, 0), combo.points)

    @cache
    def exact(rest: tuple[int, ...]) -> int | None:
        if not rest:
            return 0
        best = None
        others = range(1, len(rest))
        for size in range(len(rest)):
            for picked in itertools.combinations(others, size):
                group = tuple(sorted((rest[0], *(rest[i] for i in picked))))
                if group in points:
                    left = tuple(v for i, v in enumerate(rest) if i and i not in picked)
                    tail = exact(left)
                    if tail is not None and (best is None or points[group] + tail > best):
                        best = points[group] + tail
        return best

    scores = [
        exact(tuple(sorted(dice[i] for i in chosen)))
        for size in range(1, len(dice) + 1)
        for chosen in itertools.combinations(range(len(dice)), size)
    ]
    return max((s for s in scores if s is not None), default=0)


@settings(max_examples=120, deadline=None)
@given(tables(), st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_a_throw_scores_its_best_split_into_patterns(table: ScoringTable, dice: list[int]) -> None:
    rules = Rules(name="p", description="patterns", dice=6, scoring=table)
    assert score_throw(rules, dice).best == _best_split(rules, tuple(dice))


@settings(max_examples=60, deadline=None)
@given(tables(), st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_a_rule_set_written_out_and_read_back_scores_the_same(
    table: ScoringTable, dice: list[int]
) -> None:
    rules = Rules(name="p", description='patterns "quoted"', dice=6, scoring=table, target=2500)
    again = parse_rules(format_rules(rules))
    assert again == rules
    assert score_throw(again, dice) == score_throw(rules, dice)


@pytest.mark.parametrize("name", ["greed", "farkle", "greed-house", "pig", "zilch", "dix-mille"])
def test_shipped_rules_round_trip(name: str) -> None:
    rules = find_rules(name)
    again = parse_rules(format_rules(rules))
    assert again == rules
    assert again.combinations() == rules.combinations()


def test_round_trip_keeps_a_changed_field() -> None:
    rules = dataclasses.replace(find_rules("zilch"), passing=True)
    assert parse_rules(format_rules(rules)).passing is True
