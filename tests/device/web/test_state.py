"""The web's view of the table: /api/state with every field, server-sent events at each change,
the pages and the camera picture."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import numpy as np

from hardware.buttons import Button
from tests.device.harness import config, is_waiting, open_rig
from tests.device.web.webrig import CODE, served

FIELDS = {
    "rules", "target", "players", "current", "phase", "dice", "likely", "kept", "options",
    "selected",
    "turn_total", "prompt", "message", "alert", "last_turn", "tray_label", "cursor", "struck",
    "winner", "final_round", "camera", "paired",
}  # fmt: skip


def test_state_gives_every_field_of_the_table(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3, 4]], target=3000))
    view = rig.until(is_waiting)

    async def check() -> None:
        async with served(rig) as web:
            rig.step()
            answer = await web.client.get("/api/state")
            assert answer.status == 200
            state = await answer.json()
            assert set(state) >= FIELDS
            assert state["rules"] == "farkle" and state["target"] == 3000
            assert state["players"] == [
                {"name": "Ann", "score": 0, "computer": False, "history": []},
                {"name": "Bob", "score": 0, "computer": False, "history": []},
            ]
            assert state["current"] == 0 and state["phase"] == "choosing"
            assert sorted(state["dice"]) == [1, 1, 2, 3, 4, 5]
            assert state["options"][0] == {"dice": list(view.options[0].dice), "score": 250}
            assert state["selected"] == 0 and state["kept"] == [] and state["turn_total"] == 0
            assert state["prompt"] == view.prompt and state["winner"] is None
            assert state["cursor"] is None and state["struck"] == []
            assert state["likely"] == [None] * 6  # every die read: no guesses
            assert state["final_round"] is False and state["paired"] is False
            assert "farkle" in state["rules_available"]
            assert rig.view.pair_code == CODE and rig.view.web == "http://table:8080"

    asyncio.run(check())


def test_an_unread_die_carries_the_readers_likeliest_value(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 5, 5, 2]]))
    rig.oracle.unreadable = {2, 4}
    rig.oracle.likely = {2: 5}
    rig.until(lambda v: "could not be read" in v.message)

    async def check() -> None:
        async with served(rig) as web:  # not stepped: the thrown-again dice would tumble
            state = await (await web.client.get("/api/state")).json()
            assert state["dice"] == [1, 1, None, 5, None]
            assert state["likely"] == [None, None, 5, None, None]
            token = await web.pair()  # corrected from the phone: the guess is no reading
            answer = await web.post("/api/correct", {"dice": [1, 1, 5, 5, 2]}, token=token)
            assert answer.status == 200, await answer.text()
            state = (await answer.json())["state"]
            assert state["dice"] == [1, 1, 5, 5, 2] and state["likely"] == [None] * 5

    asyncio.run(check())


def test_a_paired_request_says_so_and_a_bad_token_does_not(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path))
    rig.step()

    async def check() -> None:
        async with served(rig) as web:
            token = await web.pair()
            paired = await web.client.get(
                "/api/state", headers={"Authorization": f"Bearer {token}"}
            )
            assert (await paired.json())["paired"] is True
            other = await web.client.get("/api/state", headers={"Authorization": "Bearer nope"})
            assert (await other.json())["paired"] is False

    asyncio.run(check())


async def _event(stream: asyncio.StreamReader | object) -> dict[str, object]:
    """The next ``event: state`` of an event stream (its data parsed)."""
    lines: list[str] = []
    while True:
        raw = await stream.readline()  # type: ignore[attr-defined]
        line = raw.decode().rstrip("\n")
        if line == "" and lines:
            break
        if line:
            lines.append(line)
    assert lines[0] == "event: state", lines
    data: dict[str, object] = json.loads(lines[1].removeprefix("data: "))
    return data


def test_the_event_stream_sends_the_state_then_each_change(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3, 4]]))
    rig.until(is_waiting)

    async def check() -> None:
        async with served(rig) as web:
            rig.step()
            answer = await web.client.get("/api/events")
            assert answer.headers["Content-Type"] == "text/event-stream"
            first = await asyncio.wait_for(_event(answer.content), 10)
            assert first["selected"] == 0 and first["phase"] == "choosing"
            rig.press(Button.SELECT)  # the table moves: the stream follows
            second = await asyncio.wait_for(_event(answer.content), 10)
            assert second["selected"] == 1
            answer.close()

    asyncio.run(check())


def test_the_pages_and_their_files_are_served(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<h1>board</h1>")
    (static / "game.html").write_text("<h1>game</h1>")
    (static / "app.js").write_text("let x = 1;")
    (tmp_path / "secret.txt").write_text("no")
    rig = open_rig(config(tmp_path))

    async def check() -> None:
        async with served(rig, static=static) as web:
            index = await web.client.get("/")
            assert index.status == 200 and await index.text() == "<h1>board</h1>"
            assert index.headers["X-Frame-Options"] == "DENY"
            game = await web.client.get("/game/3")
            assert await game.text() == "<h1>game</h1>"
            script = await web.client.get("/static/app.js")
            assert script.status == 200 and "javascript" in script.headers["Content-Type"]
            for path in ("/static/missing.js", "/static/..%2Fsecret.txt", "/static/.hidden"):
                assert (await web.client.get(path)).status == 404, path

    asyncio.run(check())


def test_the_camera_picture_is_the_newest_frame_as_jpeg(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path))

    async def check() -> None:
        async with served(rig) as web:
            missing = await web.client.get("/api/camera.jpg")
            assert missing.status == 404
            frame = np.zeros((48, 64, 3), np.uint8)
            frame[:, :32] = (0, 0, 255)
            web.bridge.on_frame(frame)
            rig.step()
            state = await (await web.client.get("/api/state")).json()
            assert state["camera"] == 1
            picture = await web.client.get("/api/camera.jpg")
            assert picture.status == 200 and picture.headers["Content-Type"] == "image/jpeg"
            body = await picture.read()
            assert body[:2] == b"\xff\xd8"
            import cv2

            decoded = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
            assert decoded.shape == (48, 64, 3)
            assert decoded[24, 8, 2] > 200 and decoded[24, 56, 2] < 50

    asyncio.run(check())


def test_the_final_round_is_when_a_score_reached_the_target_and_nobody_won() -> None:
    from device.web.state import state_json
    from hardware.view import Phase, PlayerView, TableView

    players = (PlayerView("Ann", 3200), PlayerView("Bob", 900))
    playing = TableView(rules="farkle", players=players, current=1, target=3000)
    assert state_json(playing)["final_round"] is True
    early = TableView(rules="farkle", players=players, current=1, target=5000)
    assert state_json(early)["final_round"] is False
    over = TableView(players=players, target=3000, winner=0, phase=Phase.GAME_OVER)
    assert state_json(over)["final_round"] is False and state_json(over)["winner"] == "Ann"
