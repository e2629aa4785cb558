"""The screens while the players correct the dice as read: the HDMI screen, the OLED and the
terminal show which die is being set, which dice are "not a die" and which are still unknown.
PNGs go to $DICEKEEPER_SHOTS when it is set."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pygame
import pytest
from luma.core.device import dummy
from PIL import Image

from hardware.oled import CORRECTING_KEYS, DIE, OledDisplay
from hardware.screen_render import ALERT, GOLD, render_screen_image
from hardware.terminal import render_text
from hardware.view import Phase, PlayerView, TableView
from tests.hardware.test_oled import glyph, pixels


def correcting(cursor: int = 1) -> TableView:
    """Ann corrects a throw of five: die 2 unknown (being set), die 4 marked "not a die"."""
    return TableView(
        rules="greed",
        players=(PlayerView("Ann", 350), PlayerView("Bob", 1200, is_computer=True)),
        current=0,
        phase=Phase.CORRECTING,
        dice=(1, None, 5, 3, 4),
        cursor=cursor,
        struck=frozenset({3}),
        message=f"correcting die {cursor + 1} of 5: ?",
        prompt="SELECT: next die  ROLL: change  STOP: done  hold STOP: cancel",
        target=5000,
    )


def shots() -> Path | None:
    folder = os.environ.get("DICEKEEPER_SHOTS")
    return Path(folder) if folder else None


def screen_columns(surface: pygame.Surface, color: tuple[int, int, int]) -> tuple[int, int]:
    """The leftmost and rightmost columns with ``color`` in the tray's rows of dice (under its
    caption, left of the scores)."""
    mask = pygame.mask.from_threshold(surface, color, (1, 1, 1, 255))
    columns = [x for x in range(500) if any(mask.get_at((x, y)) for y in range(135, 250))]
    return columns[0], columns[-1]


def test_the_screen_rings_the_die_being_set_and_follows_the_cursor() -> None:
    first = render_screen_image(correcting(cursor=1))
    second = render_screen_image(correcting(cursor=4))
    left1, right1 = screen_columns(first, GOLD)
    left2, right2 = screen_columns(second, GOLD)
    assert 66 < right1 - left1 < 90  # one die's ring
    assert 220 < (left2 + right2) / 2 - (left1 + right1) / 2 < 260  # moved three dice right
    folder = shots()
    if folder is not None:
        pygame.image.save(first, str(folder / "correcting-screen.png"))


def test_the_screen_crosses_out_a_die_that_is_not_a_die() -> None:
    view = correcting()
    crossed = pygame.mask.from_threshold(render_screen_image(view), ALERT, (1, 1, 1, 255))
    plain = dataclasses.replace(view, struck=frozenset())
    clean = pygame.mask.from_threshold(render_screen_image(plain), ALERT, (1, 1, 1, 255))
    assert crossed.count() > clean.count() + 300


def test_unknown_dice_stand_still_while_correcting_and_tumble_only_when_rolling() -> None:
    view = correcting()
    still = {pygame.image.tobytes(render_screen_image(view, tick=t), "RGB") for t in range(3)}
    assert len(still) == 1
    rolling = dataclasses.replace(view, phase=Phase.ROLLING, cursor=None, struck=frozenset())
    moving = {pygame.image.tobytes(render_screen_image(rolling, tick=t), "RGB") for t in range(3)}
    assert len(moving) == 3


def oled(view: TableView) -> Image.Image:
    device = dummy(width=128, height=64, mode="1")
    with OledDisplay(device) as display:
        display.show(view)
        image: Image.Image = device.image.copy()
    return image


def test_the_oled_underlines_the_die_being_set_and_crosses_out_the_false_one() -> None:
    image = oled(correcting(cursor=1))
    underline = [
        all(
            image.getpixel((i * (DIE + 1) + x, 14 + DIE + row))
            for x in range(DIE)
            for row in (1, 2)
        )
        for i in range(5)
    ]
    assert underline == [False, True, False, False, False]
    assert pixels(image, (DIE + 1, 14, 2 * DIE + 1, 14 + DIE)) == glyph(None)  # "?" die
    struck = pixels(image, (3 * (DIE + 1), 14, 4 * (DIE + 1) - 1, 14 + DIE)).splitlines()
    assert struck[0] == "#" * DIE and struck[-1] == "#" * DIE  # an outline, not a face
    assert all(struck[i][i] == "#" for i in range(2, DIE - 2))  # and a cross
    assert pixels(image, (0, 14, DIE, 14 + DIE)) == glyph(1)
    folder = shots()
    if folder is not None:
        image.convert("L").resize((512, 256), Image.Resampling.NEAREST).save(
            folder / "correcting-oled.png"
        )


def test_the_oled_keeps_the_keys_line_and_the_totals() -> None:
    view = correcting()
    image = oled(view)
    keys_row = [image.getpixel((x, 48)) for x in range(128)]
    assert any(keys_row)
    without = oled(dataclasses.replace(view, message=""))
    assert without != image  # the message line shows what is being set
    assert all(image.getpixel((x, 53)) for x in range(128))  # the rule above the totals
    assert CORRECTING_KEYS.startswith("SEL")


@pytest.mark.parametrize(
    ("cursor", "line"), [(1, "[1] >?< [5] [x] [4]"), (3, "[1] [?] [5] >x< [4]")]
)
def test_the_terminal_marks_the_die_being_set(cursor: int, line: str) -> None:
    text = render_text(correcting(cursor=cursor))
    assert f"correct the dice: {line}" in text.splitlines()
    assert text.splitlines()[-1].startswith("SELECT: next die")
