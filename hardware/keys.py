"""Where keyboard keys come from: the open pygame screens and the terminal.

A pygame program has one event queue; the screen display pumps it (it must, to stay responsive)
and keeps the key presses for whoever asks, so the keyboard buttons read keys through the screen
instead of competing for the queue. Screens register themselves here while open.

The terminal sends a key like an arrow as an escape sequence (``ESC [ A``): `decode_keys` makes
it one key with pygame's name ("up"), so that only an Esc byte with nothing after it is the Esc
key (which the keyboard buttons map to QUIT, and calibrate's result to "discard").
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import sys
from collections.abc import Callable
from typing import IO, Protocol, runtime_checkable

from hardware.backends import Closing


@runtime_checkable
class KeySource(Protocol):
    """Something that collects key presses."""

    def read_keys(self) -> list[str]:
        """Names of the keys pressed since the last call ("r", "space", "tab", "escape", ...).

        The pseudo-key "quit" means the window was closed.
        """
        ...


_OPEN_SCREENS: list[KeySource] = []


def register_screen(source: KeySource) -> None:
    """Called by a screen when it opens: its keys now reach the keyboard buttons."""
    if source not in _OPEN_SCREENS:
        _OPEN_SCREENS.append(source)


def unregister_screen(source: KeySource) -> None:
    """Called by a screen when it closes."""
    if source in _OPEN_SCREENS:
        _OPEN_SCREENS.remove(source)


def open_screens() -> tuple[KeySource, ...]:
    """The screens open now, oldest first."""
    return tuple(_OPEN_SCREENS)


_CHARACTER_NAMES = {" ": "space", "\t": "tab", "\x1b": "escape", "\n": "return", "\r": "return"}
ESC = "\x1b"
ESCAPE_WAIT = 0.05
"""Seconds an Esc byte waits for the rest of its escape sequence: a key's sequence (an arrow's
``ESC [ A``) arrives in one burst, so an Esc with nothing after it within this time is the Esc
key itself."""
_CSI_FINALS = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end"}
_CSI_TILDES = {
    "1": "home",
    "2": "insert",
    "3": "delete",
    "4": "end",
    "5": "page up",
    "6": "page down",
    "7": "home",
    "8": "end",
}
"""The names of the keys sending escape sequences: pygame's names, so that a key map serves the
screen's keys and the terminal's alike."""

ByteSource = Callable[[float], bytes | None]
"""``read(seconds)``: the bytes typed, waiting at most ``seconds`` for the first (0: only those
already there); ``b""`` at the end of the input, None when none came in time."""


def decode_keys(text: str) -> tuple[list[str], str]:
    """The names of the keys typed as ``text``, and its unfinished end: an Esc, or an escape
    sequence cut short, that may still get its rest ("" when there is none).

    An escape sequence (``ESC [`` parameters, final character, or ``ESC O`` and one character)
    is one key: the arrows are "up", "down", "left", "right"; sequences of other keys give no
    name. An Esc followed by anything else is the Esc key, then that key."""
    names: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != ESC:
            names.append(_CHARACTER_NAMES.get(char, char.lower()))
            index += 1
            continue
        if index + 1 == len(text):
            return names, text[index:]
        kind = text[index + 1]
        if kind == "[":
            end = index + 2
            while end < len(text) and "\x20" <= text[end] <= "\x3f":  # parameters, intermediates
                end += 1
            if end == len(text):
                return names, text[index:]
            final, parameters = text[end], text[index + 2 : end]
            if "\x40" <= final <= "\x7e":
                name = _CSI_TILDES.get(parameters.split(";")[0]) if final == "~" else None
                name = name or _CSI_FINALS.get(final)
                if name:
                    names.append(name)
                index = end + 1
            else:  # not a sequence after all: the Esc key, then what followed it
                names.append("escape")
                index += 1
        elif kind == "O":
            if index + 2 == len(text):
                return names, text[index:]
            name = _CSI_FINALS.get(text[index + 2])
            if name:
                names.append(name)
            index += 3
        else:
            names.append("escape")
            index += 1
    return names, ""


class TerminalKeys(Closing):
    """Keys typed in the terminal, read without blocking.

    On a terminal it switches to cbreak mode (keys arrive without Enter, no echo) and restores the
    terminal on `close()`. When ``stream`` is not a terminal (a pipe, a file, /dev/null under
    systemd) it reads whatever characters arrive and goes quiet at the end of the input; with no
    usable stream at all it never reports a key. ``source`` replaces the stream as where the
    bytes come from (tests). An Esc byte waits up to ``escape_wait`` seconds for the rest of its
    escape sequence (`decode_keys`): an arrow key is a key of its own, not an Esc.
    """

    def __init__(
        self,
        stream: IO[str] | None = None,
        *,
        source: ByteSource | None = None,
        escape_wait: float = ESCAPE_WAIT,
    ) -> None:
        self._fd: int | None = None
        self._saved: list[int | list[bytes | int]] | None = None
        self._at_end = False
        self._escape_wait = escape_wait
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._source = source
        if source is not None:
            return
        stream = sys.stdin if stream is None else stream
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):
            return
        self._fd = fd
        self._source = self._read_fd
        if os.isatty(fd):
            try:
                import termios
                import tty

                self._saved = termios.tcgetattr(fd)
                tty.setcbreak(fd)
            except (ImportError, OSError):
                self._saved = None

    @property
    def is_terminal(self) -> bool:
        """Whether the keys come from a terminal switched to cbreak mode."""
        return self._saved is not None

    def read_keys(self) -> list[str]:
        """The keys typed since the last call."""
        if self._source is None or self._at_end:
            return []
        names, pending = decode_keys(self._read(0.0))
        while pending and not self._at_end:  # an Esc at the end: its sequence's rest, if any
            more = self._read(self._escape_wait)
            if not more:
                break
            later, pending = decode_keys(pending + more)
            names.extend(later)
        if pending == ESC:  # nothing followed it: the Esc key
            names.append("escape")
        return names

    def _read(self, wait: float) -> str:
        """The text typed, waiting up to ``wait`` seconds for its first byte."""
        assert self._source is not None
        text = ""
        try:
            while (data := self._source(wait)) is not None:
                if not data:
                    self._at_end = True
                    break
                text += self._decoder.decode(data)
                wait = 0.0
        except (OSError, ValueError):
            self._at_end = True
        return text

    def _read_fd(self, wait: float) -> bytes | None:
        assert self._fd is not None
        if not select.select([self._fd], [], [], wait)[0]:
            return None
        return os.read(self._fd, 64)

    def close(self) -> None:
        """Restore the terminal's mode (idempotent)."""
        if self._saved is not None and self._fd is not None:
            import termios

            with contextlib.suppress(OSError):
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
        self._saved = None
        self._fd = None
        self._source = None
