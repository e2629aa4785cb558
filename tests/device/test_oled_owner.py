"""The OLED at the table: the name in its top bar is the player whose dice it shows (after a
turn ends, that player's until the next throw), and a row too long keeps the player's name."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image, ImageDraw

from hardware.oled import render_oled, text_rows, top_bar
from hardware.view import Phase, PlayerView, TableView
from tests.device.harness import config, open_rig


def test_the_top_bar_names_the_player_whose_dice_lie_in_the_tray(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="farkle", players=["cpu:expert", "cpu:bold"])
    rig = open_rig(cfg)
    busts = []
    with rig.table:
        for _ in range(3000):
            view = rig.step()
            if view.phase is Phase.BUST:
                busts.append(view)
            if len(busts) >= 3 or view.winner is not None:
                break
    assert busts, "no bust in the game"
    for view in busts:
        name = re.match(r"(\w+) busts", view.last_turn)
        assert name is not None, view.last_turn
        assert view.current_player is not None and view.current_player.name != name[1]
        left, right = top_bar(view)
        owner = next(p for p in view.players if p.name == name[1])
        assert (left, right) == (f"{owner.name} (cpu)", str(owner.total))


def test_a_row_too_long_keeps_the_players_name() -> None:
    view = TableView(
        players=(PlayerView("Ann"), PlayerView("Expert", is_computer=True)),
        current=1,
        phase=Phase.WAITING,
        prompt="the simulated camera throws 5 dice for Expert",
        dice=(2, 3, 4),
        kept=(1, 5),
    )
    rows = [text for _, _, text in text_rows(view)]
    assert any(row.endswith("Expert") for row in rows), rows
    image = Image.new("1", (128, 64))
    render_oled(view, ImageDraw.Draw(image))  # and it draws
    assert image.getbbox() is not None
