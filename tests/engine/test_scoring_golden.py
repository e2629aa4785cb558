"""Golden scores from the rule documents, one table per rule set."""

from __future__ import annotations

import pytest

from engine.dice import Throw
from engine.errors import InvalidThrow
from engine.rules import find_rules
from engine.scoring import score_throw

# rules, throw, best, dice the best keep leaves
GOLDEN = [
    # OOPSLA '89 Greed
    ("greed", "44446", 400, "46"),
    ("greed", "11115", 1150, ""),
    ("greed", "12315", 250, "23"),
    ("greed", "22346", 0, "22346"),
    ("greed", "66655", 700, ""),
    # Ruby Koans
    ("greed-koans", "51341", 250, "34"),
    ("greed-koans", "11131", 1100, "3"),
    ("greed-koans", "24454", 450, "2"),
    ("greed-koans", "11151", 1150, ""),
    ("greed-koans", "23462", 0, "23462"),
    ("greed-koans", "34533", 350, "4"),
    ("greed-koans", "5", 50, ""),
    ("greed-koans", "1", 100, ""),
    ("greed-koans", "22222", 200, "22"),
    # Farkle
    ("farkle", "123335", 450, "2"),
    ("farkle", "111111", 2000, ""),  # two triples of 1s
    ("farkle", "234466", 0, "234466"),
    ("farkle", "123456", 150, "2346"),
    # "The Game Greed" house rules
    ("greed-house", "123452", 1000, "2"),
    ("greed-house", "234566", 1000, "6"),
    ("greed-house", "123456", 2000, ""),
    ("greed-house", "666623", 1200, "23"),
    ("greed-house", "222224", 800, "4"),  # five 2s = 2 x four 2s = 2 x 2 x 200
    ("greed-house", "111111", 8000, ""),
    ("greed-house", "111155", 2100, ""),
    ("greed-house", "555", 500, ""),
    ("greed-house", "11343", 200, "343"),
    ("greed-house", "123455", 1050, ""),
]


@pytest.mark.parametrize(("name", "dice", "best", "left"), GOLDEN)
def test_golden_best_score(name: str, dice: str, best: int, left: str) -> None:
    scoring = score_throw(find_rules(name), Throw.from_str(dice).values)
    assert scoring.best == best
    assert scoring.is_bust == (best == 0)
    assert scoring.non_scoring == tuple(sorted(int(c) for c in left))


def test_farkle_keeps_of_the_issue_example() -> None:
    scoring = score_throw(find_rules("farkle"), (1, 2, 3, 3, 3, 5))
    keeps = {option.dice: option.score for option in scoring.options}
    assert keeps[(3, 3, 3)] == 300
    assert keeps[(1,)] == 100
    assert keeps[(5,)] == 50
    assert keeps[(1, 3, 3, 3, 5)] == 450
    assert (2,) not in keeps and (3, 3) not in keeps
    assert len(keeps) == 7  # every non-empty combination of {1}, {5}, {3,3,3}


def test_scoring_is_within_one_throw_and_each_die_counts_once() -> None:
    # A fourth 4 is not part of Greed's triple: it is left to throw.
    scoring = score_throw(find_rules("greed"), (4, 4, 4, 4, 6))
    assert [option.dice for option in scoring.options] == [(4, 4, 4)]
    # In the house rules the fourth 4 doubles the triple.
    assert score_throw(find_rules("greed-house"), (4, 4, 4, 4, 6)).best == 800


def test_bust_has_no_options() -> None:
    scoring = score_throw(find_rules("farkle"), (2, 3, 4, 4, 6, 6))
    assert scoring.is_bust and scoring.options == () and scoring.best_keep is None


def test_eleven_faces_score_triples_of_every_face() -> None:
    from engine.rules import Rules

    rules = Rules(name="eleven", description="d11", dice=5, faces=11)
    assert score_throw(rules, (11, 11, 11, 1, 7)).best == 1200
    with pytest.raises(InvalidThrow, match="12"):
        score_throw(rules, (12, 1))


@pytest.mark.parametrize("dice", [(7, 1, 1), (0, 1), (1, 1, 1, 1, 1, 1)])
def test_invalid_throws_are_rejected(dice: tuple[int, ...]) -> None:
    with pytest.raises(InvalidThrow):
        score_throw(find_rules("greed"), dice)
