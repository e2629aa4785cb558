"""What a newcomer stumbled on at the command line: computer seats in `play`, progress without a
terminal, one-line errors for bad output paths, hints that are valid config, displays that do not
work."""

from __future__ import annotations

import io
import re
import sys
import tomllib
from pathlib import Path

import pygame
import pytest

import device.commands.tournament as tournament
from device.cli import main
from device.commands.play import TerminalGame, seats
from device.commands.tournament import ProgressBar
from device.config import Config, parse_config
from device.wiring import open_table
from engine.game import Game
from engine.rules import find_rules
from hardware import DisplayUnavailable
from hardware.gpio_buttons import KEYBOARD_HINT
from hardware.screen import ScreenDisplay
from hardware.simulated_camera import SIMULATED_HINT
from tests.device.harness import config

ROOT = Path(__file__).resolve().parents[2]


def one_error(capsys: pytest.CaptureFixture[str], command: str) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"dicekeeper {command}: ")
    return lines[0]


# --- play seats computer players --------------------------------------------------------------


def test_play_seats_cpu_specs_as_computer_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--rules", "greed", "--players", "cpu:expert,cpu:bold,cpu:expert"]
    assert main([*argv, "--seed", "3"]) == 0  # no input needed: the computers play it out
    out = capsys.readouterr().out
    assert "== Expert's turn" in out and "== Bold's turn" in out and "== Expert 2's turn" in out
    assert "cpu:" not in out.lower()
    assert re.search(r"^(Expert|Bold|Expert 2) wins with \d+\.$", out, re.MULTILINE)


def test_a_person_and_a_computer_take_turns() -> None:
    names, computers = seats(["Ann", "cpu:greedy:0.3"])
    assert names == ["Ann", "Greedy 0.3"] and list(computers) == ["Greedy 0.3"]
    lines: list[str] = []
    asked: list[str] = []
    game = Game(find_rules("farkle"), names, rng=__import__("random").Random(1))

    def read(question: str) -> str:
        asked.append(question)
        return "" if len(asked) < 30 else "q"

    TerminalGame(game, read=read, write=lines.append, computers=computers).play()
    text = "\n".join(lines)
    assert "Greedy 0.3 throws" in text and "Greedy 0.3 banks" in text
    assert "Ann throws" in text
    assert game.state.players[1].turns >= 1  # the computer played without being asked


def test_play_refuses_an_unknown_computer_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rules", "greed", "--players", "Ann,cpu:genius"]) == 2
    assert "'genius'" in one_error(capsys, "play")


# --- tournament: progress without a terminal, the plot checked first and reported ------------


def test_progress_without_a_terminal_is_a_line_every_interval() -> None:
    now = [0.0]
    stream = io.StringIO()  # a pipe, a log file, the journal: not a terminal
    bar = ProgressBar(stream, label="games", interval=30, clock=lambda: now[0])
    for done in range(1, 101):
        now[0] = done * 1.0  # a game a second
        bar.update(done, 100)
    bar.close()
    assert stream.getvalue().splitlines() == [
        "games: 30/100 (30%)",
        "games: 60/100 (60%)",
        "games: 90/100 (90%)",
        "games: 100/100 (100%)",
    ]


@pytest.mark.parametrize(
    ("plot", "words"),
    [
        ("missing-folder/plot.png", ["does not exist", "missing-folder"]),
        ("plot.txt", ["'.txt'", "no image format", ".png"]),
        ("plot", ["no extension"]),
        (".", ["is a folder"]),
    ],
)
def test_a_bad_plot_path_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    plot: str,
    words: list[str],
) -> None:
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("games were played before the plot path was checked")

    monkeypatch.setattr(tournament, "run_tournament", never)
    argv = ["tournament", "--rules", "pig", "--players", "expert,bold", "--games", "500"]
    assert main([*argv, "--plot", str(tmp_path / plot)]) == 2
    line = one_error(capsys, "tournament")
    for word in words:
        assert word in line


def test_the_tournament_says_where_the_plot_went(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    picture = tmp_path / "pig.png"
    picture.write_bytes(b"an old plot")  # an existing plot is overwritten
    argv = ["tournament", "--rules", "pig", "--players", "expert,bold", "--games", "4"]
    assert main([*argv, "--json", "--plot", str(picture)]) == 0
    captured = capsys.readouterr()
    assert str(picture) in captured.err and str(picture) not in captured.out
    assert picture.read_bytes().startswith(b"\x89PNG")


# --- read --annotate and demo --screenshots given a file ------------------------------------


def test_read_annotate_into_a_file_is_refused_before_reading(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    image = next((ROOT / "tests" / "vision" / "trays").glob("*.png"))
    assert main(["read", "--annotate", str(taken), str(image)]) == 2
    assert "is a file, not a folder" in one_error(capsys, "read").replace(str(taken), "")
    assert taken.read_text() == "mine"


def test_read_annotate_into_a_new_folder_creates_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    image = next((ROOT / "tests" / "vision" / "trays").glob("*.png"))
    assert main(["read", "--annotate", str(tmp_path / "a" / "b"), str(image)]) == 0
    assert list((tmp_path / "a" / "b").glob("*.annotated.png"))


def test_demo_screenshots_into_a_file_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    taken = tmp_path / "shots"
    taken.write_text("mine")
    assert main(["demo", "--fast", "--screenshots", str(taken)]) == 2
    line = one_error(capsys, "demo")
    assert str(taken) in line and "--screenshots" in line and "not a folder" in line
    assert taken.read_text() == "mine"


# --- hints that are valid configuration, errors without Python dicts ------------------------


@pytest.mark.parametrize("hint", [SIMULATED_HINT, KEYBOARD_HINT])
def test_every_hint_is_valid_config_as_written(hint: str) -> None:
    found = re.search(r'set (\w+) = "(\w+)" under \[(\w+)\]', hint)
    assert found is not None, hint
    key, value, table = found.groups()
    parsed = parse_config(tomllib.loads(f'[{table}]\n{key} = "{value}"\n'), environ={})
    assert getattr(getattr(parsed, table), key) == value


def test_the_gpio_error_names_the_pins_as_the_config_does(mock_factory: object) -> None:
    from hardware.buttons import open_buttons
    from hardware.errors import ButtonsUnavailable, InvalidOption

    with pytest.raises(ButtonsUnavailable) as unavailable:
        open_buttons("gpio", roll=99, stop=27, select=22)
    with pytest.raises(InvalidOption) as same:
        open_buttons("gpio", roll=17, stop=17, select=22)
    for message in (str(unavailable.value), str(same.value)):
        assert "{" not in message and "<Button" not in message
    assert "roll=99, stop=27, select=22" in str(unavailable.value)


def test_the_example_config_marks_every_value_that_is_not_the_default() -> None:
    text = (ROOT / "systemd" / "config.example.toml").read_text()
    data = tomllib.loads(text)
    defaults = Config()
    undeclared = []
    for table, values in data.items():
        if table == "display":
            continue
        section = getattr(defaults, table)
        for key, value in values.items():
            if key == "pins":
                pairs = [(f"{k} = ", v, getattr(section, k)) for k, v in value.items()]
            else:
                pairs = [(f"{key} = ", value, getattr(section, key))]
            for start, shown, default in pairs:
                default = list(default) if isinstance(default, tuple) else default
                default = "" if default is None else default
                line = next(ln for ln in text.splitlines() if ln.startswith(start))
                if shown != default and "default:" not in line:
                    undeclared.append(line)
    assert undeclared == []
    screen = next(d for d in data["display"] if d["kind"] == "screen")
    assert screen["fullscreen"] is True and re.search(r"fullscreen = true +# default: false", text)
    assert "Without any [[display]] the default is" in text
    assert "a missing key takes the default shown" not in text


# --- displays that cannot show anything ----------------------------------------------------


def test_a_screen_sdl_opened_offscreen_is_not_a_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    # SDL_VIDEODRIVER=dummy (set for the tests) is asked for by name: a screen for screenshots.
    ScreenDisplay(width=80, height=60).close()
    # With nothing asked for, SDL falls back to "offscreen" where there is no desktop.
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    with pytest.raises(DisplayUnavailable, match=r"'offscreen'.*kmsdrm.*terminal"):
        ScreenDisplay(width=80, height=60)
    assert not pygame.display.get_init()


def _no_i2c(monkeypatch: pytest.MonkeyPatch) -> None:
    from luma.core.error import DeviceNotFoundError
    from luma.core.interface import serial

    def missing(**options: object) -> object:
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")

    monkeypatch.setattr(serial, "i2c", missing)


def test_an_oled_only_table_without_its_oled_stops_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_i2c(monkeypatch)
    with pytest.raises(DisplayUnavailable, match=r"no display works \(configured: oled\)"):
        open_table(config(tmp_path, displays=[{"kind": "oled"}]))
    path = tmp_path / "config.toml"
    path.write_text(f'[state]\ndirectory = "{tmp_path / "state"}"\n[[display]]\nkind = "oled"\n')
    assert main(["run", "--config", str(path)]) == 2
    assert "no display works" in one_error(capsys, "run")


def test_the_readme_commands_work_after_make_run() -> None:
    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert "source .venv/bin/activate" in setup  # then `dicekeeper ...` is on the PATH
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.MULTILINE) and ".venv" in makefile
    venv_bin = Path(sys.executable).parent
    assert (venv_bin / "activate").is_file() and (venv_bin / "dicekeeper").is_file()
