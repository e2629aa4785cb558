"""Engine state -> TableView, the menu's items, and the prompts, on states built by hand."""

from __future__ import annotations

from device.menu import Action, history_items, main_menu, submenu
from device.prompts import count_message, prompt_for, unreadable_message
from device.session import rules_for
from device.store import StoredGame
from device.view import Overlay, table_view
from engine.events import Banked, Event, Kept, PlayerAdded, Thrown
from engine.state import GameState, apply
from hardware.view import Phase


def play(rules: str, *events: Event, target: int = 0) -> GameState:
    state = GameState.new(rules_for(rules, target))
    for event in events:
        state = apply(state, event)
    return state


def test_the_view_shows_players_dice_kept_and_options() -> None:
    state = play(
        "farkle",
        PlayerAdded("Ann"),
        PlayerAdded("Bob"),
        Thrown("Ann", (1, 1, 1, 2, 3, 4)),
        Kept("Ann", (1, 1, 1)),
        Thrown("Ann", (5, 2, 3)),
    )
    view = table_view(
        state, Overlay(tray=(5, 2, 3), selected=0, computers=frozenset({"Bob"}), prompt="p")
    )
    assert view.phase is Phase.CHOOSING
    assert [p.name for p in view.players] == ["Ann", "Bob"]
    assert view.players[1].is_computer and not view.players[0].is_computer
    assert view.current == 0 and view.dice == (5, 2, 3) and view.kept == (1, 1, 1)
    assert view.turn_total == 1000
    assert [(o.dice, o.score) for o in view.options] == [((5,), 50)]
    assert view.target == 10_000 and view.rules == "farkle" and view.prompt == "p"


def test_the_view_of_a_finished_game_names_the_winner_and_the_history() -> None:
    state = play(
        "greed",
        PlayerAdded("Ann"),
        PlayerAdded("Bob"),
        Thrown("Ann", (1, 1, 1, 5, 2)),
        Banked("Ann", 1050),
        Thrown("Bob", (2, 2, 3, 4, 6)),
        target=1000,
    )
    view = table_view(state, Overlay())
    assert view.phase is Phase.GAME_OVER
    assert view.winner_player is not None and view.winner_player.name == "Ann"
    assert view.players[0].history == (1050,) and view.players[1].history == (0,)
    assert not view.players[1].has_entered
    assert prompt_for(state, False, {}, ()) == "ROLL: new game"


def test_overlay_flags_choose_the_phase() -> None:
    state = play("greed", PlayerAdded("Ann"))
    assert table_view(state, Overlay()).phase is Phase.WAITING
    assert table_view(state, Overlay(rolling=True, tray=(None,) * 5)).phase is Phase.ROLLING
    assert table_view(state, Overlay(bust=True)).phase is Phase.BUST
    assert table_view(state, Overlay(menu=("Close menu",))).phase is Phase.MENU
    assert table_view(GameState.new(rules_for("greed")), Overlay()).phase is Phase.SETUP


def test_prompts_and_refusal_messages() -> None:
    state = play("greed", PlayerAdded("Ann"))
    assert prompt_for(state, False, {}, ()) == "Ann: throw 5 dice"
    virtual = prompt_for(state, False, {"Ann": "expert"}, ())
    assert virtual == "Ann (computer) throws 5 dice on the screen"
    by_hand = prompt_for(state, False, {"Ann": "expert"}, (), virtual=False)
    assert by_hand == "throw 5 dice for Ann (computer)"
    simulated = prompt_for(state, False, {}, (), simulated=True)
    assert simulated == "ROLL: Ann throws 5 dice"  # a person's throw waits for ROLL
    rolled = prompt_for(state, False, {}, (), simulated=True, rolled=True)
    assert rolled == "the simulated camera throws 5 dice for Ann"
    for_a_computer = prompt_for(state, False, {"Ann": "expert"}, (), virtual=False, simulated=True)
    assert for_a_computer == "the simulated camera throws 5 dice for Ann"
    state = apply(state, Thrown("Ann", (1, 1, 1, 1, 2)))
    assert prompt_for(state, False, {}, ()) == "ROLL: throw 1  STOP: bank 1100"
    assert prompt_for(state, True, {}, ()) == "Ann: throw 1 die"
    assert count_message(1, 2) == "expected 1 die, I see 2 — take the kept dice out of the tray"
    assert count_message(5, 3) == (
        "expected 5 dice, I see 3 — throw all 5, or hold STOP to set the missing ones"
    )
    assert count_message(5, 4).endswith("— throw all 5, or hold STOP to set the missing one")
    assert unreadable_message(2) == (
        "2 dice could not be read — hold STOP to set them or throw them again (cocked or covered)"
    )


def test_the_menu_offers_who_is_not_seated_and_every_rule_set() -> None:
    items = main_menu(
        seated=["Ann", "Expert"],
        people=["Ann", "Bob"],
        computers=["expert", "bold"],
        rules="greed",
        rule_sets=["greed", "farkle"],
    )
    labels = [item.label for item in items]
    assert labels == [
        "Close menu",
        "Add player...",
        "Remove player...",
        "Rules (greed)...",
        "New game",
        "History",
        "Hints: show",
        "Calibrate camera",
        "Shut down",
    ]
    adds = submenu(items[1])
    assert [i.label for i in adds] == ["Back", "Add Bob", "Add guest 1", "Add computer Bold"]
    assert adds[3].strategy == "bold" and adds[3].action is Action.ADD
    assert [i.name for i in submenu(items[2])[1:]] == ["Ann", "Expert"]
    assert [i.label for i in submenu(items[3])[1:]] == ["Rules: greed (now)", "Rules: farkle"]
    own = main_menu(
        seated=[], people=[], computers=[], rules="farkle-friday", rule_sets=["greed", "farkle"]
    )  # a game of a rule file the list does not hold: its own rules are offered too
    (rules,) = (item for item in own if item.label.startswith("Rules ("))
    assert [i.name for i in submenu(rules)[1:]] == ["farkle-friday", "greed", "farkle"]


def test_history_lines() -> None:
    game = StoredGame(
        id=7,
        started=0.0,
        start={},
        events=(),
        finished=1.0,
        result={"rules": "farkle", "winners": ["Bob"], "scores": {"Ann": 900, "Bob": 1200}},
    )
    assert [i.label for i in history_items([game], 3)] == [
        "Back",
        "#3 farkle: Bob won (Ann 900, Bob 1200)",  # the third finished game, whatever its id
    ]
    assert [i.label for i in history_items([])] == ["Back", "No finished games yet"]
