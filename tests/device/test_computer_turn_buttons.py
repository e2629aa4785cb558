"""During a computer player's turn the people's play buttons change nothing, in every phase.

Two computers play greed-house (keeps to choose, passing) until each phase of a computer's turn
has been seen: the dice rolling on the screen, a throw to choose from, the decision to throw on or
bank, the dice thrown on after a decision, and a pass on offer. In each, ROLL, SELECT and STOP are
pressed with the clock standing still (so the computer itself does not move): the game, the
highlighted keep and the stored events stay as they were, and the table says to wait.
"""

from __future__ import annotations

from pathlib import Path

from device.wiring import Table
from engine.state import GameState, Phase
from hardware.buttons import Button
from tests.device.harness import Rig, config, open_rig

PLAY_BUTTONS = (Button.ROLL, Button.SELECT, Button.STOP)


def _where(rig: Rig) -> tuple[Phase, str]:
    """The engine's phase and what the screen shows (tells a decision from a throw under way)."""
    return rig.table.controller.state.phase, rig.view.phase.value


def _snapshot(table: Table) -> tuple[GameState, int, tuple[str, ...]]:
    game = table.store.unfinished()
    events = game.events if game is not None else ()
    return table.controller.state, table.controller.overlay.selected, events


def test_play_buttons_change_nothing_in_any_phase_of_a_computer_turn(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="greed-house", players=["cpu:expert", "cpu:cautious"])
    rig = open_rig(cfg, think_seconds=0.5, roll_seconds=0.5)
    pressed: set[tuple[Phase, str]] = set()
    with rig.table:
        for _ in range(3000):
            rig.step()
            state = rig.table.controller.state
            if state.phase is Phase.OVER:
                break
            where = _where(rig)
            if where in pressed:
                continue
            pressed.add(where)
            before = _snapshot(rig.table)
            for button in PLAY_BUTTONS:
                rig.buttons.press(button)
                view = rig.step(dt=0.0)  # the clock stands still: only the press can act
                assert view.message.endswith("(computer): please wait"), (where, button)
                assert _snapshot(rig.table) == before, (where, button)
    phases = {phase for phase, _ in pressed}
    assert {Phase.THROW, Phase.KEEP, Phase.DECIDE, Phase.PASS} <= phases, pressed
    assert (Phase.DECIDE, "rolling") in pressed, pressed  # thrown on after deciding to
