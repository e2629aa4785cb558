"""The table refuses a throw with the wrong number of dice, too many or too few, by any margin:
it says what it expected and what it saw, and neither the game nor the store changes; the next
throw with the right number is taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.buttons import Button
from tests.device.harness import Rig, config, is_waiting, open_rig


def _events(rig: Rig) -> tuple[str, ...]:
    game = rig.table.store.unfinished()
    assert game is not None
    return game.events


def _refused(rig: Rig, message: str) -> None:
    """Step until the table refuses the throw with ``message``, checking nothing changed."""
    before = (rig.table.controller.state, _events(rig))
    view = rig.until(lambda v: "I see" in v.message)
    assert view.message == message
    assert view.alert
    assert (rig.table.controller.state, _events(rig)) == before


@pytest.mark.parametrize(
    ("rules", "wrong", "message"),
    [
        (
            "greed",
            [1, 1, 1, 2, 3, 4],
            "expected 5 dice, I see 6 — take the kept dice out of the tray",
        ),
        (
            "greed",
            [1, 1, 1, 2],
            "expected 5 dice, I see 4 — throw all 5, or hold STOP to set the missing one",
        ),
        (
            "farkle",
            [1, 1, 1, 2, 3],
            "expected 6 dice, I see 5 — throw all 6, or hold STOP to set the missing one",
        ),
        (
            "farkle",
            [5],
            "expected 6 dice, I see 1 — throw all 6, or hold STOP to set the missing ones",
        ),
    ],
)
def test_a_first_throw_with_the_wrong_count_is_refused(
    tmp_path: Path, rules: str, wrong: list[int], message: str
) -> None:
    right = [1, 1, 1, 2, 3, 4][: 5 if rules == "greed" else 6]
    rig = open_rig(config(tmp_path, rules=rules, script=[wrong, right]))
    with rig.table:
        _refused(rig, message)
        assert rig.table.controller.state.turn.throws == ()
        rig.until(is_waiting)
        state = rig.table.controller.state
        (taken,) = state.turn.throws
        assert sorted(taken.values) == right
        if rules == "farkle":  # the player chooses the dice to keep: 1 1 1 is offered first
            assert state.options[0].dice == (1, 1, 1) and state.turn.total == 0
        else:  # every scoring die is set aside at once
            assert state.turn.total == 1000


def test_dice_set_aside_left_in_the_tray_are_refused_under_greed(tmp_path: Path) -> None:
    # 1 1 1 scores and is set aside: two dice to throw; the camera still sees all five.
    script = [[1, 1, 1, 2, 3], [1, 1, 1, 5, 2], [5, 2]]
    rig = open_rig(config(tmp_path, rules="greed", script=script))
    with rig.table:
        rig.until(is_waiting)
        assert rig.table.controller.state.turn.total == 1000
        rig.press(Button.ROLL)
        _refused(rig, "expected 2 dice, I see 5 — take the kept dice out of the tray")
        rig.until(lambda v: rig.table.controller.state.turn.total == 1050)
        assert len(rig.table.controller.state.turn.throws) == 2


def test_one_die_too_many_for_the_last_die_is_refused(tmp_path: Path) -> None:
    # Farkle: keep 1 1 1 5 5 of six dice, one die left; the camera sees two.
    script = [[1, 1, 1, 5, 5, 2], [2, 3], [1]]
    rig = open_rig(config(tmp_path, rules="farkle", script=script))
    with rig.table:
        rig.until(is_waiting)
        rig.press(Button.ROLL)  # keeps the best (1 1 1 5 5) and throws the last die
        assert rig.table.controller.state.dice_to_throw == 1
        _refused(rig, "expected 1 die, I see 2 — take the kept dice out of the tray")
        rig.until(lambda v: len(rig.table.controller.state.turn.throws) == 2)
        turn = rig.table.controller.state.turn
        assert turn.throws[-1].values == (1,) and turn.total == 1100
