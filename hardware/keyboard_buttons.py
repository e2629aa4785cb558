"""Keyboard keys as buttons: r = ROLL, s = STOP, space/tab = SELECT, m = MENU, c = CORRECT,
h/? = HELP, q/Escape = QUIT; and the key hints the screens show beside the button words."""

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
    "h": Button.HELP,
    "?": Button.HELP,
    "q": Button.QUIT,
    "escape": Button.QUIT,
    "quit": Button.QUIT,
}
"""Key names (as `KeySource.read_keys()` gives them) to logical buttons."""

BUTTON_WORDS: Mapping[str, Button] = {
    "ROLL": Button.ROLL,
    "STOP": Button.STOP,
    "SELECT": Button.SELECT,
    "hold SELECT": Button.MENU,
    "hold STOP": Button.CORRECT,
}
"""The words the prompts use for the buttons (a long press is "hold ...")."""

_HELP = (  # lower case: the screens add the keys beside the button words in capitals
    (Button.ROLL, "roll"),
    (Button.STOP, "stop"),
    (Button.SELECT, "select"),
    (Button.MENU, "menu"),
    (Button.CORRECT, "correct the dice"),
    (Button.HELP, "this help"),
    (Button.QUIT, "quit"),
)


def _names(keymap: Mapping[str, Button], button: Button) -> list[str]:
    """The keys pressing ``button``, as a person reads them ("Esc", not "escape")."""
    shown = {"escape": "Esc", "quit": ""}
    return [shown.get(key, key) for key in keymap if keymap[key] is button and shown.get(key, key)]


def key_hints(keymap: Mapping[str, Button] = KEYMAP) -> tuple[tuple[str, str], ...]:
    """Each button word of the prompts and the key that presses it (its first in ``keymap``):
    (("ROLL", "r"), ("STOP", "s"), ("SELECT", "space"), ("hold SELECT", "m"), ...)."""
    hints = ((word, _names(keymap, button)) for word, button in BUTTON_WORDS.items())
    return tuple((word, names[0]) for word, names in hints if names)


def help_line(keymap: Mapping[str, Button] = KEYMAP) -> str:
    """Every key in one line: "keys: r roll · s stop · space/tab select · m menu · ..."."""
    parts = [
        f"{'/'.join(names)} {what}" for button, what in _HELP if (names := _names(keymap, button))
    ]
    return "keys: " + " · ".join(parts)


class KeyboardButtons(Closing):
    """Buttons read from keys.

    With ``key_sources`` None it reads every pygame screen open at poll time (so it does not matter
    whether the screen or the buttons were opened first) and the terminal's stdin; pass sources to
    choose (tests pass fakes). Other keys are ignored.
    """

    source = "keyboard"
    """Who presses, as a correction records it."""
    keys: tuple[tuple[str, str], ...]
    """The key beside each button word (`key_hints`), for the screens to show."""
    help: str
    """Every key in one line (`help_line`), said when HELP is pressed."""

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
        self.keys = key_hints(self._keymap)
        self.help = help_line(self._keymap)

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
