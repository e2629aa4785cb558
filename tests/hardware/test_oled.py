"""The OLED screen: exact pixels of the glyphs, content of whole screens on luma's dummy device."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops, ImageDraw

from hardware import DisplayUnavailable, open_display
from hardware.display import NullDisplay
from hardware.oled import DIE, OledDisplay, alert_rows, draw_die, render_oled, text_rows
from hardware.view import OptionView, Phase, PlayerView, TableView
from tests.hardware import sample_views

FIVE = """
.############.
##############
##..######..##
##..######..##
##############
##############
######..######
######..######
##############
##############
##..######..##
##..######..##
##############
.############.
"""


def pixels(image: Image.Image, box: tuple[int, int, int, int]) -> str:
    left, top, right, bottom = box
    return "\n".join(
        "".join("#" if image.getpixel((x, y)) else "." for x in range(left, right))
        for y in range(top, bottom)
    )


def glyph(value: int | None) -> str:
    image = Image.new("1", (DIE, DIE))
    draw_die(ImageDraw.Draw(image), 0, 0, value)
    return pixels(image, (0, 0, DIE, DIE))


def pips(value: int) -> int:
    """The number of separate black 2×2 pips inside a die glyph."""
    rows = glyph(value).splitlines()
    return sum(
        1
        for y in range(1, DIE - 1)
        for x in range(1, DIE - 1)
        if rows[y][x] == "." and rows[y - 1][x] == "#" and rows[y][x - 1] == "#"
    )


def test_die_glyph_exact_pixels() -> None:
    assert glyph(5) == FIVE.strip()


@pytest.mark.parametrize("value", range(1, 7))
def test_each_face_has_its_number_of_pips(value: int) -> None:
    assert pips(value) == value


def test_undefined_die_is_an_outline() -> None:
    rows = glyph(None).splitlines()
    assert rows[0] == ".############." and rows[-1] == ".############."
    assert all(row[0] == "#" and row[-1] == "#" for row in rows[1:-1])


def screen(view: TableView) -> Image.Image:
    device = dummy(width=128, height=64, mode="1")
    with OledDisplay(device) as display:
        display.show(view)
        image: Image.Image = device.image.copy()
    shots = os.environ.get("DICEKEEPER_SHOTS")
    if shots:
        image.resize((512, 256), Image.Resampling.NEAREST).save(Path(shots) / "oled_test.png")
    return image


def test_mid_turn_screen_layout() -> None:
    view = sample_views.mid_turn()
    image = screen(view)
    assert image.size == (128, 64) and image.mode == "1"
    assert image.getpixel((0, 0)) and image.getpixel((127, 11))  # the inverted top bar
    for index, value in enumerate(view.dice):  # the dice, exactly as the glyphs
        x = index * (DIE + 1)
        assert pixels(image, (x, 14, x + DIE, 14 + DIE)) == glyph(value)
    # the selected keep (1 5) is underlined: the first two dice, not the others
    underline = [bool(image.getpixel((x * (DIE + 1) + 3, 14 + DIE + 1))) for x in range(6)]
    assert underline == [True, True, False, False, False, False]
    assert all(image.getpixel((x, 53)) for x in range(128))  # the rule above the totals


def test_the_screen_shows_what_changed() -> None:
    view = sample_views.mid_turn()
    base = screen(view)

    def changed_rows(other: TableView) -> set[int]:
        diff = ImageChops.difference(base.convert("L"), screen(other).convert("L"))
        box = diff.getbbox()
        assert box is not None, "the screen did not change"
        return set(range(box[1], box[3]))

    assert changed_rows(dataclasses.replace(view, turn_total=450)) <= set(range(12, 30))
    assert changed_rows(dataclasses.replace(view, selected=2)) <= set(range(12, 42))
    players = (dataclasses.replace(view.players[0], total=2400), *view.players[1:])
    rows = changed_rows(dataclasses.replace(view, players=players))
    assert rows & set(range(0, 12)) and rows & set(range(54, 64))  # header and totals line


def test_rolling_dice_are_outlines_and_bust_is_spelled_out() -> None:
    rolling = screen(sample_views.rolling())
    assert pixels(rolling, (0, 14, DIE, 14 + DIE)) == glyph(None)
    bust = sample_views.bust()
    assert screen(bust) != screen(dataclasses.replace(bust, phase=Phase.CHOOSING))


def test_every_sample_renders_and_differs() -> None:
    images = {name: screen(make()).tobytes() for name, make in sample_views.ALL.items()}
    assert len(set(images.values())) == len(images)


def test_winner_and_menu_top_bar() -> None:
    over = screen(sample_views.game_over())
    menu = screen(sample_views.menu())
    assert pixels(over, (0, 0, 128, 12)) != pixels(menu, (0, 0, 128, 12))
    # the menu scrolls so the selected item (the 3rd of 6) is the 2nd row, framed
    framed = [bool(menu.getpixel((0, 14 + 12 * row + 5))) for row in range(4)]
    assert framed == [False, True, False, False]
    last = screen(dataclasses.replace(sample_views.menu(), menu_selected=5))
    framed = [bool(last.getpixel((0, 14 + 12 * row + 5))) for row in range(4)]
    assert framed == [False, False, False, True]


def test_render_is_pure_and_deterministic() -> None:
    view = TableView(
        players=(PlayerView("Anna", 50), PlayerView("Bob")),
        current=0,
        dice=(1, 2, 3),
        options=(OptionView((1,), 100),),
    )
    first, second = Image.new("1", (128, 64)), Image.new("1", (128, 64))
    render_oled(view, ImageDraw.Draw(first))
    render_oled(view, ImageDraw.Draw(second))
    assert first.tobytes() == second.tobytes()


def test_same_view_is_not_redrawn() -> None:
    device = dummy(width=128, height=64, mode="1")
    calls = []
    device.display = lambda image: calls.append(image)
    display = OledDisplay(device)
    view = sample_views.mid_turn()
    display.show(view)
    display.show(view)
    display.show(dataclasses.replace(view, turn_total=0))
    assert len(calls) == 2
    display.close()  # blanks the OLED once
    display.close()
    display.show(view)
    assert len(calls) == 3 and calls[-1].getbbox() is None


def test_no_i2c_device_falls_back_with_a_warning() -> None:
    with pytest.warns(RuntimeWarning, match="no ssd1306 OLED at I2C port 7, address 0x3d"):
        display = open_display("oled", port=7, address=0x3D)
    assert isinstance(display, NullDisplay) and "i2c" in display.reason
    display.show(sample_views.mid_turn())
    with pytest.raises(DisplayUnavailable, match="raspi-config"):
        open_display("oled", port=7, fallback=False)


def test_oled_on_an_injected_device() -> None:
    device = dummy(width=128, height=64, mode="1")
    with open_display("oled", device=device) as display:
        display.show(sample_views.bust())
        assert device.image.getbbox() is not None
    assert device.image.getbbox() is None  # closing blanks it


def test_a_flaky_oled_raises_or_is_tolerated(caplog: pytest.LogCaptureFixture) -> None:
    device = dummy(width=128, height=64, mode="1")
    answers = [OSError(121, "Remote I/O error"), OSError(121, "Remote I/O error"), None]

    def display(image: Image.Image) -> None:
        problem = answers.pop(0)
        if problem is not None:
            raise problem

    device.display = display
    with pytest.raises(DisplayUnavailable, match="Remote I/O error"):
        OledDisplay(device).show(sample_views.mid_turn())
    tolerant = OledDisplay(device, tolerate_errors=True)
    tolerant.show(sample_views.bust())
    assert tolerant.is_failing and "the game goes on" in caplog.text
    tolerant.show(sample_views.bust())  # retried: the same view was never shown
    assert not tolerant.is_failing and answers == []


def test_words_on_the_screen_are_spaced_apart() -> None:
    # The built-in font's space is two pixels, next to letters that fill their cells on a 1-bit
    # image: "Daniel wins!" in the top bar read as "Danielwins!".
    over = screen(sample_views.game_over())
    inked = [any(not over.getpixel((x, y)) for y in range(1, 11)) for x in range(0, 80)]
    first, last = inked.index(True), len(inked) - 1 - inked[::-1].index(True)
    gaps, run = [], 0
    for is_inked in inked[first : last + 1]:
        run = 0 if is_inked else run + 1
        gaps.append(run)
    assert max(gaps) >= 4


def test_a_long_rules_name_in_the_top_bar_leaves_room_for_the_title() -> None:
    # Before a game (no player's turn) the top bar shows the title and the rules' name; a rules
    # file may name its rules at length. It is cut to fit half the bar, the title keeps its start.
    before = dataclasses.replace(sample_views.mid_turn(), current=None)
    short, long = (
        screen(dataclasses.replace(before, rules=rules))
        for rules in ("Greed", "Greed as played at the club")
    )
    for x in range(40):  # "dicek"
        for y in range(12):
            assert long.getpixel((x, y)) == short.getpixel((x, y)), (x, y)


def alert(message: str) -> TableView:
    return dataclasses.replace(sample_views.mid_turn(), message=message, alert=True)


def texts(view: TableView) -> list[str]:
    return [" ".join(text.split()) for _, _, text in text_rows(view)]


def test_a_short_problem_keeps_the_prompt_and_the_totals() -> None:
    view = dataclasses.replace(alert("no dice to keep"), prompt="STOP: bank 350")
    assert texts(view) == ["no dice to keep", "STOP: bank 350"]
    assert all(screen(view).getpixel((x, 53)) for x in range(128))  # the line over the totals


def test_a_problem_for_two_rows_keeps_the_totals() -> None:
    view = alert("nothing to bank yet: throw the dice first")
    assert texts(view) == ["nothing to bank yet:", "throw the dice first"]
    assert all(screen(view).getpixel((x, 53)) for x in range(128))


def test_a_problem_too_long_for_the_rows_keeps_its_way_out_and_marks_the_cut() -> None:
    what = "the camera at /dev/video0 stopped answering after 30 frames of nothing at all"
    size, rows = alert_rows(f"{what} (errno 19) — plug it in again and press ROLL")
    assert len(rows) == 3 and rows[0].endswith("..")  # what is wrong, cut: visibly
    assert " ".join(rows[1:]) == "plug it in again and press ROLL"  # the way out, whole
    size, rows = alert_rows(" ".join(["word"] * 40))  # no way out to tell: the end is marked
    assert len(rows) == 3 and rows[-1].endswith("..") and size == 9
    drawn = texts(alert(" ".join(["word"] * 40)))
    assert len(drawn) == 3 and drawn[-1].endswith("..")
