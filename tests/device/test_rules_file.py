"""Rule sets read from TOML files, as `dicekeeper score --rules FILE.toml` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.cli import main
from device.rules_file import load_rules
from engine.errors import InvalidRules
from engine.scoring import score_throw

VARIANT = """
name = "farkle-bonus"
description = "Farkle to 5000 with a full house"
base = "farkle"
target = 5000
[[scoring.combinations]]
name = "full house"
dice = [2, 2, 3, 3, 3]
points = 900
"""


def test_a_variant_file_loads_and_scores(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(VARIANT, encoding="utf-8")
    rules = load_rules(path)
    assert (rules.name, rules.dice, rules.target) == ("farkle-bonus", 6, 5000)
    assert score_throw(rules, (2, 2, 3, 3, 3, 6)).best == 900


def test_missing_file_is_a_rules_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InvalidRules, match=r"nope\.toml"):
        load_rules(tmp_path / "nope.toml")


def test_binary_file_is_a_rules_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "photo.toml"
    path.write_bytes(b"\xff\xd8\xff\xe0 not text")
    with pytest.raises(InvalidRules, match=r"photo\.toml.*not UTF-8"):
        load_rules(path)


def test_score_command_takes_a_rules_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "house.toml"
    path.write_text(VARIANT, encoding="utf-8")
    assert main(["score", "--rules", str(path), "--json", "2", "2", "3", "3", "3"]) == 0
    assert '"best": 900' in capsys.readouterr().out
    assert main(["score", "--rules", str(tmp_path / "gone.toml"), "1"]) == 2
    assert "gone.toml" in capsys.readouterr().err
