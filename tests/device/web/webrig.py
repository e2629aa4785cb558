"""A table under test served by the web app in aiohttp's test client, with fake clocks.

Nothing runs by itself: `WebRig.step` steps the table (its fake clock) and `WebRig.post` sends a
control request and drains the bridge until the table answered, so every test decides when the
table moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from device.web.auth import Pairing
from device.web.bridge import WebBridge
from device.web.server import WebContext, connect, make_app
from tests.device.harness import Rig

CODE = "4321"


@dataclass
class WebRig:
    """The table (``rig``), its bridge, the web's context and a client of the app."""

    rig: Rig
    bridge: WebBridge
    context: WebContext
    client: TestClient[Any, Any]
    now: list[float]
    """The web's clock (epoch seconds) for tokens and rate limits."""

    def step(self, n: int = 1) -> None:
        """Step the table ``n`` times."""
        self.rig.step(n)

    async def pair(self) -> str:
        """A token for the right code."""
        answer = await self.client.post("/api/pair", json={"code": CODE})
        assert answer.status == 200, await answer.text()
        token: str = (await answer.json())["token"]
        return token

    async def post(
        self,
        path: str,
        body: object = None,
        *,
        token: str | None = None,
        headers: Mapping[str, str] | None = None,
        data: bytes | None = None,
    ) -> ClientResponse:
        """POST ``body`` as JSON (or raw ``data``) and drain the table's queue until answered."""
        sent = dict(headers or {})
        if token is not None:
            sent.setdefault("Authorization", f"Bearer {token}")
        if data is None:
            data = json.dumps({} if body is None else body).encode()
            sent.setdefault("Content-Type", "application/json")
        task = asyncio.create_task(self.client.post(path, data=data, headers=sent))
        while not task.done():
            await asyncio.sleep(0.001)
            self.bridge.drain(self.rig.table.controller, self.rig.clock[0])
        return task.result()


@contextlib.asynccontextmanager
async def served(rig: Rig, *, static: Path | None = None) -> AsyncIterator[WebRig]:
    """``rig`` served by the web app (pairing code `CODE`, a fake web clock)."""
    now = [1_000_000.0]
    bridge = WebBridge(clock=lambda: rig.clock[0])
    pairing = Pairing(code=CODE, clock=lambda: now[0])
    context = WebContext(
        bridge,
        pairing,
        store_path=rig.table.store.path,
        clock=lambda: now[0],
        monotonic=lambda: now[0],
        **({} if static is None else {"static": static}),
    )
    connect(bridge, rig.table.controller, url="http://table:8080", code=CODE)
    async with TestClient(TestServer(make_app(context))) as client:
        yield WebRig(rig, bridge, context, client, now)


def run_served(rig: Rig, test: Callable[[WebRig], Awaitable[None]]) -> None:
    """Run ``test`` against ``rig`` served (`served`), to its end."""

    async def main() -> None:
        async with served(rig) as web:
            await test(web)

    asyncio.run(main())
