"""The pygame screen under SDL's dummy video driver: the picture, the window, its keys."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pygame
import pytest

from hardware import Button, DisplayUnavailable, open_display
from hardware.keyboard_buttons import KeyboardButtons
from hardware.keys import open_screens
from hardware.screen import ScreenDisplay, wants_fullscreen
from hardware.screen_render import ALERT, GOLD, player_color, render_screen_image
from hardware.view import Phase
from tests.hardware import sample_views
from tests.hardware.conftest import FakeClock


def count(surface: pygame.Surface, color: tuple[int, int, int]) -> int:
    """How many pixels have exactly ``color``."""
    mask = pygame.mask.from_threshold(surface, color, (1, 1, 1, 255))
    return int(mask.count())


def test_selected_keep_is_highlighted_in_gold() -> None:
    view = sample_views.mid_turn()
    picture = render_screen_image(view)
    plain = render_screen_image(dataclasses.replace(view, options=(), selected=0))
    assert count(picture, GOLD) > count(plain, GOLD) + 1000


def test_changing_the_selection_moves_the_highlight() -> None:
    view = sample_views.mid_turn()
    first = pygame.image.tobytes(render_screen_image(view), "RGB")
    second = pygame.image.tobytes(render_screen_image(dataclasses.replace(view, selected=0)), "RGB")
    assert first != second


def test_every_player_has_a_curve_in_their_colour() -> None:
    view = sample_views.game_over()
    picture = render_screen_image(view)
    for index in range(len(view.players)):
        assert count(picture, player_color(index)) > 50


def test_tumbling_dice_move_and_settled_dice_do_not() -> None:
    rolling = sample_views.rolling()
    frames = {pygame.image.tobytes(render_screen_image(rolling, tick=t), "RGB") for t in range(4)}
    assert len(frames) == 4
    settled = sample_views.mid_turn()
    frames = {pygame.image.tobytes(render_screen_image(settled, tick=t), "RGB") for t in range(4)}
    assert len(frames) == 1


def test_bust_and_error_message_are_red() -> None:
    bust = sample_views.bust()
    calm = dataclasses.replace(bust, message="", phase=Phase.CHOOSING)
    assert count(render_screen_image(bust), ALERT) > count(render_screen_image(calm), ALERT) + 2000


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (480, 320)])
def test_any_size(size: tuple[int, int]) -> None:
    for make in sample_views.ALL.values():
        assert render_screen_image(make(), size).get_size() == size


def test_window_shows_saves_and_passes_keys_to_the_keyboard(tmp_path: Path) -> None:
    with open_display("screen", width=640, height=400, fullscreen=False) as screen:
        assert isinstance(screen, ScreenDisplay) and screen.size == (640, 400)
        assert screen in open_screens()
        screen.show(sample_views.mid_turn())
        saved = screen.save(tmp_path / "screen.png")
        assert pygame.image.load(str(saved)).get_size() == (640, 400)
        shots = os.environ.get("DICEKEEPER_SHOTS")
        if shots:
            screen.save(Path(shots) / "screen_test.png")
        buttons = KeyboardButtons(key_sources=None)
        for key in (pygame.K_r, pygame.K_x, pygame.K_SPACE, pygame.K_s):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        screen.show(sample_views.rolling())  # pumping for the picture keeps the keys
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        assert [e.button for e in buttons.poll()] == [
            Button.ROLL,
            Button.SELECT,
            Button.STOP,
            Button.QUIT,
        ]
        assert buttons.poll() == []
        buttons.close()
    assert screen not in open_screens()
    screen.close()
    screen.show(sample_views.mid_turn())  # closed: ignored
    assert screen.read_keys() == []


def test_redraws_only_when_something_changed(clock: FakeClock) -> None:
    with ScreenDisplay(width=320, height=200, fullscreen=False, clock=clock) as screen:
        settled = sample_views.mid_turn()
        screen.show(settled)
        screen.show(settled)
        clock.advance(5)
        screen.read_keys()
        assert screen.draw_count == 1
        screen.show(dataclasses.replace(settled, selected=0))
        assert screen.draw_count == 2
        rolling = sample_views.rolling()
        screen.show(rolling)
        screen.read_keys()  # same instant: nothing moved yet
        assert screen.draw_count == 3
        window = pygame.display.get_surface()
        assert window is not None
        before = pygame.image.tobytes(window, "RGB")
        clock.advance(0.1)
        screen.read_keys()  # the dice tumble on between two shows
        assert screen.draw_count == 4
        assert pygame.image.tobytes(window, "RGB") != before


def test_no_video_driver_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    with pytest.raises(DisplayUnavailable, match=r"kmsdrm.*terminal"):
        open_display("screen", fullscreen=False)


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({"SDL_VIDEODRIVER": "kmsdrm"}, "linux", True),
        ({}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"SDL_VIDEODRIVER": "dummy"}, "linux", False),
        ({}, "darwin", False),
    ],
)
def test_fullscreen_decision(environ: dict[str, str], platform: str, expected: bool) -> None:
    assert wants_fullscreen(environ, platform=platform) is expected
