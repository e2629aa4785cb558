"""Rule files at the table and on the command line: names and paths alike, no dice, the listing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import device.rules_file
import engine.rules
from device.cli import build_parser, main
from device.config import ConfigError
from device.rules_file import find_rules_or_file, register_rules_folders, rules_folders
from device.session import Seat, Session, rules_for
from device.store import GameStore
from device.wiring import check_game_config
from engine.dice import Throw
from engine.errors import InvalidRules, UnknownRules
from engine.events import Thrown
from engine.rules import builtin_rules, find_rules, rules_names
from engine.rules_toml import parse_rules
from engine.scoring import score_throw
from hardware.buttons import Button
from tests.device.harness import config, open_rig


def test_score_with_no_dice_says_it_scores_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rules", "greed-koans"]) == 0
    assert "no dice: a throw of no dice scores 0" in capsys.readouterr().out
    assert main(["score", "--rules", "greed-koans", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["best"], data["options"], data["bust"]) == (0, [], False)


HOUSE = """
name = "house-zilch"
description = "Zilch to 5000 with a full house"
base = "zilch"
target = 5000
[scoring]
four_and_pair = 2000
"""


@pytest.fixture(autouse=True)
def _own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule files registered by a test are forgotten after it."""
    builtin_rules()
    monkeypatch.setattr(engine.rules, "_REGISTRY", dict(engine.rules._REGISTRY))
    monkeypatch.setattr(device.rules_file, "_from_files", {})


def _write(folder: Path, text: str = HOUSE, name: str = "house.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_names_and_paths_alike(tmp_path: Path) -> None:
    path = _write(tmp_path)
    assert find_rules_or_file("zilch").name == "zilch"
    rules = find_rules_or_file(str(path))
    assert (rules.name, rules.target) == ("house-zilch", 5000)
    assert score_throw(rules, (2, 2, 2, 2, 3, 3)).best == 2000
    assert find_rules_or_file("house-zilch") == rules  # registered: the menu and resume find it
    assert "house-zilch" in rules_names()


def test_a_file_may_not_take_a_built_in_name(tmp_path: Path) -> None:
    path = _write(tmp_path, 'name = "greed"\nbase = "farkle"\n')
    with pytest.raises(InvalidRules, match="name 'greed' is a built-in rule set"):
        find_rules_or_file(str(path))
    assert find_rules("greed").dice == 5


def test_an_unknown_name_lists_the_names() -> None:
    with pytest.raises(UnknownRules, match="'house': known rules are greed"):
        find_rules_or_file("house")


def test_rules_folders_beside_the_config_and_in_the_state_directory(tmp_path: Path) -> None:
    folders = rules_folders(str(tmp_path / "etc" / "config.toml"), tmp_path / "state")
    assert folders == (tmp_path / "etc" / "rules", tmp_path / "state" / "rules")
    assert rules_folders("built-in defaults", tmp_path / "state") == (tmp_path / "state" / "rules",)
    _write(folders[1])
    _write(folders[1], 'name = "tiny"\nbase = "greed"\ntarget = 500\n', "tiny.toml")
    found = register_rules_folders(folders)
    assert [r.name for r in found] == ["house-zilch", "tiny"]


@pytest.mark.parametrize(
    "argv",
    [
        ["strategy", "--turn-ev"],
        ["tournament", "--players", "greedy,expert", "--games", "2", "--seed", "1"],
        ["play", "--players", "cpu:greedy,cpu:greedy", "--seed", "3"],
    ],
)
def test_the_commands_take_a_rules_file(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path)
    assert main([argv[0], "--rules", str(path), *argv[1:]]) == 0
    assert "house-zilch" in capsys.readouterr().out


def test_demo_takes_a_rules_file(tmp_path: Path) -> None:
    path = _write(tmp_path)
    args = build_parser().parse_args(["demo", "--rules", str(path)])
    assert rules_for(args.rules).name == "house-zilch"  # the demo's config goes through rules_for


def test_game_rules_takes_a_path_and_a_bad_file_is_a_config_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _write(tmp_path)
    assert check_game_config(config(tmp_path, rules=str(path))).name == "house-zilch"
    bad = _write(
        tmp_path, 'name = "x"\nbase = "farkle"\n[scoring]\nsingles = { 9 = 1 }\n', "b.toml"
    )
    with pytest.raises(ConfigError, match=r"game.rules = .*b\.toml.*singles\.9 = 1 can never be"):
        check_game_config(config(tmp_path, rules=str(bad)))
    _write(tmp_path / "state" / "rules", "not toml [", "broken.toml")
    # A bad file in a rules folder is left out with a warning: the table still starts.
    assert check_game_config(config(tmp_path)).name == "greed"
    assert "broken.toml: not valid TOML" in caplog.text and "left out" in caplog.text


def test_the_menu_offers_the_rules_folder_and_plays_its_rules(tmp_path: Path) -> None:
    _write(tmp_path / "state" / "rules")
    rig = open_rig(config(tmp_path, rules="greed", script=[[2, 2, 2, 2, 3, 3]] * 4))
    with rig.table:
        view = rig.press(Button.MENU)
        rig.press(*[Button.SELECT] * view.menu.index("Rules (greed)..."), Button.ROLL)
        options = rig.view.menu
        assert "Rules: house-zilch" in options and "Rules: zilch" in options
        rig.press(*[Button.SELECT] * options.index("Rules: house-zilch"), Button.ROLL)
        state = rig.table.controller.state
        assert (state.rules.name, state.rules.target) == ("house-zilch", 5000)
        assert rig.table.store.unfinished() is not None


def test_rules_shows_one_rule_set_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "dix-mille"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("dix-mille: 6 dice d6") and "source: " in out
    assert parse_rules(out[out.index("name = ") :]) == find_rules("dix-mille")
    assert main(["rules", "--json", "zilch"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["source"] and parse_rules(data["toml"]) == find_rules("zilch")


def test_the_readme_example_scores_as_it_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Rule files") :]
    example = section[section.index("```toml\n") + 8 : section.index("```\n", 8)]
    path = tmp_path / "farkle-friday.toml"
    path.write_text(example, encoding="utf-8")
    for dice, best in (
        (["2", "2", "2", "2", "3", "3"], 1500),
        (["2", "3", "4", "5", "6", "6"], 500),
    ):
        assert main(["score", "--rules", str(path), "--json", *dice]) == 0
        assert json.loads(capsys.readouterr().out)["best"] == best


def test_a_game_of_a_rules_file_resumes_when_the_file_is_gone(tmp_path: Path) -> None:
    path = _write(tmp_path)
    rules = find_rules_or_file(str(path)).with_target(3000)
    with GameStore.in_directory(tmp_path / "state") as store:
        session = Session.new(store, rules, [Seat("Ann"), Seat("Bob")])
        session.apply(Thrown("Ann", (1, 2, 3, 4, 5, 6)))
    path.unlink()
    del engine.rules._REGISTRY["house-zilch"]
    device.rules_file._from_files.clear()
    with GameStore.in_directory(tmp_path / "state") as store:
        resumed = Session.resume(store)
        assert resumed is not None and not store.notice
        assert resumed.rules == rules
        assert resumed.state.turn.throws == (Throw((1, 2, 3, 4, 5, 6)),)


def test_a_target_below_the_rules_bank_minimum_is_a_config_error(tmp_path: Path) -> None:
    """zilch banks 300 at least: a game to 200 would end at the first bank."""
    assert check_game_config(config(tmp_path, rules="zilch", target=300)).target == 300
    with pytest.raises(ConfigError, match=r"game\.target = 200: below zilch's bank minimum of 300"):
        check_game_config(config(tmp_path, rules="zilch", target=200))
