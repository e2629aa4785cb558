"""The calibration's live view: the camera's picture with the area and the dice boxed on the
screen, from the table's menu and from `dicekeeper calibrate`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from device import wiring
from device.calibration_flow import EMPTY_FRAMES, CalibrationFlow
from device.cli import main
from device.commands import calibrate as command
from device.web.state import state_json
from device.wiring import open_configured_camera
from hardware.buttons import Button, ScriptedButtons
from hardware.display import Display, MemoryDisplay
from hardware.view import Picture
from tests.device.harness import Rig, open_rig
from tests.device.harness import config as harness_config
from vision.annotate import READ_COLOUR
from vision.calibration import AREA_COLOUR


def _pixels_of(picture: Picture, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``picture`` (BGR) are ``colour``, give or take a little."""
    near = np.abs(picture.pixels.astype(int) - np.array(colour)) <= 30
    return int(np.all(near, axis=-1).sum())


def _choose_calibrate(rig: Rig) -> None:
    view = rig.press(Button.MENU)
    rig.press(*[Button.SELECT] * view.menu.index("Calibrate camera"))
    rig.press(Button.ROLL)


def test_the_menus_calibration_shows_the_area_then_the_dice_then_clears(tmp_path: Path) -> None:
    rig = open_rig(harness_config(tmp_path))
    with rig.table:
        assert rig.step().picture is None
        _choose_calibrate(rig)
        assert rig.view.picture is None  # the empty tray is still being looked at
        view = rig.until(lambda view: view.picture is not None, limit=20)
        assert "throw the dice" in view.message
        assert view.picture is not None and view.picture.pixels.shape[1] <= 640
        assert _pixels_of(view.picture, AREA_COLOUR) > 300  # the area's outline
        assert _pixels_of(view.picture, READ_COLOUR) == 0  # no dice yet
        boxed = rig.until(
            lambda view: view.picture is not None and _pixels_of(view.picture, READ_COLOUR) > 100,
            limit=100,
        )
        assert boxed.picture is not None and _pixels_of(boxed.picture, AREA_COLOUR) > 300
        asking = rig.until(lambda view: view.message.startswith("measured"), limit=100)
        # The result: the settled throw with the area and the dice boxed, until STOP saves it.
        assert asking.picture is not None and _pixels_of(asking.picture, READ_COLOUR) > 100
        assert _pixels_of(asking.picture, AREA_COLOUR) > 300
        rig.press(Button.STOP)
        done = rig.step()
        assert done.message.startswith("calibration saved") and done.picture is None
        # The web's state is the same with or without the picture, and stays JSON.
        with_picture = json.dumps(state_json(boxed))
        assert json.dumps(state_json(replace(boxed, picture=None))) == with_picture


def test_stop_clears_the_picture(tmp_path: Path) -> None:
    rig = open_rig(harness_config(tmp_path))
    with rig.table:
        _choose_calibrate(rig)
        rig.until(lambda view: view.picture is not None, limit=20)
        rig.press(Button.STOP)
        view = rig.step()
        assert view.message == "calibration cancelled" and view.picture is None


def _config_file(tmp_path: Path, displays: str) -> Path:
    path = tmp_path / "config.toml"
    state = tmp_path / "state"
    path.write_text(f'[state]\ndirectory = "{state}"\n[camera]\nseed = 3\n{displays}')
    return path


def test_the_command_shows_the_live_view_on_a_configured_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[tuple[str, dict[str, object]]] = []
    screen = MemoryDisplay()

    def open_display(name: str, /, **options: object) -> Display:
        opened.append((name, options))
        return screen

    monkeypatch.setattr(wiring, "open_display", open_display)
    buttons = ScriptedButtons(clock=lambda: 0.0)
    buttons.press(Button.STOP)  # the result accepted as soon as it is shown
    monkeypatch.setattr(command, "open_accept_buttons", lambda config: (buttons, "STOP: save"))
    displays = '[[display]]\nkind = "terminal"\n[[display]]\nkind = "screen"\nwidth = 640\n'
    config = _config_file(tmp_path, displays)
    assert main(["calibrate", "--config", str(config)]) == 0
    assert [name for name, _ in opened] == ["screen"] and opened[0][1]["width"] == 640
    assert screen.is_closed
    pictures = [view.picture for view in screen.views if view.picture is not None]
    assert pictures and all(_pixels_of(p, AREA_COLOUR) > 300 for p in pictures)
    assert _pixels_of(pictures[0], READ_COLOUR) == 0  # the empty tray first
    assert _pixels_of(pictures[-1], READ_COLOUR) > 100  # the settled test throw, boxed
    assert any("throw the dice" in view.message for view in screen.views)
    assert "throw the dice" in capsys.readouterr().out  # still printed too


def test_without_a_screen_the_command_only_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def open_display(name: str, /, **options: object) -> Display:
        raise AssertionError(f"no screen is configured, but {name!r} was opened")

    monkeypatch.setattr(wiring, "open_display", open_display)
    config = _config_file(tmp_path, '[[display]]\nkind = "terminal"\n')
    assert main(["calibrate", "--config", str(config)]) == 0


def test_the_flow_drops_its_picture_when_cancelled(tmp_path: Path) -> None:
    with open_configured_camera(harness_config(tmp_path)) as camera:
        flow = CalibrationFlow(camera, tmp_path)
        for step in range(EMPTY_FRAMES):
            assert flow.picture is None
            flow.step(step * 0.1)
        assert flow.picture is not None
        flow.cancel()
        assert flow.picture is None and flow.done
