"""The reader's likeliest value of a die it could not read reaches the view every display draws:
beside the "?" of a refused reading's unread dice and of a correction's dice still unknown, never
for a die read, set, struck out or tumbling."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.view import Overlay, table_view
from engine.game import Game
from engine.rules import find_rules
from engine.state import GameState
from hardware.buttons import Button
from hardware.view import InvalidView, Phase, TableView
from tests.device.harness import config, open_rig


def test_a_table_view_keeps_a_guess_only_beside_a_die_not_read() -> None:
    view = TableView(dice=(1, None, None), likely=(None, 5, None))
    assert [view.guess(i) for i in range(4)] == [None, 5, None, None]
    assert TableView(dice=(1, None)).guess(1) is None  # no likely values: every caller as before
    with pytest.raises(InvalidView, match="only for a die not read"):
        TableView(dice=(1, 4), likely=(None, 5))
    with pytest.raises(InvalidView, match="only for a die not read"):
        TableView(dice=(1, None), likely=(None, 7))
    with pytest.raises(InvalidView, match="2 likeliest values for 3 dice"):
        TableView(dice=(1, None, None), likely=(None, 5))
    struck = TableView(dice=(1, None), likely=(None, 5), struck=frozenset({1}), cursor=0)
    assert struck.guess(1) is None
    rolling = TableView(dice=(None, None), likely=(None, 5), phase=Phase.ROLLING)
    assert rolling.guess(1) is None


def _state() -> GameState:
    game = Game(find_rules("greed"))
    game.add_player("Ann")
    return game.state


def test_table_view_fits_the_overlay_guesses_to_the_tray() -> None:
    state = _state()
    view = table_view(state, Overlay(tray=(1, None, 5, None), likely=(4, 5, 6, None)))
    assert view.dice == (1, None, 5, None) and view.likely == (None, 5, None, None)
    short = table_view(state, Overlay(tray=(None, None, 2), likely=(3,)))
    assert short.likely == (3, None, None)
    odd = table_view(state, Overlay(tray=(None, 2), likely=(9, None)))
    assert odd.likely == ()
    rolling = Overlay(tray=(None, None), likely=(3, 4), rolling=True)
    assert table_view(state, rolling).likely == ()
    struck = Overlay(tray=(None, None), likely=(3, 4), cursor=0, struck=frozenset({1}))
    assert table_view(state, struck).likely == (3, None)


def test_a_refused_reading_shows_its_guesses_until_the_dice_move(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 5, 5, 2]]))
    rig.oracle.unreadable = {2, 4}
    rig.oracle.likely = {2: 5}
    with rig.table:
        view = rig.until(lambda v: "could not be read" in v.message)
        assert view.dice == (1, 1, None, 5, None)
        assert view.likely == (None, None, 5, None, None)  # die 5: no guess

        view = rig.press(Button.CORRECT)
        assert view.phase is Phase.CORRECTING and view.likely == (None, None, 5, None, None)
        view = rig.press(Button.ROLL)  # die 3 takes its guess: now set, no longer a guess
        assert view.dice[2] == 5 and view.likely == ()
        view = rig.press(Button.ROLL, Button.ROLL)  # 6, then not a die: struck, no guess
        assert view.struck == frozenset({2}) and view.dice[2] is None and view.likely == ()

        view = rig.press(Button.CORRECT)  # cancelled: the next throw tumbles, no guesses
        assert view.phase is Phase.ROLLING and view.dice == (None,) * 5 and view.likely == ()
        view = rig.until(lambda v: v.phase is Phase.CHOOSING)
        assert None not in view.dice and view.likely == ()
