"""Individual requests: players joining and leaving, skips, restarts, refusals and the dice view."""

from __future__ import annotations

import random

import pytest

from engine.errors import (
    EntryThresholdNotMet,
    GameOver,
    IllegalRequest,
    InvalidThrow,
    PlayerError,
    WrongPhase,
)
from engine.game import Game, Phase
from engine.players import TurnOutcome
from engine.rules import find_rules


def names(game: Game) -> list[str]:
    return [player.name for player in game.state.players]


def phase(game: Game) -> Phase:
    """A call, so that the type checker does not narrow the phase across requests."""
    return game.state.phase


def dice(game: Game) -> tuple[int | None, ...]:
    return game.state.dice


def whose(game: Game) -> str | None:
    player = game.state.current_player
    return player.name if player else None


@pytest.mark.parametrize(
    ("request_", "error", "message"),
    [
        (lambda g: g.throw("1234561"), InvalidThrow, "expected 6 dice, got 7"),
        (lambda g: g.throw("123457"), InvalidThrow, "die value 7"),
        (lambda g: g.throw([1, 2, 3, 0, 1, 1]), InvalidThrow, "0"),
        (lambda g: g.keep("1"), WrongPhase, "waiting for 'Ann' to throw 6 dice"),
        (lambda g: g.bank(), WrongPhase, "cannot bank now"),
        (lambda g: g.take_passed(), WrongPhase, "cannot take the pass now"),
        (lambda g: g.add_player("ann"), PlayerError, "already a player called 'ann'"),
        (lambda g: g.add_player(" Cy"), PlayerError, "' Cy'"),
        (
            lambda g: g.remove_player("Zed"),
            PlayerError,
            "no player 'Zed': players are 'Ann', 'Bob'",
        ),
    ],
)
def test_refused_requests_name_the_problem_and_change_nothing(
    request_: object, error: type[Exception], message: str
) -> None:
    rng = random.Random(3)
    game = Game(find_rules("greed-house"), ["Ann", "Bob"], rng=rng)
    before, events, rng_state = game.state, game.events, rng.getstate()
    with pytest.raises(error, match=message):
        request_(game)  # type: ignore[operator]
    assert game.state == before and game.events == events and rng.getstate() == rng_state


def test_refused_virtual_throw_does_not_draw_from_the_rng() -> None:
    rng = random.Random(1)
    game = Game(find_rules("farkle"), ["Ann"], rng=rng)
    game.throw("123335")
    state = rng.getstate()
    with pytest.raises(WrongPhase):
        game.throw()  # must keep first
    assert rng.getstate() == state


def test_players_join_and_leave_only_between_turns() -> None:
    game = Game(find_rules("farkle"), ["Ann", "Bob", "Cy"])
    game.throw("155234")
    with pytest.raises(WrongPhase, match="during a turn"):
        game.add_player("Dee")
    with pytest.raises(WrongPhase, match="during a turn"):
        game.remove_player("Bob")
    game.keep("15")
    game.bank()
    game.remove_player("Bob")  # Bob was next: Cy's turn now
    assert names(game) == ["Ann", "Cy"] and whose(game) == "Cy"
    game.add_player("Dee")
    assert names(game) == ["Ann", "Cy", "Dee"] and whose(game) == "Cy"
    game.remove_player("Ann")  # the starter leaves: the next in order starts rounds
    assert game.state.starter == "Cy" and whose(game) == "Cy"
    game.next_player()
    assert whose(game) == "Dee"
    assert game.state.players[0].history[-1].outcome is TurnOutcome.SKIPPED


def test_removing_the_player_offered_a_pass_drops_the_pass() -> None:
    game = Game(find_rules("greed-house"), ["Ann", "Bob", "Cy"])
    game.throw("555234")
    game.keep("555")
    game.bank()
    assert phase(game) is Phase.PASS and whose(game) == "Bob"
    game.remove_player("Bob")
    assert phase(game) is Phase.THROW and game.state.passed is None and whose(game) == "Cy"


def test_no_players_no_turns() -> None:
    with pytest.raises(PlayerError, match="not the string 'Ann,Bob'"):
        Game(find_rules("farkle"), "Ann,Bob")
    game = Game(find_rules("farkle"))
    with pytest.raises(PlayerError, match="no players"):
        game.throw()
    game.add_player("Ann")
    game.remove_player("Ann")
    assert whose(game) is None and game.state.starter is None
    game.add_player("Bob")
    assert whose(game) == "Bob" and game.state.starter == "Bob"


def test_final_round_refuses_new_players_and_game_over_refuses_all_but_restart() -> None:
    game = Game(find_rules("farkle").with_target(300), ["Ann", "Bob"])
    game.throw("111234")
    game.keep("111")
    game.bank()
    assert game.state.is_final_round
    with pytest.raises(PlayerError, match="final round"):
        game.add_player("Cy")
    game.throw("234466")  # Bob busts on his last turn
    assert phase(game) is Phase.OVER and [p.name for p in game.state.winners] == ["Ann"]
    for request in (game.bank, game.next_player, lambda: game.add_player("Cy")):
        with pytest.raises(GameOver):
            request()
    game.restart()
    assert phase(game) is Phase.THROW and whose(game) == "Ann"
    assert all(p.history == () for p in game.state.players) and not game.state.is_final_round


def test_entry_threshold_refuses_the_bank_until_reached() -> None:
    game = Game(find_rules("greed-house"), ["Ann"])
    game.throw("155234")
    game.keep("15")
    assert not game.state.can_bank
    with pytest.raises(EntryThresholdNotMet, match=r"'Ann' cannot bank 150.*at least 500"):
        game.bank()
    game.throw("5552")
    game.keep("555")
    assert game.state.can_bank and game.bank().total == 650


def test_dice_view_shows_set_aside_thrown_and_cup() -> None:
    game = Game(find_rules("farkle"), ["Ann"])
    assert dice(game) == (None,) * 6
    game.throw("155234")
    assert dice(game) == (1, 5, 5, 2, 3, 4)
    game.keep("15")
    assert dice(game) == (1, 5, None, None, None, None)


def test_hot_dice_and_no_hot_dice() -> None:
    game = Game(find_rules("greed"), ["Ann"])
    game.throw("11155")
    assert (
        game.state.dice_to_throw == 5
        and game.state.turn.total == 1100
        and game.state.turn.set_aside == ()
    )
    import dataclasses

    cold = dataclasses.replace(find_rules("greed"), name="greed-cold", hot_dice=False)
    game = Game(cold, ["Ann"])
    game.throw("11155")
    with pytest.raises(WrongPhase, match="no hot dice; bank"):
        game.throw()
    assert game.bank().points == 1100


def test_a_replayed_event_for_the_wrong_player_is_refused() -> None:
    from engine.events import Thrown

    game = Game(find_rules("farkle"), ["Ann", "Bob"])
    with pytest.raises(IllegalRequest, match="for 'Bob': it is the turn of 'Ann'"):
        game.apply(Thrown("Bob", (1, 1, 1, 2, 3, 4)))
