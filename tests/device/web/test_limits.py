"""What the web refuses: no or expired token (401), another origin (403), too large (413), too
many requests or wrong codes (429), not JSON (400), too many watchers or a table that does not
answer (503)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest

from device.web import server
from device.web.auth import (
    CODE_GUESSES,
    MAX_DIGITS,
    TOKEN_SECONDS,
    WRONG_CODES,
    Pairing,
    TooMany,
    WrongCode,
    address_key,
)
from tests.device.harness import Rig, config, is_waiting, open_rig
from tests.device.web.webrig import CODE, WebRig, run_served


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    table = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3, 4]]))
    table.until(is_waiting)
    return table


def _origin(web: WebRig) -> str:
    url = web.client.make_url("/")
    return f"{url.scheme}://{url.host}:{url.port}"


def test_control_without_a_token_or_with_a_wrong_one_is_401(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        for headers in ({}, {"Authorization": "Bearer made-up"}, {"Authorization": "Basic x"}):
            answer = await web.post("/api/bank", {}, headers=headers)
            assert answer.status == 401
            assert "pair first" in (await answer.json())["error"]
        assert rig.table.controller.state.players[0].total == 0

    run_served(rig, test)


def test_a_token_expires(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        answer = await web.client.post("/api/pair", json={"code": CODE})
        body = await answer.json()
        assert body["expires"] == web.now[0] + TOKEN_SECONDS
        token = body["token"]
        web.now[0] += TOKEN_SECONDS - 1
        assert (await web.post("/api/keep", {"option": 1}, token=token)).status == 200
        web.now[0] += 2
        assert (await web.post("/api/keep", {"option": 0}, token=token)).status == 401
        state = await (
            await web.client.get("/api/state", headers={"Authorization": f"Bearer {token}"})
        ).json()
        assert state["paired"] is False

    run_served(rig, test)


def test_wrong_codes_are_401_then_429_for_a_minute(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        for _ in range(WRONG_CODES):
            answer = await web.client.post("/api/pair", json={"code": "0000"})
            assert answer.status == 401
            assert "wrong pairing code" in (await answer.json())["error"]
        blocked = await web.client.post("/api/pair", json={"code": CODE})
        assert blocked.status == 429  # even the right code, until the minute has passed
        web.now[0] += 61
        assert (await web.client.post("/api/pair", json={"code": CODE})).status == 200

    run_served(rig, test)


def test_wrong_codes_from_a_crowd_never_lock_the_right_code_out() -> None:
    now = [0.0]
    shown: list[str] = []
    pairing = Pairing(code="1234", clock=lambda: now[0], on_new_code=shown.append)
    for _ in range(WRONG_CODES):
        with pytest.raises(WrongCode):
            pairing.pair("9999", "10.0.0.2")
    with pytest.raises(TooMany):
        pairing.pair("1234", "10.0.0.2")  # that address waits its minute
    assert pairing.is_valid(pairing.pair("1234", "10.0.0.3").value)
    for n in range(6 * WRONG_CODES):  # six more addresses, each up to its bound, in a minute
        with contextlib.suppress(WrongCode, TooMany):
            pairing.pair("0000", f"10.0.1.{n % 6}")
        code = pairing.code
        assert pairing.is_valid(pairing.pair(code, "10.0.0.9").value)  # never refused
    assert shown and shown[-1] == pairing.code


def test_too_many_wrong_codes_bring_a_new_longer_code() -> None:
    shown: list[str] = []
    pairing = Pairing(code="1234", clock=lambda: 0.0, on_new_code=shown.append)
    lengths = []
    for n in range(4 * CODE_GUESSES):
        with pytest.raises(WrongCode):
            pairing.pair("x", f"10.0.{n}.1")
        lengths.append(len(pairing.code))
    assert lengths[CODE_GUESSES - 2] == 4 and lengths[CODE_GUESSES - 1] == 6
    assert lengths[-1] == MAX_DIGITS and len(shown) == 4
    assert all(code.isdigit() for code in shown)
    with pytest.raises(WrongCode):
        pairing.pair("1234", "10.9.9.9")  # the old code is gone


def test_each_address_counts_alone_ipv4_mapped_as_ipv4() -> None:
    # Phones on one LAN share its IPv6 /64: one guesser there must not lock the others out.
    assert address_key("2001:db8::1") != address_key("2001:db8::ffff:1")
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1"
    assert address_key("10.0.0.1") != address_key("10.0.0.2")


def test_the_table_shows_the_new_code(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        for _ in range(4 * CODE_GUESSES):  # one address: waits its minute after each five
            if web.context.pairing.code != CODE:
                break
            answer = await web.client.post("/api/pair", json={"code": "x"})
            assert answer.status in (401, 429)
            if answer.status == 429:
                web.now[0] += 61
        assert web.context.pairing.code != CODE
        web.bridge.drain(rig.table.controller, rig.clock[0])
        assert rig.table.controller.overlay.pair_code == web.context.pairing.code
        assert len(rig.table.controller.overlay.pair_code) == 6

    run_served(rig, test)


def test_the_code_is_four_random_digits() -> None:
    codes = {Pairing().code for _ in range(20)}
    assert all(len(c) == 4 and c.isdigit() for c in codes)
    assert len(codes) > 1


def test_requests_from_another_origin_are_403(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        token = await web.pair()
        for headers in (
            {"Origin": "http://evil.example"},
            {"Origin": "null"},
            {"Origin": _origin(web).rsplit(":", 1)[0] + ":9"},  # same host, another port
            {"Referer": "http://evil.example/page"},
        ):
            answer = await web.post("/api/bank", {}, token=token, headers=headers)
            assert answer.status == 403, headers
            pair = await web.client.post("/api/pair", json={"code": CODE}, headers=headers)
            assert pair.status == 403
        assert rig.table.controller.state.players[0].total == 0
        same = await web.post(
            "/api/keep", {"option": 1}, token=token, headers={"Origin": _origin(web)}
        )
        assert same.status == 200
        referer = {"Referer": _origin(web) + "/game/1"}
        assert (
            await web.post("/api/keep", {"option": 0}, token=token, headers=referer)
        ).status == 200

    run_served(rig, test)


def test_a_body_that_is_not_json_is_400(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        token = await web.pair()
        for data, content_type in (
            (b"{not json", "application/json"),
            (b"\xff\xfe", "application/json"),
            (b'{"option": 1}', "text/plain"),
            (b"option=1", "application/x-www-form-urlencoded"),
        ):
            answer = await web.post(
                "/api/keep", token=token, data=data, headers={"Content-Type": content_type}
            )
            assert answer.status == 400, (data, content_type)
            assert (await answer.json())["ok"] is False
        answer = await web.client.post(
            "/api/pair", data=b"[1", headers={"Content-Type": "application/json"}
        )
        assert answer.status == 400

    run_served(rig, test)


def test_a_large_body_is_413(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        token = await web.pair()
        big = json.dumps({"dice": [1] * 10_000}).encode()
        assert len(big) > server.MAX_BODY
        answer = await web.post(
            "/api/correct", token=token, data=big, headers={"Content-Type": "application/json"}
        )
        assert answer.status == 413
        assert "too large" in (await answer.json())["error"]

    run_served(rig, test)


def test_too_many_posts_from_one_address_are_429(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        token = await web.pair()  # the first post
        for _ in range(server.POSTS_PER_WINDOW - 1):
            assert (await web.post("/api/keep", {"option": 0}, token=token)).status == 200
        answer = await web.post("/api/keep", {"option": 0}, token=token)
        assert answer.status == 429
        web.now[0] += server.POST_WINDOW
        assert (await web.post("/api/keep", {"option": 0}, token=token)).status == 200

    run_served(rig, test)


def test_watchers_beyond_the_cap_of_an_address_are_503(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        web.context.watchers_per_address = 2
        first = await web.client.get("/api/events")
        second = await web.client.get("/api/events")
        await first.content.readline()
        await second.content.readline()
        third = await web.client.get("/api/events")
        assert third.status == 503
        assert "this address" in (await third.json())["error"]
        first.close()
        for _ in range(100):  # the server notices the watcher left
            if len(web.context.watchers) < 2:
                break
            await asyncio.sleep(0.01)
        fourth = await web.client.get("/api/events")
        assert fourth.status == 200
        second.close()
        fourth.close()

    run_served(rig, test)


def test_when_every_stream_is_taken_a_new_page_takes_the_oldest_place(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        web.context.max_watchers = 2
        first = await web.client.get("/api/events")
        await first.content.readline()
        web.now[0] += 1
        second = await web.client.get("/api/events")
        await second.content.readline()
        third = await web.client.get("/api/events")
        assert third.status == 200
        assert await third.content.readline() == b"event: state\n"
        rest = await asyncio.wait_for(_read_to_end(first), 5)  # the oldest was ended
        assert b"event: state" in rest or rest == b""
        assert len(web.context.watchers) == 2
        second.close()
        third.close()

    run_served(rig, test)


async def _read_to_end(response: object) -> bytes:
    import aiohttp

    assert isinstance(response, aiohttp.ClientResponse)
    try:
        return await response.content.read()
    except aiohttp.ClientPayloadError:
        return b""


def test_a_table_that_does_not_answer_in_time_is_503_and_the_request_is_dropped(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        token = await web.pair()
        web.context.table_timeout = 0.05
        answer = await web.client.post(
            "/api/bank", json={}, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status == 503
        web.bridge.drain(rig.table.controller, rig.clock[0])  # too late: not applied
        assert rig.table.controller.state.players[0].total == 0

    run_served(rig, test)
