"""The `optimal` player's decisions on small solved tables, against win chances worked out by hand.

For a state (own score i, opponent's j, turn total k, n dice to throw, in units of 50) the chance of
winning by banking is ``1 - W(opponent, j, i + k)`` (before the target), and by throwing it is the
sum over every throw of n dice (from `score_throw`, not the solver's model) of its probability
times the best value of what follows, or ``1 - W(opponent, j, i)`` on a bust. `optimal` must throw
on exactly when throwing wins more often, keep what wins most often, agree with `expert` where the
choice is clear, and differ from it where the race changes the answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest

from engine.game import Game, Phase
from engine.rules import KeepRule, Rules, find_rules
from engine.scoring import Keep, score_throw, throw_distribution
from engine.solver_optimal import OptimalTable
from engine.strategy_core import Situation
from engine.strategy_expert import Expert
from engine.strategy_optimal import Optimal, memory_tables

# Small targets: each table solves in about a second. Farkle chooses its keeps and ends with a
# last turn each (one seat); OOPSLA Greed sets every scoring die aside and completes the round
# (two seats).
CASES = [("farkle", 400), ("greed", 600)]
CLEAR = 1e-3  # decisions closer than this (in chance to win) are ties, not checked


def _solved(name: str, target: int) -> tuple[Rules, OptimalTable]:
    rules = find_rules(name).with_target(target)
    table = memory_tables(rules)
    assert table is not None, f"{name} to {target} is small enough to solve in memory"
    return rules, table


@dataclass(frozen=True)
class State:
    """A decision point in table units: seat s, scores i and j, turn total k, n dice to throw."""

    s: int
    i: int
    j: int
    k: int
    n: int


def bank_by_hand(table: OptimalTable, st: State) -> float:
    """The chance to win banking k, before the target: the opponent then starts at (j, i + k)."""
    assert st.i + st.k < table.target
    return 1.0 - table.start_value(table.other(st.s), st.j, st.i + st.k)


def roll_by_hand(table: OptimalTable, st: State) -> float:
    """The chance to win throwing n dice holding k (k >= 1), over every throw of n dice."""
    rules = table.rules
    lose = 1.0 - table.start_value(table.other(st.s), st.j, st.i)
    total = 0.0
    for outcome in throw_distribution(rules, st.n):
        scoring = score_throw(rules, outcome.dice)
        if scoring.is_bust:
            total += outcome.probability * lose
            continue
        keeps = scoring.options if rules.keep is KeepRule.CHOOSE else scoring.options[:1]
        total += outcome.probability * max(
            table.value(st.s, st.i, st.j, st.k + keep.score // table.unit, _left(rules, st, keep))
            for keep in keeps
        )
    return total


def _left(rules: Rules, st: State, keep: Keep) -> int:
    return st.n - len(keep.dice) or rules.dice  # hot dice: all of them again


def situation(rules: Rules, table: OptimalTable, st: State) -> Situation:
    """The situation of the player in seat s (seat 0 starts), both players entered."""
    u = table.unit
    scores = (st.i * u, st.j * u) if st.s == 0 else (st.j * u, st.i * u)
    return Situation(
        rules=rules,
        scores=scores,
        me=st.s,
        turn_total=st.k * u,
        dice_left=st.n,
        entered=(True, True),
        is_starter=st.s == 0,
        ends_round=st.s == 1,
    )


def _states(table: OptimalTable) -> list[State]:
    """Every state before the target: each seat, score pair, turn total and number of dice."""
    return [
        State(s, i, j, k, n)
        for s in range(table.seats)
        for i in range(table.target)
        for j in range(table.target)
        for k in range(1, table.target - i)
        for n in range(1, table.rules.dice + 1)
    ]


@pytest.mark.parametrize(("name", "target"), CASES)
def test_optimal_throws_on_exactly_when_that_wins_more_often(name: str, target: int) -> None:
    rules, table = _solved(name, target)
    optimal = Optimal()
    decisions = {True: 0, False: 0}
    for st in _states(table):
        bank, roll = bank_by_hand(table, st), roll_by_hand(table, st)
        if abs(roll - bank) < CLEAR:
            continue
        wanted = roll > bank
        assert optimal.decide_roll(situation(rules, table, st)) is wanted, (st, roll, bank)
        decisions[wanted] += 1
    assert min(decisions.values()) >= 50, decisions  # both answers were checked, many times


@pytest.mark.parametrize(
    ("name", "target", "state", "wanted"),
    [
        ("farkle", 400, State(0, 0, 0, 1, 6), True),  # 50 with six dice: throw
        ("farkle", 400, State(0, 0, 0, 2, 5), True),  # 100 with five dice: throw
        ("farkle", 400, State(0, 0, 0, 6, 1), False),  # 300 with one die: bank
        ("farkle", 400, State(0, 2, 2, 5, 1), False),  # 250 with one die: bank
        ("greed", 600, State(0, 2, 2, 1, 5), True),
        ("greed", 600, State(1, 2, 2, 2, 4), True),
        ("greed", 600, State(0, 2, 2, 8, 1), False),
    ],
)
def test_optimal_and_expert_agree_where_the_choice_is_clear(
    name: str, target: int, state: State, wanted: bool
) -> None:
    rules, table = _solved(name, target)
    bank, roll = bank_by_hand(table, state), roll_by_hand(table, state)
    assert (roll > bank) is wanted and abs(roll - bank) > 0.02, (roll, bank)
    seen = situation(rules, table, state)
    assert Optimal().decide_roll(seen) is wanted
    assert Expert().decide_roll(seen) is wanted


@pytest.mark.parametrize(
    ("name", "target", "state", "wanted"),
    [
        # 350 with three dice at 0-0 to 400: expert throws for points; banking wins more often.
        ("farkle", 400, State(0, 0, 0, 7, 3), False),
        ("farkle", 400, State(0, 0, 7, 7, 3), False),
        # Greed to 600, 50 against 150: expert banks 500; throwing three dice on wins more often.
        ("greed", 600, State(0, 1, 3, 10, 3), True),
        ("greed", 600, State(0, 1, 2, 10, 3), True),
    ],
)
def test_optimal_and_expert_differ_where_the_race_matters(
    name: str, target: int, state: State, wanted: bool
) -> None:
    rules, table = _solved(name, target)
    bank, roll = bank_by_hand(table, state), roll_by_hand(table, state)
    assert (roll > bank) is wanted and abs(roll - bank) > 0.02, (roll, bank)
    seen = situation(rules, table, state)
    assert Optimal().decide_roll(seen) is wanted
    assert Expert().decide_roll(seen) is not wanted  # optimal does not just fall back to expert


def _keep_by_hand(table: OptimalTable, st: State, keep: Keep) -> float:
    """The chance to win after setting ``keep`` aside: bank or throw on, whichever is better."""
    after = State(st.s, st.i, st.j, st.k + keep.score // table.unit, _left(table.rules, st, keep))
    if after.i + after.k >= table.target:
        return table.value(after.s, after.i, after.j, after.k, after.n)
    return max(bank_by_hand(table, after), roll_by_hand(table, after))


@pytest.mark.parametrize(
    ("throw", "i", "j", "k"),
    [("115236", 1, 2, 0), ("155346", 2, 5, 1), ("111552", 0, 0, 0), ("51", 3, 3, 2)],
)
def test_optimal_keeps_what_wins_most_often(throw: str, i: int, j: int, k: int) -> None:
    rules, table = _solved("farkle", 400)
    dice = tuple(int(c) for c in throw)
    options = score_throw(rules, dice).options
    st = State(0, i, j, k, len(dice))
    chances = {keep: _keep_by_hand(table, st, keep) for keep in options}
    best = max(chances.values())
    seen = situation(rules, table, st)
    chosen = Optimal().keep_for(replace(seen, options=options))
    assert chances[chosen] == pytest.approx(best, abs=1e-9), chances
    assert len({round(c, 6) for c in chances.values()}) > 1  # the choice matters here


def test_optimal_decides_whole_games_by_the_hand_values() -> None:
    rules, table = _solved("farkle", 400)
    optimal = Optimal()
    checked = {True: 0, False: 0}
    for seed in range(20):
        game = Game(rules, ["Ann", "Bob"], rng=random.Random(seed))
        for _ in range(300):  # a step bound: a game to 400 takes far fewer requests
            if game.state.phase is Phase.OVER or game.state.is_final_round:
                break
            if game.state.phase is Phase.THROW:
                game.throw()
            elif game.state.phase is Phase.KEEP:
                game.keep(optimal.choose_keep(game).dice)
            else:
                seen = Situation.of(game)
                u = table.unit
                st = State(
                    0, seen.my_score // u, seen.leader // u, seen.turn_total // u, seen.dice_left
                )
                rolls = optimal.wants_to_roll(game)
                if st.i + st.k < table.target:
                    bank, roll = bank_by_hand(table, st), roll_by_hand(table, st)
                    if abs(roll - bank) >= CLEAR:
                        assert rolls is (roll > bank), (seed, st, roll, bank)
                        checked[rolls] += 1
                if rolls:
                    game.throw()
                else:
                    game.bank()
        else:
            raise AssertionError(f"game {seed} did not reach its final round in 300 requests")
    assert min(checked.values()) >= 3, checked
