"""`dicekeeper calibrate` on a Pi with GPIO buttons and an OLED but no HDMI screen: the OLED shows
the steps, the result (what to fix first) and what STOP and SELECT do; an OLED that cannot open or
stops answering follows `run`'s rules. The OLED is luma's ``dummy`` behind a faked I2C bus, so the
command opens it from the configuration as on the Pi. PNGs go to $DICEKEEPER_SHOTS when set."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw

from device.calibration import CALIBRATION_NAME
from device.calibration_flow import ACCEPT_PROMPT, check_lines, summary
from device.cli import main
from device.commands import calibrate as command
from hardware.oled import _length, render_oled
from hardware.view import Picture, TableView
from tests.device import test_calibration_accept as accept
from tests.device.conftest import FakeTime
from tests.hardware.test_correction_screens import shots
from vision.calibration import Calibration

OLED = '[buttons]\nbackend = "gpio"\n[[display]]\nkind = "oled"\n'
STOP_PIN, SELECT_PIN = 27, 22  # the configuration's default BCM pins
PROMPT_ROWS = (0, 44, 128, 64)
"""Where the OLED's calibration layout draws the prompt."""


class RecordingOled(dummy):  # type: ignore[misc]
    """luma's dummy OLED keeping every image drawn on it; ``fail_after`` draws, it stops
    answering (an I/O error, as a loose wire gives)."""

    made: ClassVar[list[RecordingOled]] = []

    def __init__(self, *, fail_after: int | None = None, **options: Any) -> None:
        super().__init__(mode="1", **options)
        self.images: list[Image.Image] = []
        self.fail_after = fail_after
        RecordingOled.made.append(self)

    def display(self, image: Image.Image) -> None:
        if self.fail_after is not None and len(self.images) >= self.fail_after:
            raise OSError(121, "Remote I/O error")
        super().display(image)
        self.images.append(self.image)


@pytest.fixture
def oled(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """An SSD1306 on the I2C bus, as luma opens it: a `RecordingOled`. Set "fail_after" in the
    returned options to have it stop answering."""
    from luma.core.interface import serial
    from luma.oled import device as oled_devices

    options: dict[str, Any] = {}
    RecordingOled.made = []
    monkeypatch.setattr(serial, "i2c", lambda **kwargs: object())

    def ssd1306(bus: object, *, width: int, height: int, rotate: int) -> RecordingOled:
        return RecordingOled(width=width, height=height, rotate=rotate, **options)

    monkeypatch.setattr(oled_devices, "ssd1306", ssd1306)
    return options


def _config_file(tmp_path: Path, extra: str = OLED) -> Path:
    path = tmp_path / "config.toml"
    state = tmp_path / "state"
    path.write_text(f'[state]\ndirectory = "{state}"\n[camera]\nseed = 3\n{extra}')
    return path


def _drawn(view: TableView) -> bytes:
    """``view`` as the OLED draws it."""
    image = Image.new("1", (128, 64))
    render_oled(view, ImageDraw.Draw(image))
    return image.tobytes()


def _press_after(fake_time: FakeTime, mock_factory: Any, pin: int) -> None:
    """A person presses ``pin`` a while after the result is shown, then lets go."""

    def person(number: int) -> None:
        if number == 10:
            mock_factory.pin(pin).drive_low()
        elif number == 12:
            mock_factory.pin(pin).drive_high()

    fake_time.on_sleep = person


A_PICTURE = Picture(np.zeros((1, 1, 3), np.uint8))
TITLE = "calibrating the camera"


def test_the_oled_shows_the_steps_the_result_and_the_buttons(
    tmp_path: Path,
    oled: dict[str, Any],
    mock_factory: Any,
    fake_time: FakeTime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results: list[Calibration] = []
    real = command.calibrate

    def spy(*args: Any) -> Calibration | None:
        results.append(real(*args))
        return results[-1]

    monkeypatch.setattr(command, "calibrate", spy)
    _press_after(fake_time, mock_factory, STOP_PIN)
    assert main(["calibrate", "--config", str(_config_file(tmp_path))]) == 0
    assert (tmp_path / "state" / CALIBRATION_NAME).exists()
    (device,) = RecordingOled.made
    drawn = [image.tobytes() for image in device.images]
    (result,) = results
    steps = [
        TableView(
            title=TITLE,
            prompt="Ctrl+C cancels",
            message="looking at the empty tray: keep hands and dice out of it",
        ),
        TableView(
            title=TITLE,
            prompt="Ctrl+C cancels",
            message="throwing area found: 4 corners; now throw the dice into the tray",
            picture=A_PICTURE,
        ),
        TableView(
            title=TITLE,
            prompt=ACCEPT_PROMPT,
            message=f"measured: {summary(result)}",
            alert=not all(check.ok for check in result.checks),
            picture=A_PICTURE,
            checks=check_lines(result.checks),
        ),
    ]
    expected = [_drawn(view) for view in steps]
    assert [image in drawn for image in expected] == [True, True, True]
    positions = [drawn.index(image) for image in expected]
    assert positions == sorted(positions)  # in this order
    assert drawn[-2] == _drawn(steps[-1])  # the result stayed until the OLED was blanked
    folder = shots()
    if folder is not None:
        picture = device.images[-2].convert("L").resize((512, 256), Image.Resampling.NEAREST)
        picture.save(folder / "calibrate-accept-oled.png")


def test_select_on_the_oled_table_discards(
    tmp_path: Path, oled: dict[str, Any], mock_factory: Any, fake_time: FakeTime
) -> None:
    _press_after(fake_time, mock_factory, SELECT_PIN)
    assert main(["calibrate", "--config", str(_config_file(tmp_path))]) == 1
    assert not (tmp_path / "state" / CALIBRATION_NAME).exists()
    (device,) = RecordingOled.made
    asking = Image.new("1", (128, 64))
    render_oled(TableView(prompt=ACCEPT_PROMPT, checks=("ok a: b",)), ImageDraw.Draw(asking))
    rows = asking.crop(PROMPT_ROWS).tobytes()
    assert any(image.crop(PROMPT_ROWS).tobytes() == rows for image in device.images)


def test_the_result_screen_says_what_to_fix_first_and_fits_its_prompt() -> None:
    fix = (
        "FIX light: too dark (the brightest parts at grey 40 of 255): add light above the tray "
        "or raise the camera's exposure"
    )
    other_fix = (
        "FIX light: too dark (grey 41 of 255): add light above the tray or raise the exposure"
    )
    ok = ("ok glare: no glare spots on the tray", "ok focus: the dice are in focus (blur 0.10)")
    view = TableView(title=TITLE, prompt=ACCEPT_PROMPT, message="measured: ...", picture=A_PICTURE)
    with_fix = _drawn(replace(view, checks=(fix, *ok)))
    # What to do is shown, not the measurement behind it; ok checks need no room then.
    assert with_fix == _drawn(replace(view, checks=(fix,)))
    assert with_fix != _drawn(replace(view, checks=(other_fix, *ok)))
    assert with_fix != _drawn(replace(view, checks=ok))
    # Each button's clause fits the OLED's width whole (the prompt's rows, a clause on each).
    for prompt in (ACCEPT_PROMPT, command.KEYBOARD_PROMPT):
        clauses = prompt.split("  ")
        assert len(clauses) == 2
        assert all(_length(clause.replace(" ", "  "), 10) <= 128 for clause in clauses)


def _no_i2c(monkeypatch: pytest.MonkeyPatch) -> None:
    from luma.core.error import DeviceNotFoundError
    from luma.core.interface import serial

    def missing(**options: object) -> object:
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")

    monkeypatch.setattr(serial, "i2c", missing)


def test_an_oled_only_table_without_its_oled_stops_before_measuring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _no_i2c(monkeypatch)

    def no_camera(config: object) -> object:
        raise AssertionError("nothing is measured")

    monkeypatch.setattr(command, "open_configured_camera", no_camera)
    config = _config_file(tmp_path, '[[display]]\nkind = "oled"\n')
    with caplog.at_level(logging.WARNING):
        assert main(["calibrate", "--config", str(config), "--yes"]) == 2
    (error,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    message = error.getMessage()
    assert message.startswith("no display works (configured: oled): no ssd1306 OLED at I2C")
    assert "\n" not in message
    assert not (tmp_path / "state" / CALIBRATION_NAME).exists()


def test_a_missing_oled_beside_the_terminal_is_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _no_i2c(monkeypatch)
    extra = '[[display]]\nkind = "oled"\n[[display]]\nkind = "terminal"\n'
    with caplog.at_level(logging.WARNING):
        assert main(["calibrate", "--config", str(_config_file(tmp_path, extra)), "--yes"]) == 0
    (warning,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "carrying on without the OLED" in warning.getMessage()
    assert (tmp_path / "state" / CALIBRATION_NAME).exists()


def test_an_oled_that_stops_answering_is_one_warning_and_the_calibration_goes_on(
    tmp_path: Path,
    oled: dict[str, Any],
    mock_factory: Any,
    fake_time: FakeTime,
    caplog: pytest.LogCaptureFixture,
) -> None:
    oled["fail_after"] = 2
    _press_after(fake_time, mock_factory, STOP_PIN)
    with caplog.at_level(logging.WARNING):
        assert main(["calibrate", "--config", str(_config_file(tmp_path))]) == 0
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("the OLED stopped answering" in message for message in warned) == 1
    assert (tmp_path / "state" / CALIBRATION_NAME).exists()


def test_the_demo_calibrates_on_the_oled_and_saves_its_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The demo's run with --calibrate --screenshots, accepted with STOP (the screen's PNG checked
    # there), then the OLED's PNG beside it.
    accept.test_the_demo_accepts_with_stop_and_keeps_the_result_screen(
        tmp_path, monkeypatch, capsys
    )
    shots_folder = tmp_path / "shots"
    saved = Image.open(shots_folder / "calibration-oled.png")
    assert saved.size == (512, 256)  # named and sized as the demo's other OLED screenshots
    assert saved.size == Image.open(shots_folder / "final-oled.png").size
    shown = saved.resize((128, 64), Image.Resampling.NEAREST).point(lambda v: 255 * (v > 127))
    # The result as `dicekeeper calibrate` draws it on the OLED: the step and what STOP and
    # SELECT do, a clause on each of the prompt's rows.
    asking = Image.new("1", (128, 64))
    render_oled(TableView(prompt=ACCEPT_PROMPT, checks=("ok a: b",)), ImageDraw.Draw(asking))
    rows = shown.convert("1").crop(PROMPT_ROWS).tobytes()
    assert rows == asking.crop(PROMPT_ROWS).tobytes()
    assert shown.crop((0, 0, 128, 44)).getbbox() is not None
