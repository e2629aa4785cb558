"""The camera picture on the big screen: drawn in the tray instead of the dice, only while set."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pygame
import pytest
from luma.core.device import dummy

from hardware.oled import OledDisplay
from hardware.screen import ScreenDisplay
from hardware.screen_render import render_screen_image
from hardware.view import InvalidView, Phase, Picture, TableView
from tests.hardware import sample_views

MAGENTA_BGR = (255, 0, 255)
CYAN_BGR = (255, 255, 0)
MAGENTA_RGB = (255, 0, 255)
CYAN_RGB = (0, 255, 255)


def _picture(height: int = 240, width: int = 320) -> Picture:
    """A magenta picture with a cyan square in its middle (BGR, as a camera gives it)."""
    pixels = np.empty((height, width, 3), np.uint8)
    pixels[:] = MAGENTA_BGR
    pixels[height // 3 : 2 * height // 3, width // 3 : 2 * width // 3] = CYAN_BGR
    return Picture(pixels)


def _where(surface: pygame.Surface, rgb: tuple[int, int, int]) -> np.ndarray:
    """The (x, y) of every pixel of ``surface`` within 8 levels of ``rgb``."""
    pixels = pygame.surfarray.array3d(surface).astype(int)  # columns × rows × 3
    near = np.all(np.abs(pixels - np.array(rgb)) <= 8, axis=-1)
    return np.argwhere(near)


def _calibrating(picture: Picture | None) -> TableView:
    return TableView(
        players=sample_views.mid_turn().players,
        current=0,
        phase=Phase.WAITING,
        dice=(1, 5, 5),
        prompt="calibrating the camera: STOP cancels",
        message="tray found: now throw the dice into it (STOP cancels)",
        picture=picture,
    )


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (480, 320)])
def test_the_picture_is_drawn_in_the_tray_panel_in_its_colours(size: tuple[int, int]) -> None:
    shown = render_screen_image(_calibrating(_picture()), size)
    magenta, cyan = _where(shown, MAGENTA_RGB), _where(shown, CYAN_RGB)
    width, height = size
    s = min(width / 800, height / 480)
    # The picture is large (most of the left column) and lies in it, left of the score table.
    assert len(magenta) > 60_000 * s * s
    assert magenta[:, 0].max() < 500 * s and magenta[:, 1].min() > 90 * s
    assert magenta[:, 1].max() < height - 40 * s  # above the prompt bar
    # Its proportions are kept (4:3) and its middle square is in the middle.
    box_w = magenta[:, 0].max() - magenta[:, 0].min() + 1
    box_h = magenta[:, 1].max() - magenta[:, 1].min() + 1
    assert abs(box_w / box_h - 4 / 3) < 0.05
    centre = cyan.mean(axis=0)
    assert abs(centre[0] - magenta[:, 0].mean()) < 3 and abs(centre[1] - magenta[:, 1].mean()) < 3
    assert 0.08 < len(cyan) / (box_w * box_h) < 0.14  # a ninth of it


def test_without_a_picture_the_dice_are_drawn() -> None:
    shown = render_screen_image(_calibrating(None))
    assert len(_where(shown, MAGENTA_RGB)) == 0 and len(_where(shown, CYAN_RGB)) == 0
    with_picture = render_screen_image(_calibrating(_picture()))
    # The dice's ivory faces are drawn only without the picture.
    assert len(_where(shown, (250, 247, 238))) > 3000
    assert len(_where(with_picture, (250, 247, 238))) < 100


def test_screenshot(tmp_path: Path) -> None:
    """The calibration's live view as a player sees it (DICEKEEPER_SHOTS keeps the PNG)."""
    shown = render_screen_image(_calibrating(_picture()))
    folder = Path(os.environ.get("DICEKEEPER_SHOTS") or tmp_path)
    pygame.image.save(shown, str(folder / "screen_calibrating.png"))
    assert (folder / "screen_calibrating.png").stat().st_size > 1000


def test_a_picture_is_compared_by_identity_and_checked() -> None:
    picture = _picture()
    view = _calibrating(picture)
    assert view == dataclasses.replace(view) and hash(view) == hash(dataclasses.replace(view))
    assert view != _calibrating(Picture(picture.pixels.copy()))
    with pytest.raises(InvalidView, match="rows × columns × 3"):
        Picture(np.zeros((4, 4), np.uint8))
    with pytest.raises(InvalidView, match="rows × columns × 3"):
        Picture(np.zeros((4, 4, 3), np.float32))


def test_the_oled_does_not_redraw_for_a_new_picture() -> None:
    device = dummy(width=128, height=64, mode="1")
    calls: list[object] = []
    device.display = lambda image: calls.append(image)
    display = OledDisplay(device)
    display.show(_calibrating(_picture()))
    display.show(_calibrating(_picture()))  # the live view moved on: nothing the OLED draws
    assert len(calls) == 1
    display.show(dataclasses.replace(_calibrating(_picture()), message="calibrated"))
    assert len(calls) == 2
    display.close()


def test_the_window_redraws_for_each_new_picture(tmp_path: Path) -> None:
    with ScreenDisplay(width=400, height=240, fullscreen=False) as screen:
        picture = _picture()
        screen.show(_calibrating(picture))
        screen.show(_calibrating(picture))  # the same picture: nothing to redraw
        assert screen.draw_count == 1
        screen.show(_calibrating(_picture()))  # the live view's next frame
        assert screen.draw_count == 2
        shown = pygame.image.load(str(screen.save(tmp_path / "window.png")))
        assert len(_where(shown, CYAN_RGB)) > 1000


def test_beside_the_picture_no_turn_total_is_drawn() -> None:
    """The camera's picture is shown while calibrating, when no turn is being played."""
    view = _calibrating(_picture())
    one, other = (
        pygame.surfarray.array3d(render_screen_image(dataclasses.replace(view, turn_total=t)))
        for t in (0, 9950)
    )
    assert np.array_equal(one, other)
    without = _calibrating(None)
    one, other = (
        pygame.surfarray.array3d(render_screen_image(dataclasses.replace(without, turn_total=t)))
        for t in (0, 9950)
    )
    assert not np.array_equal(one, other)  # a turn's total is drawn when there is no picture
