"""The table's screens for a newcomer: whose dice lie in the tray, why a throw bust, how the last
turn ended, every Farkle keep reachable, the chart's title and goal label, a hint readable across
a table, the pass offer's dice, and the OLED's prompt under a long message. PNGs go to
$DICEKEEPER_SHOTS when it is set."""

from __future__ import annotations

import dataclasses

import pygame
from luma.core.device import dummy
from PIL import Image

from hardware.oled import OledDisplay, text_rows
from hardware.screen_render import ALERT, GOLD, render_screen_image
from hardware.terminal import render_text
from hardware.view import OptionView, Phase, PlayerView, TableView
from tests.hardware.test_correction_screens import shots

ANN = PlayerView("Ann", 0, (0,), has_entered=False)
BOB = PlayerView("Bob", 1200, (300, 300, 750, 1200), is_computer=True)
REASON = "Ann busts with 1 5 4 3 4: a first throw must score 300 to enter"


def after_bust() -> TableView:
    """Ann's first throw scored 150 under greed's 300 entry: Bob's turn, Ann's dice in the tray."""
    return TableView(
        rules="greed",
        players=(ANN, BOB),
        current=1,
        phase=Phase.BUST,
        dice=(1, 5, 4, 3, 4),
        message=REASON,
        last_turn=REASON,
        tray_label="Ann's throw",
        prompt="Bob (computer) throws 5 dice on the screen",
        target=5000,
    )


def farkle_keeps(selected: int) -> TableView:
    """A throw of six with seven keeps: more than one row of chips holds."""
    options = (
        OptionView((1, 1, 1, 5, 5), 1100),
        OptionView((1, 1, 1, 5), 1050),
        OptionView((1, 1, 1), 1000),
        OptionView((1, 5, 5), 200),
        OptionView((1, 5), 150),
        OptionView((1,), 100),
        OptionView((5,), 50),
    )
    return TableView(
        rules="farkle",
        players=(dataclasses.replace(ANN, has_entered=True), BOB),
        current=0,
        phase=Phase.CHOOSING,
        dice=(1, 1, 1, 5, 5, 3),
        options=options,
        selected=selected,
        prompt="SELECT: next keep  ROLL: keep+throw  STOP: keep+bank",
        hint="keep 1 1 1 5 5 and throw 1",
        target=10000,
    )


def pass_offer() -> TableView:
    return TableView(
        rules="greed-house",
        players=(PlayerView("Ann", 1050, (1050,)), BOB),
        current=1,
        phase=Phase.WAITING,
        dice=(None, None),
        tray_label="Ann passes 2 dice worth 1050",
        message="Ann banks 1050 (total 1050)",
        last_turn="Ann banks 1050 (total 1050)",
        prompt="ROLL: take 2 dice +1050  STOP: throw 6 fresh",
        target=5000,
    )


def save(surface: pygame.Surface, name: str) -> None:
    folder = shots()
    if folder is not None:
        pygame.image.save(surface, str(folder / f"{name}-screen.png"))


def oled(view: TableView, name: str = "") -> Image.Image:
    device = dummy(width=128, height=64, mode="1")
    with OledDisplay(device) as display:
        display.show(view)
        image: Image.Image = device.image.copy()
    folder = shots()
    if folder is not None and name:
        image.convert("L").resize((512, 256), Image.Resampling.NEAREST).save(
            folder / f"{name}-oled.png"
        )
    return image


def box_of(surface: pygame.Surface, color: tuple[int, int, int], area: pygame.Rect) -> pygame.Rect:
    """The bounding box of ``color`` within ``area`` (empty when there is none)."""
    mask = pygame.mask.from_threshold(surface.subsurface(area), color, (1, 1, 1, 255))
    boxes = mask.get_bounding_rects()
    return boxes[0].unionall(boxes).move(area.topleft) if boxes else pygame.Rect(0, 0, 0, 0)


def changed_rows(a: pygame.Surface, b: pygame.Surface, area: pygame.Rect) -> list[int]:
    return [
        y
        for y in range(area.top, area.bottom)
        if any(a.get_at((x, y)) != b.get_at((x, y)) for x in range(area.left, area.right, 2))
    ]


def test_the_tray_names_whose_dice_lie_there_after_a_turn_ended() -> None:
    view = after_bust()
    labelled = render_screen_image(view)
    plain = render_screen_image(dataclasses.replace(view, tray_label=""))
    rows = changed_rows(labelled, plain, pygame.Rect(16, 100, 484, 150))
    assert rows and rows[0] < 140  # a caption at the top of the tray
    save(labelled, "after-bust")
    assert "dice (Ann's throw)" in render_text(view)


def test_the_last_turn_is_told_beside_the_scores() -> None:
    view = dataclasses.replace(after_bust(), message="Bob is throwing")
    told = render_screen_image(view)
    untold = render_screen_image(dataclasses.replace(view, last_turn=""))
    rows = changed_rows(told, untold, pygame.Rect(516, 52, 268, 140))
    assert rows and rows[0] < 52 + 2 * 32 + 20  # under the two score rows
    save(told, "next-turn")
    oled(after_bust(), "after-bust")


def test_a_keep_beyond_the_row_is_highlighted_when_selected() -> None:
    for selected in range(7):
        surface = render_screen_image(farkle_keeps(selected))
        chips = box_of(surface, GOLD, pygame.Rect(16, 260, 484, 38))
        assert chips.width > 60, f"keep {selected + 1} has no gold chip"
    save(render_screen_image(farkle_keeps(5)), "farkle-keep-6")
    image = oled(farkle_keeps(5), "farkle-keep-6")
    assert any(image.getpixel((x, 35)) for x in range(128))


def test_the_chart_labels_the_goal_away_from_the_leaders_last_point() -> None:
    leader = PlayerView("Dan", 4900, (1000, 2500, 4000, 4900))
    view = TableView(
        rules="greed",
        players=(leader, dataclasses.replace(BOB, history=(300, 1200, 1200, 1200))),
        current=1,
        phase=Phase.WAITING,
        target=5000,
    )
    surface = render_screen_image(view)
    chart = pygame.Rect(516, 130, 268, 310)
    label = box_of(surface, GOLD, pygame.Rect(chart.left, chart.top, chart.width, 60))
    no_goal = render_screen_image(dataclasses.replace(view, target=0))
    assert label.width > 0
    # the label's text (not the dashed line) lies in the chart's left half
    text_rows = changed_rows(surface, no_goal, chart)
    assert text_rows
    mask = pygame.mask.from_threshold(surface.subsurface(chart), GOLD, (1, 1, 1, 255))
    wide = [
        x for x in range(chart.width) if sum(mask.get_at((x, y)) for y in range(chart.height)) > 3
    ]
    assert wide and max(wide) < chart.width // 2
    save(surface, "chart")


def test_the_hint_is_large_enough_to_read_across_a_table() -> None:
    view = farkle_keeps(0)
    hinted = render_screen_image(view)
    plain = render_screen_image(dataclasses.replace(view, hint=""))
    rows = changed_rows(hinted, plain, pygame.Rect(16, 300, 484, 140))
    # Letters at least 16 of 480 pixels tall (17-18 at 28 px, as pygame-ce 2.4-2.5 draw them;
    # about 14 at the 22 px the hint had before).
    assert rows and rows[-1] - rows[0] >= 16
    save(hinted, "hint")


def test_the_pass_offer_shows_the_passed_dice_and_the_oled_shows_the_offer() -> None:
    view = pass_offer()
    surface = render_screen_image(view)
    save(surface, "pass-offer")
    image = oled(view, "pass-offer")
    other = oled(dataclasses.replace(view, prompt="ROLL: take 2 dice +1050  STOP: no thanks"))
    second_row = (0, 41, 128, 52)
    assert image.crop(second_row).tobytes() != other.crop(second_row).tobytes()
    assert "dice (Ann passes 2 dice worth 1050): [?] [?]" in render_text(view)


def test_a_long_message_on_the_oled_is_drawn_whole_in_the_prompts_place() -> None:
    view = dataclasses.replace(
        after_bust(),
        phase=Phase.WAITING,
        message="expected 3 dice, I see 4 — take the kept dice out of the tray",
        alert=True,
        prompt="Ann: throw 3 dice",
    )
    image = oled(view, "long-message")
    words = " ".join(text for _, _, text in text_rows(view)).split()
    assert " ".join(words) == "expected 3 dice, I see 4 - take the kept dice out of the tray"
    other = oled(dataclasses.replace(view, prompt="Bob: throw 2 dice"))
    assert image.tobytes() == other.tobytes()  # the prompt gives way while the problem shows
    screen = render_screen_image(view)
    assert box_of(screen, ALERT, pygame.Rect(16, 260, 484, 120)).width > 100
    save(screen, "long-message")
