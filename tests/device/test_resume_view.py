"""A table restarted in the middle of a turn shows the dice lying in the tray."""

from __future__ import annotations

from pathlib import Path

from hardware.view import Phase
from tests.device.harness import config, is_waiting, open_rig


def test_a_table_restarted_while_choosing_a_keep_shows_the_throw(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4]])
    rig = open_rig(cfg)
    with rig.table:
        view = rig.until(is_waiting)
        assert view.phase is Phase.CHOOSING and view.dice == (1, 1, 1, 5, 3, 4)
    again = open_rig(cfg)
    with again.table:
        view = again.step()
        assert view.phase is Phase.CHOOSING
        assert view.dice == (1, 1, 1, 5, 3, 4)
        assert view.options and view.options[0].score == 1050
