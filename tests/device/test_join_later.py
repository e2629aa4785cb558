"""A player may join at any time: between turns at once, during a turn at the start of the next
round (the table says so); a problem shown is cleared by the next press."""

from __future__ import annotations

from pathlib import Path

from device.menu import Action, MenuItem
from hardware.buttons import Button
from tests.device.harness import config, open_rig

SCRIPT = [[1, 1, 1, 2, 3, 4], [1, 1, 1, 2, 3, 4], [5, 2, 3, 4, 6, 6]]


def test_a_player_asking_during_a_turn_joins_at_the_next_round(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", target=5000, script=SCRIPT))
    controller = rig.table.controller
    with rig.table:
        rig.until(lambda v: bool(v.options))  # Ann's turn is under way
        controller.choose(MenuItem("", Action.ADD, "Cleo"))  # as the web's "Add" does
        assert rig.step().message == "Cleo joins at the start of the next round"
        assert not rig.view.alert
        assert [p.name for p in rig.view.players] == ["Ann", "Bob"]
        menu = rig.press(Button.MENU)
        adds = rig.press(*[Button.SELECT] * menu.menu.index("Add player..."), Button.ROLL).menu
        assert "Add Cleo" not in adds  # once is enough
        rig.press(Button.MENU)

        rig.press(Button.STOP)  # Ann keeps 1 1 1 and banks 1000
        view = rig.until(lambda v: bool(v.options) and v.current == 1)  # Bob's turn
        assert [p.name for p in view.players] == ["Ann", "Bob"]
        rig.press(Button.STOP)  # Bob banks: a new round, Cleo takes her seat
        view = rig.step()
        assert [p.name for p in view.players] == ["Ann", "Bob", "Cleo"]
        assert view.current == 0 and view.message == "Cleo joined for this round"


def test_a_player_joins_at_once_between_turns(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=SCRIPT))
    rig.auto_roll = False  # Ann's throw waits for her ROLL: between turns
    with rig.table:
        rig.step()
        rig.table.controller.choose(MenuItem("", Action.ADD, "Cleo"))
        view = rig.step()
        assert [p.name for p in view.players] == ["Ann", "Bob", "Cleo"]
        assert view.message == "Cleo joined"


def test_a_refusal_is_cleared_by_the_next_press(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=SCRIPT))
    rig.auto_roll = False
    with rig.table:
        view = rig.press(Button.STOP)
        assert view.alert and view.message == "nothing to bank yet: throw the dice first"
        rig.press(Button.ROLL)
        view = rig.until(lambda v: bool(v.options))
        rig.press(Button.SELECT)
        assert not rig.view.alert and rig.view.selected == 1
        view = rig.press(Button.MENU, Button.MENU)  # a refused player name
        rig.table.controller.choose(MenuItem("", Action.ADD, "ann"))
        assert rig.step().alert
        view = rig.press(Button.SELECT)
        assert not view.alert and view.message == ""
