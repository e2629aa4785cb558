"""Tests of the appliance configuration: defaults, every section, clear messages for bad keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.config import (
    ButtonsConfig,
    CameraConfig,
    ConfigError,
    DisplayConfig,
    default_displays,
    load_config,
    parse_config,
)
from device.wiring import simulated_style
from engine.errors import DicekeeperError
from vision.render import TrayStyle

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "config.example.toml"


def test_no_file_and_no_system_config_gives_defaults(tmp_path: Path) -> None:
    config = load_config(None, environ={}, system_config=tmp_path / "absent.toml")
    assert config.camera == CameraConfig()
    assert config.buttons == ButtonsConfig()
    assert config.source == "built-in defaults"
    assert config.game.rules == "greed"


def test_system_config_is_read_when_present(tmp_path: Path) -> None:
    system = tmp_path / "config.toml"
    system.write_text('[game]\nrules = "farkle"\n')
    config = load_config(None, environ={}, system_config=system)
    assert config.game.rules == "farkle"
    assert config.source == str(system)


@pytest.mark.parametrize(
    ("environ", "platform", "kind", "fullscreen"),
    [
        ({"DISPLAY": ":0"}, "linux", "screen", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", "screen", False),
        ({"SDL_VIDEODRIVER": "kmsdrm"}, "linux", "screen", True),
        ({}, "linux", "terminal", False),
        ({}, "darwin", "screen", False),
    ],
)
def test_default_display_follows_the_environment(
    environ: dict[str, str], platform: str, kind: str, fullscreen: bool
) -> None:
    (display,) = default_displays(environ, platform=platform)
    assert (display.kind, display.fullscreen) == (kind, fullscreen)


def test_every_section_is_read() -> None:
    config = parse_config(
        {
            "game": {"rules": "farkle", "players": ["Ann", "cpu:expert"], "target": 2000},
            "players": {"names": ["Ann", "Bob"], "computers": ["greedy:0.3"]},
            "camera": {
                "backend": "opencv",
                "index": 1,
                "width": 320,
                "height": 240,
                "roi": [[0, 0], [320, 0], [320, 240]],
                "settle_seconds": 0.25,
                "script": [[1, 5, 5]],
            },
            "buttons": {"backend": "gpio", "pins": {"roll": 5}, "long_press": 1.5},
            "display": [{"kind": "oled", "driver": "sh1106", "address": 0x3D}, {"kind": "screen"}],
            "state": {"directory": "/tmp/dk"},
        },
        environ={},
    )
    assert config.game.players == ("Ann", "cpu:expert")
    assert config.game.target == 2000
    assert config.camera.roi == ((0, 0), (320, 0), (320, 240))
    assert config.camera.script == ((1, 5, 5),)
    assert config.buttons.roll == 5 and config.buttons.stop == 27
    assert config.displays[0] == DisplayConfig(kind="oled", driver="sh1106", address=0x3D)
    assert config.displays[1].kind == "screen"
    assert config.state.directory == Path("/tmp/dk")


def test_the_example_config_is_valid() -> None:
    config = load_config(EXAMPLE, environ={})
    assert config.buttons.backend == "gpio"
    assert {d.kind for d in config.displays} >= {"oled"}
    assert config.system.shutdown == "poweroff"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"camera": {"backend": "webcam"}}, ["camera.backend", "'webcam'", "'opencv'"]),
        ({"camera": {"width": "wide"}}, ["camera.width", "'wide'", "whole number"]),
        ({"camera": {"width": 10}}, ["camera.width", "10", "64"]),
        ({"camera": {"roi": [[0, 0], [1]]}}, ["camera.roi", "[1]"]),
        ({"camera": {"script": [[1, 7]]}}, ["camera.script", "[1, 7]", "1 to 6"]),
        ({"camera": {"backend": "replay"}}, ["camera.path", "replay"]),
        ({"camera": {"widht": 10}}, ["camera.widht", "did you mean 'width'"]),
        ({"camera": {"backend": "opencv", "read_truth": True}}, ["camera.read_truth", "'opencv'"]),
        ({"buttons": {"pins": {"roll": 40}}}, ["buttons.pins.roll", "40", "27"]),
        ({"buttons": {"pins": {"roll": 27}}}, ["three different", "27"]),
        ({"buttons": {"long_press": True}}, ["buttons.long_press", "True", "number"]),
        ({"display": [{"kind": "hologram"}]}, ["display[1].kind", "'hologram'", "'oled'"]),
        ({"display": [{"driver": "ssd1306"}]}, ["display[1].kind", "missing"]),
        ({"display": {"kind": "oled"}}, ["[[display]]"]),
        ({"game": {"players": []}}, ["game.players", "at least one"]),
        ({"game": {"players": ["Ann", "Ann"]}}, ["game.players", "different"]),
        ({"game": {"players": ["Ann", "ann"]}}, ["game.players", "'ann'", "'Ann'", "case"]),
        (
            {"game": {"players": ["Expert", "cpu:expert"]}},
            ["game.players", "'cpu:expert'", "plays as 'Expert'", "'Expert'"],
        ),
        (
            {"game": {"players": ["cpu:greedy:0.3", "greedy 0.3"]}},
            ["game.players", "'greedy 0.3'", "'cpu:greedy:0.3'"],
        ),
        ({"game": {"players": ["cpu:"]}}, ["'cpu:'", "strategy"]),
        ({"players": {"computer_throws": "robot"}}, ["players.computer_throws", "'robot'"]),
        ({"gmae": {}}, ["'gmae'", "did you mean 'game'"]),
        ({"system": {"shutdown": "halt"}}, ["system.shutdown", "'halt'", "'poweroff'"]),
        ({"game": 3}, ["[game]", "table"]),
    ],
)
def test_bad_keys_are_named_with_value_and_what_is_allowed(
    data: dict[str, object], words: list[str]
) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(data, environ={})
    for word in words:
        assert word in str(info.value)
    assert isinstance(info.value, DicekeeperError) and isinstance(info.value, ValueError)


def test_a_bad_file_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera\nbackend = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad, environ={})
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml", environ={})
    wrong = tmp_path / "wrong.toml"
    wrong.write_text("[camera]\nfps = 0\n")
    with pytest.raises(ConfigError, match=r"wrong\.toml: camera\.fps = 0"):
        load_config(wrong, environ={})


def test_simulated_style_is_checked_and_fixed_for_the_session() -> None:
    assert parse_config({"camera": {"style": "random"}}, environ={}).camera.style == "random"
    with pytest.raises(ConfigError, match=r"camera.style = 'disco'.*'table'"):
        parse_config({"camera": {"style": "disco"}}, environ={})
    assert simulated_style("table", 5, (640, 480)) == TrayStyle()
    # drawn once from the seed, the same for every throw of the session
    assert simulated_style("random", 5, (640, 480)) == simulated_style("random", 5, (640, 480))
    assert simulated_style("random", 5, (640, 480)) != simulated_style("random", 6, (640, 480))
