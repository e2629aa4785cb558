"""Push-buttons on the Raspberry Pi's GPIO pins through gpiozero, with debounce and long press.

gpiozero reports edges (from its own thread on a real Pi); they are time-stamped with the injected
clock and queued, and `GpioButtons.poll()` turns them into logical presses: ROLL fires when
pressed; SELECT and STOP fire when released after a short press, and holding them for
``long_press`` seconds fires MENU (SELECT) or CORRECT (STOP) instead, at once, without waiting for
the release. An edge closer than ``debounce`` seconds to the previous accepted edge of the same
button is contact bounce; after the bounce window the pin's real level is trusted again, so a short
press is never lost.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Button as GpioButton
from gpiozero.exc import GPIOZeroError

from hardware.backends import Closing
from hardware.buttons import Button, ButtonEvent, Clock
from hardware.errors import ButtonsUnavailable, InvalidOption

KEYBOARD_HINT = 'to use the keyboard, set backend = "keyboard" under [buttons] in the config'
LONG_PRESS: dict[Button, Button] = {Button.SELECT: Button.MENU, Button.STOP: Button.CORRECT}
"""What holding a button fires instead of its short press."""


@dataclass(slots=True)
class _PinState:
    """What `poll()` believes about one physical button."""

    button: Button
    device: GpioButton
    is_down: bool = False
    last_edge: float = float("-inf")
    down_at: float = 0.0
    long_fired: bool = False


class GpioButtons(Closing):
    """ROLL, STOP and SELECT push-buttons on BCM pins, wired to ground (``pull_up=True``).

    ``pin_factory`` is a gpiozero pin factory (tests pass ``MockFactory()``; None uses gpiozero's
    default, i.e. ``Device.pin_factory`` or the Pi's own).
    """

    source = "buttons"
    """Who presses, as a correction records it."""

    def __init__(
        self,
        *,
        roll: int = 17,
        stop: int = 27,
        select: int = 22,
        pull_up: bool = True,
        debounce: float = 0.05,
        long_press: float = 1.0,
        clock: Clock = time.monotonic,
        pin_factory: object | None = None,
    ) -> None:
        pins = {Button.ROLL: roll, Button.STOP: stop, Button.SELECT: select}
        shown = f"roll={roll!r}, stop={stop!r}, select={select!r}"
        if len(set(pins.values())) != len(pins):
            raise InvalidOption(f"the buttons need three different pins, not {shown}")
        if debounce < 0 or long_press <= debounce:
            raise InvalidOption(
                f"need 0 <= debounce < long_press, not debounce={debounce!r}, "
                f"long_press={long_press!r}"
            )
        self.debounce = debounce
        self.long_press = long_press
        self._clock = clock
        self._edges: deque[tuple[Button, bool, float]] = deque()
        self._lock = threading.Lock()
        self._states: dict[Button, _PinState] = {}
        try:
            for button, pin in pins.items():
                device = GpioButton(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory)
                device.when_pressed = self._edge_callback(button, True)
                device.when_released = self._edge_callback(button, False)
                self._states[button] = _PinState(button, device)
        except (GPIOZeroError, OSError) as error:
            self.close()
            raise ButtonsUnavailable(
                f"cannot use GPIO pins {shown} for the buttons ({type(error).__name__}: {error}): "
                f"is this a Raspberry Pi, and is the user in the gpio group? {KEYBOARD_HINT}"
            ) from error

    def _edge_callback(self, button: Button, is_down: bool) -> Callable[[], None]:
        def edge() -> None:
            stamp = self._clock()
            with self._lock:
                self._edges.append((button, is_down, stamp))

        return edge

    def poll(self) -> list[ButtonEvent]:
        """The logical presses since the last poll, oldest first."""
        now = self._clock()
        with self._lock:
            edges = list(self._edges)
            self._edges.clear()
        events: list[ButtonEvent] = []
        for button, is_down, at in edges:
            state = self._states.get(button)
            if state is not None and at - state.last_edge >= self.debounce:
                self._accept(state, is_down, at, events)
        for state in self._states.values():
            if now - state.last_edge >= self.debounce:
                level = bool(state.device.is_pressed)
                if level != state.is_down:  # an edge lost in the bounce window
                    self._accept(state, level, now, events)
            if (
                state.button in LONG_PRESS
                and state.is_down
                and not state.long_fired
                and now - state.down_at >= self.long_press
            ):
                state.long_fired = True
                events.append(
                    ButtonEvent(LONG_PRESS[state.button], state.down_at + self.long_press)
                )
        events.sort(key=lambda event: event.at)
        return events

    def _accept(
        self, state: _PinState, is_down: bool, at: float, events: list[ButtonEvent]
    ) -> None:
        if is_down == state.is_down:
            return
        state.is_down = is_down
        state.last_edge = at
        if is_down:
            state.down_at = at
            state.long_fired = False
            if state.button not in LONG_PRESS:
                events.append(ButtonEvent(state.button, at))
        elif state.button in LONG_PRESS and not state.long_fired:
            held = at - state.down_at
            long = LONG_PRESS[state.button]
            events.append(ButtonEvent(long if held >= self.long_press else state.button, at))
            state.long_fired = True

    def close(self) -> None:
        """Release the pins (idempotent)."""
        states, self._states = self._states, {}
        for state in states.values():
            state.device.close()
