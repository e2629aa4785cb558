"""The end rule ``end = "immediate"``: a rule file, the game, the solvers and the players."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest

from engine.errors import InvalidRules
from engine.game import Game, Phase
from engine.rules import EndRule, Rules, find_rules
from engine.rules_toml import parse_rules
from engine.solver_optimal import OptimalTable, solve_optimal
from engine.strategy_core import Situation
from engine.strategy_expert import Expert
from tests.engine.test_solver_optimal import roll_by_hand

SUDDEN_FARKLE = """
name = "farkle-sudden"
description = "Farkle, but the first bank to the target wins at once"
base = "farkle"
target = 1000
end = "immediate"
"""


def immediate(name: str, target: int) -> Rules:
    return dataclasses.replace(find_rules(name), end=EndRule.IMMEDIATE, target=target)


@functools.cache
def solved(name: str, target: int) -> OptimalTable:
    return solve_optimal(immediate(name, target))


def test_a_rule_file_may_end_the_game_at_once() -> None:
    rules = parse_rules(SUDDEN_FARKLE)
    assert rules.end is EndRule.IMMEDIATE and rules.target == 1000
    with pytest.raises(InvalidRules, match=r"end = 'sudden': allowed .*'immediate'"):
        parse_rules(SUDDEN_FARKLE.replace('"immediate"', '"sudden"'))


def test_the_first_bank_to_the_target_ends_a_three_player_game() -> None:
    game = Game(parse_rules(SUDDEN_FARKLE), ["Ann", "Bob", "Cy"])
    game.throw("222333")  # Bob and Cy have not played yet
    game.keep("222333")
    game.throw("111234")
    game.keep("111")
    assert game.state.turn.total == 1500
    game.bank()
    assert game.state.phase is Phase.OVER
    assert [p.name for p in game.state.winners] == ["Ann"]
    assert [p.turns for p in game.state.players] == [1, 0, 0]


def test_under_the_other_end_rules_the_others_still_play() -> None:
    rules = dataclasses.replace(parse_rules(SUDDEN_FARKLE), end=EndRule.LAST_TURN)
    game = Game(rules, ["Ann", "Bob"])
    game.throw("111234")
    game.keep("111")
    game.bank()
    assert game.state.phase is Phase.THROW and game.state.is_final_round


# Keep-all with an entry rule (greed) and choose-what-to-keep (farkle), both ending at once.
CASES = [("greed", 600), ("farkle", 400)]


@pytest.mark.parametrize(("name", "target"), CASES)
def test_the_solver_satisfies_its_bellman_equations(name: str, target: int) -> None:
    table = solved(name, target)
    assert table.seats == 1  # whoever banks first to the target wins: the seats do not matter
    rng = random.Random(8)
    assert table.start_value(0, 0, 0) == pytest.approx(
        roll_by_hand(table, 0, 0, 0, 0, table.dice), abs=1e-6
    )
    for _ in range(40):
        i, j = rng.randrange(table.target), rng.randrange(table.target)
        n = rng.randint(1, table.dice)
        k = rng.randrange(1, table.span(i))
        assert table.roll(0, i, j, k, n) == pytest.approx(
            roll_by_hand(table, 0, i, j, k, n), abs=2e-6
        ), (i, j, k, n)


@pytest.mark.parametrize(("name", "target"), CASES)
def test_a_bank_to_the_target_wins_at_once(name: str, target: int) -> None:
    table = solved(name, target)
    t = table.target
    assert table.bank(0, t - 1, t - 1, 1, 1) == 1.0  # even with the opponent one unit short
    assert table.value(0, t - 2, t - 1, 2, table.dice) == 1.0
    assert not table.rolls_on(0, t - 2, t - 1, 2, table.dice)
    # The same bank under the last-turn rule leaves the opponent a chance.
    last_turn = solve_optimal(dataclasses.replace(table.rules, end=EndRule.LAST_TURN))
    assert last_turn.bank(0, t - 1, t - 1, 1, 1) < 1.0


def test_the_expert_banks_on_reaching_the_target() -> None:
    rules = immediate("farkle", 2000)
    # 6 dice to throw again holding 600: the expert's turn table throws on, but 1400 + 600 wins.
    there = Situation(rules, scores=(1400, 0), me=0, turn_total=600, dice_left=6)
    assert Expert().roll_for(dataclasses.replace(there, scores=(0, 0)))
    assert not Expert().decide_roll(there)
