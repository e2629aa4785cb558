"""The buttons seam: logical buttons, the `Buttons` Protocol and `open_buttons` by name.

The controller polls: ``poll()`` never blocks and returns the button events since the last call,
oldest first, so a main loop can read the camera, poll the buttons and redraw in one thread.
Backends: ``gpio`` (gpiozero push-buttons), ``keyboard`` (a pygame window's keys or the terminal's)
and ``scripted`` (presses queued by a test or a demo).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from hardware.backends import Closing, Resource

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.monotonic``; tests inject a fake one)."""


class Button(StrEnum):
    """The logical buttons the controller understands."""

    ROLL = "roll"
    """Keep the selected dice and throw the rest (or throw the first time)."""
    STOP = "stop"
    """Bank the turn total (a short press on the STOP button)."""
    SELECT = "select"
    """Cycle through the legal keeps (a short press on the SELECT button)."""
    MENU = "menu"
    """Open the menu (a long press on the SELECT button, or the m key)."""
    CORRECT = "correct"
    """Correct the dice as read, or cancel the correction (a long press on STOP, or the c key)."""
    QUIT = "quit"
    """Leave the program (keyboard only: q, Escape, or closing the window)."""
    HELP = "help"
    """Say which key presses which button (keyboard only: h or ?)."""


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A logical button pressed at ``at`` seconds on the backend's clock."""

    button: Button
    at: float


@runtime_checkable
class Buttons(Resource, Protocol):
    """A source of button presses, polled without blocking."""

    def poll(self) -> list[ButtonEvent]:
        """The presses since the last poll, oldest first (an empty list when none)."""
        ...


class ScriptedButtons(Closing):
    """Buttons pressed by code: `press()` queues an event that the next `poll()` returns."""

    source = "buttons"
    """Who presses, as a correction records it: code pressing the same buttons a person would."""

    def __init__(self, *, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._queue: deque[ButtonEvent] = deque()

    def press(self, *buttons: Button) -> None:
        """Queue presses of ``buttons`` in order."""
        for button in buttons:
            self._queue.append(ButtonEvent(Button(button), self._clock()))

    def poll(self) -> list[ButtonEvent]:
        """The queued presses, oldest first."""
        events = list(self._queue)
        self._queue.clear()
        return events


def open_buttons(name: str, /, **options: object) -> Buttons:
    """Open buttons backend ``name`` with its keyword options.

    ``gpio``: roll=17, stop=27, select=22 (BCM pins), pull_up=True, debounce=0.05 s,
    long_press=1.0 s, clock, pin_factory.
    ``keyboard``: key_sources (default: any open pygame screen, then the terminal), clock.
    ``scripted``: clock.
    Raises `UnknownBackend` listing the valid names.
    """
    from hardware.buttons_backends import BUTTONS

    return BUTTONS.open(name, options)


def buttons_names() -> tuple[str, ...]:
    """The valid buttons backend names."""
    from hardware.buttons_backends import BUTTONS

    return BUTTONS.names
