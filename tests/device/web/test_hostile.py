"""The web under a hostile LAN (loopback addresses only): a foreign ``Host`` (DNS rebinding),
floods of GET requests, requests that would have been 500s, half-open connections that never
finish their headers, and more connections from one address than it may hold."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.web import server
from device.web.auth import Pairing
from device.web.bridge import WebBridge
from device.web.server import WebServer, is_served_host
from tests.device.harness import Rig, config, is_waiting, open_rig
from tests.device.web.webrig import WebRig, run_served


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    table = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3, 4]]))
    table.until(is_waiting)
    return table


def test_a_host_that_is_not_the_tables_is_403() -> None:
    names = frozenset({"localhost", "dicekeeper", "dicekeeper.local"})
    for host in ("192.168.1.5:8080", "[fe80::1]:8080", "localhost:8080", "Dicekeeper.local."):
        assert is_served_host(host, names), host
    for host in ("evil.example:8080", "192.168.1.5.evil.example", "", "x:notaport"):
        assert not is_served_host(host, names), host


def test_every_route_refuses_a_rebound_host(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        token = await web.pair()
        evil = {"Host": "attacker.example:8080"}
        for path in ("/", "/api/state", "/api/camera.jpg", "/api/games", "/api/events"):
            answer = await web.client.get(path, headers=evil)
            assert answer.status == 403, path
        assert (await web.client.post("/api/pair", json={"code": "1"}, headers=evil)).status == 403
        answer = await web.post("/api/bank", {}, token=token, headers=evil)
        assert answer.status == 403
        assert rig.table.controller.state.players[0].total == 0
        assert (await web.client.get("/api/state")).status == 200

    run_served(rig, test)


def test_get_requests_are_limited_per_address(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        statuses = [
            (await web.client.get("/api/state")).status for _ in range(server.GETS_PER_WINDOW)
        ]
        assert set(statuses) == {200}
        assert (await web.client.get("/api/state")).status == 429
        web.now[0] += server.GET_WINDOW
        assert (await web.client.get("/api/state")).status == 200

    run_served(rig, test)


def test_requests_that_were_500s_are_4xx(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        deep = "[" * 8000 + "]" * 8000
        answer = await web.client.post(
            "/api/pair", data=f'{{"code": {deep}}}', headers={"Content-Type": "application/json"}
        )
        assert answer.status == 400
        assert "nested too deep" in (await answer.json())["error"]
        assert (await web.client.get("/static/" + "a" * 5000)).status == 404
        for path in ("/api/games/99999999999999999999999", "/api/games/99999999999999999999.csv"):
            assert (await web.client.get(path)).status == 404, path

    run_served(rig, test)


@pytest.fixture
def live() -> Iterator[WebServer]:
    web = WebServer(
        WebBridge(),
        Pairing(),
        bind="127.0.0.1",
        port=0,
        store_path=None,
        header_seconds=0.5,
        connections_per_address=4,
    )
    web.start()
    try:
        yield web
    finally:
        web.stop()


def _get(port: int, path: str = "/api/state") -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
        )
        head = client.recv(64)
    return int(head.split()[1]) if head else 0


def _closed_within(client: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``client`` (EOF or reset) before ``seconds`` have passed."""
    client.settimeout(seconds)
    try:
        return client.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_connection_that_does_not_finish_its_headers_is_closed(live: WebServer) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as client:
        client.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
        assert _closed_within(client, 30)
    assert _get(live.port) == 200


def test_one_address_holds_only_so_many_connections(live: WebServer) -> None:
    held = [socket.create_connection(("127.0.0.1", live.port), timeout=10) for _ in range(4)]
    try:
        deadline = time.monotonic() + 30
        while live.guard is not None and live.guard.total < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        with socket.create_connection(("127.0.0.1", live.port), timeout=10) as extra:
            assert _closed_within(extra, 30)
        assert live.guard is not None and live.guard.refused >= 1
    finally:
        for client in held:
            client.close()
    deadline = time.monotonic() + 30
    while live.guard is not None and live.guard.total and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _get(live.port) == 200


def test_when_every_place_is_taken_a_new_connection_closes_the_busiest_oldest() -> None:
    web = WebServer(
        WebBridge(),
        Pairing(),
        bind="127.0.0.1",
        port=0,
        store_path=None,
        max_connections=4,
        connections_per_address=10,
    )
    web.start()
    held = []
    try:
        for _ in range(4):  # another loopback address holds every place, half-open
            client = socket.socket()
            client.bind(("127.0.0.2", 0))
            client.connect(("127.0.0.1", web.port))
            held.append(client)
        deadline = time.monotonic() + 30
        while web.guard is not None and web.guard.total < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _get(web.port) == 200
        assert web.guard is not None and web.guard.evicted >= 1
        assert _closed_within(held[0], 30)  # the oldest made room
    finally:
        for client in held:
            client.close()
        web.stop()


def test_the_state_json_is_what_state_gives(rig: Rig) -> None:
    async def test(web: WebRig) -> None:
        body = await (await web.client.get("/api/state")).read()
        assert json.loads(body) == web.context.state(paired=False)

    run_served(rig, test)


def test_an_event_stream_whose_page_stops_reading_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server, "WRITE_SECONDS", 0.5)
    web = WebServer(WebBridge(), Pairing(), bind="127.0.0.1", port=0, store_path=None)
    web.start()
    context, loop = web.context, web._loop
    assert loop is not None
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        client.connect(("127.0.0.1", web.port))
        client.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\n\r\n".encode())
        deadline = time.monotonic() + 30
        while not context.watchers and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(context.watchers) == 1

        def flood() -> None:  # a state far larger than the page's buffers, never read
            context.text = "x" * 20_000_000
            for wake in context.watchers:
                wake.set()

        loop.call_soon_threadsafe(flood)
        while context.watchers and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not context.watchers  # the stream was ended
        assert _get(web.port) == 200
    finally:
        client.close()
        web.stop()
