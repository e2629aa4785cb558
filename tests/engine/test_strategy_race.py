"""The expert's race adjustments: the target, the last turn and the entry rule, played exactly."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.rules import find_rules
from engine.scoring import score_throw
from engine.solver_turn import solve_entry, solve_turn
from engine.strategy_core import Situation
from engine.strategy_expert import Expert, entry_table, turn_table

BUILT_IN = ("greed", "greed-koans", "farkle", "greed-house")


def situation(rules_name: str, **changes: object) -> Situation:
    base = Situation(
        rules=find_rules(rules_name),
        scores=(1000, 1500),
        me=0,
        turn_total=300,
        dice_left=3,
        entered=(True, True),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", BUILT_IN)
def test_expert_banks_when_the_bank_reaches_the_target(name: str) -> None:
    rules = find_rules(name)
    table = turn_table(rules)
    dice = rules.dice  # hot dice: the pure turn table throws on far past 300
    assert table.roll_at(300 // table.model.unit, dice)
    near = situation(name, scores=(rules.target - 250, 0), turn_total=300, dice_left=dice)
    assert not Expert().decide_roll(near)
    short = replace(near, scores=(rules.target - 350, 0))
    assert Expert().decide_roll(short)  # not there yet: the table decides


def test_expert_keeps_what_reaches_the_target() -> None:
    # Farkle 1-1-5-2-3-4 at 9,850: keeping a lone 1 is worth the most points in general, but
    # 1-1 or 1-1-5 bank at the target, so it keeps the larger of those and banks.
    options = score_throw(find_rules("farkle"), (1, 1, 5, 2, 3, 4)).options
    start = situation("farkle", scores=(9850, 0), turn_total=0, dice_left=6, options=options)
    far = replace(start, scores=(1000, 0))
    expert = Expert()
    assert expert.keep_for(far).dice == (1,)
    keep = expert.keep_for(start)
    assert keep.dice == (1, 1, 5)
    assert not expert.decide_roll(start.after_keep(keep))


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
