"""`dicekeeper calibrate`: on the simulated camera and on a stand-in real camera, its JSON, its
annotated picture, its exit statuses; the saved calibration (damaged files set aside) and the
table and the demo using it."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision
from device import wiring
from device.calibration import (
    CALIBRATION_NAME,
    EMPTY_TRAY_NAME,
    load_calibration,
    reader_params,
    save_calibration,
)
from device.calibration_flow import ACCEPT_PROMPT
from device.cli import main
from device.commands import calibrate as command
from device.config import parse_config
from device.wiring import open_table
from hardware.buttons import Button, ScriptedButtons
from tests.device.harness import Rig, is_waiting, open_rig
from tests.device.harness import config as harness_config
from vision.calibration import Calibration, Check
from vision.render import render_throw
from vision.types import Frame

CHECKS = ["glare", "looking-down", "light", "focus", "dice-size"]


def _config_file(tmp_path: Path, camera: str = "") -> Path:
    path = tmp_path / "config.toml"
    state = tmp_path / "state"
    path.write_text(f'[state]\ndirectory = "{state}"\n[camera]\nseed = 3\n{camera}')
    return path


def test_json_on_the_simulated_camera(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config_file(tmp_path)
    assert main(["calibrate", "--config", str(config), "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert set(result) == {"roi", "die_width_px", "checks", "saved"}
    assert len(result["roi"]) >= 4
    assert all(len(p) == 2 and all(isinstance(v, int) for v in p) for p in result["roi"])
    assert 20 < result["die_width_px"] < 80
    assert [c["name"] for c in result["checks"]] == CHECKS
    assert all(c["ok"] is True and c["advice"] for c in result["checks"])
    saved = Path(result["saved"])
    assert saved == tmp_path / "state" / CALIBRATION_NAME
    assert (saved.parent / EMPTY_TRAY_NAME).is_file()
    assert "throw the dice" in err  # the prompts go to stderr with --json


def test_text_and_annotated_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config_file(tmp_path, 'style = "phone-box"\n')
    picture = tmp_path / "calibration.png"
    assert main(["calibrate", "--config", str(config), "--annotate", str(picture)]) == 0
    lines = capsys.readouterr().out.splitlines()
    checks = [line for line in lines if line[:3] in ("ok ", "FIX")]
    assert [line.split()[1].rstrip(":") for line in checks] == CHECKS
    assert lines[-1].startswith("saved ")
    image = cv2.imread(str(picture))
    assert image is not None and image.shape == (480, 640, 3)
    # The area's outline and the dice's boxes are drawn on it.
    outline = np.all(image == (255, 200, 0), axis=-1).sum()
    boxes = np.all(image == (0, 200, 0), axis=-1).sum()
    assert outline > 500
    assert boxes > 100


def test_an_existing_annotate_file_is_overwritten_a_wrong_one_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """As every output file (README): an existing file is overwritten; a folder, a missing
    folder or another extension is refused before measuring."""
    config = _config_file(tmp_path)
    picture = tmp_path / "there.png"
    picture.write_bytes(b"old")
    assert main(["calibrate", "--config", str(config), "--annotate", str(picture), "--yes"]) == 0
    image = cv2.imread(str(picture))
    assert image is not None and image.shape == (480, 640, 3)
    (tmp_path / "state" / CALIBRATION_NAME).unlink()
    for wrong in (tmp_path / "picture.txt", tmp_path, tmp_path / "missing" / "a.png"):
        assert main(["calibrate", "--config", str(config), "--annotate", str(wrong)]) == 2
    assert not (tmp_path / "state" / CALIBRATION_NAME).exists()


class _Camera:
    """A stand-in real camera showing ``frames`` one per read, the last one for ever after."""

    def __init__(self, frames: list[Frame]) -> None:
        self.frames = frames
        self.reads = 0
        self.throws: list[int] = []

    def read(self) -> Frame:
        frame = self.frames[min(self.reads, len(self.frames) - 1)]
        self.reads += 1
        return frame.copy()

    def expect_throw(self, n: int) -> None:
        self.throws.append(n)

    def close(self) -> None:
        pass

    def __enter__(self) -> _Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[_Camera]]:
    cameras: list[_Camera] = []
    monkeypatch.setattr(command, "open_configured_camera", lambda config: cameras[0])
    yield cameras


def test_no_tray_to_be_seen(
    tmp_path: Path, stand_in: list[_Camera], caplog: pytest.LogCaptureFixture
) -> None:
    stand_in.append(_Camera([np.zeros((480, 640, 3), np.uint8)]))
    config = _config_file(tmp_path, 'backend = "opencv"\n')
    with caplog.at_level(logging.ERROR):
        assert main(["calibrate", "--config", str(config), "--json"]) == 2
    assert "no tray to be seen" in caplog.text
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
    assert not (tmp_path / "state" / CALIBRATION_NAME).exists()


def _throw_frames(seed: int = 4) -> list[Frame]:
    trays = render_throw([1, 2, 3, 4, 5], seed=seed, moving_frames=6, still_frames=1)
    return [tray.frame for tray in trays]


def test_a_real_camera_waits_for_the_dice_to_settle(
    tmp_path: Path, stand_in: list[_Camera]
) -> None:
    throw = _throw_frames()
    empty = render_throw([], seed=4, moving_frames=0, still_frames=1)[-1].frame
    frames = [empty] * (command.WARM_UP_FRAMES + command.EMPTY_FRAMES) + [empty] * 5 + throw
    stand_in.append(_Camera(frames))
    config = parse_config(
        {
            "camera": {"backend": "opencv", "settle_seconds": 0.5},
            "state": {"directory": str(tmp_path)},
        },
        environ={},
    )
    ticks = iter(np.arange(0, 1000, 0.1))
    outcome = command.run_calibration(config, say=lambda m: None, clock=lambda: float(next(ticks)))
    assert stand_in[0].throws == []  # a real camera is not told to throw
    assert outcome.throw is not None and np.array_equal(outcome.throw, throw[-1])
    assert sorted(v for v in outcome.reading.values if v) == [1, 2, 3, 4, 5]
    assert outcome.calibration.die_width_px is not None


def test_a_real_camera_gives_up_after_the_timeout(tmp_path: Path, stand_in: list[_Camera]) -> None:
    empty = render_throw([], seed=4, moving_frames=0, still_frames=1)[-1].frame
    stand_in.append(_Camera([empty]))
    config = parse_config(
        {"camera": {"backend": "opencv"}, "state": {"directory": str(tmp_path)}}, environ={}
    )
    ticks = iter(np.arange(0, 1000, 0.5))
    with pytest.raises(command.NoThrow, match="within 5 s"):
        command.run_calibration(
            config, say=lambda m: None, timeout=5.0, clock=lambda: float(next(ticks))
        )
    assert not (tmp_path / CALIBRATION_NAME).exists()


# --- the saved calibration --------------------------------------------------------------------


def _saved(tmp_path: Path) -> Path:
    empty = np.full((480, 640, 3), 90, np.uint8)
    result = Calibration(
        ((10, 10), (630, 10), (630, 470), (10, 470)), 40.0, (Check("a", True, "b"),)
    )
    return save_calibration(tmp_path, result, empty)


def test_saved_and_loaded(tmp_path: Path) -> None:
    _saved(tmp_path)
    saved, notice = load_calibration(tmp_path)
    assert notice is None and saved is not None
    assert saved.roi == ((10, 10), (630, 10), (630, 470), (10, 470))
    assert saved.die_width_px == 40.0
    assert saved.checks == (Check("a", True, "b"),)
    assert saved.empty_tray.shape == (480, 640, 3)
    params, unusable = reader_params(saved, (640, 480))
    assert unusable is None
    assert params.roi == saved.roi and params.empty_tray is saved.empty_tray
    configured, _ = reader_params(saved, (640, 480), ((0, 0), (5, 0), (5, 5)))
    assert configured.roi == ((0, 0), (5, 0), (5, 5))
    other, unusable = reader_params(saved, (1280, 960))
    assert other.empty_tray is None and other.roi is None
    assert unusable is not None and "640×480" in unusable
    assert load_calibration(tmp_path / "nothing") == (None, None)


@pytest.mark.parametrize(
    "damage",
    ["json", "keys", "picture", "size", "missing picture"],
)
def test_damaged_files_are_set_aside(tmp_path: Path, damage: str) -> None:
    path = _saved(tmp_path)
    picture = tmp_path / EMPTY_TRAY_NAME
    if damage == "json":
        path.write_text("{not json")
    elif damage == "keys":
        path.write_text(json.dumps({"version": 1, "roi": [[1, 2]]}))
    elif damage == "picture":
        picture.write_bytes(b"\x89PNG broken")
    elif damage == "size":
        cv2.imwrite(str(picture), np.zeros((10, 10, 3), np.uint8))
    else:
        picture.unlink()
    saved, notice = load_calibration(tmp_path, clock=lambda: 0.0)
    assert saved is None
    assert notice is not None and "damaged" in notice and "\n" not in notice
    assert not path.exists()
    assert (tmp_path / f"{CALIBRATION_NAME}.damaged-19700101T000000").exists()
    assert load_calibration(tmp_path) == (None, None)  # the table runs uncalibrated


def test_the_table_uses_the_calibration_and_warns_of_damage(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = parse_config(
        {"state": {"directory": str(tmp_path)}, "display": [{"kind": "terminal"}]}, environ={}
    )
    _saved(tmp_path)
    given: list[tuple[vision.ReaderParams, str | None]] = []

    def spy(*args: Any, **kwargs: Any) -> tuple[vision.ReaderParams, str | None]:
        given.append(reader_params(*args, **kwargs))
        return given[-1]

    monkeypatch.setattr(wiring, "reader_params", spy)
    with open_table(config, buttons=ScriptedButtons(clock=lambda: 0.0)):
        pass
    params, notice = given[0]
    assert notice is None
    assert params.roi == ((10, 10), (630, 10), (630, 470), (10, 470))
    assert params.empty_tray is not None
    (tmp_path / CALIBRATION_NAME).write_text("garbage")
    with (
        caplog.at_level(logging.WARNING),
        open_table(config, buttons=ScriptedButtons(clock=lambda: 0.0)),
    ):
        pass
    assert "is damaged" in caplog.text
    assert given[1][0].roi is None and given[1][0].empty_tray is None


def test_demo_calibrates_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    used: list[object] = []
    real = command.calibrate

    def spy(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        used.append(result)
        return result

    monkeypatch.setattr(command, "calibrate", spy)
    assert main(["demo", "--calibrate", "--fast", "--target", "300", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "calibrated: throwing area of 4 corners" in out
    assert "every check passed; accepted with STOP" in out
    assert len(used) == 1
    assert out.splitlines()[-1].startswith("reader: ")


def test_the_default_look_fills_the_frame(tmp_path: Path) -> None:
    # The simulated camera's default look fills the frame: its area is the whole frame.
    config = parse_config({"state": {"directory": str(tmp_path)}}, environ={})
    outcome = command.run_calibration(config, say=lambda m: None)
    xs = [x for x, _ in outcome.calibration.roi]
    ys = [y for _, y in outcome.calibration.roi]
    assert min(xs) <= 3 and max(xs) >= 637 and min(ys) <= 3 and max(ys) >= 477


# --- the menu's "Calibrate camera" --------------------------------------------------------------


def _choose_calibrate(rig: Rig) -> None:
    view = rig.press(Button.MENU)
    rig.press(*[Button.SELECT] * view.menu.index("Calibrate camera"))
    rig.press(Button.ROLL)


def test_the_menu_calibrates_with_its_messages_on_the_screen(tmp_path: Path) -> None:
    rig = open_rig(harness_config(tmp_path))
    with rig.table:
        _choose_calibrate(rig)
        assert "keep hands and dice out" in rig.view.message
        assert rig.view.prompt == "calibrating the camera: STOP cancels"
        rig.until(lambda view: "throw the dice" in view.message, limit=20)
        asking = rig.until(lambda view: view.message.startswith("measured"), limit=100)
        assert asking.prompt == ACCEPT_PROMPT
        assert asking.picture is not None and len(asking.checks) == len(CHECKS)
        saved = tmp_path / "state" / CALIBRATION_NAME
        # The result waits for the players: nothing saved, however long it stays on the screen.
        assert rig.step(30).message == asking.message and not saved.exists()
        rig.press(Button.STOP)
        view = rig.step()
        assert view.message.startswith("calibration saved") and not view.alert
        assert view.picture is None and view.checks == ()
        record = json.loads(saved.read_text())
        to_fix = [c["name"] for c in record["checks"] if not c["ok"]]
        assert view.message.endswith(f"fix: {', '.join(to_fix)}" if to_fix else "passed")
        # The checks on the result screen: one line each, those to fix first.
        fix_first = sorted(record["checks"], key=lambda c: c["ok"])
        assert [line.split()[1].rstrip(":") for line in asking.checks] == [
            c["name"] for c in fix_first
        ]
        assert [line.startswith("FIX") for line in asking.checks] == [
            not c["ok"] for c in fix_first
        ]
        calibrated = rig.table.controller.on_calibrated
        assert calibrated is not None
        params = calibrated.__self__.params  # type: ignore[attr-defined]
        assert params.empty_tray is not None and params.roi is not None
        # The game goes on: a fresh throw is read, not the test dice.
        view = rig.until(lambda view: len(view.dice) == 5 or "I see" in view.message, limit=100)
        assert len(view.dice) == 5


def test_stop_cancels_the_menus_calibration(tmp_path: Path) -> None:
    rig = open_rig(harness_config(tmp_path))
    with rig.table:
        _choose_calibrate(rig)
        rig.step(2)
        view = rig.press(Button.STOP)
        view = rig.step()
        assert view.message == "calibration cancelled" and view.alert
        assert not (tmp_path / "state" / CALIBRATION_NAME).exists()


def test_after_the_menus_calibration_the_test_dice_are_no_players_throw(tmp_path: Path) -> None:
    rig = open_rig(harness_config(tmp_path, script=[[1, 1, 1, 5, 2]]))
    with rig.table:
        rig.until(is_waiting)
        rig.press(Button.ROLL)  # the 1s and the 5 kept: one die to throw
        _choose_calibrate(rig)
        rig.until(lambda view: view.message.startswith("measured"), limit=150)
        rig.press(Button.STOP)
        # The six test dice still lie in the tray: the table waits for a fresh throw of one.
        view = rig.until(
            lambda view: "I see" in view.message or "Ann" not in view.prompt or is_waiting(view),
            limit=100,
        )
        assert "I see" not in view.message
