"""Whole games of every built-in rule set at a table with no hardware, played with the real pins.

Buttons are gpiozero buttons on MockFactory pins (BCM 17 ROLL, 27 STOP, 22 SELECT) pressed by
driving the pins; the OLED is luma's ``dummy`` device and the screen pygame under
``SDL_VIDEODRIVER=dummy``. The dice come from scripted throws of the simulated camera. Each game
ends with its winner; the totals are checked in the engine and in the OLED and screen images
(compared with the images of the expected scores; PNGs are saved under /tmp/dicekeeper-tests).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pygame
import pytest
from luma.core.device import dummy
from luma.core.render import canvas

from engine.events import Kept
from engine.state import Phase as EnginePhase
from engine.state import apply
from hardware.oled import render_oled
from hardware.screen import ScreenDisplay
from hardware.screen_render import render_screen_image
from hardware.view import Phase, TableView
from tests.device.harness import Rig, config, is_waiting, open_rig

PINS = {"roll": 17, "stop": 27, "select": 22}
SHOTS = Path("/tmp/dicekeeper-tests")


def press(rig: Rig, factory: Any, name: str) -> TableView:
    """Press and release a physical button."""
    pin = factory.pin(PINS[name])
    pin.drive_low()
    rig.step()
    pin.drive_high()
    return rig.step()


def play(rig: Rig, factory: Any, moves: list[str]) -> TableView:
    """Wait for a decision before each move, then press its button."""
    for move in moves:
        rig.until(is_waiting)
        press(rig, factory, move)
    return rig.until(lambda v: v.phase is Phase.GAME_OVER)


def check_images(rig: Rig, oled: Any, expected: dict[str, int], name: str) -> None:
    """The OLED and the screen show ``expected`` totals (pixel-equal to the expected views)."""
    view = rig.view
    want = dataclasses.replace(
        view, players=tuple(dataclasses.replace(p, total=expected[p.name]) for p in view.players)
    )
    SHOTS.mkdir(exist_ok=True)
    oled.image.save(SHOTS / f"{name}-oled.png")
    reference = dummy(width=128, height=64, mode="1")
    with canvas(reference) as draw:
        render_oled(want, draw, width=128)
    assert oled.image.tobytes() == reference.image.tobytes()
    (screen,) = [d for d in rig.table.display.displays if isinstance(d, ScreenDisplay)]
    screen.save(SHOTS / f"{name}-screen.png")
    shown = pygame.image.load(str(SHOTS / f"{name}-screen.png"))
    expected_image = render_screen_image(want, shown.get_size())
    assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(expected_image, "RGB")


GAMES = [
    # rules, target, scripted throws, button moves, final totals, winner
    (
        "greed",
        1000,
        [[1, 1, 1, 1, 1], [5, 5, 5, 2, 3]],
        ["stop", "stop"],
        {"Ann": 1200, "Bob": 500},
        "Ann",
    ),
    (
        "greed-koans",
        1000,
        [[1, 1, 1, 1, 1], [1, 1, 1, 5, 2], [1]],
        ["stop", "roll", "stop"],
        {"Ann": 1200, "Bob": 1150},
        "Ann",
    ),
    (
        "farkle",
        1000,
        [[1, 1, 1, 2, 3, 4], [5, 2, 3], [5, 5, 5, 5, 1, 1]],
        ["roll", "stop", "stop"],
        {"Ann": 1050, "Bob": 750},
        "Ann",
    ),
    (
        "greed-house",
        1000,
        [[1, 2, 3, 4, 5, 6], [1, 1, 1, 1, 2, 3]],
        ["stop", "roll", "select", "stop"],
        {"Ann": 2000, "Bob": 3000},
        "Bob",
    ),
]


@pytest.mark.parametrize(("rules", "target", "script", "moves", "totals", "winner"), GAMES)
def test_a_whole_game_through_the_pins(
    tmp_path: Path,
    mock_factory: Any,
    rules: str,
    target: int,
    script: list[list[int]],
    moves: list[str],
    totals: dict[str, int],
    winner: str,
) -> None:
    oled = dummy(width=128, height=64, mode="1")
    cfg = config(
        tmp_path,
        rules=rules,
        target=target,
        script=script,
        buttons="gpio",
        displays=[{"kind": "oled"}, {"kind": "screen", "width": 400, "height": 240}],
    )
    rig = open_rig(cfg, pin_factory=mock_factory, oled_device=oled)
    with rig.table:
        view = play(rig, mock_factory, moves)
        assert rig.totals() == totals
        assert view.winner_player is not None and view.winner_player.name == winner
        assert {p.name: p.total for p in view.players} == totals
        check_images(rig, oled, totals, rules)
        history = rig.table.store.history()
        assert history[0].result is not None
        assert history[0].result["scores"] == totals
        assert history[0].result["winners"] == [winner]


def test_holding_select_opens_the_menu(tmp_path: Path, mock_factory: Any) -> None:
    cfg = config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]], buttons="gpio")
    rig = open_rig(cfg, pin_factory=mock_factory)
    with rig.table:
        rig.until(is_waiting)
        pin = mock_factory.pin(PINS["select"])
        pin.drive_low()
        view = rig.step(12)  # 1.2 s held: longer than buttons.long_press
        assert view.phase is Phase.MENU
        pin.drive_high()
        view = press(rig, mock_factory, "stop")  # closes the menu
        assert view.phase is Phase.CHOOSING and view.turn_total == 1050


@pytest.mark.parametrize("rules", ["greed", "greed-koans", "farkle", "greed-house"])
def test_a_whole_game_through_the_real_dice_reader(
    tmp_path: Path, mock_factory: Any, rules: str
) -> None:
    """The same table with vision's reader on rendered 640×480 frames instead of the ground
    truth: whatever it reads, the game must reach its winner through the pins, and the store, the
    OLED and the screen must agree with the engine. (Exact dice are checked above; the reader's
    accuracy is measured by vision's benchmarks and printed by `dicekeeper demo`.)"""
    oled = dummy(width=128, height=64, mode="1")
    cfg = config(
        tmp_path,
        rules=rules,
        target=300,
        buttons="gpio",
        displays=[{"kind": "oled"}, {"kind": "screen", "width": 400, "height": 240}],
        extra={"camera": {"backend": "simulated", "seed": 5, "settle_seconds": 0.2}},
    )
    rig = open_rig(cfg, oracle=False, pin_factory=mock_factory, oled_device=oled)
    rig.oracle.size = (640, 480)
    with rig.table:
        controller = rig.table.controller
        for _ in range(100):
            view = rig.until(is_waiting, limit=3000)
            if view.phase is Phase.GAME_OVER:
                break
            # Bank when the rules allow it, else keep the best and throw on.
            state = controller.state
            assert state.current_player is not None
            bank = True  # PASS: decline, throw fresh
            if state.phase is EnginePhase.KEEP:
                keep = Kept(state.current_player.name, state.options[0].dice)
                bank = apply(state, keep).can_bank
            elif state.phase is EnginePhase.DECIDE:
                bank = state.can_bank
            press(rig, mock_factory, "stop" if bank else "roll")
        assert view.phase is Phase.GAME_OVER
        totals = rig.totals()
        assert view.winner_player is not None
        assert totals[view.winner_player.name] == max(totals.values()) >= 300
        (finished,) = rig.table.store.history()
        assert finished.result is not None and finished.result["scores"] == totals
        check_images(rig, oled, totals, f"{rules}-reader")
