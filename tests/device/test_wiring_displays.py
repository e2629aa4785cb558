"""`device.wiring.open_configured_displays`: the displays of the configuration, opened by `run`'s
rules, which `open_table` and `dicekeeper calibrate` share. A display that cannot open is left
out while another serves; when none does, one line says so; the terminal can be left out."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy

from device import wiring
from device.config import Config, parse_config
from device.wiring import open_configured_displays, open_table
from hardware.buttons import ScriptedButtons
from hardware.display import Display, MemoryDisplay
from hardware.errors import DisplayUnavailable
from hardware.oled import OledDisplay
from hardware.terminal import TerminalDisplay


def _config(tmp_path: Path, *kinds: str) -> Config:
    return parse_config(
        {
            "state": {"directory": str(tmp_path / "state")},
            "display": [{"kind": kind} for kind in kinds],
        },
        environ={},
    )


@pytest.fixture
def no_i2c(monkeypatch: pytest.MonkeyPatch) -> None:
    """No OLED answers on the I2C bus."""
    from luma.core.error import DeviceNotFoundError
    from luma.core.interface import serial

    def missing(**options: object) -> object:
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")

    monkeypatch.setattr(serial, "i2c", missing)


@pytest.fixture
def no_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """No screen can open (no video driver)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-video-driver")


def _kinds(displays: tuple[Display, ...]) -> list[str]:
    return [type(display).__name__ for display in displays]


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.usefixtures("no_i2c")
def test_a_missing_oled_beside_the_terminal_is_left_out_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = _config(tmp_path, "oled", "terminal")
    with caplog.at_level(logging.WARNING), open_configured_displays(config) as displays:
        assert _kinds(displays.displays) == ["TerminalDisplay"]
    (warning,) = _warnings(caplog)
    assert "carrying on without the OLED" in warning
    caplog.clear()
    # Left out (calibrate prints its own lines), the terminal still serves: no error.
    with (
        caplog.at_level(logging.WARNING),
        open_configured_displays(config, terminal=False) as displays,
    ):
        assert displays.displays == ()
    assert len(_warnings(caplog)) == 1


@pytest.mark.usefixtures("no_i2c", "no_screen")
@pytest.mark.parametrize(
    ("kinds", "configured"),
    [(("oled",), "oled"), (("screen", "oled"), "screen, oled"), (("screen",), "screen")],
)
def test_when_no_display_works_one_line_says_so(
    tmp_path: Path, kinds: tuple[str, ...], configured: str
) -> None:
    for terminal in (True, False):
        with pytest.raises(DisplayUnavailable) as raised:
            open_configured_displays(_config(tmp_path, *kinds), terminal=terminal)
        message = str(raised.value)
        assert message.startswith(f"no display works (configured: {configured}): ")
        assert "\n" not in message


@pytest.mark.usefixtures("no_screen")
def test_a_missing_screen_is_one_warning_while_another_display_serves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cases: list[tuple[Config, dict[str, Any]]] = [
        (_config(tmp_path, "screen", "terminal"), {}),
        (_config(tmp_path, "screen", "terminal"), {"terminal": False}),
        (_config(tmp_path, "screen"), {"others_serve": True}),
    ]
    for config, options in cases:
        caplog.clear()
        with (
            caplog.at_level(logging.WARNING),
            open_configured_displays(config, **options) as displays,
        ):
            assert "screen" not in " ".join(_kinds(displays.displays)).lower()
        (warning,) = _warnings(caplog)
        assert warning.startswith("display 'screen' unavailable, carrying on without it: ")


def test_the_terminal_is_left_out_on_request(tmp_path: Path) -> None:
    oled = dummy(width=128, height=64, mode="1")
    config = _config(tmp_path, "oled", "terminal")
    with open_configured_displays(config, oled_device=oled) as displays:
        assert [type(d) for d in displays.displays] == [OledDisplay, TerminalDisplay]
    with open_configured_displays(config, oled_device=oled, terminal=False) as displays:
        assert [type(d) for d in displays.displays] == [OledDisplay]


@pytest.mark.parametrize(
    ("kinds", "options", "tolerant"),
    [
        (("oled",), {}, False),  # the only display: its failure must be seen
        (("oled",), {"others_serve": True}, True),
        (("oled", "terminal"), {}, True),
        (("oled", "terminal"), {"terminal": False}, True),
    ],
)
def test_an_oled_beside_other_displays_tolerates_io_errors(
    tmp_path: Path, kinds: tuple[str, ...], options: dict[str, Any], tolerant: bool
) -> None:
    oled = dummy(width=128, height=64, mode="1")
    config = _config(tmp_path, *kinds)
    with open_configured_displays(config, oled_device=oled, **options) as displays:
        (shown,) = [d for d in displays.displays if isinstance(d, OledDisplay)]
        assert shown.tolerate_errors is tolerant


def test_what_it_opened_is_closed_when_a_later_display_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[MemoryDisplay] = []

    def open_display(name: str, /, **options: object) -> Display:
        if name == "screen":
            raise RuntimeError("the screen's driver crashed")
        opened.append(MemoryDisplay())
        return opened[-1]

    monkeypatch.setattr(wiring, "open_display", open_display)
    with pytest.raises(RuntimeError, match="driver crashed"):
        open_configured_displays(_config(tmp_path, "oled", "terminal", "screen"))
    assert len(opened) == 2
    assert all(display.is_closed for display in opened)


@pytest.mark.usefixtures("no_i2c")
def test_the_table_counts_its_extra_displays_as_serving(tmp_path: Path) -> None:
    extra = MemoryDisplay()
    config = _config(tmp_path, "oled")
    with open_table(
        config, buttons=ScriptedButtons(clock=lambda: 0.0), extra_displays=[extra]
    ) as table:
        assert table.display.displays == (extra,)
    with pytest.raises(DisplayUnavailable, match=r"^no display works \(configured: oled\)"):
        open_table(config, buttons=ScriptedButtons(clock=lambda: 0.0))
