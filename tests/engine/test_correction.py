"""Correcting the last throw: the game goes back and takes the corrected dice, until the table moves
on; replay from JSON gives the same game."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalRequest, InvalidThrow, WrongPhase
from engine.events import Corrected, event_from_json
from engine.game import Game
from engine.rules import find_rules
from engine.state import Phase


def game(rules: str = "greed") -> Game:
    return Game(find_rules(rules), ("Ann", "Bob"), rng=random.Random(3))


def replayed(played: Game) -> Game:
    events = [event_from_json(event.to_json()) for event in played.events]
    return Game.replay(played.rules, events)


def test_a_misread_bust_is_undone_and_the_turn_goes_on() -> None:
    played = game()
    played.throw("22346")  # read so: a bust, Bob's turn
    assert played.state.current_player is not None and played.state.current_player.name == "Bob"
    played.correct("11146", by="buttons")
    assert played.state.current_player is not None and played.state.current_player.name == "Ann"
    assert played.state.phase is Phase.DECIDE and played.state.turn.total == 1000
    assert played.state.players[0].history == ()  # the bust is gone from Ann's record
    assert played.events[-1] == Corrected("Ann", (2, 2, 3, 4, 6), (1, 1, 1, 4, 6), "buttons")
    assert replayed(played).state == played.state


def test_a_misread_scoring_throw_can_become_a_bust() -> None:
    played = game("farkle")
    played.throw("115234")
    assert played.state.phase is Phase.KEEP
    played.correct("223466", by="keyboard")
    assert played.state.phase is Phase.THROW and played.state.current_player is not None
    assert played.state.current_player.name == "Bob" and played.state.players[0].history[-1].is_bust


def test_correcting_twice_keeps_the_first_reading() -> None:
    played = game("farkle")
    played.throw("115234")
    played.correct("115236")
    played.correct("111236")
    assert played.state.turn.scoring is not None and played.state.options[0].dice == (1, 1, 1)
    last = played.events[-1]
    assert isinstance(last, Corrected) and last.read == (1, 1, 5, 2, 3, 6)
    assert replayed(played).state == played.state


@pytest.mark.parametrize("then", ["keep", "bank"])
def test_the_table_moved_on_refuses_a_correction(then: str) -> None:
    played = game("farkle")
    played.throw("115234")
    played.keep("11")
    if then == "bank":
        played.bank()
    before = played.state
    with pytest.raises(WrongPhase, match="the table has moved on"):
        played.correct("666666")
    assert played.state == before


def test_only_the_latest_throw_is_open_to_correction() -> None:
    played = game("farkle")
    played.throw("115234")
    played.keep("11")
    played.throw("2346")  # a bust, read so
    played.correct("5346")
    assert played.state.phase is Phase.KEEP and played.state.options[0].score == 50
    with pytest.raises(InvalidThrow, match="expected 4 dice"):
        played.correct("115234")


def test_no_throw_yet_and_the_wrong_player_are_refused() -> None:
    played = game()
    with pytest.raises(WrongPhase, match="moved on"):
        played.correct("11111")
    played.throw("11145")
    with pytest.raises(IllegalRequest, match="the last throw was by 'Ann'"):
        played.apply(Corrected("Bob", (1, 1, 1, 4, 5), (1, 1, 1, 1, 5), "web"))


def test_a_correction_must_be_a_legal_throw() -> None:
    played = game()
    played.throw("11145")
    before = played.state
    with pytest.raises(InvalidThrow, match="expected 5 dice"):
        played.correct("1114")
    assert played.state == before and played.state.can_correct


def test_the_throw_that_ended_the_game_can_be_corrected() -> None:
    played = Game(find_rules("greed").with_target(500), ("Ann", "Bob"), rng=random.Random(1))
    played.throw("11145")
    played.bank()
    played.throw("23462")  # Bob busts: the round is over and Ann has won
    assert played.state.phase is Phase.OVER
    played.correct("11162", by="buttons")  # no: Bob threw three ones
    assert played.state.phase is Phase.DECIDE and played.state.turn.total == 1000
    assert replayed(played).state == played.state
