"""The registry of buttons backends by name."""

from __future__ import annotations

from hardware.backends import Registry
from hardware.buttons import Buttons, ScriptedButtons
from hardware.gpio_buttons import GpioButtons
from hardware.keyboard_buttons import KeyboardButtons

BUTTONS: Registry[Buttons] = Registry(
    "buttons",
    {"gpio": GpioButtons, "keyboard": KeyboardButtons, "scripted": ScriptedButtons},
)
