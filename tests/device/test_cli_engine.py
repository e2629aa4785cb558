"""The engine's command line: `score`, `rules` and `play` (stdin fed from the test)."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from device.cli import main
from engine.game import Game
from engine.rules import builtin_rules, find_rules
from engine.scoring import score_throw


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_score_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        ["score", "--rules", "farkle", "--json", "1", "2", "3", "3", "3", "5"], capsys
    )
    assert status == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"rules", "dice", "best", "options", "bust"}
    assert data["rules"] == "farkle" and data["dice"] == [1, 2, 3, 3, 3, 5]
    assert data["best"] == 450 and data["bust"] is False
    keeps = {tuple(o["keep"]): o["score"] for o in data["options"]}
    assert keeps[(3, 3, 3)] == 300 and keeps[(1,)] == 100 and keeps[(5,)] == 50
    assert keeps[(1, 3, 3, 3, 5)] == 450
    assert data["best"] == max(keeps.values())


@pytest.mark.parametrize(
    ("rules", "dice", "best"),
    [("greed", "44446", 400), ("greed", "11115", 1150), ("greed-koans", "24454", 450),
     ("greed-house", "123456", 2000), ("greed", "5", 50), ("farkle", "2346", 0)],
)  # fmt: skip
def test_score_json_agrees_with_the_engine(
    rules: str, dice: str, best: int, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["score", "--rules", rules, "--json", *dice], capsys)
    data = json.loads(out)
    assert status == 0 and data["best"] == best and data["bust"] == (best == 0)
    engine = score_throw(find_rules(rules), [int(d) for d in dice])
    assert [(tuple(o["keep"]), o["score"]) for o in data["options"]] == [
        (o.dice, o.score) for o in engine.options
    ]


def test_score_text_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "--rules", "greed", "1", "2", "3", "1", "5"], capsys)
    assert status == 0
    assert "best 250 (keep 1 1 5, leaves 2 3)" in out


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["score", "--rules", "greed", "7", "1"], "7"),
        (["score", "--rules", "greed", "1", "x"], "'x'"),
        (["score", "--rules", "greed", "1", "1", "1", "1", "1", "1"], "at most 5 dice"),
        (["score", "--rules", "yahtzee", "1"], "'yahtzee'"),
        (["play", "--rules", "chess", "--players", "Ann"], "'chess'"),
        (["play", "--rules", "farkle", "--players", " , "], "no player names"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], quoted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and quoted in err


def test_score_rules_from_a_toml_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d11.toml"
    path.write_text('name = "d11"\ndescription = "eleven faces"\ndice = 3\nfaces = 11\n')
    status, out, _ = run(["score", "--rules", str(path), "--json", "11", "11", "11"], capsys)
    assert status == 0 and json.loads(out)["best"] == 1100


def test_rules_lists_builtin_sets(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["rules", "--json"], capsys)
    assert status == 0
    listed = json.loads(out)
    assert [item["name"] for item in listed] == [r.name for r in builtin_rules()]
    assert all(set(item) == {"name", "description"} and item["description"] for item in listed)
    status, out, _ = run(["rules"], capsys)
    assert [line.split()[0] for line in out.splitlines()] == [r.name for r in builtin_rules()]


def play(
    argv: list[str],
    answers: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    return run(["play", *argv], capsys)


@pytest.mark.parametrize("rules", [r.name for r in builtin_rules()[:4]])
def test_play_with_defaults_reaches_a_consistent_end(
    rules: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--rules", rules, "--players", "Ann,Bob", "--seed", "5", "--target", "1000"]
    status, out, err = play(argv, "\n" * 2000, capsys, monkeypatch)
    assert status == 0, err
    end = out[out.index("== Game over ==") :].splitlines()
    totals = {}
    for line in end[1:3]:
        name, total, *turns = line.replace(",", " ").split()
        points = [int(turn) for turn in turns if turn.startswith("+")]
        assert int(total) == sum(points)
        totals[name] = int(total)
    best = max(totals.values())
    winners = [name for name, total in totals.items() if total == best]
    assert end[-1].startswith(" and ".join(winners)) and f"with {best}." in end[-1]
    assert best >= 1000


def test_play_uses_the_seed_for_virtual_dice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--rules", "farkle", "--players", "Ann,Bob", "--seed", "11"]
    status, out, _ = play(argv, "q\n", capsys, monkeypatch)
    expected = Game(find_rules("farkle"), ["Ann", "Bob"], rng=random.Random(11)).throw()
    assert status == 0 and "Game abandoned." in out
    assert f"Ann throws {' '.join(map(str, expected.values))}" in out


def test_play_choices_and_reprompts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--rules", "farkle", "--players", "Ann", "--seed", "2", "--target", "300"]
    status, out, _ = play(argv, "zz\n" + "\n" * 500, capsys, monkeypatch)
    assert status == 0
    assert "please answer" in out  # the nonsense answer was refused and asked again
    assert re.search(r"Ann wins with \d+\.", out)


def test_play_input_ending_early_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--rules", "greed-house", "--players", "Ann,Bob", "--seed", "1"]
    status, _, err = play(argv, "\n", capsys, monkeypatch)
    assert status == 1 and "input ended" in err
