"""The game store: every accepted game event in SQLite, so a restart resumes the game exactly.

The store keeps games as opaque JSON: a game's start (whatever the device needs to rebuild it, e.g.
the rule set and seats) and its events in order, each the engine's own JSON text. It never looks
inside an event. Each write is one transaction (WAL journal, ``synchronous=FULL``), committed before
the caller shows the event. A database that cannot be opened or fails its integrity check is moved
aside under a timestamped name and a fresh one is created, with a notice saying where the old one
went; it is never overwritten. A full disk raises `StoreFull` and writes nothing.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from engine.errors import DicekeeperError

__all__ = [
    "DATABASE_NAME",
    "GameStore",
    "StoreError",
    "StoreFull",
    "StoredGame",
    "state_directory",
]

DATABASE_NAME = "dicekeeper.sqlite3"
SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    start TEXT NOT NULL,
    finished REAL,
    result TEXT,
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


class StoreError(DicekeeperError, OSError):
    """The game store cannot be opened or written."""


class StoreFull(StoreError):
    """The disk holding the store is full: the event was not written (and must not be applied)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as stored: its start record, its events (JSON text, in order) and its end."""

    id: int
    started: float
    start: Mapping[str, object]
    events: tuple[str, ...]
    finished: float | None = None
    result: Mapping[str, object] | None = None

    @property
    def is_finished(self) -> bool:
        """Whether the game ended with a result."""
        return self.finished is not None


def state_directory(
    configured: Path | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """Where the store lives: ``configured``, else ``$STATE_DIRECTORY`` (systemd's
    ``StateDirectory=``, first entry), else ``$XDG_STATE_HOME/dicekeeper``, else
    ``~/.local/state/dicekeeper``."""
    env = os.environ if environ is None else environ
    if configured is not None:
        return configured
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    if env.get("XDG_STATE_HOME"):
        return Path(env["XDG_STATE_HOME"]) / "dicekeeper"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "state" / "dicekeeper"


class GameStore:
    """The SQLite store of games and their events. Use as a context manager or call `close()`.

    ``notice`` is set when opening had to move a damaged database aside (the message to show).
    """

    def __init__(
        self,
        path: Path,
        *,
        clock: Callable[[], float] = time.time,
        connect: Callable[[Path], sqlite3.Connection] | None = None,
    ) -> None:
        self.path = path
        self.notice = ""
        self._clock = clock
        self._connect = connect or _connect
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the state directory {str(path.parent)!r}: {exc}"
            ) from None
        self._db: sqlite3.Connection | None = None
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if _is_full(exc):
                raise StoreFull(_full_message(path)) from None
            if not path.exists():  # nothing to move aside: the directory itself is the problem
                raise StoreError(f"cannot create the game store {str(path)!r}: {exc}") from None
            moved = self._move_aside()
            self.notice = (
                f"the game store {str(path)!r} could not be read ({exc}); "
                f"it was moved to {str(moved)!r} and a new one was started"
            )
            self._db = self._open()

    @classmethod
    def in_directory(cls, directory: Path, *, clock: Callable[[], float] = time.time) -> GameStore:
        """The store in ``directory`` (created if needed)."""
        return cls(directory / DATABASE_NAME, clock=clock)

    def _open(self) -> sqlite3.Connection:
        db = self._connect(self.path)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check!r}")
            db.executescript(_SCHEMA)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(
                    f"schema version {version!r}, expected {SCHEMA_VERSION}"
                )
        except BaseException:
            db.close()
            raise
        return db

    def _move_aside(self) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(self._clock()))
        moved = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        number = 1
        while moved.exists():
            number += 1
            moved = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{number}")
        try:
            self.path.rename(moved)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.rename(moved.with_name(moved.name + suffix))
        except OSError as exc:
            raise StoreError(
                f"the game store {str(self.path)!r} is damaged and cannot be moved aside: {exc}"
            ) from None
        return moved

    def set_aside(self, reason: str) -> str:
        """Move the whole database aside (e.g. its events no longer replay) and start a new one.

        Returns the notice to show, which is also kept in ``notice``.
        """
        self.close()
        moved = self._move_aside()
        self._db = self._open()
        self.notice = f"{reason}; the game store was moved to {str(moved)!r} and a new one started"
        return self.notice

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection (raises `StoreError` after `close()`)."""
        if self._db is None:
            raise StoreError(f"the game store {str(self.path)!r} is closed")
        return self._db

    def _write(self, statements: Sequence[tuple[str, tuple[object, ...]]]) -> int | None:
        """Run ``statements`` in one transaction; returns the last row id."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            last: int | None = None
            for sql, params in statements:
                last = db.execute(sql, params).lastrowid
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if _is_full(exc):
                raise StoreFull(_full_message(self.path)) from None
            raise StoreError(f"cannot write to the game store {str(self.path)!r}: {exc}") from None
        return last

    def start_game(self, start: Mapping[str, object], events: Sequence[str] = ()) -> int:
        """Record a new game (its start record and first events, atomically); returns its id.

        Any game still unfinished is marked abandoned in the same transaction.
        """
        game_id = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0]
        statements: list[tuple[str, tuple[object, ...]]] = [
            ("UPDATE games SET abandoned = 1 WHERE finished IS NULL AND abandoned = 0", ()),
            (
                "INSERT INTO games (id, started, start) VALUES (?, ?, ?)",
                (game_id, self._clock(), json.dumps(start, sort_keys=True)),
            ),
        ]
        statements += [
            ("INSERT INTO events (game, seq, event) VALUES (?, ?, ?)", (game_id, seq, event))
            for seq, event in enumerate(events)
        ]
        self._write(statements)
        return int(game_id)

    def append(self, game_id: int, event: str) -> None:
        """Append one event (the engine's JSON text) to a game, committed before returning."""
        self.append_many(game_id, (event,))

    def append_many(
        self,
        game_id: int,
        events: Sequence[str],
        *,
        start: Mapping[str, object] | None = None,
        result: Mapping[str, object] | None = None,
    ) -> None:
        """Append several events to a game in one transaction (all or none).

        In the same transaction, ``start`` replaces the game's start record (e.g. a computer
        player joined and the device must remember its strategy) and ``result`` finishes the game.
        """
        seq = self.db.execute(
            "SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE game = ?", (game_id,)
        ).fetchone()[0]
        statements: list[tuple[str, tuple[object, ...]]] = [
            ("INSERT INTO events (game, seq, event) VALUES (?, ?, ?)", (game_id, seq + i, e))
            for i, e in enumerate(events)
        ]
        if start is not None:
            statements.append(
                (
                    "UPDATE games SET start = ? WHERE id = ?",
                    (json.dumps(start, sort_keys=True), game_id),
                )
            )
        if result is not None:
            statements.append(self._finish_statement(game_id, result))
        self._write(statements)

    def finish(self, game_id: int, result: Mapping[str, object]) -> None:
        """Mark a game finished with its result (e.g. the winner and final scores)."""
        self._write([self._finish_statement(game_id, result)])

    def _finish_statement(
        self, game_id: int, result: Mapping[str, object]
    ) -> tuple[str, tuple[object, ...]]:
        return (
            "UPDATE games SET finished = ?, result = ? WHERE id = ?",
            (self._clock(), json.dumps(result, sort_keys=True), game_id),
        )

    def abandon(self, game_id: int) -> None:
        """Mark an unfinished game abandoned (it will not be resumed)."""
        self._write([("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))])

    def unfinished(self) -> StoredGame | None:
        """The game to resume: the latest one neither finished nor abandoned, if any."""
        row = self.db.execute(
            "SELECT id FROM games WHERE finished IS NULL AND abandoned = 0 ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else self.game(int(row[0]))

    def game(self, game_id: int) -> StoredGame:
        """One stored game with its events."""
        row = self.db.execute(
            "SELECT id, started, start, finished, result FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id!r} in the game store {str(self.path)!r}")
        events = tuple(
            e
            for (e,) in self.db.execute(
                "SELECT event FROM events WHERE game = ? ORDER BY seq", (game_id,)
            )
        )
        return StoredGame(
            id=row[0],
            started=row[1],
            start=json.loads(row[2]),
            events=events,
            finished=row[3],
            result=None if row[4] is None else json.loads(row[4]),
        )

    def history(self, limit: int = 50) -> list[StoredGame]:
        """Finished games, newest first."""
        ids = self.db.execute(
            "SELECT id FROM games WHERE finished IS NOT NULL ORDER BY id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [self.game(int(i)) for (i,) in ids]

    def close(self) -> None:
        """Close the connection (idempotent)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _connect(path: Path) -> sqlite3.Connection:
    # Autocommit mode: transactions are explicit (BEGIN IMMEDIATE ... COMMIT) in `_write`.
    return sqlite3.connect(path, isolation_level=None, timeout=5.0)


def _is_full(exc: sqlite3.Error) -> bool:
    return "database or disk is full" in str(exc)


def _full_message(path: Path) -> str:
    return (
        f"the disk holding the game store {str(path)!r} is full: the last action was not "
        "recorded and the game did not advance; free some space and try again"
    )
