"""Named hooks a rule file switches on: Zilch's penalty for a third zilch in a row."""

from __future__ import annotations

import dataclasses

import pytest

from engine.errors import InvalidRules
from engine.game import Game
from engine.rules import find_rules
from engine.rules_toml import format_rules, parse_rules


def _zilch(game: Game) -> None:
    """The current player keeps a 1 from six dice, then throws five that score nothing."""
    game.throw("123446")
    game.keep("1")
    game.throw("23466")


def _bank(game: Game, points: int) -> None:
    game.throw("111234" if points == 1000 else "155234")
    game.keep("111" if points == 1000 else "1")
    game.bank()


def test_every_third_zilch_in_a_row_costs_500() -> None:
    game = Game(find_rules("zilch"), ["Ann", "Bob"])
    _bank(game, 1000)  # Ann
    _bank(game, 100)  # Bob
    totals = []
    for _ in range(6):
        _zilch(game)  # Ann
        totals.append(game.players[0].total)
        _bank(game, 100)  # Bob
    assert totals == [1000, 1000, 500, 500, 500, 0]


def test_a_bank_breaks_the_run_and_the_score_never_goes_below_zero() -> None:
    game = Game(find_rules("zilch"), ["Ann", "Bob"])
    totals = []
    for turn in range(7):
        if turn == 2:
            _bank(game, 100)  # Ann banks: the run starts again
        else:
            _zilch(game)
        totals.append(game.players[0].total)
        _bank(game, 100)  # Bob
    assert totals == [0, 0, 100, 100, 100, 0, 0]


def test_without_the_hook_a_zilch_costs_nothing() -> None:
    rules = dataclasses.replace(find_rules("zilch"), hooks=())
    game = Game(rules, ["Ann", "Bob"])
    _bank(game, 1000)
    _bank(game, 100)
    for _ in range(3):
        _zilch(game)
        _bank(game, 100)
    assert game.players[0].total == 1000


def test_hooks_in_a_rule_file() -> None:
    text = 'name = "x"\nbase = "farkle"\nhooks = ["zilch-penalty"]\n'
    assert parse_rules(text).hooks == ("zilch-penalty",)
    assert parse_rules(format_rules(find_rules("zilch"))).hooks == ("zilch-penalty",)
    with pytest.raises(InvalidRules, match=r"hooks = \('bust-bonus',\): allowed 'zilch-penalty'"):
        parse_rules(text.replace("zilch-penalty", "bust-bonus"))
    with pytest.raises(InvalidRules, match="hooks = 'zilch-penalty': must be a list"):
        parse_rules(text.replace('["zilch-penalty"]', '"zilch-penalty"'))
