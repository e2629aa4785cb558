"""Control from the web: every endpoint accepted, and refused with the table's own message,
through the same paths as the buttons and the menu."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from hardware.buttons import Button
from tests.device.harness import SIZE, Rig, config, is_waiting, open_rig
from tests.device.web.webrig import WebRig, served

THROW = [1, 1, 5, 2, 3, 4]  # farkle: keeps 1 1 5 (250), 1 1 (200), 1 5 (150)...


def _run(rig: Rig, test: Callable[[WebRig, str], Awaitable[None]]) -> None:
    async def main() -> None:
        async with served(rig) as web:
            await test(web, await web.pair())

    asyncio.run(main())


def _choosing(tmp_path: Path, **kwargs: Any) -> Rig:
    """A farkle table where Ann's first throw (`THROW`) lies read and scored."""
    kwargs.setdefault("script", [THROW, [2, 2, 3]])
    rig = open_rig(config(tmp_path, rules="farkle", **kwargs))
    rig.until(is_waiting)
    return rig


async def _answer(response: Any) -> tuple[int, dict[str, Any]]:
    return response.status, await response.json()


def _stored_events(rig: Rig) -> list[dict[str, Any]]:
    rows = rig.table.store.db.execute("SELECT event FROM events ORDER BY game, seq").fetchall()
    return [json.loads(text) for (text,) in rows]


def test_keep_selects_and_roll_sets_it_aside_as_the_buttons_do(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(await web.post("/api/keep", {"option": 1}, token=token))
        assert status == 200 and body["ok"] is True
        assert body["state"]["selected"] == 1 and body["state"]["paired"] is True
        chosen = body["state"]["options"][1]
        status, body = await _answer(await web.post("/api/roll", {}, token=token))
        assert status == 200
        assert sorted(body["state"]["kept"]) == sorted(chosen["dice"])
        assert body["state"]["turn_total"] == chosen["score"]
        kept = [e for e in _stored_events(rig) if e["type"] == "kept"]
        assert [sorted(e["dice"]) for e in kept] == [sorted(chosen["dice"])]

    _run(rig, test)


def test_bank_keeps_the_selected_dice_and_banks(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(await web.post("/api/bank", {}, token=token))
        assert status == 200
        assert body["message"] == "Ann banks 250 (total 250)"
        state = body["state"]
        assert state["players"][0]["score"] == 250 and state["players"][0]["history"] == [250]
        assert state["current"] == 1

    _run(rig, test)


def test_a_refused_request_answers_409_with_the_buttons_message(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[THROW]))
    rig.step()  # Ann must throw first
    buttons = open_rig(config(tmp_path / "b", rules="farkle", script=[THROW]))
    buttons.step()
    said = buttons.press(Button.STOP).message  # what the STOP button gets now

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(await web.post("/api/bank", {}, token=token))
        assert status == 409 and body == {"ok": False, "error": said, "state": body["state"]}
        assert said == "nothing to bank yet: throw the dice first"
        status, body = await _answer(await web.post("/api/keep", {"option": 0}, token=token))
        assert status == 409 and body["error"] == "nothing to choose now"
        assert rig.table.controller.state.players[0].total == 0

    _run(rig, test)


def test_a_computer_players_turn_is_refused(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", players=["cpu:expert", "Ann"]))
    rig.table.controller.settings = type(rig.table.controller.settings)(think_seconds=60.0)
    rig.step()

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(await web.post("/api/roll", {}, token=token))
        assert status == 409
        assert body["error"] == "it is Expert's turn (computer): please wait"

    _run(rig, test)


def test_correct_replaces_the_throw_and_is_stored_as_the_webs(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(
            await web.post("/api/correct", {"dice": [1, 1, 1, 2, 3, 4]}, token=token)
        )
        assert status == 200, body
        assert body["message"].startswith("corrected to 1 1 1 2 3 4")
        assert body["state"]["options"][0] == {"dice": [1, 1, 1], "score": 1000}
        corrected = [e for e in _stored_events(rig) if e["type"] == "corrected"]
        assert len(corrected) == 1 and corrected[0]["by"] == "web"
        assert corrected[0]["dice"] == [1, 1, 1, 2, 3, 4]
        assert not rig.table.controller.is_correcting

    _run(rig, test)


def test_a_die_can_be_struck_out_and_a_wrong_count_is_refused(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(
            await web.post("/api/correct", {"dice": [1, 1, 5, 2, 3, None]}, token=token)
        )
        assert status == 409
        assert body["error"] == (
            '5 dice set but 6 dice were thrown: ROLL steps a die to "not a die" or back'
        )
        status, body = await _answer(await web.post("/api/correct", {"dice": [1, 1]}, token=token))
        assert status == 409 and body["error"].startswith("2 values given for 6 dice")
        assert not rig.table.controller.is_correcting
        assert [e for e in _stored_events(rig) if e["type"] == "corrected"] == []

    _run(rig, test)


def test_a_die_the_reader_missed_is_set_from_the_phone(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3], [2, 2, 3, 4, 6, 6]]))
    rig.until(lambda view: "I see 5" in view.message)

    async def test(web: WebRig, token: str) -> None:
        state = await (await web.client.get("/api/state")).json()
        assert state["dice"] == [1, 1, 5, 2, 3, None]  # the missed die, to be set
        status, body = await _answer(
            await web.post("/api/correct", {"dice": [1, 1, 5, 2, 3, 1]}, token=token)
        )
        assert status == 200, body
        assert body["state"]["options"][0] == {"dice": [1, 1, 1, 5], "score": 1050}
        corrected = [e for e in _stored_events(rig) if e["type"] == "corrected"]
        assert corrected[0]["read"] == [1, 1, 5, 2, 3, 0] and corrected[0]["by"] == "web"

    _run(rig, test)


def test_a_missed_die_pointed_at_on_the_picture_is_kept_with_its_box(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3], [2, 2, 3, 4, 6, 6]]))
    rig.until(lambda view: "I see 5" in view.message)
    dice = [1, 1, 5, 2, 3, 1]

    async def test(web: WebRig, token: str) -> None:
        state = await (await web.client.get("/api/state")).json()
        boxes = state["boxes"]
        assert len(boxes) == 5 and all(
            0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1 for x0, y0, x1, y1 in boxes
        )
        for at, error in (
            ([[0.5, 0.5]], "at = [[0.5, 0.5]]: expected one point or null for each of the 6 dice"),
            ([None] * 5 + [[1.5, 0.5]], "at: [1.5, 0.5] is not a point on the picture"),
            ([None] * 5 + [[True, 0.5]], "at: [True, 0.5] is not a point on the picture"),
        ):
            answer = await web.post("/api/correct", {"dice": dice, "at": at}, token=token)
            status, body = await _answer(answer)
            assert status == 400 and body["error"].startswith(error), body
        seen = [[0.1, 0.1]] + [None] * 5
        status, body = await _answer(
            await web.post("/api/correct", {"dice": dice, "at": seen}, token=token)
        )
        assert status == 409
        assert body["error"] == "die 1: a point on the picture is for a die the reader missed"
        at = [None] * 5 + [[0.75, 0.5]]
        status, body = await _answer(
            await web.post("/api/correct", {"dice": dice, "at": at}, token=token)
        )
        assert status == 200, body
        keeper = rig.table.controller.photos
        assert keeper is not None
        keeper.wait()
        (photo,) = keeper.ring.photos()
        assert photo.missed == () and photo.as_read == (True,) * 5 + (False,)
        added = photo.dice[-1]
        assert added.value == 1 and added.center == (0.75 * SIZE[0], 0.5 * SIZE[1])
        side = added.x_max - added.x_min
        assert side == photo.dice[0].x_max - photo.dice[0].x_min  # as wide as the dice read

    _run(rig, test)


def test_correct_is_refused_once_the_table_moved_on(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)

    async def test(web: WebRig, token: str) -> None:
        assert (await web.post("/api/roll", {}, token=token)).status == 200
        status, body = await _answer(
            await web.post("/api/correct", {"dice": [1, 1, 1]}, token=token)
        )
        assert status == 409
        assert body["error"] == "nothing to correct: the table has moved on since the last throw"

    _run(rig, test)


def test_requests_wait_while_the_dice_are_corrected_at_the_table(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)
    rig.press(Button.CORRECT)
    assert rig.table.controller.is_correcting

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(await web.post("/api/bank", {}, token=token))
        assert status == 409 and "corrected at the table" in body["error"]
        assert rig.table.controller.is_correcting  # the table's correction goes on

    _run(rig, test)


def test_a_menu_left_open_at_the_table_closes_for_the_phone(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)
    rig.press(Button.MENU)
    assert rig.view.menu

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(await web.post("/api/bank", {}, token=token))
        assert status == 200 and body["state"]["players"][0]["score"] == 250
        assert body["state"]["phase"] != "menu"

    _run(rig, test)


def test_players_join_and_leave_as_through_the_menu(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle"))
    rig.step()

    async def test(web: WebRig, token: str) -> None:
        status, body = await _answer(await web.post("/api/players", {"add": "Cleo"}, token=token))
        assert status == 200 and body["message"] == "Cleo joined"
        assert [p["name"] for p in body["state"]["players"]] == ["Ann", "Bob", "Cleo"]
        status, body = await _answer(await web.post("/api/players", {"add": "Cleo"}, token=token))
        assert status == 409 and body["error"] == "there is already a player called 'Cleo'"
        status, body = await _answer(
            await web.post("/api/players", {"add": "cpu:cautious"}, token=token)
        )
        assert status == 200 and body["state"]["players"][-1] == {
            "name": "Cautious",
            "score": 0,
            "computer": True,
            "history": [],
        }
        status, body = await _answer(await web.post("/api/players", {"remove": "Bob"}, token=token))
        assert status == 200 and body["message"] == "Bob left"
        status, body = await _answer(await web.post("/api/players", {"remove": "Zed"}, token=token))
        assert status == 409 and body["error"].startswith("no player 'Zed'")

    _run(rig, test)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"add": "\x1b[31mred"}, "control characters"),
        ({"add": "x" * 30}, "too long"),
        ({"add": "cpu:wizard"}, "wizard"),
        ({"add": "Ann", "remove": "Bob"}, 'expected {"add": NAME} or {"remove": NAME}'),
        ({"add": 3}, "expected a player's name"),
        ({"kick": "Ann"}, "unknown field 'kick'"),
    ],
)
def test_bad_player_requests_answer_400(tmp_path: Path, body: object, words: str) -> None:
    rig = open_rig(config(tmp_path))
    rig.step()

    async def test(web: WebRig, token: str) -> None:
        status, answer = await _answer(await web.post("/api/players", body, token=token))
        assert status == 400 and words in answer["error"]
        assert [p.name for p in rig.table.controller.state.players] == ["Ann", "Bob"]

    _run(rig, test)


def test_rules_start_a_new_game_and_new_game_keeps_the_players(tmp_path: Path) -> None:
    rig = _choosing(tmp_path)

    async def test(web: WebRig, token: str) -> None:
        assert (await web.post("/api/bank", {}, token=token)).status == 200
        status, body = await _answer(await web.post("/api/rules", {"rules": "greed"}, token=token))
        assert status == 200 and body["message"] == "new game of greed"
        assert body["state"]["rules"] == "greed"
        assert [p["score"] for p in body["state"]["players"]] == [0, 0]
        status, body = await _answer(await web.post("/api/rules", {"rules": "chess"}, token=token))
        assert status == 400 and "chess" in body["error"] and "farkle" in body["error"]
        status, body = await _answer(await web.post("/api/new-game", {}, token=token))
        assert status == 200 and body["message"] == "new game of greed"
        assert [p["name"] for p in body["state"]["players"]] == ["Ann", "Bob"]

    _run(rig, test)


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/keep", {"option": "first"}, "option = 'first'"),
        ("/api/keep", {"option": True}, "option = True"),
        ("/api/keep", {}, "option = None"),
        ("/api/correct", {"dice": [1, 7]}, "7 is not a die's value"),
        ("/api/correct", {"dice": "11"}, "expected a list"),
        ("/api/correct", {"dice": [True]}, "True is not a die's value"),
        ("/api/roll", {"now": 1}, "unknown field 'now'"),
        ("/api/bank", [], "JSON object"),
    ],
)
def test_bad_fields_answer_400(tmp_path: Path, path: str, body: object, words: str) -> None:
    rig = _choosing(tmp_path)

    async def test(web: WebRig, token: str) -> None:
        status, answer = await _answer(await web.post(path, body, token=token))
        assert status == 400 and words in answer["error"], answer

    _run(rig, test)
