"""The finished games through the web (JSON and CSV) and `dicekeeper history --csv`."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from datetime import datetime
from pathlib import Path

import pytest

from device.cli import main
from device.store import StoredGame
from device.web.games import CSV_FIELDS, game_record, write_csv
from tests.device.harness import Rig, config, is_waiting, open_rig
from tests.device.web.webrig import WebRig, run_served, served

# Ann's throw is read 1 1 5 2 3 4, corrected to 1 1 1 2 3 4 (1000) and banked: past the target
# of 500, so Bob has a last turn, and busts with 2 3 4 6 6 3.
SCRIPT = [[1, 1, 5, 2, 3, 4], [2, 3, 4, 6, 6, 3]]


def _finished_game(tmp_path: Path) -> Rig:
    rig = open_rig(config(tmp_path, rules="farkle", target=500, script=SCRIPT))
    rig.until(is_waiting)

    async def play(web: WebRig) -> None:
        token = await web.pair()
        answer = await web.post("/api/correct", {"dice": [1, 1, 1, 2, 3, 4]}, token=token)
        assert answer.status == 200
        answer = await web.post("/api/keep", {"option": 0}, token=token)
        assert (await answer.json())["state"]["options"][0]["score"] == 1000
        assert (await web.post("/api/bank", {}, token=token)).status == 200

    async def main() -> None:
        async with served(rig) as web:
            await play(web)

    asyncio.run(main())
    view = rig.until(lambda v: v.phase.value == "game_over")
    assert view.winner_player is not None and view.winner_player.name == "Ann"
    return rig


def test_games_list_and_one_game_with_its_turns(tmp_path: Path) -> None:
    rig = _finished_game(tmp_path)

    async def test(web: WebRig) -> None:
        answer = await web.client.get("/api/games")
        assert answer.status == 200
        games = await answer.json()
        assert len(games) == 1
        game = games[0]
        assert game["rules"] == "farkle" and game["winner"] == "Ann" and game["target"] == 500
        assert game["players"] == [{"name": "Ann", "score": 1000}, {"name": "Bob", "score": 0}]
        assert datetime.fromisoformat(game["finished"]) >= datetime.fromisoformat(game["started"])
        one = await (await web.client.get(f"/api/games/{game['id']}")).json()
        assert {k: v for k, v in one.items() if k != "turns"} == game
        assert one["turns"] == [
            {"player": "Ann", "points": 1000, "total": 1000, "bust": False, "corrected": 1},
            {"player": "Bob", "points": 0, "total": 0, "bust": True, "corrected": 0},
        ]
        assert (await web.client.get("/api/games/99")).status == 404
        unfinished = rig.table.controller.session.game_id + 1  # ROLL would start it; none yet
        assert (await web.client.get(f"/api/games/{unfinished}")).status == 404

    run_served(rig, test)


def test_games_as_csv_one_row_per_turn(tmp_path: Path) -> None:
    rig = _finished_game(tmp_path)

    async def test(web: WebRig) -> None:
        answer = await web.client.get("/api/games.csv")
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/csv")
        assert "attachment" in answer.headers["Content-Disposition"]
        rows = list(csv.DictReader(io.StringIO(await answer.text())))
        assert [
            (r["player"], r["points"], r["total"], r["bust"], r["corrected"]) for r in rows
        ] == [
            ("Ann", "1000", "1000", "false", "1"),
            ("Bob", "0", "0", "true", "0"),
        ]
        assert {r["winner"] for r in rows} == {"Ann"} and {r["turn"] for r in rows} == {"1", "2"}
        game_id = rows[0]["game"]
        one = await (await web.client.get(f"/api/games/{game_id}.csv")).text()
        assert one == await answer.text()

    run_served(rig, test)


def test_history_csv_writes_the_same_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rig = _finished_game(tmp_path)

    holder: dict[str, str] = {}

    async def test(web: WebRig) -> None:
        holder["csv"] = await (await web.client.get("/api/games.csv")).text()

    run_served(rig, test)
    rig.table.close()
    path = tmp_path / "config.toml"
    path.write_text(f'[state]\ndirectory = "{tmp_path / "state"}"\n')
    assert main(["history", "--config", str(path), "--csv"]) == 0
    printed = capsys.readouterr().out
    assert printed.replace("\r\n", "\n") == holder["csv"].replace("\r\n", "\n")
    assert printed.splitlines()[0] == ",".join(CSV_FIELDS)


def test_a_name_that_would_be_a_formula_is_quoted() -> None:
    start = {"rules": "greed", "target": 0, "computers": {}}
    events = [
        {"type": "player_added", "name": "=1+1"},
        {"type": "thrown", "player": "=1+1", "dice": [2, 3, 4, 6, 6]},
    ]
    stored = StoredGame(
        1,
        0.0,
        start,
        tuple(json.dumps(e) for e in events),
        finished=1.0,
        result={"rules": "greed", "winners": ["=1+1"], "scores": {"=1+1": 0}},
    )
    out = io.StringIO()
    write_csv([game_record(stored)], out)
    row = list(csv.reader(io.StringIO(out.getvalue())))[1]
    assert row[CSV_FIELDS.index("player")] == "'=1+1"
    assert row[CSV_FIELDS.index("winner")] == "'=1+1"


def test_a_game_that_no_longer_replays_keeps_its_result_without_turns() -> None:
    stored = StoredGame(
        7,
        0.0,
        {"rules": "no-such-rules", "target": 0},
        ('{"type": "player_added", "name": "Ann"}',),
        finished=1.0,
        result={"rules": "no-such-rules", "winners": ["Ann"], "scores": {"Ann": 5000}},
    )
    record = game_record(stored)
    assert record.turns == () and "no-such-rules" in record.problem
    assert record.players == (("Ann", 5000),) and record.winner == "Ann"


def _stored_games(tmp_path: Path, result: dict[str, object], events: list[str]) -> Path:
    """A state directory with one good finished game and one with ``result`` and ``events``;
    its config file."""
    from device.store import GameStore

    state = tmp_path / "state"
    with GameStore.in_directory(state) as store:
        good = store.start_game({"rules": "greed"}, [])
        store.finish(good, {"rules": "greed", "winners": ["Ann"], "scores": {"Ann": 10_000}})
        odd = store.start_game({"rules": "greed"}, events)
        store.finish(odd, result)
    path = tmp_path / "config.toml"
    path.write_text(f'[state]\ndirectory = "{state}"\n')
    return path


ODD_RESULT = {"rules": "greed", "winners": ["Ann"], "scores": {"Ann": None, "Bob": 5}}


def test_a_finished_game_with_a_null_score_breaks_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _stored_games(tmp_path, ODD_RESULT, ['{"type": "player-added", "name": "Ann"}'])
    assert main(["history", "--config", str(path), "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == ",".join(CSV_FIELDS)
    assert main(["history", "--config", str(path)]) == 0
    assert "Ann None, Bob 5" in capsys.readouterr().out
    rig = open_rig(config(tmp_path, rules="greed", script=SCRIPT))

    async def test(web: WebRig) -> None:
        games = await web.client.get("/api/games")
        assert games.status == 200 and [g["id"] for g in await games.json()] == [2, 1]
        assert (await web.client.get("/api/games.csv")).status == 200
        assert (await web.client.get("/api/games/2")).status == 200
        assert (await web.client.get("/api/games/2.csv")).status == 200

    run_served(rig, test)


def test_history_counts_past_an_event_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = ["not json", '{"type": "corrected"}', "[" * 5000 + "]" * 5000]
    path = _stored_games(tmp_path, ODD_RESULT, events)
    assert main(["history", "--config", str(path), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["corrected"] for line in lines] == [1, 0]


@pytest.mark.parametrize("value", ["1e20", "100000000000000000000", "-1"])
def test_history_limit_out_of_range_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    path = _stored_games(tmp_path, ODD_RESULT, [])
    with pytest.raises(SystemExit) as exit_:
        main(["history", "--config", str(path), "--limit", value])
    assert exit_.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
