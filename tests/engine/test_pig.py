"""Pig, the shipped one-die rule file: its play, and the solvers against the published optimum.

Neller & Presser, "Optimal Play of the Dice Game Pig" (2004): the most expected points of one turn
come from holding at 20 (8.1418 points), and under optimal play the first player of a two-player
game to 100 wins with probability 0.530593. Both numbers are computed here by the solvers.
"""

from __future__ import annotations

import functools
import random

import pytest

from engine.errors import GameOver, InvalidThrow
from engine.game import Game, Phase
from engine.players import TurnOutcome
from engine.rules import EndRule, KeepRule, find_rules, rules_names
from engine.scoring import score_throw
from engine.solver_optimal import OptimalTable, solve_optimal
from engine.solver_turn import solve_turn
from engine.strategy_core import Situation
from engine.strategy_expert import Expert
from engine.strategy_optimal import Optimal
from engine.strategy_play import play_game
from tests.engine.test_solver_optimal import roll_by_hand

PIG = find_rules("pig")


@functools.cache
def pig_table() -> OptimalTable:
    return solve_optimal(PIG)


def test_pig_is_a_shipped_rule_set() -> None:
    assert "pig" in rules_names()
    assert (PIG.dice, PIG.faces, PIG.target) == (1, 6, 100)
    assert PIG.end is EndRule.IMMEDIATE and PIG.keep is KeepRule.ALL and PIG.hot_dice
    assert "Neller" in PIG.source


@pytest.mark.parametrize("face", range(1, 7))
def test_a_face_scores_itself_and_a_one_busts(face: int) -> None:
    scoring = score_throw(PIG, (face,))
    if face == 1:
        assert scoring.is_bust and scoring.best == 0
    else:
        assert not scoring.is_bust and scoring.best == face
        assert [(keep.dice, keep.score) for keep in scoring.options] == [((face,), face)]


def test_a_throw_of_two_dice_is_refused_naming_the_one_die() -> None:
    with pytest.raises(InvalidThrow, match=r"at most 1 die allowed, got 2: '34'"):
        score_throw(PIG, (3, 4))
    with pytest.raises(InvalidThrow, match=r"expected 1 die, got 2"):
        Game(PIG, ["Ann"]).throw((3, 4))


def test_a_turn_rolls_the_one_die_again_and_a_one_loses_the_turn_total() -> None:
    game = Game(PIG, ["Ann", "Bob"])
    for face, total in ((4, 4), (6, 10), (2, 12)):
        game.throw((face,))
        assert game.state.phase is Phase.DECIDE and game.state.turn.total == total
        assert game.state.dice_to_throw == 1 and game.state.can_bank
    game.throw((1,))
    assert game.state.players[0].history[-1].outcome is TurnOutcome.BUST
    assert game.state.players[0].total == 0 and game.state.current_player == game.state.players[1]
    game.throw((3,))
    assert game.bank().points == 3  # a bank at any time, even after one throw


def test_the_game_ends_the_moment_a_bank_reaches_100() -> None:
    game = Game(PIG, ["Ann", "Bob"])
    for _ in range(16):  # Ann banks 6 a turn; Bob busts at once
        game.throw((6,))
        game.bank()
        game.throw((1,))
    assert [p.total for p in game.state.players] == [96, 0]
    game.throw((5,))
    game.bank()  # Ann at 101: Bob, who went second, gets no last turn
    assert game.state.phase is Phase.OVER and [p.name for p in game.state.winners] == ["Ann"]
    assert [p.turns for p in game.state.players] == [17, 16]
    with pytest.raises(GameOver):
        game.throw((2,))


def hold_at_20_expectation() -> float:
    """The expected points of a turn holding at 20, by the recursion of the turn itself."""

    @functools.cache
    def expected(total: int) -> float:
        if total >= 20:
            return float(total)
        return sum(expected(total + face) for face in range(2, 7)) / 6

    return expected(0)


def test_the_most_expected_points_of_a_turn_are_those_of_holding_at_20() -> None:
    table = solve_turn(PIG)
    assert table.model.unit == 1  # no 50-point grid
    assert table.bank_at() == {1: 20}
    assert table.start == pytest.approx(hold_at_20_expectation(), abs=1e-9)
    assert round(table.start, 4) == 8.1418  # Neller & Presser


def test_the_first_player_wins_0_530593_of_optimal_games() -> None:
    table = pig_table()
    assert (table.unit, table.target, table.seats) == (1, 100, 1)
    assert round(table.first_player_wins(), 6) == 0.530593  # Neller & Presser


def test_the_pig_table_satisfies_its_bellman_equations() -> None:
    table = pig_table()
    rng = random.Random(11)
    for i, j in [(0, 0), (0, 99), (99, 0), (50, 50)]:
        assert table.start_value(0, i, j) == pytest.approx(
            roll_by_hand(table, 0, i, j, 0, 1), abs=1e-6
        )
    for _ in range(200):
        i, j = rng.randrange(100), rng.randrange(100)
        k = rng.randrange(1, table.span(i))
        assert table.roll(0, i, j, k, 1) == pytest.approx(
            roll_by_hand(table, 0, i, j, k, 1), abs=2e-6
        ), (i, j, k)


def test_a_bank_reaching_100_wins_and_the_table_rolls_on_below_it() -> None:
    table = pig_table()
    assert table.bank(0, 90, 99, 10, 1) == 1.0 and table.value(0, 90, 99, 10, 1) == 1.0
    assert not table.rolls_on(0, 90, 99, 10, 1)
    assert table.rolls_on(0, 0, 0, 10, 1)  # at 0-0 holding 10 is too early
    # Far behind, the optimal player risks more than holding at 20 (Neller & Presser, figure 3).
    assert table.rolls_on(0, 0, 90, 25, 1)


def test_the_expert_banks_when_the_bank_reaches_the_target() -> None:
    expert = Expert()
    near = Situation(PIG, scores=(95, 0), me=0, turn_total=5, dice_left=1)
    assert not expert.decide_roll(near)  # 100: wins at once
    assert expert.decide_roll(Situation(PIG, scores=(0, 0), me=0, turn_total=5, dice_left=1))


def test_optimal_plays_pig_from_its_table_where_expert_holds_at_20() -> None:
    behind = Situation(PIG, scores=(0, 90), me=0, turn_total=25, dice_left=1, is_starter=True)
    optimal = Optimal()
    assert optimal.table_for(behind) is not None  # solved in memory: no 50-point grid to fit
    assert optimal.decide_roll(behind) and not Expert().decide_roll(behind)
    result = play_game(PIG, [("optimal", optimal), ("expert", Expert())], rng=random.Random(4))
    assert len(result.winners) == 1 and max(result.totals) >= 100
    assert min(result.totals) < 100  # the game stopped at the first bank to 100
