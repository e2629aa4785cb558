"""``GET /api/games/{id}/review``: the review of a finished game as `dicekeeper review --json`
gives it, and the refusals as JSON errors."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import device.computer
import device.review
from device.cli import main
from device.computer import CachedTables
from device.store import GameStore
from device.tables import DiskTables
from device.web.review import add_review_route
from tests.device.test_review_command import BLUNDER_GAME, store_game


def _app(directory: Path) -> web.Application:
    app = web.Application()

    async def read_store(read: Callable[[GameStore], Any]) -> Any:
        with GameStore.in_directory(directory) as store:
            return read(store)

    add_review_route(app, read_store)
    return app


def _get(directory: Path, path: str) -> tuple[int, Any]:
    async def fetch() -> tuple[int, Any]:
        async with TestClient(TestServer(_app(directory))) as client:
            answer = await client.get(path)
            return answer.status, await answer.json()

    return asyncio.run(fetch())


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.setattr(device.computer, "_TABLES", CachedTables(DiskTables(limit_units=0)))
    monkeypatch.setattr(device.review, "_SETTINGS", device.review.ReviewSettings())
    (tmp_path / "config.toml").write_text(f'[state]\ndirectory = "{tmp_path}"\n')
    return tmp_path


def test_the_route_answers_what_the_command_prints(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = store_game(state, BLUNDER_GAME)
    status, data = _get(state, f"/api/games/{game_id}/review")
    assert status == 200
    assert main(["review", str(game_id), "--config", str(state / "config.toml"), "--json"]) == 0
    assert data == json.loads(capsys.readouterr().out)
    assert data["game"] == game_id and data["players"][0]["name"] == "Ann"


def test_the_configured_thresholds_are_used(state: Path) -> None:
    game_id = store_game(state, BLUNDER_GAME)
    device.review.configure(mistake=0.3, blunder=0.4)
    status, data = _get(state, f"/api/games/{game_id}/review")
    assert status == 200 and data["thresholds"] == {"mistake": 0.3, "blunder": 0.4}
    for decision in data["decisions"]:
        loss = decision["loss"]
        expected = "blunder" if loss >= 0.4 else "mistake" if loss >= 0.3 else ""
        assert decision["severity"] == expected
    # Ann's throw past an immediate win (a 1 in 6 to lose it) is no longer marked
    assert any(0.05 <= d["loss"] < 0.3 and not d["severity"] for d in data["decisions"])


def test_refusals_are_json_errors(state: Path) -> None:
    unfinished = store_game(state, BLUNDER_GAME, finish=False)
    status, data = _get(state, "/api/games/99/review")
    assert status == 404 and data["ok"] is False and "no such game" in data["error"]
    status, data = _get(state, f"/api/games/{unfinished}/review")
    assert status == 409 and "not finished" in data["error"]
