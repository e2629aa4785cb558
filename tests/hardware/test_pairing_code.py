"""The web page's address and pairing code on the table's own displays: the HDMI screen's footer
under the chart, the OLED's empty dice row and its menu bar, the terminal's second line. PNGs go
to $DICEKEEPER_SHOTS when it is set."""

from __future__ import annotations

import dataclasses

import pygame
from PIL import Image, ImageChops

from hardware.screen_render import GOLD, render_screen_image
from hardware.terminal import render_text
from hardware.view import Phase, TableView
from tests.hardware import sample_views
from tests.hardware.test_table_screens import box_of, oled, save

WEB = "http://192.168.1.5:8080"


def with_web(view: TableView, code: str = "4071", web: str = WEB) -> TableView:
    return dataclasses.replace(view, web=web, pair_code=code)


def waiting() -> TableView:
    """Anna's turn before she throws: the tray is empty."""
    return dataclasses.replace(
        sample_views.mid_turn(),
        phase=Phase.WAITING,
        dice=(),
        options=(),
        kept=(),
        turn_total=0,
        hint="",
        prompt="Anna: throw 6 dice",
    )


def differing_box(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect:
    """The bounding box of the pixels where two pictures of the same size differ."""
    diff = pygame.Surface(a.get_size())
    diff.blit(a, (0, 0))
    diff.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    other = pygame.Surface(a.get_size())
    other.blit(b, (0, 0))
    other.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    diff.blit(other, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    mask = pygame.mask.from_threshold(diff, (0, 0, 0), (1, 1, 1, 255))
    mask.invert()
    boxes = mask.get_bounding_rects()
    return boxes[0].unionall(boxes) if boxes else pygame.Rect(0, 0, 0, 0)


def test_the_screen_shows_the_address_and_code_under_the_chart() -> None:
    for make in (sample_views.mid_turn, sample_views.game_over):
        picture = render_screen_image(with_web(make()))
        save(picture, f"pairing-{make.__name__}")
        plain = render_screen_image(make())
        footer = pygame.Rect(516, 380, 268, 60)  # the right column's foot, above the prompt bar
        assert box_of(picture, GOLD, footer).height >= 12  # the code, in gold
        assert box_of(plain, GOLD, footer).height == 0
        # The code's own digits are drawn: another code changes the footer and nothing else.
        other = render_screen_image(with_web(make(), code="4078"))
        changed = differing_box(picture, other)
        assert changed.height > 0 and footer.contains(changed)
        # So is the address, on its own line above the code.
        moved = render_screen_image(with_web(make(), web="http://10.0.0.7:8080"))
        address = differing_box(picture, moved)
        assert address.height > 0 and footer.contains(address) and address.bottom < changed.top


def test_the_screen_keeps_the_chart_when_the_page_is_off() -> None:
    view = sample_views.mid_turn()
    plain = render_screen_image(view)
    empty = render_screen_image(with_web(view, code="", web=""))
    assert pygame.image.tobytes(plain, "RGB") == pygame.image.tobytes(empty, "RGB")


def rows_lit(image: Image.Image, top: int, bottom: int) -> set[int]:
    return {y for y in range(top, bottom) if any(image.getpixel((x, y)) for x in range(128))}


def test_the_oled_shows_the_address_and_code_while_the_tray_is_empty() -> None:
    shown = oled(with_web(waiting()), "pairing-waiting")
    assert rows_lit(oled(waiting()), 13, 33) == set()
    assert len(rows_lit(shown, 13, 33)) >= 12  # two lines of text in the dice's rows
    other = oled(with_web(waiting(), code="4078"))
    box = ImageChops.difference(shown.convert("L"), other.convert("L")).getbbox()
    assert box is not None and box[1] >= 23 and box[3] <= 33  # the code's line, the second
    # Dice in the tray take the row back.
    mid = sample_views.mid_turn()
    assert ImageChops.difference(oled(mid), oled(with_web(mid))).getbbox() is None


def test_the_oled_menu_bar_shows_the_code() -> None:
    menu = sample_views.menu()
    shown = oled(with_web(menu), "pairing-menu")
    box = ImageChops.difference(shown.convert("L"), oled(menu).convert("L")).getbbox()
    assert box is not None and box[0] >= 64 and box[3] <= 12  # in the bar's right half
    other = oled(with_web(menu, code="4078"))
    assert ImageChops.difference(shown.convert("L"), other.convert("L")).getbbox() is not None


def test_the_terminal_prints_the_address_and_code() -> None:
    lines = render_text(with_web(waiting())).splitlines()
    assert lines[1] == f"phones: {WEB}  code 4071"
    assert "phones" not in render_text(waiting()) and "code" not in render_text(waiting())
