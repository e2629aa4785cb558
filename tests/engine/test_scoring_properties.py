"""Hypothesis properties of scoring, over the built-in rule sets and odd dice (2..11 faces)."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import Rules, builtin_rules
from engine.scoring import score_throw, throw_distribution


@st.composite
def rules_and_throw(draw: st.DrawFn) -> tuple[Rules, tuple[int, ...]]:
    rules = draw(st.sampled_from(builtin_rules()[:4]))
    if draw(st.booleans()):
        faces = draw(st.integers(2, 11))
        rules = Rules(name="odd", description="odd dice", dice=rules.dice, faces=faces,
                      scoring=rules.scoring)  # fmt: skip
    n = draw(st.integers(1, rules.dice))
    return rules, tuple(draw(st.lists(st.integers(1, rules.faces), min_size=n, max_size=n)))


@settings(max_examples=300)
@given(rules_and_throw())
def test_options_are_legal_and_never_beat_best(case: tuple[Rules, tuple[int, ...]]) -> None:
    rules, dice = case
    scoring = score_throw(rules, dice)
    thrown = Counter(dice)
    assert scoring.dice == tuple(sorted(dice))
    assert scoring.is_bust == (not scoring.options) == (scoring.best == 0)
    for keep in scoring.options:
        assert keep.dice and keep.dice == tuple(sorted(keep.dice))
        assert not Counter(keep.dice) - thrown  # only dice that were thrown, each once
        assert 0 < keep.score <= scoring.best
    assert len({keep.dice for keep in scoring.options}) == len(scoring.options)
    if scoring.options:
        assert scoring.options[0].score == scoring.best
        assert Counter(scoring.non_scoring) + Counter(scoring.options[0].dice) == thrown
    else:
        assert scoring.non_scoring == scoring.dice


@settings(max_examples=100)
@given(rules_and_throw(), st.randoms())
def test_order_does_not_matter(case: tuple[Rules, tuple[int, ...]], rng: object) -> None:
    rules, dice = case
    shuffled = list(dice)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    assert score_throw(rules, shuffled) == score_throw(rules, dice)


def test_distribution_counts_every_ordered_throw() -> None:
    for rules in builtin_rules()[:4]:
        for n in range(1, rules.dice + 1):
            outcomes = throw_distribution(rules, n)
            assert sum(o.ways for o in outcomes) == rules.faces**n
            assert math.isclose(sum(o.probability for o in outcomes), 1.0)
            assert len(outcomes) == math.comb(rules.faces + n - 1, n)
