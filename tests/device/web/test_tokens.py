"""Every control endpoint of the web API refuses a request without a valid token.

The endpoints come from the application's own route table: every route that is not a GET (or its
HEAD) changes the table, and all of them but ``POST /api/pair`` (which gives the token) must
answer 401 to a missing, a made-up and an expired token, and change nothing. An endpoint added
later is covered without touching this file.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from device.web.auth import TOKEN_SECONDS, Pairing
from device.web.bridge import WebBridge
from device.web.server import WebContext, make_app
from tests.device.harness import Rig, config, open_rig
from tests.device.web.webrig import WebRig, served

READ_ONLY = {"GET", "HEAD"}
PAIRING = "/api/pair"


def control_routes() -> list[tuple[str, str]]:
    """(method, path) of every route of the app that is neither a read nor the pairing."""
    context = WebContext(WebBridge(clock=lambda: 0.0), Pairing(code="0000"), store_path=None)
    try:
        app = make_app(context)
        routes = {
            (route.method, route.resource.canonical)
            for route in app.router.routes()
            if route.resource is not None
        }
    finally:
        context.close()
    return sorted((m, p) for m, p in routes if m not in READ_ONLY and p != PAIRING)


ROUTES = control_routes()
# A body each kind would accept with a token, so only the token can be why it is refused.
BODIES: dict[str, object] = {
    "/api/correct": {"dice": [1, 1, 5, 2, 3, 4]},
    "/api/keep": {"option": 0},
    "/api/players": {"add": "Dora"},
    "/api/rules": {"rules": "greed"},
}


def test_the_route_table_has_the_control_endpoints() -> None:
    paths = {path for _, path in ROUTES}
    assert {"/api/bank", "/api/keep", "/api/roll", "/api/new-game"} <= paths
    assert all(path.startswith("/api/") for path in paths)


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    table = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3, 4]]))
    table.step()
    return table


@pytest.mark.parametrize("token", ["missing", "wrong", "expired"])
@pytest.mark.parametrize(("method", "path"), ROUTES, ids=[f"{m} {p}" for m, p in ROUTES])
def test_control_refuses_without_a_valid_token(
    rig: Rig, method: str, path: str, token: str
) -> None:
    controller = rig.table.controller

    async def test(web: WebRig) -> None:
        headers: dict[str, str] = {}
        if token == "wrong":
            headers["Authorization"] = "Bearer made-up-token"
        elif token == "expired":
            valid = await web.pair()
            web.now[0] += TOKEN_SECONDS + 1
            headers["Authorization"] = f"Bearer {valid}"
        state = controller.state
        sent = web.client.request(method, path, json=BODIES.get(path, {}), headers=headers)
        task = asyncio.create_task(sent)
        while not task.done():  # the table answers anything let through, as it would at play
            await asyncio.sleep(0.001)
            web.bridge.drain(controller, rig.clock[0])
        answer = task.result()
        assert answer.status == 401, await answer.text()
        assert "pair first" in (await answer.json())["error"]
        assert controller.state == state

    async def main() -> None:
        async with served(rig) as web:
            await test(web)

    asyncio.run(main())
