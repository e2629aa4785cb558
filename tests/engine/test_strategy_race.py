"""The expert's race adjustments: the target, the last turn and the entry rule, played exactly."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.game import Game
from engine.rules import EndRule, find_rules
from engine.scoring import score_throw
from engine.solver_turn import solve_entry, solve_turn
from engine.strategy_core import Situation
from engine.strategy_expert import Expert, banking_wins, entry_table, turn_table
from tests.engine.situations import situation

BUILT_IN = ("greed", "greed-koans", "farkle", "greed-house")


def test_expert_banks_when_banking_wins() -> None:
    # OOPSLA Greed ends the round: the second player banking at 5,000 wins at once. With hot dice
    # the pure turn table would throw five dice on (it banks from 2,800).
    greed = find_rules("greed")
    table = turn_table(greed)
    assert table.roll_at(300 // table.model.unit, 5)
    closing = situation(
        "greed", scores=(4750, 4900), turn_total=300, dice_left=5, is_starter=False, ends_round=True
    )
    assert banking_wins(closing)
    assert not Expert().decide_roll(closing)
    # Short of the target, or starting the round (the other player still has a turn to pass
    # it), the table decides: a larger lead is harder to pass.
    assert Expert().decide_roll(replace(closing, scores=(4650, 4900)))
    opening = replace(closing, is_starter=True, ends_round=False)
    assert not banking_wins(opening)
    assert Expert().decide_roll(opening)


@pytest.mark.parametrize("name", ["greed-koans", "farkle", "greed-house"])
def test_reaching_the_target_does_not_win_under_last_turn_rules(name: str) -> None:
    rules = find_rules(name)
    hot = situation(name, scores=(rules.target - 250, 0), turn_total=300, dice_left=rules.dice)
    assert not banking_wins(replace(hot, ends_round=True))
    assert Expert().decide_roll(hot)  # everyone else gets a last turn: play on for a lead


def test_expert_keeps_what_wins() -> None:
    # Farkle 1-1-5-2-3-4 played to the end of the round, the closing player at 9,850: keeping a
    # lone 1 is worth the most points in general, but after 1-1 or 1-1-5 banking wins, so it
    # keeps the larger of those and banks.
    rules = replace(find_rules("farkle"), end=EndRule.ROUND)
    options = score_throw(rules, (1, 1, 5, 2, 3, 4)).options
    start = replace(
        situation("farkle", scores=(9850, 0), turn_total=0, dice_left=6, options=options),
        rules=rules,
        ends_round=True,
    )
    expert = Expert()
    assert expert.keep_for(replace(start, scores=(1000, 0))).dice == (1,)
    keep = expert.keep_for(start)
    assert keep.dice == (1, 1, 5)
    assert not expert.decide_roll(start.after_keep(keep))


def test_situation_knows_who_closes_the_round() -> None:
    game = Game(find_rules("greed"), ["Ann", "Bob", "Cy"], rng=random.Random(1))
    assert not Situation.of(game).ends_round
    game.next_player()
    game.next_player()
    assert Situation.of(game).ends_round


@pytest.mark.parametrize("name", ["greed", "greed-koans", "farkle"])
def test_last_turn_never_banks_short_of_the_leader(name: str) -> None:
    rules = find_rules(name)
    leader = rules.target + 400
    for total in (300, 1000, 1400):
        last = situation(
            name, scores=(1000, leader), final_round=True, turn_total=total, dice_left=1
        )
        assert Expert().decide_roll(last), total
    passed = situation(
        name, scores=(1000, leader), final_round=True, turn_total=leader - 950, dice_left=1
    )
    assert not Expert().decide_roll(passed)


def test_greed_entry_bust_costs_the_turns_spent_entering() -> None:
    # OOPSLA Greed: only about one first throw in five scores the 300 that enters. Holding 2,100
    # with five dice to throw (hot dice twice), the pure turn table throws on (it banks from
    # 2,800); before entering the expert banks, since a bust also costs the turns it would take
    # to enter again (about 770 points).
    greed = find_rules("greed")
    unit = turn_table(greed).model.unit
    assert turn_table(greed).roll_at(2100 // unit, 5)
    entering = situation(
        "greed", scores=(0, 2000), entered=(False, True), turn_total=2100, dice_left=5
    )
    assert not Expert().decide_roll(entering)
    entered = replace(entering, scores=(300, 2000), entered=(True, True))
    assert Expert().decide_roll(entered)


@pytest.mark.parametrize("name", BUILT_IN)
def test_entry_table_solves_its_average_reward_equation(name: str) -> None:
    rules = find_rules(name)
    entry, gain = solve_entry(rules), solve_turn(rules).start
    # Not having entered is worth h = start(h) - g: a fixed point, and never a gain.
    assert entry.start == pytest.approx(gain + entry.bust, abs=1e-6)
    assert entry.bust <= 0.0
    assert entry_table(rules).start == pytest.approx(entry.start)
    # A dearer bust never makes it throw on where the pure table would bank.
    pure = solve_turn(rules, entered=False)
    for n in range(1, rules.dice + 1):
        for k in range(entry.min_bank, 200):
            assert not entry.roll_at(k, n) or pure.roll_at(k, n), (n, k)


def test_entry_costs_most_where_entering_is_hardest() -> None:
    greed, koans, farkle = (solve_entry(find_rules(n)) for n in ("greed", "greed-koans", "farkle"))
    assert farkle.bust == 0.0  # no entry rule
    assert greed.bust * greed.model.unit < -500  # a first throw must score 300
    assert -100 < koans.bust * koans.model.unit < 0  # any turn banking 300 enters
