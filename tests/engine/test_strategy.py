"""Computer players: specs, the greedy dial, expert thresholds, the final round, games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.game import Game
from engine.players import TurnOutcome
from engine.rules import find_rules
from engine.scoring import score_throw
from engine.state import Phase
from engine.strategy import Hint, UnknownStrategy, find_strategy, hint, strategy_specs
from engine.strategy_core import Situation
from engine.strategy_expert import Expert, turn_table
from engine.strategy_greedy import PERSONALITIES, Greedy
from engine.strategy_optimal import Optimal, memory_tables
from engine.strategy_play import play_game
from tests.engine.situations import situation

FARKLE = find_rules("farkle")


# --- specs ---------------------------------------------------------------------------------------


def test_find_strategy_specs() -> None:
    assert find_strategy("greedy:0.3").name == "greedy:0.3"
    assert isinstance(find_strategy("expert"), Expert)
    assert isinstance(find_strategy("optimal"), Optimal)
    for name, personality in PERSONALITIES.items():
        assert find_strategy(name) is personality
        assert personality.remark_for(situation())  # each has something to say
    assert len({p.risk for p in PERSONALITIES.values()}) >= 4


@pytest.mark.parametrize("spec", ["greedy:1.5", "greedy:x", "genius", "", "greedy:-0.1"])
def test_unknown_specs_name_the_input(spec: str) -> None:
    with pytest.raises(UnknownStrategy) as error:
        find_strategy(spec)
    assert repr(spec) in str(error.value)
    assert isinstance(error.value, LookupError)


def test_unknown_spec_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownStrategy) as error:
        find_strategy("genius")
    for spec in strategy_specs():
        assert spec in str(error.value)


# --- greedy ----------------------------------------------------------------------------------


def test_risk_zero_banks_at_the_first_chance() -> None:
    cautious = Greedy(0.0)
    for dice in range(1, 7):
        assert not cautious.decide_roll(situation(turn_total=50, dice_left=dice))
    # ...but not before it may bank (below the entry threshold it must throw on).
    koans = situation(
        "greed-koans",
        scores=(0, 0),
        entered=(False, False),
        turn_total=250,
        dice_left=1,
        can_bank=False,
    )
    assert cautious.decide_roll(koans)


def test_risk_one_never_banks_before_the_target() -> None:
    reckless = Greedy(1.0)
    assert reckless.decide_roll(situation(scores=(0, 0), turn_total=9950, dice_left=1))
    assert not reckless.decide_roll(situation(scores=(0, 0), turn_total=10_000, dice_left=6))


def test_risk_one_in_whole_games_banks_only_at_the_target() -> None:
    rules = find_rules("greed-koans").with_target(1500)
    for seed in range(3):
        result = play_game(
            rules, [("r1", Greedy(1.0)), ("r0", Greedy(0.0))], rng=random.Random(seed)
        )
        assert result.turns > 0
    game = Game(rules, ["r1", "r0"], rng=random.Random(4))
    while game.state.phase is not Phase.OVER:
        from engine.strategy_play import play_one_turn

        current = game.state.current_player
        assert current is not None
        play_one_turn(game, Greedy(1.0) if current.name == "r1" else Greedy(0.0))
    for record in game.state.player("r1").history:
        if record.outcome is TurnOutcome.BANKED:
            assert record.total >= rules.target


def test_more_risk_means_a_higher_threshold() -> None:
    values = [Greedy(r).threshold(situation()) for r in (0.1, 0.3, 0.5, 0.7, 0.9)]
    assert values == sorted(values) and values[0] < values[-1]


def test_race_adjustments() -> None:
    steady = Greedy(0.5)
    level = steady.threshold(situation(scores=(1000, 1000)))
    behind = steady.threshold(situation(scores=(1000, 6000)))
    after_busts = steady.threshold(situation(scores=(1000, 1000), recent_busts=2))
    assert behind > level > after_busts
    # A bank that reaches the target is taken.
    assert not Greedy(0.9).decide_roll(situation(scores=(9800, 0), turn_total=300, dice_left=6))


STRATEGIES = [Greedy(0.0), Greedy(0.5), Greedy(1.0), Expert(), Optimal()]


@pytest.mark.parametrize("strategy", STRATEGIES, ids=lambda s: s.name)
def test_final_round_never_banks_short_of_the_leader(strategy: Greedy | Expert | Optimal) -> None:
    for total in (50, 500, 1450, 1500):
        last = situation(scores=(1000, 10_500), final_round=True, turn_total=total, dice_left=1)
        assert strategy.decide_roll(last), total
    done = situation(scores=(1000, 10_500), final_round=True, turn_total=9550, dice_left=6)
    assert not strategy.decide_roll(done)


# --- expert ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["greed", "farkle", "greed-house"])
def test_expert_banks_at_its_thresholds(name: str) -> None:
    expert = Expert()
    table = turn_table(find_rules(name))
    for dice, units in table.bank_at().items():
        at = units * table.model.unit
        for total in (at - 100, at - 50, at, at + 50, at + 1000):
            if total <= 0:
                continue
            rolls = expert.decide_roll(
                situation(name, scores=(600, 700), turn_total=total, dice_left=dice)
            )
            assert rolls == (total < at), (dice, total, at)


def test_expert_keeps_fewer_dice_when_it_pays() -> None:
    # Farkle 1-1-5-2-3-4 with six dice: keeping only a 1 (100, five dice left) beats 1-1-5
    # (250, three dice left) for the most expected points.
    options = score_throw(FARKLE, (1, 1, 5, 2, 3, 4)).options
    expert = Expert()
    start = situation(turn_total=0, dice_left=6, options=options)
    keep = expert.keep_for(start)
    values = {o.dice: expert.keep_value(start, o) for o in options}
    assert expert.keep_value(start, keep) == max(values.values())
    assert values[(1,)] > values[(1, 1, 5)]


def test_one_die_left_with_a_large_total_banks() -> None:
    for strategy in (Expert(), Optimal(), Greedy(0.5)):
        assert not strategy.decide_roll(situation(scores=(0, 0), turn_total=1000, dice_left=1))


# --- optimal and hints -----------------------------------------------------------------------


def test_optimal_falls_back_without_a_table_or_with_three_players() -> None:
    optimal = Optimal()
    three = situation(scores=(100, 200, 300))
    assert optimal.table_for(three) is None
    assert optimal.table_for(situation()) is None  # farkle to 10,000: not solved in memory
    assert optimal.decide_roll(situation()) == Expert().decide_roll(situation())
    small = situation(rules_name="greed-koans", scores=(300, 600), turn_total=100, dice_left=2)
    small = replace(small, rules=small.rules.with_target(1000))
    assert optimal.table_for(small) is not None


def test_hint_in_a_small_two_player_game() -> None:
    rules = find_rules("farkle").with_target(400)
    game = Game(rules, ["Ann", "Bob"], rng=random.Random(3))
    assert hint(game) is None  # dice to throw: nothing to decide
    game.throw()
    if game.state.phase is Phase.KEEP:
        advice = hint(game)
        assert isinstance(advice, Hint) and advice.action == "keep" and advice.keep is not None
        assert advice.keep in game.state.options
        assert advice.win_chance is not None and 0.0 < advice.win_chance < 1.0
        assert str(advice).startswith("optimal: keep ") and str(advice).endswith("% to win")
        game.keep(advice.keep.dice)
        then = hint(game)
        assert then is not None and then.action == advice.then  # the keep's "then" comes true
    assert memory_tables(rules) is not None


def test_hint_text_is_the_tables_hint_line() -> None:
    keep = next(k for k in score_throw(FARKLE, (1, 1, 1, 2, 3, 4)).options if k.dice == (1, 1, 1))
    chance = Hint("keep", "optimal", keep, "bank", win_chance=0.625)
    assert str(chance) == "optimal: keep 111, then bank, 62% to win"
    assert str(Hint("keep", "expert", keep, "roll")) == "expert: keep 111, then roll on"
    assert str(Hint("roll", "expert", dice=3)) == "expert: roll 3"
    assert str(Hint("bank", "bold", total=1050)) == "bold: bank 1050"
    assert str(Hint("take", "expert")) == "expert: take the passed dice"
    assert str(Hint("fresh", "expert")) == "expert: throw fresh"


def test_hint_of_a_given_advisor_keeps_then_rolls_or_banks() -> None:
    game = Game(FARKLE, ["Ann", "Bob"], rng=random.Random(1))
    game.throw((1, 1, 1, 5, 5, 2))
    advice = hint(game, advisor=Expert())
    assert advice is not None and advice.keep is not None and advice.win_chance is None
    assert advice.keep == Expert().choose_keep(game)
    game.keep(advice.keep.dice)
    decide = hint(game, advisor=Expert())
    assert decide is not None and decide.action == advice.then
    assert (advice.keep.dice, game.state.dice_to_throw) == ((1, 1, 1, 5, 5), 1)
    assert str(decide) == "expert: bank 1100"  # 1100 on one die left: bank
    reckless = hint(game, advisor=Greedy(1.0))
    assert reckless is not None and str(reckless) == f"{Greedy(1.0).name}: roll 1"


def test_no_hint_without_a_decision() -> None:
    assert hint(Game(FARKLE, [], rng=random.Random(1))) is None  # nobody seated
    game = Game(FARKLE.with_target(400), ["Ann"], rng=random.Random(1))
    game.throw((1, 1, 1, 5, 2, 3))
    game.keep((1, 1, 1, 5))
    game.bank()
    assert game.state.phase is Phase.OVER and hint(game, advisor=Expert()) is None


# --- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["greed", "greed-koans", "farkle", "greed-house"])
def test_games_are_deterministic_for_a_seed(name: str) -> None:
    rules = find_rules(name).with_target(1000)
    players = [
        ("a", find_strategy("bold")),
        ("b", find_strategy("expert")),
        ("c", find_strategy("greedy:0.3")),
    ]
    first = play_game(rules, players, rng=random.Random(11))
    again = play_game(rules, players, rng=random.Random(11))
    assert first == again
    assert first.winners and max(first.totals) >= rules.target
    small = rules.with_target(400)  # the optimal table solves in a second or two
    two = play_game(small, [("x", Optimal()), ("y", Expert())], rng=random.Random(2))
    assert two == play_game(small, [("x", Optimal()), ("y", Expert())], rng=random.Random(2))


def test_situation_of_a_game() -> None:
    rules = find_rules("greed-house").with_target(2000)
    game = Game(rules, ["Ann", "Bob"], rng=random.Random(1))
    game.throw((1, 1, 1, 5, 2, 3))
    seen = Situation.of(game)
    assert seen.me == 0 and seen.is_starter and seen.dice_left == 6
    assert seen.options == game.state.options and not seen.has_entered
    game.keep((1, 1, 1, 5))
    seen = Situation.of(game.state)
    assert seen.turn_total == 1050 and seen.dice_left == 2 and seen.can_bank
    game.bank()
    passed = Situation.of(game)
    assert passed.me == 1 and not passed.is_starter and passed.passed == (1050, 2)
    assert passed.scores == (1050, 0)


@pytest.mark.parametrize("strategy", [Expert(), Optimal(), Greedy(0.5)], ids=lambda s: s.name)
def test_passed_dice_big_pot_taken_small_pot_declined(strategy: Expert | Optimal | Greedy) -> None:
    rules = find_rules("greed-house").with_target(400)
    offer = situation("greed-house", rules=rules, scores=(100, 150), turn_total=0, dice_left=6)
    assert strategy.pass_for(replace(offer, passed=(300, 6)))  # 300 and six fresh dice: take
    assert not strategy.pass_for(replace(offer, passed=(50, 1)))  # 50 on one die: decline


def test_hint_when_dice_are_passed() -> None:
    rules = find_rules("greed-house").with_target(400)
    game = Game(rules, ["Ann", "Bob"], rng=random.Random(1))
    game.throw((1, 1, 1, 2, 3, 4))
    game.keep((1, 1, 1))
    game.bank()  # 1000 reaches the target: Bob's last turn, with three dice and 1000 on offer
    assert game.state.phase is Phase.PASS and game.state.is_final_round
    advice = hint(game)
    # Building on 1000 needs only one more scoring throw of three dice; fresh needs 1050 at once.
    assert advice is not None and advice.action == "take" and advice.win_chance is None
    assert str(advice) == "expert: take the passed dice"  # no table in the final round
