"""The view model's validation and the by-name factories of every kind of device."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.errors import DicekeeperError
from hardware import (
    InvalidBackendOption,
    OptionView,
    PlayerView,
    TableView,
    UnknownBackend,
    open_buttons,
    open_camera,
    open_display,
)
from hardware.buttons import buttons_names
from hardware.camera import camera_names
from hardware.display import display_names
from hardware.view import InvalidView


@pytest.mark.parametrize(
    ("opener", "kind", "names"),
    [
        (open_camera, "camera", camera_names()),
        (open_buttons, "buttons", buttons_names()),
        (open_display, "display", display_names()),
    ],
)
def test_unknown_backend_names_the_valid_ones(
    opener: Callable[..., object], kind: str, names: tuple[str, ...]
) -> None:
    with pytest.raises(UnknownBackend) as raised:
        opener("teletype")
    message = str(raised.value)
    assert "'teletype'" in message and kind in message
    for name in names:
        assert repr(name) in message
    assert isinstance(raised.value, DicekeeperError) and isinstance(raised.value, ValueError)


def test_backend_names() -> None:
    assert set(camera_names()) >= {"opencv", "picamera2", "replay", "simulated"}
    assert set(buttons_names()) >= {"gpio", "keyboard"}
    assert set(display_names()) >= {"oled", "screen", "terminal", "null", "memory"}


def test_unknown_option_is_a_clear_error() -> None:
    with pytest.raises(InvalidBackendOption, match=r"'terminal'.*'colour'"):
        open_display("terminal", colour="green")
    with pytest.raises(InvalidBackendOption, match="render_throw"):
        open_camera("simulated")


def test_backends_are_idempotent_context_managers() -> None:
    with open_display("memory") as display:
        display.close()
    display.close()
    with open_buttons("scripted") as buttons:
        assert buttons.poll() == []
    buttons.close()


@pytest.mark.parametrize(
    "fields",
    [
        {"current": 2},
        {"winner": -1},
        {"dice": (1, 7)},
        {"kept": (0,)},
        {"options": (OptionView((1,), 100),), "selected": 1},
        {"options": (OptionView((9,), 100),)},
        {"menu": ("new game",), "menu_selected": 3},
    ],
)
def test_inconsistent_views_are_rejected(fields: dict[str, object]) -> None:
    players = (PlayerView("Anna"), PlayerView("Bob"))
    with pytest.raises(InvalidView) as raised:
        TableView(players=players, **fields)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)


def test_view_helpers() -> None:
    view = TableView(
        players=(PlayerView("Anna"), PlayerView("Bob")),
        current=1,
        dice=(1, None),
        options=(OptionView((1,), 100), OptionView((5,), 50)),
        selected=1,
    )
    assert view.current_player == PlayerView("Bob")
    assert view.selected_option == OptionView((5,), 50)
    assert view.is_rolling
    assert view.winner_player is None
