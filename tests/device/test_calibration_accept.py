"""The players accept or discard a calibration before it is saved: `dicekeeper calibrate` with a
screen (scripted buttons, keyboard keys, the terminal's arrow keys), with GPIO buttons (MockFactory
pins), in a terminal, with ``--yes`` and on timeout (a fake clock, no sleeping); the menu's
"Calibrate camera" with STOP and SELECT."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from device import wiring
from device.calibration import CALIBRATION_NAME, EMPTY_TRAY_NAME, save_calibration
from device.calibration_flow import ACCEPT_PROMPT
from device.cli import main
from device.commands import calibrate as command
from hardware.buttons import Button, Buttons, ScriptedButtons
from hardware.display import Display, MemoryDisplay
from hardware.keyboard_buttons import KeyboardButtons
from hardware.keys import TerminalKeys
from tests.device.conftest import FakeTime
from tests.device.harness import Rig, is_waiting, open_rig
from tests.device.harness import config as harness_config
from tests.hardware.test_keys_escape import Typed
from vision.calibration import Calibration, Check

SCREEN = '[[display]]\nkind = "screen"\nwidth = 640\n'
GPIO = '[buttons]\nbackend = "gpio"\n[[display]]\nkind = "terminal"\n'
STOP_PIN, SELECT_PIN = 27, 22  # the configuration's default BCM pins


def _config_file(tmp_path: Path, extra: str = SCREEN) -> Path:
    path = tmp_path / "config.toml"
    state = tmp_path / "state"
    path.write_text(f'[state]\ndirectory = "{state}"\n[camera]\nseed = 3\n{extra}')
    return path


def _previous(tmp_path: Path) -> dict[str, bytes]:
    """A calibration saved before, as the bytes of its files."""
    state = tmp_path / "state"
    result = Calibration(((1, 1), (600, 1), (600, 400), (1, 400)), 33.0, (Check("a", True, "b"),))
    save_calibration(state, result, np.full((480, 640, 3), 77, np.uint8))
    return {name: (state / name).read_bytes() for name in (CALIBRATION_NAME, EMPTY_TRAY_NAME)}


def _files(tmp_path: Path) -> dict[str, bytes]:
    state = tmp_path / "state"
    return {
        name: (state / name).read_bytes()
        for name in (CALIBRATION_NAME, EMPTY_TRAY_NAME)
        if (state / name).exists()
    }


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> MemoryDisplay:
    """The configured screen, remembering what it was shown."""
    shown = MemoryDisplay()

    def open_display(name: str, /, **options: object) -> Display:
        assert name == "screen"
        return shown

    monkeypatch.setattr(wiring, "open_display", open_display)
    return shown


@pytest.fixture
def buttons(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedButtons]:
    """The buttons the command answers with, pressed by the test."""
    scripted = ScriptedButtons(clock=lambda: 0.0)

    def open_accept_buttons(config: object) -> tuple[Buttons, str]:
        return scripted, ACCEPT_PROMPT

    monkeypatch.setattr(command, "open_accept_buttons", open_accept_buttons)
    yield scripted


def test_stop_saves_the_result_shown(
    tmp_path: Path,
    screen: MemoryDisplay,
    buttons: ScriptedButtons,
    fake_time: FakeTime,
    capsys: pytest.CaptureFixture[str],
) -> None:
    buttons.press(Button.STOP)
    assert main(["calibrate", "--config", str(_config_file(tmp_path))]) == 0
    assert set(_files(tmp_path)) == {CALIBRATION_NAME, EMPTY_TRAY_NAME}
    result = screen.views[-1]
    assert result.prompt == ACCEPT_PROMPT
    assert result.message.startswith("measured: area of 4 corners")
    assert result.picture is not None
    assert [line.split()[1].rstrip(":") for line in result.checks] == [
        "glare",
        "looking-down",
        "light",
        "focus",
        "dice-size",
    ]
    out = capsys.readouterr().out.splitlines()
    assert f"{ACCEPT_PROMPT} (waiting 120 s)" in out
    assert out[-1] == f"saved {tmp_path / 'state' / CALIBRATION_NAME}"
    assert screen.is_closed


def test_select_discards_and_keeps_the_previous_calibration(
    tmp_path: Path,
    screen: MemoryDisplay,
    buttons: ScriptedButtons,
    fake_time: FakeTime,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = _previous(tmp_path)
    buttons.press(Button.ROLL, Button.SELECT)  # ROLL means nothing here
    assert main(["calibrate", "--config", str(_config_file(tmp_path))]) == 1
    assert _files(tmp_path) == before
    assert capsys.readouterr().out.splitlines()[-1] == (
        "calibration discarded; the previous one is kept"
    )


def test_discarded_with_no_previous_calibration(
    tmp_path: Path,
    screen: MemoryDisplay,
    buttons: ScriptedButtons,
    fake_time: FakeTime,
    capsys: pytest.CaptureFixture[str],
) -> None:
    buttons.press(Button.SELECT)
    assert main(["calibrate", "--config", str(_config_file(tmp_path))]) == 1
    assert _files(tmp_path) == {}
    assert "the table stays uncalibrated" in capsys.readouterr().out


def test_no_answer_in_time_saves_nothing(
    tmp_path: Path,
    screen: MemoryDisplay,
    buttons: ScriptedButtons,
    fake_time: FakeTime,
    caplog: pytest.LogCaptureFixture,
) -> None:
    before = _previous(tmp_path)
    config = _config_file(tmp_path)
    with caplog.at_level(logging.ERROR):
        assert main(["calibrate", "--config", str(config), "--accept-timeout", "5"]) == 2
    assert _files(tmp_path) == before
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "within 5 s: nothing saved" in errors[0].getMessage()
    assert "\n" not in errors[0].getMessage()
    assert 5.0 <= fake_time.now < 5.2  # polled on the fake clock until the time ran out
    assert screen.is_closed


def test_a_late_press_counts_until_the_timeout(
    tmp_path: Path, screen: MemoryDisplay, buttons: ScriptedButtons, fake_time: FakeTime
) -> None:
    fake_time.on_sleep = lambda number: buttons.press(Button.STOP) if number == 90 else None
    config = _config_file(tmp_path)
    assert main(["calibrate", "--config", str(config), "--accept-timeout", "5"]) == 0
    assert set(_files(tmp_path)) == {CALIBRATION_NAME, EMPTY_TRAY_NAME}


def test_yes_saves_without_asking(
    tmp_path: Path,
    screen: MemoryDisplay,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def no_buttons(config: object) -> tuple[Buttons, str]:
        raise AssertionError("--yes asks nobody")

    monkeypatch.setattr(command, "open_accept_buttons", no_buttons)
    _previous(tmp_path)
    assert main(["calibrate", "--config", str(_config_file(tmp_path)), "--yes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("saved ")
    assert sum(line[:3] in ("ok ", "FIX") for line in lines) == 5
    assert not any(view.prompt == ACCEPT_PROMPT for view in screen.views)
    saved = (tmp_path / "state" / CALIBRATION_NAME).read_text()
    assert '"die_width_px": 33.0' not in saved  # the new one replaced the previous one


def test_the_keyboard_answers_with_enter_and_escape(
    tmp_path: Path, screen: MemoryDisplay, monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime
) -> None:
    class Keys:
        def __init__(self) -> None:
            self.typed = ["x", "escape"]

        def read_keys(self) -> list[str]:
            typed, self.typed = self.typed, []
            return typed

    keys = Keys()
    real = KeyboardButtons

    def keyboard(**options: Any) -> KeyboardButtons:
        return real(key_sources=[keys], **options)

    monkeypatch.setattr(command, "KeyboardButtons", keyboard)
    config = _config_file(tmp_path)
    assert main(["calibrate", "--config", str(config)]) == 1  # Esc: discarded
    assert screen.views[-1].prompt == command.KEYBOARD_PROMPT
    assert "Enter" in command.KEYBOARD_PROMPT and "Esc" in command.KEYBOARD_PROMPT
    keys.typed = ["return"]
    assert main(["calibrate", "--config", str(config)]) == 0  # Enter: saved
    assert set(_files(tmp_path)) == {CALIBRATION_NAME, EMPTY_TRAY_NAME}


@pytest.mark.parametrize(
    ("typed", "status"),
    [
        ((b"\x1b[A", None, b"\r"), 0),  # up arrow, then Enter: saved
        ((b"\x1b[B\x1b[D", None, b"\x1b", None, None), 1),  # arrows, then Esc: discarded
        ((b"\x1b", None, b"[C", None, b"y"), 0),  # an arrow split across reads, then y
        ((b"\x1b", None, None), 1),  # Esc alone: discarded
    ],
)
def test_in_the_terminal_key_by_key_an_arrow_is_no_answer(
    tmp_path: Path,
    screen: MemoryDisplay,
    monkeypatch: pytest.MonkeyPatch,
    fake_time: FakeTime,
    typed: tuple[bytes | None, ...],
    status: int,
) -> None:
    terminal = TerminalKeys(source=Typed(*typed))
    real = KeyboardButtons

    def keyboard(**options: Any) -> KeyboardButtons:
        return real(key_sources=[terminal], **options)

    monkeypatch.setattr(command, "KeyboardButtons", keyboard)
    assert main(["calibrate", "--config", str(_config_file(tmp_path))]) == status
    assert bool(_files(tmp_path)) is (status == 0)


@pytest.mark.parametrize(("pin", "status"), [(STOP_PIN, 0), (SELECT_PIN, 1)])
def test_gpio_buttons_answer(
    tmp_path: Path,
    mock_factory: Any,
    fake_time: FakeTime,
    pin: int,
    status: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def person(number: int) -> None:  # presses the button a while after the result is shown
        if number == 10:
            mock_factory.pin(pin).drive_low()
        elif number == 12:
            mock_factory.pin(pin).drive_high()

    fake_time.on_sleep = person
    before = _previous(tmp_path)
    assert main(["calibrate", "--config", str(_config_file(tmp_path, GPIO))]) == status
    assert (_files(tmp_path) == before) is (status == 1)
    out = capsys.readouterr().out
    assert f"{ACCEPT_PROMPT} (waiting 120 s)" in out  # the terminal says which button does what


class _Terminal:
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("typed", "status"),
    [(["\n"], 0), (["yes\n"], 0), (["maybe\n", "n\n"], 1), ([""], 1), ([None], 2)],
)
def test_in_a_terminal_the_question_is_y_or_n(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    typed: list[str | None],
    status: int,
) -> None:
    answers = iter(typed)
    monkeypatch.setattr(command.sys, "stdin", _Terminal())
    monkeypatch.setattr(command, "_read_line", lambda timeout: next(answers))
    config = _config_file(tmp_path, '[[display]]\nkind = "terminal"\n')
    assert main(["calibrate", "--config", str(config)]) == status
    out = capsys.readouterr().out
    assert out.count("accept this calibration? [Y/n]") == len(typed)
    assert bool(_files(tmp_path)) is (status == 0)


def test_no_terminal_and_no_screen_saves_at_once(tmp_path: Path) -> None:
    config = _config_file(tmp_path, '[[display]]\nkind = "terminal"\n')
    assert main(["calibrate", "--config", str(config)]) == 0  # pytest's stdin is no terminal
    assert set(_files(tmp_path)) == {CALIBRATION_NAME, EMPTY_TRAY_NAME}


def test_json_saves_at_once_even_with_a_screen(
    tmp_path: Path, screen: MemoryDisplay, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", "--config", str(_config_file(tmp_path)), "--json"]) == 0
    assert '"saved": ' in capsys.readouterr().out
    assert set(_files(tmp_path)) == {CALIBRATION_NAME, EMPTY_TRAY_NAME}


@pytest.mark.parametrize(
    ("option", "value"),
    [("--accept-timeout", "0"), ("--accept-timeout", "nan"), ("--timeout", "-1")],
)
def test_a_bad_timeout_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, option: str, value: str
) -> None:
    config = _config_file(tmp_path)
    assert main(["calibrate", "--config", str(config), option, value]) == 2
    assert f"{option} {value}: give a number of seconds > 0" in caplog.text
    assert _files(tmp_path) == {}


# --- the menu's "Calibrate camera" --------------------------------------------------------------


def _measured(rig: Rig) -> None:
    view = rig.press(Button.MENU)
    rig.press(*[Button.SELECT] * view.menu.index("Calibrate camera"))
    rig.press(Button.ROLL)
    view = rig.until(lambda view: view.message.startswith("measured"), limit=150)
    assert view.prompt == ACCEPT_PROMPT and view.picture is not None and view.checks


def test_select_in_the_menu_discards_and_the_game_goes_on(tmp_path: Path) -> None:
    before = _previous(tmp_path)
    rig = open_rig(harness_config(tmp_path))
    with rig.table:
        reader = rig.table.controller.on_calibrated.__self__  # type: ignore[union-attr]
        params = reader.params
        _measured(rig)
        rig.press(Button.SELECT)
        view = rig.step()
        assert view.message == "calibration discarded; the previous one is kept"
        assert not view.alert and view.picture is None and view.checks == ()
        assert _files(tmp_path) == before
        assert reader.params is params  # the reader keeps the previous calibration
        # Back to the game: the table waits for a throw and reads it.
        view = rig.until(lambda view: len(view.dice) == 5 or "I see" in view.message, limit=100)
        assert len(view.dice) == 5


def test_stop_in_the_menu_saves_and_the_reader_takes_it(tmp_path: Path) -> None:
    before = _previous(tmp_path)
    rig = open_rig(harness_config(tmp_path))
    with rig.table:
        reader = rig.table.controller.on_calibrated.__self__  # type: ignore[union-attr]
        _measured(rig)
        assert _files(tmp_path) == before  # not saved before the players accept it
        rig.press(Button.STOP)
        assert rig.step().message.startswith("calibration saved")
        assert _files(tmp_path) != before
        assert reader.params.empty_tray is not None
        assert reader.params.empty_tray.shape[:2] != (480, 640)  # the new one, not the previous
        assert rig.until(is_waiting, limit=50)


def test_the_terminal_display_lists_the_checks_and_the_buttons(tmp_path: Path) -> None:
    from hardware.terminal import render_text

    rig = open_rig(harness_config(tmp_path))
    with rig.table:
        _measured(rig)
        text = render_text(rig.view)
        assert ACCEPT_PROMPT in text
        assert "  ok glare:" in text or "  FIX glare:" in text


def test_the_readme_names_the_prompt_and_the_exit_statuses() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Calibrate the camera") :].split("\n## ", 1)[0]
    assert f"`{ACCEPT_PROMPT}`" in section
    assert "--accept-timeout" in section and "--yes" in section
    assert "status 1" in section and "status 2" in section


def test_the_demo_accepts_with_stop_and_keeps_the_result_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    shots = tmp_path / "shots"
    command_line = ["demo", "--calibrate", "--fast", "--target", "300", "--seed", "2"]
    assert main([*command_line, "--screenshots", str(shots)]) == 0
    assert "; accepted with STOP" in capsys.readouterr().out
    picture = pygame.image.load(str(shots / "calibration-screen.png"))
    assert picture.get_size() == (800, 480)
