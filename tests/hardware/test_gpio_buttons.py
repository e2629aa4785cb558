"""gpiozero buttons driven through MockFactory's real pins, with a fake clock."""

from __future__ import annotations

from typing import Any

import pytest

from hardware import Button, ButtonsUnavailable, open_buttons
from hardware.errors import InvalidOption
from hardware.gpio_buttons import GpioButtons
from tests.hardware.conftest import FakeClock

ROLL, STOP, SELECT = 17, 27, 22


@pytest.fixture
def buttons(mock_factory: Any, clock: FakeClock) -> GpioButtons:
    made = open_buttons("gpio", clock=clock, debounce=0.05, long_press=1.0)
    assert isinstance(made, GpioButtons)
    return made


def press(factory: Any, clock: FakeClock, pin: int, *, hold: float = 0.1) -> None:
    factory.pin(pin).drive_low()  # pulled up: pressed pulls the pin to ground
    clock.advance(hold)
    factory.pin(pin).drive_high()


def names(buttons: GpioButtons) -> list[Button]:
    return [event.button for event in buttons.poll()]


def test_roll_fires_when_pressed_and_stop_when_released(
    mock_factory: Any, clock: FakeClock, buttons: GpioButtons
) -> None:
    mock_factory.pin(ROLL).drive_low()
    events = buttons.poll()
    assert [e.button for e in events] == [Button.ROLL]
    assert events[0].at == clock.now
    clock.advance(0.2)
    mock_factory.pin(ROLL).drive_high()
    clock.advance(0.2)
    press(mock_factory, clock, STOP)
    assert names(buttons) == [Button.STOP]
    assert names(buttons) == []


def test_contact_bounce_gives_one_press(
    mock_factory: Any, clock: FakeClock, buttons: GpioButtons
) -> None:
    pin = mock_factory.pin(ROLL)
    for _ in range(4):  # chatter within a few milliseconds
        pin.drive_low()
        clock.advance(0.003)
        pin.drive_high()
        clock.advance(0.003)
    pin.drive_low()
    assert names(buttons) == [Button.ROLL]
    clock.advance(0.3)
    assert names(buttons) == []
    pin.drive_high()
    clock.advance(0.3)
    pin.drive_low()
    assert names(buttons) == [Button.ROLL]


def test_a_press_shorter_than_the_bounce_window_is_not_lost(
    mock_factory: Any, clock: FakeClock, buttons: GpioButtons
) -> None:
    press(mock_factory, clock, SELECT, hold=0.02)  # the release edge falls in the bounce window
    clock.advance(0.1)
    assert names(buttons) == [Button.SELECT]
    clock.advance(2.0)
    assert names(buttons) == []


def test_short_select_fires_on_release(
    mock_factory: Any, clock: FakeClock, buttons: GpioButtons
) -> None:
    mock_factory.pin(SELECT).drive_low()
    clock.advance(0.3)
    assert names(buttons) == []  # could still become a long press
    mock_factory.pin(SELECT).drive_high()
    assert names(buttons) == [Button.SELECT]


def test_long_select_opens_the_menu_while_held(
    mock_factory: Any, clock: FakeClock, buttons: GpioButtons
) -> None:
    mock_factory.pin(SELECT).drive_low()
    pressed_at = clock.now
    clock.advance(0.99)
    assert names(buttons) == []
    clock.advance(0.02)
    events = buttons.poll()
    assert [e.button for e in events] == [Button.MENU]
    assert events[0].at == pytest.approx(pressed_at + 1.0)
    clock.advance(3.0)
    assert names(buttons) == []
    mock_factory.pin(SELECT).drive_high()
    assert names(buttons) == []  # the release of a long press is not also a SELECT


def test_long_press_released_before_any_poll_is_still_the_menu(
    mock_factory: Any, clock: FakeClock, buttons: GpioButtons
) -> None:
    press(mock_factory, clock, SELECT, hold=1.5)
    assert names(buttons) == [Button.MENU]


def test_events_come_in_time_order(
    mock_factory: Any, clock: FakeClock, buttons: GpioButtons
) -> None:
    press(mock_factory, clock, STOP)
    clock.advance(0.2)
    press(mock_factory, clock, SELECT)
    clock.advance(0.2)
    press(mock_factory, clock, ROLL)
    assert names(buttons) == [Button.STOP, Button.SELECT, Button.ROLL]


def test_custom_pins(mock_factory: Any, clock: FakeClock) -> None:
    with open_buttons("gpio", roll=5, stop=6, select=13, clock=clock) as buttons:
        mock_factory.pin(6).drive_low()
        clock.advance(0.1)
        mock_factory.pin(6).drive_high()
        assert [e.button for e in buttons.poll()] == [Button.STOP]
    buttons.close()


def test_bad_settings(mock_factory: Any) -> None:
    with pytest.raises(InvalidOption, match="different pins"):
        open_buttons("gpio", roll=17, stop=17)
    with pytest.raises(InvalidOption, match="long_press"):
        open_buttons("gpio", debounce=0.5, long_press=0.2)


def test_no_gpio_here_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.warns(Warning), pytest.raises(ButtonsUnavailable) as raised:
        open_buttons("gpio")
    assert 'backend = "keyboard" under [buttons]' in str(raised.value)
    assert isinstance(raised.value, OSError)


def test_pin_factory_can_be_passed_in(clock: FakeClock) -> None:
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    try:
        with open_buttons("gpio", clock=clock, pin_factory=factory) as buttons:
            factory.pin(STOP).drive_low()
            clock.advance(0.1)
            factory.pin(STOP).drive_high()
            assert [e.button for e in buttons.poll()] == [Button.STOP]
    finally:
        factory.close()


def test_a_pin_in_use_is_a_clear_error(mock_factory: Any, clock: FakeClock) -> None:
    with open_buttons("gpio", clock=clock), pytest.raises(ButtonsUnavailable, match="gpio group"):
        open_buttons("gpio", roll=5, stop=6, select=22, clock=clock)
