"""Golden score tables of the shipped variants, each written from the variant's rules (issue 49).

Every pattern and every boundary: a straight of five against one of six, four of a kind and a pair
under both settings, six of a kind against two triplets and three pairs, the no-score throw.
"""

from __future__ import annotations

import itertools

import pytest

from engine.rules import find_rules
from engine.scoring import score_throw

GOLDEN: dict[str, list[tuple[str, int]]] = {
    "farkle-patch": [
        ("1", 100),
        ("5", 50),
        ("2", 0),
        ("111", 300),  # three 1s are 300 here, not 1000
        ("222", 200),
        ("555", 500),
        ("666", 600),
        ("1111", 1000),  # four of a kind is flat, whatever the face
        ("2222", 1000),
        ("66666", 2000),
        ("222222", 3000),  # six of a kind beats two triplets and three pairs
        ("111111", 3000),
        ("11111 5", 2050),
        ("123456", 1500),
        ("12345", 150),  # no small straight: a 1 and a 5
        ("23456", 50),
        ("223344", 1500),  # three pairs
        ("115522", 1500),
        ("222233", 1500),  # four of a kind and a pair
        ("111155", 1500),  # ... beats four 1s and two 5s (1100)
        ("344444", 2000),  # five of a kind and a 3
        ("222333", 2500),  # two triplets
        ("111555", 2500),  # ... beats 300 + 500
        ("223346", 0),
    ],
    "ten-thousand": [
        ("1", 100),
        ("5", 50),
        ("111", 1000),
        ("222", 200),
        ("2222", 400),  # each die beyond three adds the triple again
        ("22222", 600),
        ("222222", 800),
        ("1111", 2000),
        ("111111", 4000),
        ("666666", 2400),
        ("123456", 1500),
        ("12345", 150),
        ("23456", 50),
        ("223344", 1500),
        ("115522", 1500),
        ("222233", 400),  # four of a kind and a pair is not three pairs
        ("222255", 500),
        ("111155", 2100),
        ("222333", 500),  # two triplets: no bonus, two triples
        ("111555", 1500),
        ("333333", 1200),  # six of a kind (not two triplets: 600)
        ("223346", 0),
    ],
    "greed-kata": [
        ("1", 100),
        ("5", 50),
        ("111", 1000),
        ("333", 300),
        ("2222", 400),  # four of a kind doubles the triple
        ("22222", 800),  # five doubles again
        ("222222", 1600),  # six doubles again
        ("1111", 2000),
        ("111111", 8000),
        ("555555", 4000),
        ("123456", 1200),
        ("12345", 150),
        ("23456", 50),
        ("223344", 800),
        ("115566", 800),  # three pairs beat 1 1 5 5 (300)
        ("222233", 400),  # four of a kind and a pair is not three pairs
        ("222255", 500),
        ("111155", 2100),
        ("222333", 500),
        ("11155", 1100),
        ("223346", 0),
    ],
    "dix-mille": [
        ("1", 100),
        ("5", 50),
        ("111", 1000),
        ("444", 400),
        ("2222", 400),  # 2 x the triple
        ("22222", 800),  # 4 x
        ("222222", 2000),  # 10 x
        ("1111", 2000),
        ("55555", 2000),
        ("111111", 10000),
        ("12345", 600),  # small straight 1-5
        ("23456", 600),  # small straight 2-6
        ("123456", 1200),  # large straight
        ("123455", 650),
        ("112345", 700),
        ("234566", 600),
        ("3456", 50),  # four in a row is no straight
        ("223344", 800),
        ("115566", 800),
        ("222233", 400),  # four of a kind and a pair is not three pairs
        ("222255", 500),
        ("666611", 1400),
        ("222333", 500),
        ("223346", 0),
    ],
    "zilch": [
        ("1", 100),
        ("5", 50),
        ("111", 1000),
        ("2222", 400),  # each die beyond three doubles
        ("22222", 800),
        ("222222", 1600),  # six of a kind is not three pairs (1500)
        ("333333", 2400),
        ("111111", 8000),
        ("123456", 1500),
        ("12345", 150),
        ("223344", 1500),
        ("222233", 1500),  # four of a kind and a pair is three pairs
        ("333366", 1500),
        ("111155", 2100),  # ... but four 1s and two 5s are worth more
        ("222333", 500),
        ("223346", 500),  # six dice and nothing scores
        ("223466", 500),
        ("2346", 0),  # fewer than six dice scoring nothing: a zilch
        ("234666", 600),
    ],
}


def _cases() -> list[tuple[str, str, int]]:
    return [(name, dice, best) for name, table in GOLDEN.items() for dice, best in table]


@pytest.mark.parametrize(("name", "dice", "best"), _cases())
def test_golden_best_score(name: str, dice: str, best: int) -> None:
    values = tuple(int(c) for c in dice if c != " ")
    scoring = score_throw(find_rules(name), values)
    assert scoring.best == best
    assert scoring.is_bust is (best == 0)


def test_zilch_pays_exactly_the_six_dice_throws_without_a_score() -> None:
    zilch = find_rules("zilch")
    paid = []
    for dice in itertools.combinations_with_replacement(range(1, 7), 6):
        options = score_throw(zilch, dice).options
        if [(o.dice, o.score) for o in options] == [(dice, 500)]:  # only all six dice score
            paid.append(dice)
    # No 1, no 5, no triple, not three pairs: two faces of {2, 3, 4, 6} twice, the others once.
    expected = [
        tuple(sorted(twice * 2 + once))
        for twice in itertools.combinations((2, 3, 4, 6), 2)
        for once in [tuple(f for f in (2, 3, 4, 6) if f not in twice)]
    ]
    assert sorted(paid) == sorted(expected)
    assert len(paid) == 6


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_variants_are_shipped_with_a_source(name: str) -> None:
    rules = find_rules(name)
    assert rules.source and rules.description
    assert (rules.dice, rules.faces, rules.target) == (6, 6, 10_000)
