"""Where keyboard keys come from: the open pygame screens and the terminal.

A pygame program has one event queue; the screen display pumps it (it must, to stay responsive)
and keeps the key presses for whoever asks, so the keyboard buttons read keys through the screen
instead of competing for the queue. Screens register themselves here while open.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
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


class TerminalKeys(Closing):
    """Keys typed in the terminal, read without blocking.

    On a terminal it switches to cbreak mode (keys arrive without Enter, no echo) and restores the
    terminal on `close()`. When ``stream`` is not a terminal (a pipe, a file, /dev/null under
    systemd) it reads whatever characters arrive and goes quiet at the end of the input; with no
    usable stream at all it never reports a key.
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        stream = sys.stdin if stream is None else stream
        self._fd: int | None = None
        self._saved: list[int | list[bytes | int]] | None = None
        self._at_end = False
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):
            return
        self._fd = fd
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
        if self._fd is None or self._at_end:
            return []
        names: list[str] = []
        try:
            while select.select([self._fd], [], [], 0)[0]:
                data = os.read(self._fd, 64)
                if not data:
                    self._at_end = True
                    break
                text = data.decode("utf-8", errors="replace")
                names.extend(_CHARACTER_NAMES.get(ch, ch.lower()) for ch in text)
        except (OSError, ValueError):
            self._at_end = True
        return names

    def close(self) -> None:
        """Restore the terminal's mode (idempotent)."""
        if self._saved is not None and self._fd is not None:
            import termios

            with contextlib.suppress(OSError):
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
        self._saved = None
        self._fd = None
