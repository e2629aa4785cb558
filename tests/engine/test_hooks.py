"""Zilch's two rules beyond scoring: a third zilch in a row costs 500 (the named hook
``zilch-penalty``), and a bank needs 300 (``bank_minimum``), which the solvers respect."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from engine.errors import EntryThresholdNotMet, InvalidRules
from engine.game import Game
from engine.rules import EntryRule, find_rules
from engine.rules_toml import format_rules, parse_rules
from engine.solver_optimal import solve_optimal
from engine.solver_turn import solve_turn
from engine.strategy import find_strategy
from engine.strategy_play import play_game
from tests.engine.test_solver_optimal import roll_by_hand


def _zilch(game: Game) -> None:
    """The current player keeps a 1 from six dice, then throws five that score nothing."""
    game.throw("123446")
    game.keep("1")
    game.throw("23466")


def _bank(game: Game, points: int) -> None:
    game.throw("111234" if points == 1000 else "333246")
    game.keep("111" if points == 1000 else "333")
    game.bank()


def test_every_third_zilch_in_a_row_costs_500() -> None:
    game = Game(find_rules("zilch"), ["Ann", "Bob"])
    _bank(game, 1000)  # Ann
    _bank(game, 300)  # Bob
    totals = []
    for _ in range(6):
        _zilch(game)  # Ann
        totals.append(game.state.players[0].total)
        _bank(game, 300)  # Bob
    assert totals == [1000, 1000, 500, 500, 500, 0]


def test_a_bank_breaks_the_run_and_the_score_never_goes_below_zero() -> None:
    game = Game(find_rules("zilch"), ["Ann", "Bob"])
    totals = []
    for turn in range(7):
        if turn == 2:
            _bank(game, 300)  # Ann banks: the run starts again
        else:
            _zilch(game)
        totals.append(game.state.players[0].total)
        _bank(game, 300)  # Bob
    assert totals == [0, 0, 300, 300, 300, 0, 0]


def test_without_the_hook_a_zilch_costs_nothing() -> None:
    rules = dataclasses.replace(find_rules("zilch"), hooks=())
    game = Game(rules, ["Ann", "Bob"])
    _bank(game, 1000)
    _bank(game, 300)
    for _ in range(3):
        _zilch(game)
        _bank(game, 300)
    assert game.state.players[0].total == 1000


def test_hooks_in_a_rule_file() -> None:
    text = 'name = "x"\nbase = "farkle"\nhooks = ["zilch-penalty"]\n'
    assert parse_rules(text).hooks == ("zilch-penalty",)
    assert parse_rules(format_rules(find_rules("zilch"))).hooks == ("zilch-penalty",)
    with pytest.raises(InvalidRules, match=r"hooks = \('bust-bonus',\): allowed 'zilch-penalty'"):
        parse_rules(text.replace("zilch-penalty", "bust-bonus"))
    with pytest.raises(
        InvalidRules, match="hooks = 'zilch-penalty': expected a list of non-empty strings"
    ):
        parse_rules(text.replace('["zilch-penalty"]', '"zilch-penalty"'))


def test_a_zilch_bank_needs_300_taken_in_the_turn() -> None:
    game = Game(find_rules("zilch"), ["Ann", "Bob"])
    game.throw("155234")
    game.keep("15")
    assert game.state.turn.total == 150 and not game.state.can_bank
    with pytest.raises(
        EntryThresholdNotMet, match="'Ann' cannot bank 150: a bank needs at least 300"
    ):
        game.bank()
    game.throw("1112")
    game.keep("111")
    assert game.state.can_bank
    game.bank()
    assert game.state.players[0].total == 1150


def test_the_solvers_never_bank_below_the_minimum() -> None:
    rules = dataclasses.replace(find_rules("greed-koans"), entry=EntryRule.NONE, bank_minimum=300)
    assert solve_turn(rules).min_bank == 6  # units of 50
    table = solve_optimal(rules.with_target(400))
    assert not table.can_bank(3, 5) and table.can_bank(3, 6)
    assert table.bank(0, 3, 2, 5, 2) == -1.0
    for i, j, k, n in [(0, 0, 2, 3), (5, 2, 5, 1), (7, 7, 6, 2), (2, 7, 1, 5)]:
        s = table.seats - 1
        assert table.roll(s, i, j, k, n) == pytest.approx(
            roll_by_hand(table, s, i, j, k, n), abs=2e-6
        )


def test_expert_greedy_and_optimal_play_zilch_to_the_end() -> None:
    rules = find_rules("zilch").with_target(2000)
    seats = [(spec, find_strategy(spec)) for spec in ("expert", "greedy", "optimal")]
    for seed in range(3):
        for pair in itertools.combinations(seats, 2):
            result = play_game(rules, list(pair), rng=random.Random(seed))
            assert max(result.totals) >= 2000 and min(result.totals) >= 0
