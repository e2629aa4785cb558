"""The registry of display backends by name."""

from __future__ import annotations

from hardware.backends import Registry
from hardware.display import Display, MemoryDisplay, NullDisplay
from hardware.oled import open_oled
from hardware.screen import ScreenDisplay
from hardware.terminal import TerminalDisplay

DISPLAYS: Registry[Display] = Registry(
    "display",
    {
        "oled": open_oled,
        "screen": ScreenDisplay,
        "terminal": TerminalDisplay,
        "memory": MemoryDisplay,
        "null": NullDisplay,
    },
)
