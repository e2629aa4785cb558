"""Correcting the dice as read at the table: a long press on STOP (or the c key) opens the
correction, SELECT moves from die to die, ROLL steps the value through 1…6 and "not a die", STOP
confirms. Misreads come from an oracle told to misread; the buttons are scripted, keyboard keys
from a fake key source, and gpiozero pins on MockFactory."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from device.cli import main
from device.prompts import CORRECTING_PROMPT
from engine.state import Phase as EnginePhase
from hardware.buttons import Button
from hardware.keyboard_buttons import KeyboardButtons
from hardware.view import Phase, TableView
from tests.device import harness
from tests.device.harness import Rig, config, is_waiting, open_rig
from vision.types import Frame, Reading

PINS = {"roll": 17, "stop": 27, "select": 22}


class MisreadingOracle(harness.OracleRenderer):
    """The oracle, told to misread dice of the next settled throw (index -> value read), and to
    give dice it reports unreadable a likeliest value (index -> likely)."""

    def __init__(self) -> None:
        super().__init__()
        self.misread: dict[int, int] = {}
        self.likely: dict[int, int] = {}

    def read(self, frame: Frame) -> Reading:
        dice = super().read(frame).dice
        return Reading(
            tuple(
                replace(die, likely=self.likely.get(i)) if die.value is None else die
                for i, die in enumerate(dice)
            )
        )

    def render(self, values: Sequence[int], seed: int) -> list[Frame]:
        frames = super().render(values, seed)
        if values and self.misread and frames:
            key = harness._key(frames[-1])
            shown = list(self._truth[key])
            for index, value in self.misread.items():
                shown[index] = value
            self._truth[key] = tuple(shown)
            self.misread = {}
        return frames


@pytest.fixture(autouse=True)
def misreading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(harness, "OracleRenderer", MisreadingOracle)


def misread(rig: Rig, **dice: int) -> None:
    oracle = rig.oracle
    assert isinstance(oracle, MisreadingOracle)
    oracle.misread = {int(name.removeprefix("die")): value for name, value in dice.items()}


def events(rig: Rig) -> list[dict[str, object]]:
    game = rig.table.store.unfinished()
    assert game is not None
    return [json.loads(text) for text in game.events]


def test_a_misread_keep_is_corrected_with_the_buttons(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4]]))
    misread(rig, die0=2)
    with rig.table:
        view = rig.until(is_waiting)
        assert view.dice == (2, 1, 1, 5, 3, 4) and view.options[0].score == 250  # 1 1 5
        view = rig.press(Button.CORRECT)
        assert view.phase is Phase.CORRECTING and view.cursor == 0 and view.options == ()
        assert view.prompt == CORRECTING_PROMPT and view.message.startswith("correcting die 1")
        seen = []
        for _ in range(6):  # 2 -> 3 4 5 6, not a die, 1
            view = rig.press(Button.ROLL)
            seen.append(None if 0 in view.struck else view.dice[0])
        assert seen == [3, 4, 5, 6, None, 1]
        assert rig.press(Button.STOP).phase is Phase.CHOOSING
        assert rig.view.options[0].dice == (1, 1, 1, 5) and rig.view.options[0].score == 1050
        assert rig.view.message == "corrected to 1 1 1 5 3 4"
        assert events(rig)[-1] == {
            "type": "corrected",
            "player": "Ann",
            "read": [2, 1, 1, 5, 3, 4],
            "dice": [1, 1, 1, 5, 3, 4],
            "by": "buttons",
        }


def test_a_misread_bust_is_undone_and_replays_after_a_restart(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="greed", script=[[1, 1, 1, 3, 4], [5, 5, 5, 2, 3]])
    rig = open_rig(cfg)
    misread(rig, die1=2)
    with rig.table:
        rig.until(lambda v: v.phase is Phase.BUST)
        assert rig.table.controller.state.current_player.name == "Bob"  # type: ignore[union-attr]
        rig.press(Button.CORRECT, Button.SELECT)
        assert rig.view.cursor == 1 and rig.view.dice[1] == 2
        rig.press(*[Button.ROLL] * 6, Button.STOP)
        state = rig.table.controller.state
        assert state.current_player is not None and state.current_player.name == "Ann"
        assert state.phase is EnginePhase.DECIDE and state.turn.total == 1000
        assert rig.view.prompt == "ROLL: throw 2  STOP: bank 1000"
    again = open_rig(cfg)
    with again.table:
        assert again.table.controller.state == state
        again.step()
        assert again.view.turn_total == 1000


def test_a_correction_after_keeps_is_refused(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4], [2, 3]]))
    with rig.table:
        rig.until(is_waiting)
        rig.press(Button.ROLL)  # keep 1 1 1 5 and throw the rest
        before = events(rig)
        view = rig.press(Button.CORRECT)
        assert view.phase is not Phase.CORRECTING and view.alert
        assert view.message == "nothing to correct: the table has moved on since the last throw"
        assert events(rig) == before


def test_an_unreadable_die_is_set_instead_of_thrown_again(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2], [2, 2, 3, 4, 6]]))
    rig.oracle.unreadable = {2}
    with rig.table:
        view = rig.until(lambda v: "could not be read" in v.message)
        assert view.dice == (1, 1, None, 5, 2) and "hold STOP to set it" in view.message
        view = rig.press(Button.CORRECT)
        assert view.cursor == 2 and view.dice[2] is None  # at the unknown die
        view = rig.press(Button.STOP)
        assert view.phase is Phase.CORRECTING and view.alert
        assert view.message.startswith("die 3 not set yet")
        rig.press(Button.ROLL, Button.STOP)
        assert [e["type"] for e in events(rig)][-2:] == ["thrown", "corrected"]
        assert events(rig)[-1]["read"] == [1, 1, 0, 5, 2]
        assert rig.table.controller.state.turn.total == 1050


def test_an_unreadable_die_is_set_to_its_likeliest_value_with_one_press(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 5, 5, 2], [2, 2, 3, 4, 6]]))
    rig.oracle.unreadable = {2}
    assert isinstance(rig.oracle, MisreadingOracle)
    rig.oracle.likely = {2: 5}
    with rig.table:
        rig.until(lambda v: "could not be read" in v.message)
        view = rig.press(Button.CORRECT)
        assert view.cursor == 2 and view.dice[2] is None  # offered, not set
        assert view.message == "correcting die 3 of 5: ? (likeliest 5)"
        assert rig.press(Button.STOP).message.startswith("die 3 not set yet")
        assert rig.press(Button.ROLL).message == "correcting die 3 of 5: 5"
        rig.press(Button.STOP)
        assert events(rig)[-1]["read"] == [1, 1, 0, 5, 2]
        assert events(rig)[-1]["dice"] == [1, 1, 5, 5, 2]
        assert rig.table.controller.state.turn.total == 300  # 1 1 5 5


def test_a_die_the_reader_missed_is_added_instead_of_thrown_again(tmp_path: Path) -> None:
    # Six dice thrown, five seen: the sixth is added as an unknown die (no likeliest value).
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3], [2, 3, 4, 6, 6, 2]]))
    with rig.table:
        view = rig.until(lambda v: "I see 5" in v.message)
        message = "expected 6 dice, I see 5 — throw all 6, or hold STOP to set the missing one"
        assert view.message == message and view.alert
        assert view.dice == (1, 1, 5, 2, 3, None) and not any(view.likely)
        before = events(rig)
        view = rig.press(Button.CORRECT)
        assert view.phase is Phase.CORRECTING and view.cursor == 5  # at the added die
        assert view.message == "correcting die 6 of 6: ?"
        assert rig.press(*[Button.SELECT] * 6).cursor == 5  # round the dice, back to it
        view = rig.press(Button.STOP)
        assert view.phase is Phase.CORRECTING and view.alert
        assert view.message.startswith("die 6 not set yet")
        assert events(rig) == before
        assert rig.press(Button.ROLL).message == "correcting die 6 of 6: 1"  # no guess: 1 first
        view = rig.press(Button.STOP)
        assert view.phase is Phase.CHOOSING and view.dice == (1, 1, 5, 2, 3, 1)
        assert [e["type"] for e in events(rig)][-2:] == ["thrown", "corrected"]
        assert events(rig)[-2]["dice"] == [1, 1, 5, 2, 3, 1]
        assert events(rig)[-1]["read"] == [1, 1, 5, 2, 3, 0]
        state = rig.table.controller.state
        assert [t.values for t in state.turn.throws] == [(1, 1, 5, 2, 3, 1)]
        assert state.options[0].dice == (1, 1, 1, 5)


def test_two_missed_dice_are_both_added(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 5], [2, 2, 3, 4, 6]]))
    with rig.table:
        view = rig.until(lambda v: "I see 3" in v.message)
        assert view.message.endswith("throw all 5, or hold STOP to set the missing ones")
        assert view.dice == (1, 1, 5, None, None)
        view = rig.press(Button.CORRECT, Button.ROLL, Button.SELECT, Button.ROLL)
        assert view.dice == (1, 1, 5, 1, 1) and view.cursor == 4
        view = rig.press(*[Button.ROLL] * 6)  # 1 -> 2 … 6 -> not a die
        assert view.struck == frozenset({4})
        assert rig.press(Button.STOP).message.startswith("4 dice set but 5 dice were thrown")
        rig.press(Button.ROLL, Button.ROLL, Button.STOP)  # not a die -> 1 -> 2
        assert events(rig)[-1]["dice"] == [1, 1, 5, 1, 2]
        assert rig.table.controller.state.turn.total == 1050


def test_a_false_die_is_struck_out(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2, 3]]))
    with rig.table:
        rig.until(lambda v: "I see 6" in v.message)
        rig.press(Button.CORRECT, *[Button.SELECT] * 5)
        view = rig.press(*[Button.ROLL] * 4)  # 3 -> 4 5 6, not a die
        assert view.struck == frozenset({5}) and view.cursor == 5
        rig.press(Button.STOP)
        assert events(rig)[-1]["dice"] == [1, 1, 1, 5, 2]
        assert rig.table.controller.state.turn.total == 1050


def test_cancelling_leaves_everything_as_it_was(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4]]))
    with rig.table:
        rig.until(is_waiting)
        before = (rig.table.controller.state, events(rig))
        rig.press(Button.CORRECT, Button.ROLL, Button.SELECT, Button.ROLL)
        view = rig.press(Button.CORRECT)
        assert view.phase is Phase.CHOOSING and view.dice == (1, 1, 1, 5, 3, 4)
        assert view.message == "correction cancelled: the dice stand as they were"
        assert (rig.table.controller.state, events(rig)) == before
        rig.press(Button.CORRECT)
        view = rig.press(Button.STOP)  # confirmed unchanged: nothing stored
        assert view.message == "the dice stand as they were"
        assert (rig.table.controller.state, events(rig)) == before


def test_computer_dice_drawn_on_the_screen_are_not_corrected(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="farkle", players=("cpu:expert", "Ann"))
    rig = open_rig(cfg, think_seconds=5.0)
    with rig.table:
        view = rig.until(lambda v: v.phase is Phase.CHOOSING)
        assert view.current == 0  # the computer chooses among dice it drew
        view = rig.press(Button.CORRECT)
        assert view.message == "nothing to correct: the computer's dice were drawn, not read"


class FakeKeys:
    """A key source fed by the test."""

    def __init__(self) -> None:
        self.keys: list[str] = []

    def read_keys(self) -> list[str]:
        keys, self.keys = self.keys, []
        return keys


def test_the_keyboard_corrects_and_is_named(tmp_path: Path) -> None:
    source = FakeKeys()
    times = [0.0]
    keyboard = KeyboardButtons(key_sources=[source], clock=lambda: times[0])
    cfg = config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4]])
    rig = open_rig(cfg, buttons=keyboard, clock=times)  # type: ignore[arg-type]
    misread(rig, die3=6)
    with rig.table:
        rig.until(is_waiting)
        for key in ["c", "space", "space", "space", *"rrrrrr", "s"]:
            source.keys.append(key)  # 6 -> not a die, 1, 2, 3, 4, 5
            view = rig.step()
            if key == "c":
                assert view.phase is Phase.CORRECTING
        assert events(rig)[-1]["by"] == "keyboard"
        assert events(rig)[-1]["dice"] == [1, 1, 1, 5, 3, 4]


def hold(rig: Rig, factory: Any, name: str, seconds: float) -> TableView:
    pin = factory.pin(PINS[name])
    pin.drive_low()
    rig.step(round(seconds / 0.1))
    pin.drive_high()
    return rig.step()


def test_every_button_path_through_the_pins(tmp_path: Path, mock_factory: Any) -> None:
    cfg = config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4]], buttons="gpio")
    rig = open_rig(cfg, pin_factory=mock_factory)
    misread(rig, die1=4)
    with rig.table:
        rig.until(is_waiting)
        assert hold(rig, mock_factory, "stop", 1.2).phase is Phase.CORRECTING  # long STOP
        assert hold(rig, mock_factory, "stop", 1.2).phase is Phase.CHOOSING  # again: cancel
        hold(rig, mock_factory, "stop", 1.2)
        assert hold(rig, mock_factory, "select", 0.1).cursor == 1  # short SELECT: next die
        for _ in range(3):  # 4 -> 5 6, not a die, 1
            hold(rig, mock_factory, "roll", 0.1)
        assert hold(rig, mock_factory, "roll", 0.1).dice[1] == 1
        assert hold(rig, mock_factory, "stop", 0.1).phase is Phase.CHOOSING  # short STOP: done
        assert events(rig)[-1]["dice"] == [1, 1, 1, 5, 3, 4]
        assert events(rig)[-1]["by"] == "buttons"
        view = hold(rig, mock_factory, "select", 1.2)  # the menu still opens on a long SELECT
        assert view.phase is Phase.MENU


def test_the_throw_that_ended_the_game_is_corrected_and_the_game_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = [[1, 1, 1, 1, 1], [1, 1, 1, 3, 4]]
    rig = open_rig(config(tmp_path, rules="greed", target=1000, script=script))
    with rig.table:
        rig.until(is_waiting)
        misread(rig, die0=2)  # Bob's throw, next
        rig.press(Button.STOP)  # Ann banks 1200: Bob's turn is the last
        view = rig.until(lambda v: v.phase is Phase.GAME_OVER)
        assert rig.table.store.unfinished() is None
        rig.press(Button.CORRECT, *[Button.ROLL] * 6, Button.STOP)
        state = rig.table.controller.state
        assert state.phase is EnginePhase.DECIDE and state.turn.total == 1000
        stored = rig.table.store.unfinished()
        assert stored is not None and json.loads(stored.events[-1])["type"] == "corrected"
        rig.press(Button.STOP)  # Bob banks 1000: Ann still wins, the game is finished again
        view = rig.until(lambda v: v.phase is Phase.GAME_OVER)
        assert view.winner_player is not None and view.winner_player.name == "Ann"
        (game,) = rig.table.store.history()
        assert game.result is not None and game.result["scores"] == {"Ann": 1200, "Bob": 1000}
    settings = tmp_path / "config.toml"
    settings.write_text(f'[state]\ndirectory = "{tmp_path / "state"}"\n')
    capsys.readouterr()
    assert main(["history", "--config", str(settings), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["corrected"] == 1
    assert main(["history", "--config", str(settings)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("(1 throw corrected)")


def test_a_refused_reading_after_a_bust_is_shown_without_the_bust(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[2, 2, 3, 4, 6], [1, 1, 1, 5, 2]]))
    with rig.table:
        rig.step()  # Ann's throw is on its way; Bob's comes next, with die 2 unreadable
        rig.oracle.unreadable = {1}
        view = rig.until(lambda v: "could not be read" in v.message)
        assert view.phase is Phase.WAITING and view.dice == (1, None, 1, 5, 2)
