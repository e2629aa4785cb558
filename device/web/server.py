"""The web scoreboard's HTTP server: aiohttp in a thread of its own, with its own event loop.

Routes (the API is described in the README, "Web scoreboard"):

- ``GET /`` the scoreboard, ``GET /game/{id}`` one finished game, ``GET /static/{file}`` the
  pages' other files (all from ``device/web/static``);
- ``GET /api/state`` the table as JSON (`device.web.state`), ``GET /api/events`` the same as
  server-sent events at every change, ``GET /api/camera.jpg`` the newest camera picture;
- ``POST /api/pair`` a pairing code for a token; ``POST /api/{correct,keep,roll,bank,players,
  rules,new-game}`` control (`device.web.control`), with ``Authorization: Bearer TOKEN``;
- ``GET /api/games``, ``/api/games.csv``, ``/api/games/{id}``, ``/api/games/{id}.csv`` the
  finished games (`device.web.games`).

The table's thread never waits for this one: views arrive through `device.web.bridge.WebBridge`,
requests go back through its queue and are awaited here with a timeout. Control requests are
refused from another origin (403: the ``Origin``, else ``Referer``, must be this ``Host``),
without ``application/json`` (400), above `MAX_BODY` bytes (413), and past `POSTS_PER_WINDOW`
posts in `POST_WINDOW` seconds from one address (429). Every request is refused (403) when its
``Host`` is neither an IP address nor one of this machine's names (`host_names`), so a web page
under another name resolving to the table (DNS rebinding) cannot read or control it, and past
`GETS_PER_WINDOW` requests in `GET_WINDOW` seconds from one address (429).

The connections are bounded too (`ConnectionGuard`): `CONNECTIONS_PER_ADDRESS` from one address
(more are closed at once) and `MAX_CONNECTIONS` in all (the oldest of the address holding the
most makes room for a new one), `HEADER_SECONDS` to send a request's headers (and to send the
next one on a kept-alive connection), `BODY_SECONDS` for its body. At most `MAX_WATCHERS` event
streams are served, `WATCHERS_PER_ADDRESS` from one address; when they are all taken, a new page
takes the place of the oldest stream of the address holding the most, and a stream whose page
does not read what is written within `WRITE_SECONDS` is closed.
Store reads (with the replay of the games) and JPEG encoding run in worker threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import fcntl
import functools
import io
import ipaddress
import json
import logging
import os
import socket
import sqlite3
import struct
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import cv2
from aiohttp import web

from device.controller import Controller
from device.session import rules_for
from device.store import GameStore, StoreError
from device.web.auth import (
    CODE_GUESSES,
    Pairing,
    RateLimit,
    TooMany,
    WrongCode,
    address_key,
)
from device.web.bridge import TableBusy, WebBridge
from device.web.control import KINDS, BadRequest, Outcome, parse
from device.web.games import GameRecord, game_json, game_record, summary_json, write_csv
from device.web.review import add_review_route
from device.web.state import EMPTY_VIEW, state_json
from engine.errors import DicekeeperError
from engine.rules import rules_names
from hardware.display import MultiDisplay

__all__ = [
    "STATIC",
    "ConnectionGuard",
    "WebContext",
    "WebServer",
    "WebUnavailable",
    "connect",
    "host_names",
    "lan_address",
    "make_app",
    "start_web",
]

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
"""The pages and their files."""
MAX_BODY = 16 * 1024
"""The largest request body accepted (bytes)."""
POSTS_PER_WINDOW = 30
POST_WINDOW = 10.0
GETS_PER_WINDOW = 150
"""GET requests one address may make in `GET_WINDOW` seconds (a page makes a few a second)."""
GET_WINDOW = 10.0
MAX_WATCHERS = 64
WATCHERS_PER_ADDRESS = 4
MAX_CONNECTIONS = 256
"""Open connections in all (the unit's ``LimitNOFILE`` leaves room for them and the table)."""
CONNECTIONS_PER_ADDRESS = 24
HEADER_SECONDS = 10.0
"""Time for a request's headers, and for the next request on a kept-alive connection."""
BODY_SECONDS = 10.0
WRITE_SECONDS = 20.0
"""Time an event stream's page has to take what was written to it before it is closed."""
STREAM_BUFFER = 64 * 1024
"""Bytes an event stream may have waiting to be sent before its writes wait for the page."""
MAX_NAME = 255
"""The longest file name looked up among the pages' files."""
MAX_GAME_ID = 2**63 - 1
PING_SECONDS = 15.0
TABLE_TIMEOUT = 5.0
"""How long a control request waits for the table's answer (seconds)."""
ADDRESS_SECONDS = 30.0
"""How often the address shown on the screens is looked up again (the network may come up, or
change, after the table started)."""
CAMERA_INTERVAL = 0.25
"""The camera picture is encoded at most this often (seconds)."""
GAMES_LISTED = 200

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
}


class WebUnavailable(DicekeeperError):
    """The web scoreboard cannot start (e.g. its port is taken)."""


class WebContext:
    """What the handlers share: the bridge, the pairing, the limits, the event streams."""

    def __init__(
        self,
        bridge: WebBridge,
        pairing: Pairing,
        *,
        store_path: Path | None,
        static: Path = STATIC,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        max_watchers: int = MAX_WATCHERS,
        watchers_per_address: int = WATCHERS_PER_ADDRESS,
        ping_seconds: float = PING_SECONDS,
        table_timeout: float = TABLE_TIMEOUT,
    ) -> None:
        self.bridge = bridge
        self.pairing = pairing
        self.store_path = store_path
        self.static = static
        self.monotonic = monotonic
        self.max_watchers = max_watchers
        self.watchers_per_address = watchers_per_address
        self.ping_seconds = ping_seconds
        self.table_timeout = table_timeout
        self.posts = RateLimit(POSTS_PER_WINDOW, POST_WINDOW, clock=clock)
        self.gets = RateLimit(GETS_PER_WINDOW, GET_WINDOW, clock=clock)
        self.hosts = host_names()
        self.watchers: dict[asyncio.Event, tuple[str, float, web.StreamResponse]] = {}
        """Each event stream's wake-up, with its address, when it began, and its response."""
        self.closing = False
        self.text = ""  # the newest state's JSON as streamed (paired false)
        self._states: dict[bool, tuple[object, bytes]] = {}
        self.code_shown = pairing.code
        """The pairing code the table was last asked to show."""
        if pairing.on_new_code is None:
            pairing.on_new_code = self.new_code
        self.rules = [r for r in rules_names() if rules_for(r).faces == 6]
        self._store: GameStore | None = None
        self._reads = ThreadPoolExecutor(1, thread_name_prefix="dicekeeper-web-store")
        self._picture: tuple[int, bytes | None, float] = (0, None, -1e9)
        self._encoding = asyncio.Lock()

    # --- state and event streams -------------------------------------------------------------

    def state(self, *, paired: bool) -> dict[str, Any]:
        """The table's state as the API gives it."""
        view, camera = self.bridge.snapshot()
        data = state_json(view or EMPTY_VIEW, camera=camera, paired=paired)
        data["rules_available"] = self.rules
        return data

    def state_body(self, *, paired: bool) -> bytes:
        """`state` as JSON bytes, encoded once per view (a flood of requests costs little)."""
        snapshot = self.bridge.snapshot()
        cached = self._states.get(paired)
        if cached is not None and cached[0] == snapshot:
            return cached[1]
        body = json.dumps(self.state(paired=paired)).encode()
        self._states[paired] = (snapshot, body)
        return body

    # --- the pairing code on the table's screens ---------------------------------------------

    def new_code(self, code: str) -> None:
        """Too many wrong codes replaced the pairing code: have the table show ``code``."""
        log.warning(
            "%d wrong pairing codes: the table now shows a new %d-digit code",
            CODE_GUESSES,
            len(code),
        )
        self.show_code()

    def show_code(self) -> None:
        """Ask the table to show the current pairing code if it does not yet (the table's queue
        may be full: `WebServer` asks again every second)."""
        code = self.pairing.code
        if code == self.code_shown:
            return

        def show(controller: Controller, now: float) -> None:
            controller.overlay = dataclasses.replace(controller.overlay, pair_code=code)

        try:
            self.bridge.submit(show)
        except TableBusy:
            return
        self.code_shown = code

    def changed(self) -> None:
        """The table showed a new view: wake the event streams if their state changed."""
        text = json.dumps(self.state(paired=False), separators=(",", ":"))
        if text != self.text:
            self.text = text
            for wake in self.watchers:
                wake.set()

    def make_room(self, address: str) -> str:
        """Room for one more event stream from ``address`` ("" when there is; else why not).

        From an address holding ``watchers_per_address`` there is none; when every stream is
        taken, the oldest stream of the address holding the most is ended to make room.
        """
        held: dict[str, list[tuple[float, asyncio.Event]]] = {}
        for wake, (who, since, _) in self.watchers.items():
            held.setdefault(who, []).append((since, wake))
        if len(held.get(address, ())) >= self.watchers_per_address:
            bound = self.watchers_per_address
            return f"too many pages watching from this address (at most {bound})"
        if len(self.watchers) < self.max_watchers:
            return ""
        if not held:
            return f"too many pages watching (at most {self.max_watchers})"
        streams = max(held.values(), key=len)
        _, oldest = min(streams, key=lambda item: item[0])
        _, _, response = self.watchers.pop(oldest)
        _abort(response)
        oldest.set()
        return ""

    def close(self) -> None:
        """End the event streams and the store reads."""
        self.closing = True
        for wake in self.watchers:
            wake.set()
        store, self._store = self._store, None
        if store is not None:  # after the reads already queued
            self._reads.submit(store.close)
        self._reads.shutdown(wait=False)

    # --- the game store (read in a worker thread) --------------------------------------------

    async def read_store(self, read: Callable[[GameStore], Any]) -> Any:
        """``read(store)`` in the store's worker thread (the store opened there at first use)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reads, functools.partial(self._read, read))

    def _read(self, read: Callable[[GameStore], Any]) -> Any:
        if self.store_path is None:
            raise StoreError("no game store")
        if self._store is None:
            # Never moves the table's database aside: that is the table's to do.
            self._store = GameStore(self.store_path, connect=_connect_any_thread, repair=False)
        return read(self._store)

    # --- the camera picture ------------------------------------------------------------------

    async def picture(self) -> bytes | None:
        """The newest camera picture as JPEG (None when no frame came yet), encoded at most
        every `CAMERA_INTERVAL` seconds."""
        async with self._encoding:
            number, frame = self.bridge.frame()
            cached, data, at = self._picture
            now = self.monotonic()
            if frame is None or (
                data is not None and (cached == number or now - at < CAMERA_INTERVAL)
            ):
                return data
            loop = asyncio.get_running_loop()
            data = await loop.run_in_executor(None, _jpeg, frame)
            self._picture = (number, data, now)
            return data


def _connect_any_thread(path: Path) -> sqlite3.Connection:
    """The web's own connection to the store, used by its one worker thread (created in it)."""
    return sqlite3.connect(path, isolation_level=None, timeout=5.0, check_same_thread=False)


def _abort(response: web.StreamResponse) -> None:
    """Close the connection of a response at once (its page went quiet or made room)."""
    writer = response._payload_writer  # the stream's transport: aiohttp has no public way
    transport = None if writer is None else writer.transport
    if transport is not None:
        transport.abort()


def _jpeg(frame: Any) -> bytes | None:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return bytes(data) if ok else None


# --- the application -------------------------------------------------------------------------

CONTEXT = web.AppKey("context", WebContext)


def make_app(context: WebContext) -> web.Application:
    """The aiohttp application serving ``context``."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_errors, _guard])
    app[CONTEXT] = context
    app.on_startup.append(_startup)
    app.on_shutdown.append(_shutdown)
    app.router.add_get("/", functools.partial(_page, name="index.html"))
    app.router.add_get(r"/game/{id:\d+}", functools.partial(_page, name="game.html"))
    app.router.add_get("/static/{name}", _static)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/events", _events)
    app.router.add_get("/api/camera.jpg", _camera)
    app.router.add_post("/api/pair", _pair)
    for kind in KINDS:
        app.router.add_post(f"/api/{kind}", functools.partial(_control, kind=kind))
    app.router.add_get("/api/games", _games)
    app.router.add_get("/api/games.csv", _games_csv)
    app.router.add_get(r"/api/games/{id:\d+}.csv", _game_csv)
    app.router.add_get(r"/api/games/{id:\d+}", _game)
    add_review_route(app, context.read_store)
    return app


async def _startup(app: web.Application) -> None:
    context = app[CONTEXT]
    loop = asyncio.get_running_loop()

    def wake() -> None:  # called by the table's thread: must not block
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(context.changed)

    context.bridge.set_wake(wake)
    context.changed()


async def _shutdown(app: web.Application) -> None:
    app[CONTEXT].bridge.set_wake(None)
    app[CONTEXT].close()


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Errors as JSON ``{"ok": false, "error": ...}`` under /api/; safety headers everywhere."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        if not request.path.startswith("/api/") or exc.status < 400:
            raise
        reason = {
            413: f"the request is too large (at most {MAX_BODY} bytes)",
            404: "no such thing here",
            405: "method not allowed",
        }.get(exc.status, exc.reason)
        response = _error(exc.status, reason)
    if not response.prepared:
        response.headers.update(HEADERS)
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
    return response


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """403 for a ``Host`` this table does not serve (DNS rebinding), 429 past `GETS_PER_WINDOW`
    GET requests from one address."""
    context = request.app[CONTEXT]
    host = request.headers.get("Host")
    if host is not None and not is_served_host(host, context.hosts):
        return _error(403, "unknown Host: use the table's address")
    if request.method in ("GET", "HEAD"):
        address = address_key(request.remote or "?")
        if context.gets.full(address):
            return _error(429, "too many requests: wait a few seconds")
        context.gets.hit(address)
    return await handler(request)


def host_names() -> frozenset[str]:
    """The names this machine answers to besides its IP addresses: localhost, its host name and
    that name with ".local" (mDNS), lower case."""
    name = socket.gethostname().lower().rstrip(".")
    return frozenset({"localhost", name, f"{name}.local", name.split(".")[0] + ".local"})


def is_served_host(host: str, names: frozenset[str]) -> bool:
    """Whether the ``Host`` header ``host`` (host[:port]) names this table: an IP address (a page
    from an IP address is of that origin: no rebinding) or one of ``names``."""
    name, port = _host_port(host, "http")
    if port is None or not name:
        return False
    name = name.rstrip(".")
    try:
        ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return name in names
    return True


# --- pages -----------------------------------------------------------------------------------


async def _page(request: web.Request, *, name: str) -> web.StreamResponse:
    return _file(request.app[CONTEXT].static, name)


async def _static(request: web.Request) -> web.StreamResponse:
    return _file(request.app[CONTEXT].static, request.match_info["name"])


def _file(folder: Path, name: str) -> web.StreamResponse:
    if len(name) > MAX_NAME or "/" in name or "\0" in name or name.startswith("."):
        raise web.HTTPNotFound(text=f"no file {name[:40]!r}")
    path = folder / name
    try:
        found = path.is_file()
    except (OSError, ValueError):
        found = False
    if not found:
        raise web.HTTPNotFound(text=f"no file {name!r}")
    response = web.FileResponse(path)
    response.headers["Cache-Control"] = "no-cache"
    return response


# --- the table's state -----------------------------------------------------------------------


def _token(request: web.Request) -> str:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def _is_paired(request: web.Request) -> bool:
    token = _token(request)
    return bool(token) and request.app[CONTEXT].pairing.is_valid(token)


async def _state(request: web.Request) -> web.StreamResponse:
    body = request.app[CONTEXT].state_body(paired=_is_paired(request))
    return web.Response(body=body, content_type="application/json")


async def _events(request: web.Request) -> web.StreamResponse:
    context = request.app[CONTEXT]
    address = address_key(request.remote or "?")
    refused = context.make_room(address)
    if refused:
        return _error(503, refused)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
            **HEADERS,
        }
    )
    wake = asyncio.Event()
    context.watchers[wake] = (address, context.monotonic(), response)
    try:
        await response.prepare(request)
        if request.transport is not None:
            request.transport.set_write_buffer_limits(high=STREAM_BUFFER)
        sent = ""
        while not context.closing and wake in context.watchers:
            if context.text != sent:
                sent = context.text
                await _write(response, f"event: state\ndata: {sent}\n\n".encode())
            wake.clear()
            if context.text != sent:
                continue
            try:
                await asyncio.wait_for(wake.wait(), context.ping_seconds)
            except TimeoutError:
                await _write(response, b": ping\n\n")
    except (ConnectionResetError, TimeoutError):  # the page went away or stopped reading
        _abort(response)
    finally:
        context.watchers.pop(wake, None)
    return response


async def _write(response: web.StreamResponse, data: bytes) -> None:
    """Write to an event stream; `TimeoutError` when its page has not read for `WRITE_SECONDS`."""
    await asyncio.wait_for(response.write(data), WRITE_SECONDS)


async def _camera(request: web.Request) -> web.StreamResponse:
    data = await request.app[CONTEXT].picture()
    if data is None:
        return _error(404, "no picture from the camera yet")
    return web.Response(body=data, content_type="image/jpeg", headers={"Cache-Control": "no-store"})


# --- pairing and control ---------------------------------------------------------------------


def _check_post(request: web.Request) -> web.Response | None:
    """403 from another origin, 429 past the rate, 400 without JSON; None when it may go on."""
    context = request.app[CONTEXT]
    host = request.headers.get("Host", "")
    origin = request.headers.get("Origin")
    source = origin if origin is not None else request.headers.get("Referer")
    if source is not None and not _same_host(source, host):
        return _error(403, "requests from another site are refused")
    address = address_key(request.remote or "?")
    if context.posts.full(address):
        return _error(429, "too many requests: wait a few seconds")
    context.posts.hit(address)
    if request.content_type != "application/json":
        return _error(400, "the body must be JSON (Content-Type: application/json)")
    return None


def _same_host(url: str, host: str) -> bool:
    """Whether ``url`` (an Origin or Referer) names ``host`` (host[:port], as sent)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc or not host:
        return False
    return _host_port(parts.netloc, parts.scheme) == _host_port(host, parts.scheme)


def _host_port(netloc: str, scheme: str) -> tuple[str, int | None]:
    default = 443 if scheme == "https" else 80
    try:
        parts = urlsplit(f"//{netloc}")
        return ((parts.hostname or "").lower(), parts.port or default)
    except ValueError:
        return (netloc.lower(), None)


async def _body(request: web.Request) -> Any:
    try:
        text = await asyncio.wait_for(request.text(), BODY_SECONDS)
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None
    except TimeoutError:
        raise BadRequest(f"the body did not come within {BODY_SECONDS:g} s") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise BadRequest(f"the body is not JSON: {exc}") from None
    except RecursionError:
        raise BadRequest("the body is not JSON this table takes: nested too deep") from None


async def _pair(request: web.Request) -> web.StreamResponse:
    refused = _check_post(request)
    if refused is not None:
        return refused
    context = request.app[CONTEXT]
    try:
        body = await _body(request)
    except BadRequest as exc:
        return _error(400, str(exc))
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str):
        return _error(400, 'expected {"code": "1234"}')
    try:
        token = context.pairing.pair(code.strip(), request.remote or "?")
    except TooMany as exc:
        return _error(429, str(exc))
    except WrongCode as exc:
        return _error(401, str(exc))
    return web.json_response({"ok": True, "token": token.value, "expires": token.expires})


async def _control(request: web.Request, *, kind: str) -> web.StreamResponse:
    refused = _check_post(request)
    if refused is not None:
        return refused
    context = request.app[CONTEXT]
    if not _is_paired(request):
        return _error(401, "pair first: send the code shown on the table to /api/pair")
    try:
        action = parse(kind, await _body(request))
        future = context.bridge.submit(action)
    except BadRequest as exc:
        return _error(400, str(exc))
    except TableBusy as exc:
        return _error(503, str(exc))
    try:
        outcome: Outcome = await asyncio.wait_for(
            asyncio.wrap_future(future), context.table_timeout
        )
    except TimeoutError:
        future.cancel()
        return _error(503, "the table did not answer in time")
    except TableBusy as exc:
        return _error(503, str(exc))
    _, camera = context.bridge.snapshot()
    data = state_json(outcome.view, camera=camera, paired=True)
    data["rules_available"] = context.rules
    if not outcome.ok:
        return web.json_response({"ok": False, "error": outcome.message, "state": data}, status=409)
    return web.json_response({"ok": True, "message": outcome.message, "state": data})


# --- finished games --------------------------------------------------------------------------


def _finished(store: GameStore) -> list[GameRecord]:
    return [game_record(game) for game in store.history(GAMES_LISTED)]


async def _games(request: web.Request) -> web.StreamResponse:
    records = await _stored(request, _finished)
    return web.json_response([summary_json(record) for record in records])


async def _games_csv(request: web.Request) -> web.StreamResponse:
    return _csv(await _stored(request, _finished), "dicekeeper-games.csv")


async def _one(request: web.Request) -> GameRecord:
    game_id = int(request.match_info["id"])
    if game_id > MAX_GAME_ID:
        raise web.HTTPNotFound()

    def read(store: GameStore) -> GameRecord | None:
        stored = store.game(game_id)
        return game_record(stored) if stored.is_finished else None

    record: GameRecord | None = await _stored(request, read)
    if record is None:
        raise web.HTTPNotFound()
    return record


async def _game(request: web.Request) -> web.StreamResponse:
    return web.json_response(game_json(await _one(request)))


async def _game_csv(request: web.Request) -> web.StreamResponse:
    record = await _one(request)
    return _csv([record], f"dicekeeper-game-{record.id}.csv")


async def _stored(request: web.Request, read: Callable[[GameStore], Any]) -> Any:
    try:
        return await request.app[CONTEXT].read_store(read)
    except StoreError as exc:
        if "no game" in str(exc):
            raise web.HTTPNotFound() from None
        raise web.HTTPServiceUnavailable(reason=str(exc)[:200]) from None


def _csv(records: list[GameRecord], filename: str) -> web.Response:
    out = io.StringIO()
    write_csv(records, out)
    return web.Response(
        text=out.getvalue(),
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


# --- the server thread -----------------------------------------------------------------------


class WebServer:
    """The web scoreboard on ``bind``:``port``, served from a thread of its own."""

    def __init__(
        self,
        bridge: WebBridge,
        pairing: Pairing,
        *,
        bind: str,
        port: int,
        store_path: Path | None,
        static: Path = STATIC,
        header_seconds: float = HEADER_SECONDS,
        max_connections: int = MAX_CONNECTIONS,
        connections_per_address: int = CONNECTIONS_PER_ADDRESS,
    ) -> None:
        self.bind = bind
        self.port = port
        """The port served (the one the system chose when 0 was asked, once started)."""
        self.header_seconds = header_seconds
        self.max_connections = max_connections
        self.connections_per_address = connections_per_address
        self.context = WebContext(bridge, pairing, store_path=store_path, static=static)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error = ""
        self.guard: ConnectionGuard | None = None
        self.thread_id: int | None = None
        """The serving thread's `threading.get_ident` (e.g. to read its CPU time)."""

    @property
    def url(self) -> str:
        """Where phones find the scoreboard ("http://192.168.1.5:8080")."""
        host = lan_address(self.bind)
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def start(self) -> None:
        """Start serving; `WebUnavailable` when the address cannot be bound."""
        self._thread = threading.Thread(target=self._run, name="dicekeeper-web", daemon=True)
        self._thread.start()
        if not self._ready.wait(30):
            raise WebUnavailable("the web scoreboard did not start within 30 s")
        if self._error:
            self._thread.join(5)
            raise WebUnavailable(self._error)

    def stop(self) -> None:
        """Stop serving and wait for the thread (idempotent)."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def _run(self) -> None:
        self.thread_id = threading.get_ident()
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except Exception as exc:  # reported to start(); the table carries on without the web
            self._error = self._error or f"the web scoreboard failed: {exc}"
            log.exception("the web scoreboard failed")
        finally:
            self._ready.set()
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        runner = web.AppRunner(
            make_app(self.context),
            access_log=None,
            shutdown_timeout=1.0,
            keepalive_timeout=self.header_seconds,  # closes a connection waiting this long
        )
        await runner.setup()
        assert runner.server is not None  # set by setup()
        guard = ConnectionGuard(
            runner.server,
            most=self.max_connections,
            per_address=self.connections_per_address,
            header_seconds=self.header_seconds,
        )
        loop = asyncio.get_running_loop()
        try:
            listening = await loop.create_server(
                guard.protocol, self.bind, self.port, reuse_address=True
            )
        except OSError as exc:
            hint = ""
            if exc.errno in (errno.EACCES, errno.EPERM):
                hint = (
                    " (dicekeeper.service lets it bind tcp:8080 only: for another port add "
                    "SocketBindAllow=tcp:PORT in a drop-in, see the unit)"
                )
            self._error = (
                f"web.port = {self.port}: cannot serve the web scoreboard on "
                f"{self.bind}:{self.port}: {os.strerror(exc.errno) if exc.errno else exc}{hint}"
            )
            await runner.cleanup()
            return
        if self.port == 0:
            self.port = listening.sockets[0].getsockname()[1]
        self.guard = guard
        self._ready.set()
        log.info("web scoreboard on %s", self.url)
        follow = asyncio.create_task(self._follow_address())
        code = asyncio.create_task(self._follow_code())
        await self._stop.wait()
        follow.cancel()
        code.cancel()
        listening.close()
        await runner.cleanup()

    async def _follow_code(self) -> None:
        while True:  # a new pairing code the table's full queue could not take at once
            await asyncio.sleep(1.0)
            self.context.show_code()

    async def _follow_address(self) -> None:
        shown = self.url
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(ADDRESS_SECONDS)
            url = await loop.run_in_executor(None, lambda: self.url)
            if url != shown and self.show_address(url):
                shown = url

    def show_address(self, url: str) -> bool:
        """Have the table show ``url`` as the scoreboard's address from its next step; False
        when the table's queue is full (try again later)."""

        def show(controller: Controller, now: float) -> None:
            controller.overlay = dataclasses.replace(controller.overlay, web=url)

        try:
            self.context.bridge.submit(show)
        except TableBusy:
            return False
        log.info("web scoreboard now on %s", url)
        return True


# --- the connections ------------------------------------------------------------------------


class ConnectionGuard:
    """Bounds the open connections: at most `CONNECTIONS_PER_ADDRESS` from one address (more are
    closed as soon as they are accepted) and `MAX_CONNECTIONS` in all (when every place is
    taken, the oldest connection of the address holding the most is closed to make room, so a
    crowd of half-open connections cannot keep a new phone out). A connection that has not sent
    a whole request head (up to its blank line) within ``header_seconds`` is closed; later
    requests on a kept-alive connection are timed by aiohttp's ``keepalive_timeout``.
    `protocol` is the server's protocol factory, wrapping aiohttp's.
    """

    def __init__(
        self,
        make_handler: Callable[[], asyncio.Protocol],
        *,
        most: int = MAX_CONNECTIONS,
        per_address: int = CONNECTIONS_PER_ADDRESS,
        header_seconds: float = HEADER_SECONDS,
    ) -> None:
        self._make_handler = make_handler
        self.most = most
        self.per_address = per_address
        self.header_seconds = header_seconds
        self.open: dict[str, dict[_Guarded, asyncio.BaseTransport]] = {}
        """Open connections by address, oldest first."""
        self.refused = 0
        """Connections closed at once since the start (their address held its share)."""
        self.evicted = 0
        """Connections closed to make room for a new one since the start."""

    @property
    def total(self) -> int:
        """Open connections in all."""
        return sum(len(held) for held in self.open.values())

    def protocol(self) -> asyncio.Protocol:
        """A new connection's protocol."""
        return _Guarded(self, self._make_handler())

    def admit(self, connection: _Guarded, address: str, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection from ``address``; False (not counted) when its address holds
        its share. Makes room first when every place is taken."""
        held = self.open.get(address, {})
        if len(held) >= self.per_address:
            self.refused += 1
            return False
        while self.total >= self.most:
            busiest = max(self.open.values(), key=len)
            oldest, its_transport = next(iter(busiest.items()))
            self.release(oldest)
            _close(its_transport)
            self.evicted += 1
        self.open.setdefault(address, {})[connection] = transport
        return True

    def release(self, connection: _Guarded) -> None:
        """``connection`` has closed (or is being closed): it no longer counts."""
        address = connection.address
        if address is None:
            return
        held = self.open.get(address, {})
        held.pop(connection, None)
        if not held:
            self.open.pop(address, None)
        connection.address = None


def _close(transport: asyncio.BaseTransport) -> None:
    if isinstance(transport, asyncio.Transport):
        transport.abort()
    else:
        transport.close()


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, given the connection only once it is admitted."""

    def __init__(self, guard: ConnectionGuard, handler: asyncio.Protocol) -> None:
        self._guard = guard
        self._handler = handler
        self.address: str | None = None
        self._made = False
        self._head_tail: bytes | None = b""
        """The last bytes received while the first request's head is unfinished (None after)."""
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = address_key(str(peer[0]) if isinstance(peer, tuple) and peer else "?")
        if not self._guard.admit(self, address, transport):
            _close(transport)
            return
        self.address = address
        self._made = True
        self._head_timer = asyncio.get_running_loop().call_later(
            self._guard.header_seconds, self._head_too_slow, transport
        )
        self._handler.connection_made(transport)

    def _head_too_slow(self, transport: asyncio.BaseTransport) -> None:
        self._head_timer = None
        self._guard.release(self)
        _close(transport)

    def _stop_head_timer(self) -> None:
        self._head_tail = None
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._guard.release(self)
        if self._made:
            self._made = False
            self._handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self._made:
            return
        if self._head_tail is not None:
            seen = self._head_tail + data
            if b"\r\n\r\n" in seen:
                self._stop_head_timer()
            else:
                self._head_tail = seen[-3:]
        self._handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self._handler.eof_received() if self._made else None

    def pause_writing(self) -> None:
        self._handler.pause_writing()

    def resume_writing(self) -> None:
        self._handler.resume_writing()


# --- where phones find it --------------------------------------------------------------------

_SIOCGIFADDR = 0x8915


def lan_address(bind: str) -> str:
    """The address phones reach ``bind`` at: itself, or for "0.0.0.0"/"::" this machine's first
    network address (wired before wireless), else its host name with ".local" (mDNS)."""
    if not ipaddress.ip_address(bind).is_unspecified:
        return bind
    found: list[tuple[int, str]] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            if name == "lo" or name.startswith(("docker", "veth", "br-", "virbr")):
                continue
            try:
                packed = fcntl.ioctl(
                    probe.fileno(), _SIOCGIFADDR, struct.pack("256s", name[:15].encode())
                )
            except OSError:  # no IPv4 address on it
                continue
            rank = 0 if name.startswith(("eth", "en")) else 1 if name.startswith("wl") else 2
            found.append((rank, socket.inet_ntoa(packed[20:24])))
    if found:
        return min(found)[1]
    return f"{socket.gethostname()}.local"


def start_web(
    bridge: WebBridge,
    controller: Controller,
    *,
    bind: str,
    port: int,
    store_path: Path | None,
    pairing: Pairing | None = None,
) -> WebServer:
    """Serve the web scoreboard for ``controller`` (see `connect`); `WebUnavailable` when it
    cannot start."""
    pairing = pairing or Pairing()
    server = WebServer(bridge, pairing, bind=bind, port=port, store_path=store_path)
    connect(bridge, controller, url=server.url, code=pairing.code)
    server.start()
    return server


def connect(bridge: WebBridge, controller: Controller, *, url: str, code: str) -> None:
    """Hook ``bridge`` to ``controller``: it is shown every view, its requests are drained at
    each step, and the screens show ``url`` and the pairing ``code``."""
    bridge.attach(controller)
    controller.display = MultiDisplay([controller.display, bridge])
    controller.overlay = dataclasses.replace(controller.overlay, web=url, pair_code=code)
    bridge.show(controller.view())  # the state is whole before the table's first step
