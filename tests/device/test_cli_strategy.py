"""`dicekeeper strategy` and `dicekeeper tournament`: JSON shapes, determinism, the table cache."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from device.cli import main
from device.commands.tournament import ProgressBar, seat_names
from device.tables import DiskTables, load_table, save_table, table_path
from engine.rules import find_rules
from engine.solver_optimal import solve_optimal
from engine.strategy_expert import turn_table
from engine.strategy_play import wilson


@pytest.fixture(autouse=True)
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state" / "dicekeeper" / "cache" / "strategy"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("name", ["greed", "greed-koans", "farkle", "greed-house"])
def test_turn_ev_json(capsys: pytest.CaptureFixture[str], name: str) -> None:
    data = run_json(capsys, "strategy", "--rules", name, "--turn-ev", "--json")
    assert set(data) == {"rules", "expected_points", "bank_at"}
    assert data["rules"] == name
    rules = find_rules(name)
    bank_at = data["bank_at"]
    assert isinstance(bank_at, dict)
    assert list(bank_at) == [str(n) for n in range(1, rules.dice + 1)]
    assert all(isinstance(v, int) and v > 0 and v % 50 == 0 for v in bank_at.values())
    assert bank_at["1"] < bank_at["4"] < bank_at["5"]  # more dice, more worth risking
    table = turn_table(rules)
    assert data["expected_points"] == pytest.approx(table.start * 50, abs=1e-3)
    assert 200 < float(data["expected_points"]) < 1000  # type: ignore[arg-type]


def test_turn_ev_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategy", "--rules", "farkle", "--turn-ev"]) == 0
    out = capsys.readouterr().out
    assert "farkle" in out and "6 dice left: bank at" in out


def test_turn_ev_of_several_rule_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategy", "--rules", "greed", "pig", "--turn-ev", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["rules"] for line in lines] == ["greed", "pig"]
    assert main(["strategy", "--rules", "greed", "pig", "--turn-ev"]) == 0
    out = capsys.readouterr().out
    assert out.index("greed: ") < out.index("pig: ") and "1 die left: bank at" in out


def test_unknown_rules_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategy", "--rules", "yahtzee", "--turn-ev"]) == 2
    assert "'yahtzee'" in capsys.readouterr().err


def test_solve_caches_the_table(capsys: pytest.CaptureFixture[str], state_home: Path) -> None:
    argv = ("strategy", "--rules", "greed-koans", "--target", "500", "--solve", "--json")
    data = run_json(capsys, *argv)
    assert data["rules"] == "greed-koans" and data["target"] == 500
    path = Path(str(data["path"]))
    assert path.parent == state_home and path.exists()
    assert 0.4 < float(data["first_player_wins"]) < 0.7  # type: ignore[arg-type]
    again = run_json(capsys, *argv)  # read from the cache this time
    assert again["first_player_wins"] == data["first_player_wins"]


def tournament(capsys: pytest.CaptureFixture[str], *extra: str, seed: int = 5) -> dict[str, object]:
    return run_json(
        capsys,
        "tournament",
        "--rules",
        "greed-koans",
        "--target",
        "600",
        "--games",
        "12",
        "--seed",
        str(seed),
        "--json",
        *extra,
    )


@pytest.mark.parametrize("seed", [4, 5])  # 6/2/4 wins and 4/4/4
def test_tournament_json_shape_and_determinism(
    capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    players = "greedy:0.3,expert,cautious"
    data = tournament(capsys, "--players", players, seed=seed)
    assert data["rules"] == "greed-koans" and data["games"] == 12 and data["seed"] == seed
    rows = data["players"]
    assert isinstance(rows, list) and [r["name"] for r in rows] == players.split(",")
    for row in rows:
        assert isinstance(row["wins"], int) and isinstance(row["ties"], int)
        low, high = row["ci95"]
        assert 0.0 <= low <= row["win_rate"] <= high <= 1.0
        assert row["win_rate"] == round(row["wins"] / 12, 6)  # as printed: six decimals
    wins, ties = sum(r["wins"] for r in rows), sum(r["ties"] for r in rows)
    assert wins <= 12 and wins + ties >= 12 and ties != 1  # a tie is shared by two or more
    assert float(data["mean_turns"]) > 2  # type: ignore[arg-type]
    assert tournament(capsys, "--players", players, seed=seed) == data


def test_tournament_with_optimal_and_a_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    picture = tmp_path / "runs.png"
    data = tournament(capsys, "--players", "optimal,greedy:0.8", "--plot", str(picture))
    assert [r["name"] for r in data["players"]] == ["optimal", "greedy:0.8"]  # type: ignore[union-attr]
    with Image.open(picture) as image:
        assert image.size == (900, 560)
        assert len(image.getcolors(maxcolors=100_000) or []) > 3  # something was drawn


@pytest.mark.parametrize(
    ("players", "games"), [("expert", "5"), ("expert,genius", "5"), ("expert,expert", "0")]
)
def test_bad_tournaments_exit_2(
    capsys: pytest.CaptureFixture[str], players: str, games: str
) -> None:
    argv = ["tournament", "--rules", "farkle", "--players", players, "--games", games]
    assert main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_seat_names_are_unique() -> None:
    assert seat_names(["expert", "expert", "optimal"]) == ["expert", "expert#2", "optimal"]


def test_progress_bar_draws_on_a_forced_stream() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, label="games", width=10, force=True)
    for done in range(1, 5):
        bar.update(done, 4)
    bar.close()
    assert "[##########] 4/4" in stream.getvalue() and stream.getvalue().endswith("\n")
    silent = io.StringIO()
    ProgressBar(silent).update(1, 2)  # not a terminal: nothing
    assert silent.getvalue() == ""


def test_table_cache_round_trip_and_damage(tmp_path: Path) -> None:
    rules = find_rules("greed-koans").with_target(400)
    assert load_table(rules, tmp_path) is None
    table = solve_optimal(rules)
    path = save_table(table, tmp_path)
    assert path == table_path(rules, tmp_path)
    loaded = load_table(rules, tmp_path)
    assert loaded is not None and loaded.start == table.start
    path.write_bytes(b"garbage")
    assert load_table(rules, tmp_path) is None and not path.exists()


def test_disk_tables_do_not_solve_large_targets(tmp_path: Path) -> None:
    started: list[str] = []
    source = DiskTables(tmp_path, limit_units=10, on_solve=lambda r: started.append(r.name))
    assert source(find_rules("farkle")) is None and started == []
    small = find_rules("greed-koans").with_target(300)
    assert source(small) is not None and started == ["greed-koans"]
    assert source(small) is source(small)  # memory
    assert DiskTables(tmp_path, limit_units=0)(small) is not None  # disk
