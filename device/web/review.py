"""The review of a finished game for the web: ``GET /api/games/{id}/review`` (`engine.review`).

The answer is `engine.review.review_json` with the game's number (``game``), made in the game
store's worker thread (`device.web.server.WebContext.read_store`) by `device.review`, with the
thresholds the table was configured with (`device.review.configure`). A game that cannot be
reviewed answers ``{"ok": false, "error": ...}``: 404 when there is no such game, 409 when it
is not finished, is damaged or does not replay. aiohttp is imported only when the route is
added, so this module stays as light as the others beside `server`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from device.review import ReviewRefused, configured, find_stored, review_stored
from device.store import GameStore, StoreError
from engine.review import review_json

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["add_review_route", "review_answer"]

ReadStore = Callable[[Callable[[GameStore], Any]], Awaitable[Any]]


def review_answer(store: GameStore, game_id: int) -> dict[str, Any]:
    """The review of game ``game_id`` as the API gives it; `ReviewRefused` when it cannot be."""
    stored = find_stored(store, game_id)
    return {"game": stored.id, **review_json(review_stored(stored, configured()))}


def add_review_route(app: web.Application, read_store: ReadStore) -> None:
    """Add ``GET /api/games/{id}/review`` to ``app``, reading the store through ``read_store``."""
    from aiohttp import web

    async def review(request: web.Request) -> web.StreamResponse:
        game_id = int(request.match_info["id"])
        try:
            data = await read_store(lambda store: review_answer(store, game_id))
        except ReviewRefused as exc:
            status = 404 if "no such game" in str(exc) else 409
            return web.json_response({"ok": False, "error": str(exc)}, status=status)
        except StoreError as exc:
            return web.json_response({"ok": False, "error": str(exc)[:200]}, status=503)
        return web.json_response(data)

    app.router.add_get(r"/api/games/{id:\d+}/review", review)
