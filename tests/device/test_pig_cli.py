"""Pig at the command line: listed, solved, played in a tournament, in the terminal and the demo."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from device.cli import main
from device.commands.play import TerminalGame
from device.commands.rules import summary
from device.commands.tournament import tick_step
from engine.game import Game, Phase
from engine.rules import find_rules
from engine.solver_optimal import solve_optimal
from tests.device.harness import run_demo


@pytest.fixture(autouse=True)
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_pig_is_listed_with_one_die(capsys: pytest.CaptureFixture[str]) -> None:
    listed = run_json(capsys, "rules", "--json")
    assert isinstance(listed, list) and "pig" in [entry["name"] for entry in listed]
    assert summary(find_rules("pig")).startswith("1 die d6, ")
    assert "target 100 (immediate)" in summary(find_rules("pig"))


def test_turn_ev_of_pig(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "strategy", "--rules", "pig", "--turn-ev", "--json")
    assert data == {"rules": "pig", "expected_points": pytest.approx(8.1418, abs=5e-5),
                    "bank_at": {"1": 20}}  # fmt: skip
    assert main(["strategy", "--rules", "pig", "--turn-ev"]) == 0
    out = capsys.readouterr().out
    assert "pig: 8.142 points per turn" in out and "1 die left: bank at 20 or more" in out


def test_solve_pig(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "strategy", "--rules", "pig", "--solve", "--json")
    assert isinstance(data, dict)
    assert data["first_player_wins"] == 0.530593 and data["target"] == 100
    assert Path(data["path"]).exists()
    again = run_json(capsys, "strategy", "--rules", "pig", "--solve", "--json")  # from the cache
    assert isinstance(again, dict) and again["first_player_wins"] == 0.530593


def test_tournament_plays_optimal_from_its_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, state_home: Path
) -> None:
    argv = ["tournament", "--rules", "pig", "--players", "optimal,expert", "--games", "20"]
    assert main([*argv, "--json", "--plot", str(tmp_path / "pig.png")]) == 0
    captured = capsys.readouterr()
    assert "it plays expert" not in captured.err
    # optimal had its table: solved on demand (pig is small) and cached for next time
    cached = list((state_home / "dicekeeper" / "cache" / "strategy").glob("optimal-pig-100-*"))
    assert len(cached) == 1
    data = json.loads(captured.out)
    assert data["target"] == 100 and sum(row["wins"] for row in data["players"]) == 20
    assert (tmp_path / "pig.png").stat().st_size > 0


def test_the_plot_marks_scores_in_round_steps_at_any_scale() -> None:
    assert [tick_step(high) for high in (100, 3000, 5000, 10_000)] == [20, 500, 1000, 2000]
    assert all(high // tick_step(high) <= 6 for high in range(1, 20_000, 7))


def test_play_in_the_terminal_ends_at_the_first_bank_to_100() -> None:
    game = Game(find_rules("pig"), ["Ann", "Bob"], rng=random.Random(5))
    lines: list[str] = []

    def answer(question: str) -> str:
        lines.append(question)
        return "t" if game.state.turn.total < 20 else "b"

    assert TerminalGame(game, read=answer, write=lines.append).play() == 0
    assert game.state.phase is Phase.OVER
    totals = sorted(p.total for p in game.state.players)
    assert totals[0] < 100 <= totals[1]
    text = "\n".join(lines)
    assert "1 die to throw" in text and "Hot dice" not in text and "1 dice" not in text


def test_demo_plays_pig_with_one_die(tmp_path: Path) -> None:
    stdout, match = run_demo(
        ["--rules", "pig", "--target", "30", "--seed", "2", "--fast"], tmp_path
    )
    scores = sorted(int(points) for points in re.findall(r"\w+ (\d+)", match.group(2)))
    assert scores[0] < 30 <= scores[1]  # the game ended at the first bank to the target
    assert re.search(r"^dice: \[\d\]$", stdout, re.MULTILINE)  # one die on the screen
    assert "throws 1 die for" in stdout
    assert (tmp_path / "final-screen.png").stat().st_size > 0


def test_the_two_dice_pigs_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    listed = run_json(capsys, "rules", "--json")
    assert isinstance(listed, list)
    assert {"pig-two-dice", "big-pig"} <= {entry["name"] for entry in listed}
    for name in ("pig-two-dice", "big-pig"):
        assert summary(find_rules(name)).startswith("2 dice d6, ")


def test_solve_the_two_dice_pigs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["strategy", "--rules", "pig-two-dice", "big-pig", "--target", "30", "--solve"]
    assert main([*argv, "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["rules"] for line in lines] == ["pig-two-dice", "big-pig"]
    for line in lines:
        reference = solve_optimal(find_rules(line["rules"]).with_target(30))
        assert line["first_player_wins"] == round(reference.first_player_wins(), 6)
        assert 0.5 < line["first_player_wins"] < 0.6 and Path(line["path"]).exists()


def test_solving_an_instant_win_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "lucky.toml"
    path.write_text('name = "lucky"\nbase = "pig"\ninstant_win = [[6]]\n', encoding="utf-8")
    assert main(["strategy", "--rules", str(path), "--solve"]) == 2
    err = capsys.readouterr().err
    assert "instant_win" in err and err.count("\n") == 1
