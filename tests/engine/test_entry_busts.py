"""Entry thresholds with busts before, between and after the first bank, in every rule set with one.

A bust records a turn but never enters the game: until a player has banked a turn the threshold
still applies (a low first throw busts under ``first-roll``; a low bank is refused under
``banked-turn`` and ``first-score``), however many busts came first. Once a player has banked,
busts do not take the entry back. Each rule set's throws are found from its own scoring, so a new
rule set with a threshold is covered when it is registered.
"""

from __future__ import annotations

import itertools

import pytest

from engine.errors import EntryThresholdNotMet
from engine.game import Game, Phase
from engine.players import TurnOutcome
from engine.rules import EntryRule, Rules, builtin_rules
from engine.scoring import score_throw

WITH_ENTRY = [r for r in builtin_rules() if r.entry is not EntryRule.NONE and r.entry_threshold]


def _throws(rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A throw of all the dice that busts, one scoring under the threshold, one at or above it."""
    bust = low = high = None
    for dice in itertools.combinations_with_replacement(range(1, rules.faces + 1), rules.dice):
        best = score_throw(rules, dice).best
        if best == 0 and bust is None:
            bust = dice
        elif 0 < best < rules.entry_threshold and low is None:
            low = dice
        elif best >= rules.entry_threshold and high is None:
            high = dice
    assert bust is not None and low is not None and high is not None
    return bust, low, high


def _start(game: Game, name: str) -> None:
    """Make sure it is ``name``'s turn to throw all the dice (declining a pass on offer)."""
    assert game.state.current_player is not None and game.state.current_player.name == name
    if game.state.phase is Phase.PASS:
        game.decline_passed()
    assert game.state.phase is Phase.THROW and game.state.dice_to_throw == game.rules.dice


def _throw_and_keep(game: Game, dice: tuple[int, ...]) -> None:
    game.throw(dice)
    if game.state.phase is Phase.KEEP:
        game.keep(game.state.options[0].dice)


def _bust(game: Game, name: str, dice: tuple[int, ...]) -> None:
    _start(game, name)
    before = game.state.player(name).total
    game.throw(dice)
    record = game.state.player(name).history[-1]
    assert record.outcome is TurnOutcome.BUST and record.total == before


def _low_turn(game: Game, name: str, dice: tuple[int, ...], *, entered: bool) -> None:
    """``name`` throws a score under the threshold and tries to bank it."""
    _start(game, name)
    points = score_throw(game.rules, dice).best
    before = game.state.player(name).total
    if game.rules.entry is EntryRule.FIRST_ROLL:
        game.throw(dice)
        if entered:
            assert game.state.phase is Phase.DECIDE and game.state.turn.total == points
            game.bank()
        else:
            assert game.state.player(name).history[-1].outcome is TurnOutcome.BUST
    else:
        _throw_and_keep(game, dice)
        assert game.state.phase is Phase.DECIDE and game.state.turn.total == points
        assert game.state.can_bank is entered
        if entered:
            game.bank()
        else:
            with pytest.raises(EntryThresholdNotMet):
                game.bank()
            game.next_player()
    after = game.state.player(name)
    assert after.total == before + (points if entered else 0)
    assert after.has_entered is entered


@pytest.mark.parametrize("rules", WITH_ENTRY, ids=lambda r: r.name)
def test_busts_never_enter_and_never_take_the_entry_back(rules: Rules) -> None:
    bust, low, high = _throws(rules)
    game = Game(rules, ["Ann", "Bob"])
    # before the first bank: busts, then a low score still does not enter
    for _ in range(2):
        _bust(game, "Ann", bust)
        assert not game.state.player("Ann").has_entered
        _bust(game, "Bob", bust)
    _low_turn(game, "Ann", low, entered=False)
    _bust(game, "Bob", bust)
    # the first bank, at or above the threshold
    _start(game, "Ann")
    _throw_and_keep(game, high)
    entered_with = game.state.turn.total
    assert entered_with >= rules.entry_threshold and game.state.can_bank
    game.bank()
    assert game.state.player("Ann").has_entered
    _low_turn(game, "Bob", low, entered=False)
    # between the first bank and the next: a bust keeps Ann in, a low score counts
    _bust(game, "Ann", bust)
    assert game.state.player("Ann").has_entered
    _bust(game, "Bob", bust)
    _low_turn(game, "Ann", low, entered=True)
    # after more busts on both sides: Ann stays in, Bob (who never banked) stays out
    _bust(game, "Bob", bust)
    _bust(game, "Ann", bust)
    _low_turn(game, "Bob", low, entered=False)
    _low_turn(game, "Ann", low, entered=True)
    assert game.state.player("Ann").total == entered_with + 2 * score_throw(rules, low).best
    assert game.state.player("Bob").total == 0


def test_every_threshold_rule_is_covered() -> None:
    assert {r.entry for r in WITH_ENTRY} == set(EntryRule) - {EntryRule.NONE}
