"""Hypothesis properties of games: random requests, good and bad, under every built-in rule set."""

from __future__ import annotations

import json

from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.errors import DicekeeperError
from engine.events import event_from_json
from engine.game import Game, Phase
from engine.rules import ZILCH_PENALTY, Rules, builtin_rules

RULES = builtin_rules()
# Passing is the rarest path; weight the house rules so random games reach it often.
WEIGHTED_RULES = RULES + tuple(rules for rules in RULES if rules.passing) * 3
NAMES = ("Ann", "Bob", "Cy", "Dee")
ACTIONS = (
    "throw",
    "throw",
    "throw",
    "throw-values",
    "keep-best",
    "keep-any",
    "bank",
    "take",
    "decline",
    "add",
    "remove",
    "next",
    "restart",
)


def sensible_request(game: Game, data: st.DataObject) -> None:
    """A request that fits the phase (so games get to passes, final rounds and their end)."""
    if game.state.phase is Phase.KEEP:
        game.keep(data.draw(st.sampled_from(game.state.options)).dice)
    elif game.state.phase is Phase.PASS:
        game.take_passed() if data.draw(st.booleans()) else game.decline_passed()
    elif game.state.can_bank and data.draw(st.booleans()):
        game.bank()
    else:
        game.throw()


def random_request(game: Game, data: st.DataObject) -> None:
    """Make one request, chosen by ``data``; it may well be refused."""
    if data.draw(st.integers(0, 9)) < 7:
        sensible_request(game, data)
        return
    action = data.draw(st.sampled_from(ACTIONS))
    faces, dice = game.rules.faces, game.rules.dice
    if action == "throw":
        game.throw()
    elif action == "throw-values":
        game.throw(data.draw(st.lists(st.integers(0, faces + 1), min_size=0, max_size=dice + 1)))
    elif action == "keep-best":
        game.keep(game.state.options[0].dice if game.state.options else (1,))
    elif action == "keep-any":
        game.keep(data.draw(st.lists(st.integers(1, faces), min_size=1, max_size=dice)))
    elif action == "bank":
        game.bank()
    elif action == "take":
        game.take_passed()
    elif action == "decline":
        game.decline_passed()
    elif action == "add":
        game.add_player(data.draw(st.sampled_from(NAMES)))
    elif action == "remove":
        game.remove_player(data.draw(st.sampled_from(NAMES)))
    elif action == "next":
        game.next_player()
    else:
        game.restart()


def check_invariants(game: Game) -> None:
    state = game.state
    names = [player.name for player in state.players]
    assert len(set(names)) == len(names)
    for player in state.players:
        assert player.total == sum(record.points for record in player.history)
        running = 0
        for number, record in enumerate(player.history, start=1):
            running += record.points
            assert record.number == number and record.total == running
            assert record.total >= 0
            if not record.is_bust:
                assert record.points >= 0
                continue
            before = record.total - record.points
            costs = {0}  # a bust costs points only under a penalty or a wipe-out
            if "zilch-penalty" in state.rules.hooks:
                costs.add(-min(ZILCH_PENALTY, before))
            if state.rules.wipe_out:
                costs.add(-before)  # the whole score
            assert record.points in costs
    if state.phase is Phase.OVER:
        assert state.current is None and state.winners
    elif state.players:
        assert state.current is not None and 0 <= state.current < len(state.players)
        assert state.starter in names
    else:
        assert state.current is None
    if state.phase is Phase.KEEP:
        assert state.options and state.last_throw is not None
    assert (state.phase is Phase.PASS) == (state.passed is not None)


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(WEIGHTED_RULES), seed=st.integers(0, 2**32), data=st.data())
def test_random_requests_keep_the_game_sane(rules: Rules, seed: int, data: st.DataObject) -> None:
    import random

    game = Game(rules.with_target(1500), ["Ann", "Bob"], rng=random.Random(seed))
    for _ in range(data.draw(st.integers(1, 120))):
        before, events = game.state, game.events
        try:
            random_request(game, data)
        except DicekeeperError:
            # A refused request leaves the game exactly as it was.
            assert game.state == before and game.events == events
        else:
            assert len(game.events) == len(events) + 1
        check_invariants(game)
        event(f"visited {game.state.phase.name}")
    replayed = Game.replay(
        rules.with_target(1500),
        [event_from_json(json.loads(json.dumps(event.to_json()))) for event in game.events],
    )
    assert replayed.state == game.state


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_removing_and_adding_players_keeps_the_turn_order(data: st.DataObject) -> None:
    """A list model of the order: skipping goes to the next name; removal closes up the order."""
    game = Game(next(r for r in RULES if r.name == "farkle"), ["Ann", "Bob", "Cy"])
    order, current = ["Ann", "Bob", "Cy"], "Ann"
    for _ in range(data.draw(st.integers(1, 40))):
        action = data.draw(st.sampled_from(("next", "add", "remove")))
        name = data.draw(st.sampled_from(NAMES))
        if action == "next" and order:
            game.next_player()
            current = order[(order.index(current) + 1) % len(order)]
        elif action == "add" and name not in order:
            game.add_player(name)
            order.append(name)
            current = current or name
        elif action == "remove" and name in order:
            game.remove_player(name)
            index = order.index(name)
            order.remove(name)
            if name == current:
                current = order[index % len(order)] if order else ""
        player = game.state.current_player
        assert [p.name for p in game.state.players] == order
        assert (player.name if player else "") == current


def test_the_invariants_hold_through_a_wipe_out() -> None:
    game = Game(next(r for r in RULES if r.wipe_out), ["Ann", "Bob"])
    for throw in ("35", "66"):
        game.throw(throw)
    game.bank()
    game.throw("22")
    game.bank()
    game.throw("11")  # Ann's 20 are lost
    assert game.state.player("Ann").history[-1].points == -20
    check_invariants(game)
