"""What the table tells a newcomer: why a throw busts, whose dice still lie in the tray after a
turn ended, how the previous turn ended (through the next turn), what the pass offer passes, and a
computer's remark without its name repeated."""

from __future__ import annotations

from pathlib import Path

from hardware.buttons import Button
from hardware.terminal import render_text
from hardware.view import Phase, TableView
from tests.device.harness import config, is_waiting, open_rig


def test_a_first_throw_below_the_entry_minimum_says_why_it_busts(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="greed", script=[[1, 5, 4, 3, 4], [1, 1, 1, 5, 5]])
    rig = open_rig(cfg)
    with rig.table:
        bust = rig.until(lambda v: v.phase is Phase.BUST)
        reason = "Ann busts with 1 5 4 3 4: a first throw must score 300 to enter"
        assert bust.message == reason
        assert bust.last_turn == reason
        # Bob's turn now, but the tray still shows Ann's dice: the tray says so.
        assert bust.current_player is not None and bust.current_player.name == "Bob"
        assert bust.dice == (1, 5, 4, 3, 4) and bust.tray_label == "Ann's throw"
        assert "dice (Ann's throw): [1] [5] [4] [3] [4]" in render_text(bust)
        # Bob throws: his dice are his own, and Ann's bust is still told.
        bobs = rig.until(lambda v: v.phase is Phase.CHOOSING)
        assert bobs.dice == (1, 1, 1, 5, 5) and bobs.tray_label == ""
        assert bobs.last_turn == reason
        assert f"last turn: {reason}" in render_text(bobs)


def test_nothing_scoring_is_named_as_the_reason(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="farkle", script=[[2, 2, 3, 4, 6, 6]])
    rig = open_rig(cfg)
    with rig.table:
        bust = rig.until(lambda v: v.phase is Phase.BUST)
        assert bust.message == "Ann busts with 2 2 3 4 6 6: nothing scores"


def test_after_a_bank_the_tray_names_whose_dice_lie_there(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 2, 3]])
    rig = open_rig(cfg)
    with rig.table:
        rig.until(is_waiting)
        controller = rig.table.controller
        controller.press(Button.STOP, rig.clock[0])  # keep the best and bank
        view = controller.view()  # before Bob throws
        assert view.current_player is not None and view.current_player.name == "Bob"
        assert view.tray_label == "Ann's throw" and view.last_turn.startswith("Ann banks")


def test_the_pass_offer_shows_the_dice_passed_not_the_last_throw(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="greed-house", script=[[1, 1, 1, 5, 2, 3]])
    rig = open_rig(cfg)
    with rig.table:
        rig.until(is_waiting)
        offer = rig.press(Button.STOP)  # Ann keeps 1 1 1 5 (1050) and banks: 2 dice passed
        state = rig.table.controller.state
        assert state.passed is not None
        assert offer.prompt.startswith("ROLL: take")
        assert offer.dice == (None,) * state.passed.dice == (None, None)
        assert offer.tray_label == f"Ann passes 2 dice worth {state.passed.points}"


def test_a_computer_remark_names_the_computer_once(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="farkle", target=3000, players=["cpu:bold", "cpu:reckless"])
    rig = open_rig(cfg)
    seen: list[TableView] = []
    with rig.table:
        for _ in range(400):
            view = rig.step()
            if view.remark:
                seen.append(view)
    assert seen, "no computer said anything in 400 steps"
    for view in seen:
        assert view.current_player is not None
        name = view.current_player.name
        assert not view.remark.startswith(f"{name}:")
        assert render_text(view).count(f"{name}: ") == 1
