"""The terminal's escape sequences: an arrow key is one key ("up"), not an Esc followed by
letters; only an Esc with nothing after it is the Esc key. The bytes come from an injected
source (no terminal, no waiting)."""

from __future__ import annotations

import pytest

from hardware.buttons import Button
from hardware.keyboard_buttons import KEYMAP, KeyboardButtons
from hardware.keys import ESCAPE_WAIT, TerminalKeys, decode_keys


class Typed:
    """A byte source: each read gives the next chunk (None: nothing came in time), then None;
    ``waits`` records how long each read was allowed to wait."""

    def __init__(self, *chunks: bytes | None) -> None:
        self.chunks = list(chunks)
        self.waits: list[float] = []

    def __call__(self, wait: float) -> bytes | None:
        self.waits.append(wait)
        return self.chunks.pop(0) if self.chunks else None


@pytest.mark.parametrize(
    ("text", "names", "rest"),
    [
        ("\x1b[A\x1b[B\x1b[C\x1b[D", ["up", "down", "right", "left"], ""),
        ("\x1bOA\x1bOD", ["up", "left"], ""),  # the arrows in the terminal's application mode
        ("\x1b[1;5C", ["right"], ""),  # Ctrl+right: still the arrow
        ("\x1b[5~\x1b[3~\x1b[H", ["page up", "delete", "home"], ""),
        ("\x1b[15~s", ["s"], ""),  # F5: no name, the key after it still counts
        ("\x1b", [], "\x1b"),  # an Esc alone may still get its sequence
        ("r\x1b[1;", ["r"], "\x1b[1;"),
        ("\x1bm", ["escape", "m"], ""),  # an Esc, then an m
        ("\x1b\x1b[A", ["escape", "up"], ""),
        ("S \t\r\n", ["s", "space", "tab", "return", "return"], ""),
    ],
)
def test_decode_keys(text: str, names: list[str], rest: str) -> None:
    assert decode_keys(text) == (names, rest)


def test_an_arrow_is_one_key() -> None:
    typed = Typed(b"\x1b[A")
    assert TerminalKeys(source=typed).read_keys() == ["up"]
    assert typed.waits == [0.0, 0.0]  # nothing left to wait for


def test_a_lone_escape_waits_for_its_sequence_then_is_the_escape_key() -> None:
    typed = Typed(b"\x1b", None, None)
    assert TerminalKeys(source=typed).read_keys() == ["escape"]
    assert typed.waits == [0.0, 0.0, ESCAPE_WAIT]  # what is there, then a short wait


def test_a_sequence_split_across_reads_is_still_one_key() -> None:
    typed = Typed(b"r\x1b", None, b"[", b"B", None)
    assert TerminalKeys(source=typed).read_keys() == ["r", "down"]


def test_a_sequence_cut_short_is_no_key() -> None:
    keys = TerminalKeys(source=Typed(b"\x1b[1", None, None, b"s"))
    assert keys.read_keys() == []
    assert keys.read_keys() == ["s"]


def test_the_end_of_the_input_after_an_escape() -> None:
    keys = TerminalKeys(source=Typed(b"\x1b", b""))
    assert keys.read_keys() == ["escape"]
    assert keys.read_keys() == []  # quiet from now on


def test_a_character_split_across_reads() -> None:
    keys = TerminalKeys(source=Typed("é".encode()[:1], "é".encode()[1:]))
    assert keys.read_keys() == ["é"]


def test_the_arrows_do_not_quit_the_game_but_escape_does() -> None:
    typed = Typed(b"\x1b[A\x1b[D", None, b"\x1b", None, None)
    buttons = KeyboardButtons(key_sources=[TerminalKeys(source=typed)], clock=lambda: 0.0)
    assert buttons.poll() == []
    assert [event.button for event in buttons.poll()] == [Button.QUIT]
    assert KEYMAP["escape"] is Button.QUIT
