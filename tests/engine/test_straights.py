"""Straights under "The Game Greed" house rules: each small straight (1-5 and 2-6) scores 1000, the
large one (1-6) 2000, alone, with singles beside them, and when set aside in a game."""

from __future__ import annotations

import pytest

from engine.game import Game, Phase
from engine.rules import find_rules
from engine.scoring import score_throw

HOUSE = find_rules("greed-house")


def _dice(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in text)


def test_the_straights_are_combinations_of_the_house_rules() -> None:
    straights = {c.dice: c.points for c in HOUSE.combinations() if "straight" in c.name}
    assert straights == {(1, 2, 3, 4, 5): 1000, (2, 3, 4, 5, 6): 1000, (1, 2, 3, 4, 5, 6): 2000}


@pytest.mark.parametrize(
    ("throw", "straight", "best", "left"),
    [
        ("12345", "12345", 1000, ""),  # five dice: the straight uses them all
        ("54321", "12345", 1000, ""),
        ("23456", "23456", 1000, ""),
        ("65432", "23456", 1000, ""),
        ("123453", "12345", 1000, "3"),
        ("234562", "23456", 1000, "2"),
        ("123454", "12345", 1000, "4"),
        ("112345", "12345", 1100, ""),  # the straight and the other 1
        ("234565", "23456", 1050, ""),  # the straight and the other 5
    ],
)
def test_a_small_straight_scores_1000(throw: str, straight: str, best: int, left: str) -> None:
    scoring = score_throw(HOUSE, _dice(throw))
    assert scoring.find(_dice(straight)) is not None
    keep = scoring.find(_dice(straight))
    assert keep is not None and keep.score == 1000
    assert scoring.best == best
    assert scoring.non_scoring == _dice(left)


def test_the_large_straight_is_worth_two_small_ones() -> None:
    scoring = score_throw(HOUSE, _dice("123456"))
    assert scoring.best == 2000
    small = scoring.find((1, 2, 3, 4, 5))
    assert small is not None and small.score == 1000  # keeping only the small one is allowed
    assert scoring.find((2, 3, 4, 5, 6)) is not None


def test_straights_score_only_under_the_house_rules() -> None:
    assert score_throw(find_rules("farkle"), _dice("123456")).best == 150
    assert score_throw(find_rules("greed"), _dice("12345")).best == 150


@pytest.mark.parametrize(("throw", "straight"), [("234566", "23456"), ("123452", "12345")])
def test_setting_a_small_straight_aside_adds_1000(throw: str, straight: str) -> None:
    game = Game(HOUSE, ["Ann", "Bob"])
    game.throw(throw)
    assert game.keep(straight).score == 1000
    assert (
        game.state.phase is Phase.DECIDE
        and game.state.turn.total == 1000
        and game.state.dice_to_throw == 1
    )
    game.throw("5")
    game.keep("5")
    assert game.state.turn.total == 1050  # hot dice: all six scored
    assert game.state.dice_to_throw == 6
    assert game.bank().total == 1050
