"""Reviews of stored games for the command line, the web and the screens (`engine.review`).

`review_stored(stored, settings)` replays a finished `StoredGame` (its rules from its start
record, as `device.session.Session.resume` does) and reviews it with the solved table of its
rules when one is cached (`device.computer.cached_table`, never solving), else by expected points;
`ReviewRefused` says in one line why a game cannot be reviewed (no such game, not finished,
damaged, events that do not replay). `text_lines` is the review as `dicekeeper review` prints
it; `TableReview` the review at the table: the rows the screens show at the end of a game
(`review_rows`) and, when switched on, a line after each turn (`best_was`).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from device.computer import cached_table
from device.session import Session, stored_rules
from device.store import GameStore, StoredGame, StoreError
from engine.errors import DicekeeperError
from engine.events import Event, event_from_json
from engine.review import BLUNDER, MISTAKE, Decision, PlayerReview, Review, review_game
from engine.rules import Rules
from engine.solver_optimal import OptimalTable

__all__ = [
    "ReviewRefused",
    "ReviewRows",
    "ReviewSettings",
    "TableReview",
    "best_was",
    "configure",
    "configured",
    "find_stored",
    "own_table",
    "percent",
    "review_rows",
    "review_stored",
    "swing_text",
    "text_lines",
]

TableSource = Callable[[Rules], OptimalTable | None]

log = logging.getLogger(__name__)


class ReviewRefused(DicekeeperError, ValueError):
    """A game that cannot be reviewed (no such game, unfinished, damaged, not replaying)."""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """The thresholds of the review (the config's ``[review]``) and where tables come from."""

    mistake: float = MISTAKE
    blunder: float = BLUNDER
    tables: TableSource | None = None
    """None: the cached tables the computer players use, as the thread's own (`own_table`)."""


def find_stored(store: GameStore, game_id: int | None) -> StoredGame:
    """Game ``game_id`` of ``store``, or its last finished game; `ReviewRefused` when there is
    none, it is not finished or its records are damaged."""
    if game_id is None:
        finished = store.history(1)
        if not finished:
            raise ReviewRefused(f"no finished game in the game store {str(store.path)!r}")
        stored = finished[0]
    else:
        try:
            stored = store.game(game_id)
        except StoreError as exc:
            if "no game" in str(exc):
                raise ReviewRefused(
                    f"game {game_id}: no such game in the game store {str(store.path)!r}"
                ) from None
            raise
    if stored.is_damaged:
        raise ReviewRefused(f"game {stored.id} is damaged and cannot be reviewed: {stored.damage}")
    if not stored.is_finished:
        raise ReviewRefused(f"game {stored.id} is not finished: only finished games are reviewed")
    return stored


def _rules_and_events(stored: StoredGame) -> tuple[Rules, list[Event]]:
    return stored_rules(stored), [event_from_json(json.loads(line)) for line in stored.events]


_SETTINGS = ReviewSettings()


def configure(*, mistake: float, blunder: float) -> None:
    """The thresholds the web's and the screens' reviews use (the config's ``[review]``)."""
    global _SETTINGS
    _SETTINGS = ReviewSettings(mistake=mistake, blunder=blunder)


def configured() -> ReviewSettings:
    """The thresholds set by `configure` (the defaults until then)."""
    return _SETTINGS


_VIEWS = threading.local()


def own_table(rules: Rules) -> OptimalTable | None:
    """The computer players' cached table of ``rules`` (`device.computer.cached_table`) as this
    thread's own: the same arrays, only read, with a cache of turns of its own. A review runs in
    the web's or its own thread while computer players may use the table in the table's thread,
    and one table's cache of turns is not safe to share between threads."""
    table = cached_table(rules)
    if table is None:
        return None
    views: dict[Rules, OptimalTable] = getattr(_VIEWS, "tables", {})
    _VIEWS.tables = views
    view = views.get(rules)
    if view is None or view.start is not table.start:
        view = views[rules] = OptimalTable(
            table.rules,
            table.unit,
            table.target,
            table.margin,
            table.seats,
            table.start,
            table.passes,
        )
    return view


def review_stored(stored: StoredGame, settings: ReviewSettings | None = None) -> Review:
    """The review of a stored game (see the module docstring); `ReviewRefused` if its events do
    not replay."""
    settings = settings or ReviewSettings()
    try:
        rules, events = _rules_and_events(stored)
        players = _players(events)
        tables = settings.tables or own_table
        table = tables(rules) if players == 2 else None
        return review_game(
            rules, events, table=table, mistake=settings.mistake, blunder=settings.blunder
        )
    except ReviewRefused:
        raise
    except (DicekeeperError, KeyError, ValueError, TypeError) as exc:
        raise ReviewRefused(f"game {stored.id}: its events do not replay: {exc}") from None


def _players(events: list[Event]) -> int:
    names: set[str] = set()
    for event in events:
        name = getattr(event, "name", None) if event.type == "player_added" else None
        if isinstance(name, str):
            names.add(name)
    return len(names)


def percent(value: float) -> str:
    """A chance as "41 %"."""
    return f"{100 * value:.0f} %"


def swing_text(review: Review, swing_turn: int, before: float, after: float, what: str) -> str:
    """ "turn 31: bust, losing 1200 (62 % → 38 %)" or, by points, "(+350 on 400 expected)"."""
    if review.curve:
        return f"turn {swing_turn}: {what} ({percent(before)} → {percent(after)})"
    return f"turn {swing_turn}: {what} ({after - before:+.0f} on {before:.0f} expected)"


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def player_line(review: Review, player: PlayerReview) -> str:
    """ "Ann: accuracy 97.1 % over 58 decisions, 2 mistakes, 1 blunder"."""
    return (
        f"{player.name}: accuracy {player.accuracy:.1f} % over "
        f"{_count(player.decisions, 'decision')}, {_count(player.mistakes, 'mistake')}, "
        f"{_count(player.blunders, 'blunder')}"
    )


def decision_line(decision: Decision) -> str:
    """ "turn 7, Ann (threw 1 1 5 2 3 4), mistake: keep 1 1 and roll 4: 41 % — you ..."."""
    threw = f" (threw {' '.join(map(str, decision.thrown))})" if decision.thrown else ""
    return f"turn {decision.turn}, {decision.player}{threw}, {decision.severity}: {decision.line()}"


def text_lines(review: Review, stored: StoredGame) -> list[str]:
    """The review as ``dicekeeper review`` prints it."""
    result = stored.result or {}
    scores = result.get("scores")
    score_text = (
        ", ".join(f"{name} {points}" for name, points in scores.items())
        if isinstance(scores, dict)
        else ""
    )
    winners = result.get("winners")
    won = " and ".join(map(str, winners)) if isinstance(winners, list) and winners else "nobody"
    lines = [
        f"game {stored.id}, {review.rules} to {review.target}: {won} won ({score_text}), "
        f"{review.turns} turns"
    ]
    if review.evaluator == "optimal":
        lines.append("judged by the solved optimal table: the chance of winning after each choice")
    else:
        lines.append(f"judged by expected points: {review.note}")
    lines.append(
        f"mistakes lose at least {percent(review.mistake)}, blunders {percent(review.blunder)}"
    )
    for player in review.players:
        lines.append("")
        lines.append(player_line(review, player))
        for swing in player.swings:
            lines.append(
                "  swing " + swing_text(review, swing.turn, swing.before, swing.after, swing.what)
            )
        lines.append("  " + player.luck.line(player.name, hot_dice=review.hot_dice))
    lines.append("")
    if review.mistakes:
        lines.append("mistakes (the best choice first):")
        lines.extend("  " + decision_line(d) for d in review.mistakes)
    else:
        lines.append("no mistakes")
    return lines


ReviewRows = tuple[tuple[str, str], ...]
"""Per player, in the players' order: the accuracy ("97%") and the biggest swing ("+31% on turn
15: banked 1150"; by expected points "turn 15: banked 1150 (+750 on 400 expected)"), as
`hardware.view.TableView.review` holds them."""


def review_rows(review: Review, names: tuple[str, ...]) -> ReviewRows:
    """The rows the screens show at the end of a game, for the players ``names`` in order."""
    rows = []
    for name in names:
        try:
            player = review.player(name)
        except KeyError:
            rows.append(("", ""))
            continue
        swing = ""
        if player.swings:
            top = player.swings[0]
            if review.curve:
                swing = f"{100 * top.change:+.0f}% on turn {top.turn}: {top.what}"
            else:
                swing = swing_text(review, top.turn, top.before, top.after, top.what)
        rows.append((f"{player.accuracy:.0f}%", swing))
    return tuple(rows)


def best_was(review: Review, player: str) -> str:
    """ "best was keep 1 1 and roll 4 (41 %, yours 33 %)": the worst mistake of ``player`` in the
    review's last turn, "" when it had none."""
    ended = [
        d for d in review.decisions if d.turn == review.turns and d.player == player and d.severity
    ]
    if not ended:
        return ""
    worst = max(ended, key=lambda d: d.loss)
    best, made = worst.value_text(worst.best.value), worst.value_text(worst.made.value)
    return f"best was {worst.best.describe()} ({best}, yours {made})"


class TableReview:
    """The review at the table: at the end of a game each player's accuracy and biggest swing
    (made in a thread of its own, so the table's loop never waits), and after each turn, when
    ``after_turn``, the line `best_was` for a person who made a mistake in it."""

    def __init__(self, *, after_turn: bool = False, settings: ReviewSettings | None = None) -> None:
        self.after_turn = after_turn
        self._settings = settings
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="dicekeeper-review")
        self._key: tuple[int, int] | None = None
        self._rows: Future[ReviewRows] | None = None

    def rows(self, session: Session) -> ReviewRows:
        """The end-of-game rows of ``session``'s game: () while it is not over or the review is
        not ready (it starts at the first ask), or when it cannot be made (logged)."""
        if not session.is_over:
            return ()
        key = (session.game_id, id(session.state))
        if key != self._key:
            self._key = key
            names = tuple(p.name for p in session.state.players)
            try:
                stored = session.store.game(session.game_id)
            except DicekeeperError as exc:
                log.warning("no review of game %d: %s", session.game_id, exc)
                self._rows = None
                return ()
            self._rows = self._worker.submit(self._review_rows, stored, names)
        rows = self._rows
        if rows is None or not rows.done():
            return ()
        try:
            return rows.result()
        except Exception:  # a fault of the review must not stop the table
            log.exception("the review of game %d failed", session.game_id)
            self._rows = None
            return ()

    def _review_rows(self, stored: StoredGame, names: tuple[str, ...]) -> ReviewRows:
        try:
            return review_rows(review_stored(stored, self._settings or configured()), names)
        except DicekeeperError as exc:
            log.warning("no review of game %d: %s", stored.id, exc)
            return ()

    def turn_line(self, session: Session) -> str:
        """After a turn ended: `best_was` for its player when a person ("" when off, for a
        computer, or when the turn had no mistake)."""
        ended = session.state.last_turn
        if not self.after_turn or ended is None or session.is_computer(ended[0]):
            return ""
        try:
            stored = session.store.game(session.game_id)
            review = review_stored(stored, self._settings or configured())
        except DicekeeperError as exc:
            log.warning("no review of the turn: %s", exc)
            return ""
        return best_was(review, ended[0])

    def close(self) -> None:
        """Stop the review thread (idempotent)."""
        self._worker.shutdown(wait=False, cancel_futures=True)
