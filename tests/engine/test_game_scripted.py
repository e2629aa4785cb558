"""Whole scripted games, one per rule set, each played to its winner including the end-game round.

A script is data: one line per request, ``player action [argument]``, where action is ``throw``
(argument: the dice), ``keep`` (the dice to set aside), ``bank``, ``take`` or ``decline`` (the
pass), or ``refuse-bank`` / ``refuse-keep`` (a request that must be refused, leaving the game as it
was). Every request checks the player is the one whose turn it is.
"""

from __future__ import annotations

import json

import pytest

from engine.errors import EntryThresholdNotMet, GameOver, IllegalKeep, IllegalRequest
from engine.events import event_from_json
from engine.game import Game, Phase
from engine.rules import find_rules

# The example game of "The Game Greed" house rules, step by step as the rule document tells it.
HOUSE_EXAMPLE = """
Dianna throw 132521
Dianna keep 11
Dianna throw 3332
Dianna keep 333
Dianna bank
William take
William throw 2
Dianna throw 133225
Dianna keep 1
Dianna throw 12345
Dianna keep 12345
Dianna throw 522465
Dianna keep 5
Dianna throw 11343
Dianna keep 11
Dianna bank
William take
William throw 555
William keep 555
William throw 123453
William keep 12345
William bank
Dianna take
Dianna throw 3
"""

# OOPSLA Greed, 5000: Bob reaches it mid-round; Cy still plays and wins; Ann gets no extra turn.
GREED_GAME = """
Ann throw 12315
Bob throw 11145
Bob bank
Cy throw 22346
Ann throw 11111
Ann throw 55522
Ann bank
Bob throw 11111
Bob throw 11111
Bob throw 11111
Bob throw 55555
Bob bank
Cy throw 11111
Cy throw 11111
Cy throw 11111
Cy throw 11111
Cy throw 55555
Cy bank
"""

# Ruby Koans Greed, 3000: entry needs 300 banked in one turn; reaching 3000 starts the final round.
KOANS_GAME = """
Ann throw 51341
Ann refuse-bank
Ann throw 55
Ann bank
Bob throw 11131
Bob throw 3
Ann throw 11111
Ann throw 11111
Ann bank
Bob throw 24454
Bob bank
Ann throw 11145
Ann bank
Bob throw 11111
Bob throw 11111
Bob throw 11111
Bob bank
"""

# Farkle, 10,000: Bob gets there with hot dice; Ann's last turn beats him.
FARKLE_GAME = """
Ann throw 123335
Ann refuse-keep 2
Ann refuse-keep 33
Ann refuse-keep 6
Ann keep 1
Ann throw 22346
Bob throw 111111
Bob keep 111111
Bob throw 111111
Bob keep 111111
Bob throw 111111
Bob keep 111111
Bob throw 111111
Bob keep 111111
Bob throw 111111
Bob keep 111111
Bob bank
Ann throw 111111
Ann keep 111111
Ann throw 111111
Ann keep 111111
Ann throw 111111
Ann keep 111111
Ann throw 111111
Ann keep 111111
Ann throw 111111
Ann keep 111111
Ann throw 123346
Ann keep 1
Ann bank
"""

# rules, target, players, script, totals at the end, turns per player, winners
GAMES = [
    ("greed-house", 2000, "Dianna,William", HOUSE_EXAMPLE, [1850, 2850], [3, 2], ["William"]),
    ("greed", None, "Ann,Bob,Cy", GREED_GAME, [1700, 5250, 5400], [2, 2, 2], ["Cy"]),
    ("greed-koans", None, "Ann,Bob", KOANS_GAME, [3800, 4050], [3, 3], ["Bob"]),
    ("farkle", None, "Ann,Bob", FARKLE_GAME, [10100, 10000], [2, 1], ["Ann"]),
]


def phase_of(game: Game) -> Phase:
    """The game's phase (a call, so that the type checker does not narrow it across requests)."""
    return game.state.phase


def play_script(game: Game, script: str) -> None:
    """Play ``script`` on ``game``, checking whose turn each line is."""
    for line in script.strip().splitlines():
        name, action, *argument = line.split()
        current = game.state.current_player
        assert current is not None and current.name == name, f"{line!r}: it is {current!r}'s turn"
        if action == "throw":
            game.throw(argument[0])
        elif action == "keep":
            game.keep(argument[0])
        elif action == "bank":
            game.bank()
        elif action == "take":
            game.take_passed()
        elif action == "decline":
            game.decline_passed()
        elif action in ("refuse-bank", "refuse-keep"):
            before, events = game.state, game.events
            with pytest.raises(EntryThresholdNotMet if action == "refuse-bank" else IllegalKeep):
                game.bank() if action == "refuse-bank" else game.keep(argument[0])
            assert game.state == before and game.events == events
        else:
            raise AssertionError(f"unknown action in {line!r}")


@pytest.mark.parametrize(
    ("name", "target", "players", "script", "totals", "turns", "winners"), GAMES
)
def test_scripted_game_reaches_its_winner(
    name: str,
    target: int | None,
    players: str,
    script: str,
    totals: list[int],
    turns: list[int],
    winners: list[str],
) -> None:
    rules = find_rules(name)
    if target is not None:
        rules = rules.with_target(target)
    game = Game(rules, players.split(","))
    play_script(game, script)
    assert phase_of(game) is Phase.OVER
    assert [player.total for player in game.state.players] == totals
    assert [player.turns for player in game.state.players] == turns
    assert [player.name for player in game.state.winners] == winners
    with pytest.raises(GameOver):
        game.throw()
    # The events, through JSON, rebuild exactly this game.
    as_json = json.loads(json.dumps([event.to_json() for event in game.events]))
    assert Game.replay(rules, [event_from_json(item) for item in as_json]).state == game.state


def test_house_example_game_step_by_step() -> None:
    game = Game(find_rules("greed-house").with_target(2000), ["Dianna", "William"])
    play_script(game, "\n".join(HOUSE_EXAMPLE.strip().splitlines()[:5]))
    assert phase_of(game) is Phase.PASS and game.state.passed is not None
    assert (game.state.passed.dice, game.state.passed.points) == (1, 500)
    play_script(game, "William take\nWilliam throw 2")
    assert game.state.last_turn is not None and game.state.last_turn[1].is_bust
    assert phase_of(game) is Phase.THROW and game.state.dice_to_throw == 6  # after a bust: fresh
    play_script(game, "Dianna throw 133225\nDianna keep 1\nDianna throw 12345\nDianna keep 12345")
    assert game.state.turn.total == 1100 and game.state.dice_to_throw == 6  # hot dice
    play_script(game, "\n".join(HOUSE_EXAMPLE.strip().splitlines()[11:16]))
    assert [p.total for p in game.state.players] == [1850, 0]
    assert game.state.passed is not None and (game.state.passed.dice, game.state.passed.points) == (
        3,
        1350,
    )
    play_script(game, "\n".join(HOUSE_EXAMPLE.strip().splitlines()[16:22]))
    assert [p.total for p in game.state.players] == [1850, 2850]
    assert (
        game.state.is_final_round
        and game.state.passed is not None
        and game.state.passed.points == 2850
    )


def test_greed_first_roll_below_300_busts_only_before_entering() -> None:
    game = Game(find_rules("greed"), ["Ann", "Bob"])
    game.throw("12315")
    assert game.state.players[0].history[0].is_bust
    game.throw("11145")  # Bob enters: 1150 on the first roll
    game.bank()
    game.throw("22346")  # Ann busts
    game.throw("12315")  # Bob has entered: 250 is fine now
    assert (
        phase_of(game) is Phase.DECIDE
        and game.state.turn.total == 250
        and game.state.turn.set_aside == (1, 1, 5)
    )


def test_round_end_lets_everyone_have_equal_turns() -> None:
    game = Game(find_rules("greed").with_target(1000), ["Ann", "Bob"])
    game.throw("11111")  # Ann: 1200, hot dice
    game.bank()
    assert game.state.is_final_round and game.state.phase is Phase.THROW
    game.throw("11122")  # Bob: 1000
    game.bank()
    assert phase_of(game) is Phase.OVER
    assert [p.name for p in game.state.winners] == ["Ann"]


def test_tie_has_two_winners() -> None:
    game = Game(find_rules("farkle").with_target(500), ["Ann", "Bob"])
    for name in ("Ann", "Bob"):
        assert game.state.current_player is not None and game.state.current_player.name == name
        game.throw("555234")
        game.keep("555")
        game.bank()
    assert [p.name for p in game.state.winners] == ["Ann", "Bob"]


def test_keep_of_a_die_not_thrown_names_it() -> None:
    game = Game(find_rules("farkle"), ["Ann"])
    game.throw("123335")
    with pytest.raises(IllegalKeep, match=r"\[5\] not thrown"):
        game.keep([1, 5, 5])
    with pytest.raises(IllegalRequest, match="cannot bank now"):
        game.bank()
