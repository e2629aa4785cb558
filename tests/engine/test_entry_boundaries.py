"""Throws and banks at exactly the entry threshold, and just under it, in every rule set with one.

OOPSLA Greed: the first throw of a turn must score 300 until the player has entered. Ruby Koans
Greed: a turn must bank 300 to enter. "The Game Greed" house rules: the first score recorded must
be at least 500. Exactly the threshold enters; anything less does not.
"""

from __future__ import annotations

import pytest

from engine.errors import EntryThresholdNotMet
from engine.game import Game, Phase
from engine.players import TurnOutcome
from engine.rules import EntryRule, KeepRule, Rules, builtin_rules, find_rules
from engine.scoring import score_throw, throw_distribution

# --- OOPSLA Greed: the first throw must score 300 --------------------------------------------


@pytest.mark.parametrize("dice", ["33324", "11553"])
def test_greed_first_throw_of_exactly_300_enters(dice: str) -> None:
    game = Game(find_rules("greed"), ["Ann", "Bob"])
    assert score_throw(game.rules, [int(c) for c in dice]).best == 300
    game.throw(dice)
    assert game.state.phase is Phase.DECIDE
    assert game.state.current_player is not None and game.state.current_player.name == "Ann"
    assert game.state.turn.total == 300
    assert game.state.can_bank
    game.bank()
    assert game.state.player("Ann").total == 300


@pytest.mark.parametrize("dice", ["11523", "15234", "22246"])
def test_greed_first_throw_under_300_busts(dice: str) -> None:
    game = Game(find_rules("greed"), ["Ann", "Bob"])
    assert 0 < score_throw(game.rules, [int(c) for c in dice]).best < 300
    game.throw(dice)
    assert game.state.current_player is not None and game.state.current_player.name == "Bob"
    record = game.state.player("Ann").history[-1]
    assert record.outcome is TurnOutcome.BUST and record.total == 0


def test_greed_threshold_binds_only_the_first_throw_before_entering() -> None:
    game = Game(find_rules("greed"), ["Ann", "Bob"])
    game.throw("33324")  # exactly 300: enters the turn
    game.throw("52")  # a later throw of 50 is fine
    assert game.state.phase is Phase.DECIDE and game.state.turn.total == 350
    game.bank()
    game.throw("22346")  # Bob busts
    game.throw("11523")  # Ann has entered: 250 on a first throw no longer busts
    assert game.state.phase is Phase.DECIDE and game.state.turn.total == 250
    assert game.state.current_player is not None and game.state.current_player.name == "Ann"


# --- Ruby Koans Greed: a turn must bank 300 --------------------------------------------------


def test_koans_bank_of_exactly_300_enters() -> None:
    game = Game(find_rules("greed-koans"), ["Ann", "Bob"])
    game.throw("51341")  # 250, two dice left
    assert not game.state.can_bank
    game.throw("53")  # +50: exactly 300
    assert game.state.turn.total == 300 and game.state.can_bank
    game.bank()
    ann = game.state.player("Ann")
    assert ann.total == 300 and ann.has_entered


def test_koans_bank_of_300_in_one_throw_enters() -> None:
    game = Game(find_rules("greed-koans"), ["Ann", "Bob"])
    game.throw("33324")
    assert game.state.can_bank
    assert game.bank().total == 300


@pytest.mark.parametrize("dice", ["11523", "51341"])
def test_koans_bank_under_300_is_refused_and_changes_nothing(dice: str) -> None:
    game = Game(find_rules("greed-koans"), ["Ann", "Bob"])
    game.throw(dice)
    assert game.state.turn.total == 250 and not game.state.can_bank
    before = game.state
    with pytest.raises(EntryThresholdNotMet, match="300"):
        game.bank()
    assert game.state == before


def test_koans_small_banks_count_once_entered() -> None:
    game = Game(find_rules("greed-koans"), ["Ann", "Bob"])
    game.throw("33324")
    game.bank()
    game.throw("22346")  # Bob busts
    game.throw("52346")  # Ann: 50
    assert game.state.can_bank
    assert game.bank().total == 350


# --- "The Game Greed" house rules: the first score must be 500 --------------------------------


def test_house_first_score_of_exactly_500_enters() -> None:
    game = Game(find_rules("greed-house"), ["Ann", "Bob"])
    game.throw("555236")
    game.keep("555")
    assert game.state.turn.total == 500 and game.state.can_bank
    game.bank()
    assert game.state.player("Ann").total == 500


def test_house_first_score_of_450_is_refused_then_500_enters() -> None:
    game = Game(find_rules("greed-house"), ["Ann", "Bob"])
    game.throw("444526")
    game.keep("4445")
    assert game.state.turn.total == 450 and not game.state.can_bank
    with pytest.raises(EntryThresholdNotMet, match="500"):
        game.bank()
    game.throw("52")
    game.keep("5")
    assert game.state.turn.total == 500 and game.state.can_bank
    assert game.bank().total == 500


# --- the hooks themselves, and every registered rule set with a threshold ---------------------


def _with_entry() -> list[Rules]:
    return [rules for rules in builtin_rules() if rules.entry is not EntryRule.NONE]


def test_the_built_in_thresholds() -> None:
    found = {r.name: (r.entry, r.entry_threshold) for r in _with_entry()}
    assert found["greed"] == (EntryRule.FIRST_ROLL, 300)
    assert found["greed-koans"] == (EntryRule.BANKED_TURN, 300)
    assert found["greed-house"] == (EntryRule.FIRST_SCORE, 500)


@pytest.mark.parametrize("rules", _with_entry(), ids=lambda r: r.name)
def test_hooks_at_the_threshold(rules: Rules) -> None:
    t = rules.entry_threshold
    first_roll = rules.entry is EntryRule.FIRST_ROLL
    assert rules.first_roll_enters(t, entered=False)
    assert rules.first_roll_enters(t - 1, entered=False) is not first_roll
    assert rules.first_roll_enters(t - 1, entered=True)
    assert rules.bank_enters(t, entered=False)
    assert rules.bank_enters(t - 1, entered=False) is first_roll
    assert rules.bank_enters(50, entered=True)


def _first_throws(rules: Rules) -> tuple[str, str]:
    """A full throw scoring exactly the threshold, and one scoring the most below it."""
    at: str | None = None
    below: tuple[int, str] | None = None
    for outcome in throw_distribution(rules, rules.dice):
        best = score_throw(rules, outcome.dice).best
        text = "".join(map(str, outcome.dice))
        if best == rules.entry_threshold and at is None:
            at = text
        elif 0 < best < rules.entry_threshold and (below is None or best > below[0]):
            below = (best, text)
    if at is None or below is None:
        pytest.skip(f"{rules.name}: no single throw scores {rules.entry_threshold} and under it")
    return at, below[1]


def _first_turn(rules: Rules, dice: str) -> Game:
    game = Game(rules, ["Ann", "Bob"])
    game.throw(dice)
    if game.state.phase is Phase.KEEP:
        assert rules.keep is KeepRule.CHOOSE
        game.keep(game.state.options[0].dice)
    return game


@pytest.mark.parametrize("rules", _with_entry(), ids=lambda r: r.name)
def test_every_rule_set_enters_at_exactly_its_threshold(rules: Rules) -> None:
    at, below = _first_throws(rules)
    game = _first_turn(rules, at)
    assert game.state.turn.total == rules.entry_threshold and game.state.can_bank, at
    assert game.bank().total == rules.entry_threshold
    assert game.state.player("Ann").has_entered

    game = _first_turn(rules, below)
    if rules.entry is EntryRule.FIRST_ROLL:
        assert game.state.current_player is not None and game.state.current_player.name == "Bob", (
            below
        )
        assert game.state.player("Ann").history[-1].outcome is TurnOutcome.BUST
    else:
        assert game.state.phase is Phase.DECIDE and not game.state.can_bank, below
        with pytest.raises(EntryThresholdNotMet):
            game.bank()
