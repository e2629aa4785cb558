"""Bad input from outside: lying or broken image files given to `dicekeeper read` and to the
replay camera at the table. Each gets one line naming it and exit status 2 (read), or a message with
the table going on (replay); never a traceback, never gigabytes decoded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.bad_images import bad_images, claimed_png, damaged_header_png
from device.config import ConfigError, parse_config
from tests.device.harness import SIZE, config, open_rig
from tests.vision.drawn import DrawnDie, draw


@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every kind of bad image file (the 20000×20000 PNG is about 400 KB, made once)."""
    return bad_images(tmp_path_factory.mktemp("bad"))


def _read(*images: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "device", "read", *map(str, images)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_read_names_each_bad_image_in_one_line_and_reads_the_good_ones(
    bad: dict[str, Path], tmp_path: Path
) -> None:
    good = tmp_path / "six.png"
    cv2.imwrite(str(good), draw([DrawnDie(320, 240, 80, 6, 0.0)]))
    result = _read(*bad.values(), good)
    assert result.returncode == 2
    assert result.stdout.splitlines() == [f"{good}: 6"]
    errors = result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    assert len(errors) == len(bad), result.stderr
    for line, path in zip(errors, bad.values(), strict=True):
        assert line.startswith(f"dicekeeper read: '{path}' "), line
    assert "too large" in errors[0] and "too large" in errors[1]


@pytest.mark.parametrize("name", ["header says 40000x40000", "20000x20000 image"])
def test_read_of_a_huge_image_alone_exits_2_at_once(bad: dict[str, Path], name: str) -> None:
    result = _read(bad[name])
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert "too large to read" in line


def test_the_table_says_a_replay_frame_is_bad_and_goes_on(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    tray = np.full((SIZE[1], SIZE[0], 3), 60, np.uint8)
    cv2.imwrite(str(frames / "a.png"), tray)
    damaged_header_png(frames / "b.png")
    claimed_png(frames / "c.png", 40_000, 40_000)
    cv2.imwrite(str(frames / "d.png"), tray)
    camera = {"backend": "replay", "path": str(frames), "width": SIZE[0], "height": SIZE[1]}
    rig = open_rig(config(tmp_path, extra={"camera": camera}), oracle=False)
    with rig.table:
        messages = [rig.step().message for _ in range(4)]
        assert "b.png" in messages[1] and "is not an image" in messages[1]
        assert "c.png" in messages[2] and "too large" in messages[2]
        assert "b.png" not in messages[3] and "c.png" not in messages[3]
        assert "ended" in rig.step().message  # the replay's end, as for any replay


OLED = {"kind": "oled"}


@pytest.mark.parametrize(
    ("pins", "displays", "camera", "words"),
    [
        ({"roll": 2}, [OLED], "simulated", "buttons.pins.roll = 2: GPIO 2 is the OLED's I2C data"),
        ({"stop": 3}, [OLED], "simulated", "buttons.pins.stop = 3: GPIO 3 is the OLED's I2C clock"),
        ({"select": 0}, [dict(OLED, port=0)], "simulated", "pins.select = 0: GPIO 0 is the OLED"),
        ({"roll": 1}, [], "picamera2", "buttons.pins.roll = 1: GPIO 1 is ID_SC"),
    ],
)
def test_a_button_on_a_pin_the_oled_or_camera_needs_is_refused(
    tmp_path: Path, pins: dict[str, int], displays: list[dict[str, object]], camera: str, words: str
) -> None:
    data = {
        "buttons": {"backend": "gpio", "pins": pins},
        "display": displays or [{"kind": "terminal"}],
        "camera": {"backend": camera},
    }
    with pytest.raises(ConfigError) as info:
        parse_config(data, environ={})
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("pins", "displays", "backend"),
    [
        ({"roll": 2}, [{"kind": "terminal"}], "gpio"),  # no OLED: GPIO 2 is free
        ({"roll": 2}, [OLED], "keyboard"),  # keyboard buttons use no pins
        ({"roll": 0}, [OLED], "gpio"),  # the OLED on bus 1, no Pi camera
    ],
)
def test_the_same_pins_are_fine_when_nothing_needs_them(
    pins: dict[str, int], displays: list[dict[str, object]], backend: str
) -> None:
    data = {"buttons": {"backend": backend, "pins": pins}, "display": displays}
    assert parse_config(data, environ={}).buttons.backend == backend


ESCAPE = "Ann\x1b[2J\x1b[31m"
LONG = "x" * 100_000


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"game": {"players": [ESCAPE, "Bob"]}}, "game.players: the name 'Ann\\x1b[2J"),
        ({"game": {"players": [LONG, "Bob"]}}, "(100,000 characters) is too long: at most 24"),
        ({"game": {"players": ["Ann\tBob"]}}, "game.players: the name 'Ann\\tBob' holds"),
        ({"players": {"names": ["Cleo", "Dan\nEve"]}}, "players.names: the name 'Dan\\nEve' holds"),
        ({"players": {"names": ["a" * 25]}}, "is too long"),
    ],
)
def test_player_names_must_be_printable_and_short(data: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(data, environ={})
    message = str(info.value)
    assert words in message
    assert "\x1b" not in message and "\n" not in message and len(message) < 200


def test_names_from_all_scripts_up_to_the_limit_are_fine() -> None:
    names = ["Zoë", "Ægir", "Дмитрий", "李小龍", "a" * 24, "Jean-Luc O'Neil"]
    config = parse_config({"players": {"names": names}}, environ={})
    assert config.players.names == tuple(names)


@pytest.mark.parametrize(("name", "words"), [(ESCAPE, "control characters"), (LONG, "too long")])
def test_play_refuses_a_bad_name_in_one_line(name: str, words: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "device", "play", "--rules", "greed", "--players", f"{name},Bob"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("dicekeeper play: --players: the name ") and words in line
    assert "\x1b" not in result.stdout + result.stderr


def test_run_refuses_a_button_on_the_oleds_data_line(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[buttons]\nbackend = "gpio"\n[buttons.pins]\nroll = 2\n[[display]]\nkind = "oled"\n'
        f'[state]\ndirectory = "{tmp_path / "state"}"\n'
    )
    result = subprocess.run(
        [sys.executable, "-m", "device", "run", "--config", str(cfg)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert "buttons.pins.roll = 2: GPIO 2 is the OLED's I2C data line" in line
