"""With the simulated camera, a person's throw waits for ROLL (the press is the hand that
throws, as at a real table nobody's dice are thrown for them); computer players' throws go by
themselves, drawn on the screen or thrown by the simulated camera for them."""

from __future__ import annotations

from pathlib import Path

from hardware.buttons import Button
from tests.device.harness import config, open_rig


def test_a_persons_first_throw_waits_for_roll(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 2, 3, 4]]))
    rig.auto_roll = False
    with rig.table:
        view = rig.step(50)
        assert view.prompt == "ROLL: Ann throws 6 dice"
        assert view.dice == () and rig.table.controller.state.turn.throws == ()
        assert rig.table.controller.waits_for_roll
        rig.press(Button.ROLL)
        assert rig.view.prompt == "the simulated camera throws 6 dice for Ann"
        view = rig.until(lambda v: bool(v.options))
        assert view.dice == (1, 1, 1, 2, 3, 4)


def test_roll_after_a_keep_throws_at_once_and_a_bank_passes_the_wait_on(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 2, 3, 4], [5, 5, 2]]))
    rig.auto_roll = False
    with rig.table:
        rig.press(Button.ROLL)
        rig.until(lambda v: bool(v.options))
        rig.press(Button.ROLL)  # keep 1 1 1 and throw the other three: one press
        view = rig.until(lambda v: v.dice == (5, 5, 2) and bool(v.options))
        rig.press(Button.STOP)  # keep and bank: Bob's turn, whose throw waits for him
        view = rig.step(30)
        assert view.prompt == "ROLL: Bob throws 6 dice"
        assert rig.totals() == {"Ann": 1100, "Bob": 0}


def test_a_refused_reading_is_thrown_again_on_roll(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 5, 5], [1, 1, 1, 5, 5]]))
    rig.auto_roll = False
    with rig.table:
        rig.press(Button.ROLL)
        view = rig.until(lambda v: v.message.startswith("expected 5 dice, I see 4"))
        assert rig.step(30).dice == (1, 1, 5, 5, None)  # as it lay: hold STOP or throw again
        assert view.prompt == "ROLL: Ann throws 5 dice"
        rig.press(Button.ROLL)
        view = rig.until(lambda v: v.turn_total == 1100)


def test_computer_players_throw_by_themselves(tmp_path: Path) -> None:
    for throws in ("virtual", "person"):
        rig = open_rig(
            config(tmp_path / throws, players=["cpu:expert", "cpu:bold"], computer_throws=throws)
        )
        rig.auto_roll = False
        with rig.table:
            rig.until(lambda v: any(p.history for p in v.players), limit=400)
