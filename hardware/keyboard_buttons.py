"""Keyboard keys as buttons: r = ROLL, s = STOP, space/tab = SELECT, m = MENU, c = CORRECT,
q/Escape = QUIT."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from hardware.backends import Closing
from hardware.buttons import Button, ButtonEvent, Clock
from hardware.keys import KeySource, TerminalKeys, open_screens

KEYMAP: Mapping[str, Button] = {
    "r": Button.ROLL,
    "s": Button.STOP,
    "space": Button.SELECT,
    "tab": Button.SELECT,
    "m": Button.MENU,
    "c": Button.CORRECT,
    "q": Button.QUIT,
    "escape": Button.QUIT,
    "quit": Button.QUIT,
}
"""Key names (as `KeySource.read_keys()` gives them) to logical buttons."""


class KeyboardButtons(Closing):
    """Buttons read from keys.

    With ``key_sources`` None it reads every pygame screen open at poll time (so it does not matter
    whether the screen or the buttons were opened first) and the terminal's stdin; pass sources to
    choose (tests pass fakes). Other keys are ignored.
    """

    source = "keyboard"
    """Who presses, as a correction records it."""

    def __init__(
        self,
        *,
        key_sources: Sequence[KeySource] | None = None,
        clock: Clock = time.monotonic,
        keymap: Mapping[str, Button] = KEYMAP,
    ) -> None:
        self._sources = None if key_sources is None else tuple(key_sources)
        self._terminal: TerminalKeys | None = None
        self._clock = clock
        self._keymap = dict(keymap)

    def _current_sources(self) -> tuple[KeySource, ...]:
        if self._sources is not None:
            return self._sources
        if self._terminal is None:
            self._terminal = TerminalKeys()
        return (*open_screens(), self._terminal)

    def poll(self) -> list[ButtonEvent]:
        """The mapped key presses since the last poll, oldest first per source."""
        now = self._clock()
        return [
            ButtonEvent(self._keymap[name], now)
            for source in self._current_sources()
            for name in source.read_keys()
            if name in self._keymap
        ]

    def close(self) -> None:
        """Give the terminal back its mode (idempotent)."""
        if self._terminal is not None:
            self._terminal.close()
            self._terminal = None
