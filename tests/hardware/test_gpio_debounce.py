"""Contact bounce on gpiozero buttons (MockFactory pins, a fake clock): chatter within the debounce
window is one press, on pressing and on releasing; presses farther apart than the window all
count; the window is the one configured."""

from __future__ import annotations

from typing import Any

import pytest

from hardware import Button, open_buttons
from hardware.gpio_buttons import GpioButtons
from tests.hardware.conftest import FakeClock

ROLL = 17  # ROLL fires as it is pressed (the other buttons may fire on release or when held)


def _open(clock: FakeClock, debounce: float) -> GpioButtons:
    made = open_buttons("gpio", clock=clock, debounce=debounce, long_press=1.0)
    assert isinstance(made, GpioButtons)
    return made


def _chatter(factory: Any, clock: FakeClock, pin: int, *, edges: int, gap: float) -> None:
    """``edges`` alternating edges ``gap`` seconds apart, starting with a press, ending pressed."""
    for number in range(edges):
        if number % 2 == 0:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()
        clock.advance(gap)
    if edges % 2 == 0:
        factory.pin(pin).drive_low()


def _names(buttons: GpioButtons) -> list[Button]:
    return [event.button for event in buttons.poll()]


@pytest.mark.parametrize("edges", [2, 5, 6])
def test_chatter_on_pressing_is_one_press(mock_factory: Any, clock: FakeClock, edges: int) -> None:
    with _open(clock, 0.05) as buttons:
        _chatter(mock_factory, clock, ROLL, edges=edges, gap=0.004)
        assert _names(buttons) == [Button.ROLL]
        clock.advance(0.5)
        assert _names(buttons) == []  # still held: nothing more


def test_chatter_on_releasing_is_no_press(mock_factory: Any, clock: FakeClock) -> None:
    pin = mock_factory.pin(ROLL)
    with _open(clock, 0.05) as buttons:
        pin.drive_low()
        clock.advance(0.3)
        assert _names(buttons) == [Button.ROLL]
        for _ in range(3):  # the contacts bounce as they open
            pin.drive_high()
            clock.advance(0.005)
            pin.drive_low()
            clock.advance(0.005)
        pin.drive_high()
        assert _names(buttons) == []
        clock.advance(0.5)
        assert _names(buttons) == []


def test_presses_farther_apart_than_the_window_all_count(
    mock_factory: Any, clock: FakeClock
) -> None:
    pin = mock_factory.pin(ROLL)
    with _open(clock, 0.05) as buttons:
        for _ in range(3):
            pin.drive_low()
            clock.advance(0.06)
            pin.drive_high()
            clock.advance(0.06)
        assert _names(buttons) == [Button.ROLL] * 3


def test_the_configured_window_is_used(mock_factory: Any, clock: FakeClock) -> None:
    # Edges 20 ms apart: bounce for a 100 ms window, three real presses for a 10 ms one.
    with _open(clock, 0.1) as buttons:
        _chatter(mock_factory, clock, ROLL, edges=5, gap=0.02)
        clock.advance(0.2)
        assert _names(buttons) == [Button.ROLL]
        mock_factory.pin(ROLL).drive_high()
        clock.advance(0.2)
        _names(buttons)
    with _open(clock, 0.01) as buttons:
        _chatter(mock_factory, clock, ROLL, edges=5, gap=0.02)
        assert _names(buttons) == [Button.ROLL] * 3


@pytest.mark.parametrize("window", [0.125, 0.25, 0.5])  # exact in binary: no rounding at the edge
def test_edges_exactly_one_window_apart_count(
    mock_factory: Any, clock: FakeClock, window: float
) -> None:
    pin = mock_factory.pin(ROLL)
    with _open(clock, window) as buttons:
        pin.drive_low()
        clock.advance(window)
        pin.drive_high()
        clock.advance(window)
        pin.drive_low()
        assert _names(buttons) == [Button.ROLL, Button.ROLL]
