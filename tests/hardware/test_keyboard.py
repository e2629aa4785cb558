"""Keyboard buttons: the key map, the terminal (tty or not) and the pygame screen's keys."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

import pytest

from hardware import Button, open_buttons
from hardware.keyboard_buttons import KeyboardButtons
from hardware.keys import TerminalKeys
from tests.hardware.conftest import FakeClock


class FakeKeys:
    def __init__(self, *batches: list[str]) -> None:
        self.batches = list(batches)

    def read_keys(self) -> list[str]:
        return self.batches.pop(0) if self.batches else []


@pytest.mark.parametrize(
    ("key", "button"),
    [
        ("r", Button.ROLL),
        ("s", Button.STOP),
        ("space", Button.SELECT),
        ("tab", Button.SELECT),
        ("m", Button.MENU),
        ("q", Button.QUIT),
        ("escape", Button.QUIT),
        ("quit", Button.QUIT),
    ],
)
def test_key_map(key: str, button: Button, clock: FakeClock) -> None:
    buttons = open_buttons("keyboard", key_sources=[FakeKeys([key])], clock=clock)
    events = buttons.poll()
    assert [e.button for e in events] == [button]
    assert events[0].at == clock.now


def test_other_keys_are_ignored_and_order_is_kept(clock: FakeClock) -> None:
    source = FakeKeys(["x", "s", "1", "r", "space"], [])
    buttons = KeyboardButtons(key_sources=[source], clock=clock)
    assert [e.button for e in buttons.poll()] == [Button.STOP, Button.ROLL, Button.SELECT]
    assert buttons.poll() == []


@pytest.fixture
def pipe() -> Iterator[tuple[io.TextIOWrapper, int]]:
    read_fd, write_fd = os.pipe()
    reader = os.fdopen(read_fd, "r")
    yield reader, write_fd
    reader.close()


def test_terminal_keys_from_a_pipe(pipe: tuple[io.TextIOWrapper, int]) -> None:
    reader, write_fd = pipe
    keys = TerminalKeys(reader)
    assert not keys.is_terminal
    assert keys.read_keys() == []  # nothing typed: does not block
    os.write(write_fd, b"rS \t\x1bm")
    assert keys.read_keys() == ["r", "s", "space", "tab", "escape", "m"]
    os.close(write_fd)
    assert keys.read_keys() == []  # end of input: quiet from now on
    assert keys.read_keys() == []
    keys.close()
    keys.close()


def test_terminal_keys_without_a_real_stream() -> None:
    assert TerminalKeys(io.StringIO("rrr")).read_keys() == []  # no file descriptor


def test_keyboard_buttons_read_stdin_when_no_source_given(
    pipe: tuple[io.TextIOWrapper, int], monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    reader, write_fd = pipe
    monkeypatch.setattr("sys.stdin", reader)
    with KeyboardButtons(clock=clock) as buttons:
        os.write(write_fd, b"s")
        assert [e.button for e in buttons.poll()] == [Button.STOP]
    os.close(write_fd)


def test_terminal_is_put_in_cbreak_mode_and_restored() -> None:
    termios = pytest.importorskip("termios")
    pty = pytest.importorskip("pty")
    main_fd, child_fd = pty.openpty()
    try:
        child = os.fdopen(child_fd, "r")
        before = termios.tcgetattr(child_fd)
        keys = TerminalKeys(child)
        assert keys.is_terminal
        assert not termios.tcgetattr(child_fd)[3] & termios.ICANON
        os.write(main_fd, b"r")
        assert keys.read_keys() == ["r"]  # no Enter needed
        keys.close()
        assert termios.tcgetattr(child_fd) == before
        child.close()
    finally:
        os.close(main_fd)
