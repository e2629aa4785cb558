"""`dicekeeper review`: a stored game reviewed as the engine reviews it, the cached table used and
never solved, the config's thresholds, and one line with exit 2 for a game it cannot review."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import device.computer
import device.review
from device.cli import main
from device.computer import CachedTables
from device.config import parse_config
from device.session import Seat, Session
from device.store import GameStore
from device.tables import DiskTables, cache_directory, save_table
from engine.events import Banked, Event, PlayerAdded, Thrown
from engine.review import review_game, review_json
from engine.rules import find_rules
from engine.solver_optimal import OptimalTable, solve_optimal

PIG = find_rules("pig").with_target(20)
_SOLVED: list[OptimalTable] = []


def pig_table() -> OptimalTable:
    if not _SOLVED:
        _SOLVED.append(solve_optimal(PIG))
    return _SOLVED[0]


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state directory of its own (games and table cache), and a config naming it."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.setattr(device.computer, "_TABLES", CachedTables(DiskTables(limit_units=0)))
    (tmp_path / "config.toml").write_text(f'[state]\ndirectory = "{tmp_path}"\n')
    return tmp_path


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("dicekeeper review: ")
    return lines[0]


# Ann throws 6 6 6 2 (20, the target: banking wins at once) and throws on: a 1. Bob banks 3.
BLUNDER_GAME: list[Event] = [
    Thrown("Ann", (6,)),
    Thrown("Ann", (6,)),
    Thrown("Ann", (6,)),
    Thrown("Ann", (2,)),
    Thrown("Ann", (1,)),
    Thrown("Bob", (3,)),
    Banked("Bob", 3),
    Thrown("Ann", (6,)),
    Thrown("Ann", (6,)),
    Thrown("Ann", (6,)),
    Thrown("Ann", (2,)),
    Banked("Ann", 20),
]


def store_game(directory: Path, events: list[Event], *, finish: bool = True) -> int:
    with GameStore.in_directory(directory) as store:
        session = Session.new(store, PIG, [Seat("Ann"), Seat("Bob")])
        for event in events if finish else events[:-1]:
            session.apply(event)
        return session.game_id


def review_out(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["review", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_a_stored_game_reviews_as_the_engine_reviews_it(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_table(pig_table(), cache_directory())
    game_id = store_game(state, BLUNDER_GAME)
    data = review_out(capsys, "--config", str(state / "config.toml"))
    assert data.pop("game") == game_id
    events = [PlayerAdded("Ann"), PlayerAdded("Bob"), *BLUNDER_GAME]
    expected = review_json(review_game(PIG, events, table=pig_table()))
    assert data == json.loads(json.dumps(expected))
    assert data["evaluator"] == "optimal"
    blunders = [d for d in data["decisions"] if d["severity"] == "blunder"]
    assert blunders[0]["line"].startswith("bank 20: 100 % — you rolled 1: ")


def test_without_a_cached_table_it_says_so_and_solves_nothing(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_game(state, BLUNDER_GAME)
    data = review_out(capsys, "--config", str(state / "config.toml"))
    assert data["evaluator"] == "expected points"
    assert "no solved table for pig to 20" in str(data["note"])
    assert not list(cache_directory().glob("*.bin"))


def test_text_names_the_players_their_accuracy_and_the_mistakes(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_table(pig_table(), cache_directory())
    store_game(state, BLUNDER_GAME)
    assert main(["review", "--config", str(state / "config.toml")]) == 0
    out = capsys.readouterr().out
    assert "judged by the solved optimal table" in out
    assert "Ann: accuracy" in out and "1 blunder" in out
    assert "Ann's dice were" in out
    assert "turn 1, Ann (threw 2), blunder: bank 20: 100 % — you rolled 1:" in out


def test_the_thresholds_come_from_the_config(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_table(pig_table(), cache_directory())
    store_game(state, BLUNDER_GAME)
    config = state / "config.toml"
    # Ann's roll at 20 loses about 10 %, Bob's bank of 3 at 3-0 down about 23 %
    config.write_text(config.read_text() + "[review]\nmistake = 0.15\nblunder = 0.5\n")
    data = review_out(capsys, "--config", str(config))
    assert data["thresholds"] == {"mistake": 0.15, "blunder": 0.5}
    marked = {(d["player"], d["severity"]) for d in data["decisions"] if d["severity"]}
    assert marked == {("Bob", "mistake")}


def test_the_config_refuses_a_blunder_below_a_mistake() -> None:
    with pytest.raises(Exception, match=r"review\.blunder"):
        parse_config({"review": {"mistake": 0.1, "blunder": 0.05}})
    assert parse_config({}).review.mistake == 0.02


def test_the_last_finished_game_is_the_default(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = store_game(state, BLUNDER_GAME)
    unfinished = store_game(state, BLUNDER_GAME, finish=False)
    data = review_out(capsys, "--config", str(state / "config.toml"))
    assert data["game"] == first
    assert main(["review", str(unfinished), "--config", str(state / "config.toml")]) == 2
    assert f"game {unfinished} is not finished" in one_error(capsys)


def test_no_such_game_and_no_games_are_one_line(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(state / "config.toml")
    assert main(["review", "--config", config]) == 2
    assert "no finished game in the game store" in one_error(capsys)
    assert main(["review", "7", "--config", config]) == 2
    assert "game 7: no such game" in one_error(capsys)


def test_damaged_events_are_one_line(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = str(state / "config.toml")
    broken = store_game(state, BLUNDER_GAME)
    illegal = store_game(state, BLUNDER_GAME)
    db = sqlite3.connect(state / "dicekeeper.sqlite3")
    db.execute(
        "UPDATE events SET event = CAST(x'ff00' AS BLOB) WHERE game = ? AND seq = 3", (broken,)
    )
    db.execute(
        "UPDATE events SET event = ? WHERE game = ? AND seq = 3",
        (json.dumps({"type": "thrown", "player": "Cy", "dice": [3]}), illegal),
    )
    db.commit()
    db.close()
    assert main(["review", str(broken), "--config", config]) == 2
    assert f"game {broken} is damaged" in one_error(capsys)
    assert main(["review", str(illegal), "--config", config]) == 2
    assert f"game {illegal}: its events do not replay" in one_error(capsys)
    with pytest.raises(SystemExit) as stopped:
        main(["review", "x", "--config", config])
    assert stopped.value.code == 2
    assert "GAME 'x': expected a game's number" in capsys.readouterr().err
