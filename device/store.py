"""The game store: every accepted game event in SQLite, so a restart resumes the game exactly.

The store keeps games as opaque JSON: a game's start (whatever the device needs to rebuild it, e.g.
the rule set and seats) and its events in order, each the engine's own JSON text. It never looks
inside an event. Each write is one transaction (WAL journal, ``synchronous=FULL``), committed before
the caller shows the event. A database that is damaged (not a database, malformed, failing its
integrity check, tables with other columns) is moved aside under a timestamped name and a fresh one
is created, with a notice saying where the old one went; it is never overwritten. A database that
is only locked by another process or not writable is never moved aside: `StoreError` says so. A
full disk raises `StoreFull` and writes nothing. A commit that fails (e.g. the disk's sync) is
undone by a second transaction, so what was reported "not recorded" is not there after a restart.
A stored game whose records cannot be decoded (or whose events are not numbered 0, 1, 2, ...)
reads as a `StoredGame` with ``damage`` set; `GameStore.quarantine` then sets that one game aside
and keeps every other. `StateLock` makes a state directory one process's: the second
`dicekeeper run` on it is refused with the first one's process id.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from engine.errors import DicekeeperError

__all__ = [
    "DATABASE_NAME",
    "LOCK_NAME",
    "GameStore",
    "StateInUse",
    "StateLock",
    "StoreError",
    "StoreFull",
    "StoredGame",
    "state_directory",
    "write_atomically",
]

DATABASE_NAME = "dicekeeper.sqlite3"
LOCK_NAME = "dicekeeper.lock"
"""The lock file in the state directory, holding the process id of the dicekeeper using it."""
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
_COLUMNS = {
    "games": ("id", "started", "start", "finished", "result", "abandoned"),
    "events": ("game", "seq", "event"),
}
# SQLite's primary result codes (``sqlite3.Error.sqlite_errorcode & 0xFF``).
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY, _SQLITE_CORRUPT, _SQLITE_NOTADB = 5, 6, 8, 11, 26
_SQLITE_PERM, _SQLITE_CANTOPEN, _SQLITE_AUTH = 3, 14, 23


class StoreError(DicekeeperError, OSError):
    """The game store cannot be opened or written."""


class StoreFull(StoreError):
    """The disk holding the store is full: the event was not written (and must not be applied)."""


class StateInUse(StoreError):
    """Another process holds the state directory's lock (another `dicekeeper run`)."""


class _Damaged(sqlite3.DatabaseError):
    """The database opened but is not the store's (wrong schema, failed integrity check)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as stored: its start record, its events (JSON text, in order) and its end."""

    id: int
    started: float
    start: Mapping[str, object]
    events: tuple[str, ...]
    finished: float | None = None
    result: Mapping[str, object] | None = None
    damage: str = ""
    """Why the game's records cannot be read ("" when they can); ``start`` is then empty."""

    @property
    def is_finished(self) -> bool:
        """Whether the game ended with a result."""
        return self.finished is not None

    @property
    def is_damaged(self) -> bool:
        """Whether the game's stored records cannot be decoded."""
        return bool(self.damage)


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


def write_atomically(path: Path, data: bytes | Callable[[BinaryIO], object]) -> None:
    """Replace ``path`` at once with ``data`` (bytes, or a function writing to a binary stream):
    written to a temporary file beside it (named for this process, so two processes saving the
    same file never share one), synced to disk, then renamed over it. A power cut leaves the old
    file or the new one; a failure leaves no temporary file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with temporary.open("wb") as stream:
            if isinstance(data, bytes):
                stream.write(data)
            else:
                data(stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


class StateLock:
    """The state directory's lock: an exclusive `fcntl.flock` on `LOCK_NAME`, which holds the
    holder's process id. The kernel lets it go when the process ends, however it ends.

    Use as a context manager or call `acquire` and `close`; `acquire` raises `StateInUse` naming
    the holder when another process has it, `StoreError` when the file cannot be used.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> StateLock:
        """Take the lock (idempotent), creating the directory and the file if needed."""
        if self._fd is not None:
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o640)
        except OSError as exc:
            raise StoreError(f"cannot open the lock file {str(self.path)!r}: {exc}") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise StoreError(f"the lock file {str(self.path)!r} is not a regular file")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise StoreError(f"cannot lock {str(self.path)!r}: {exc}") from None
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                who = f"pid {holder}" if holder.isdigit() else "a process"
                raise StateInUse(
                    f"the state directory {str(self.path.parent)!r} is in use by another "
                    f"dicekeeper ({who}): stop it first (systemctl stop dicekeeper)"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def close(self) -> None:
        """Let the lock go (idempotent); the file stays, the next holder overwrites it."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> StateLock:
        return self.acquire()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class GameStore:
    """The SQLite store of games and their events. Use as a context manager or call `close()`.

    ``notice`` is set when opening had to move a damaged database aside (the message to show).
    With ``repair=False`` (a second reader beside the table, such as the web's) a damaged
    database is left where it is and `StoreError` raised: only the table moves it aside.
    """

    def __init__(
        self,
        path: Path,
        *,
        clock: Callable[[], float] = time.time,
        connect: Callable[[Path], sqlite3.Connection] | None = None,
        repair: bool = True,
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
            if not _is_damaged(exc):  # locked, not writable, an I/O error: the file may be fine
                raise StoreError(_open_message(path, exc)) from None
            if not repair:
                raise StoreError(f"the game store {str(path)!r} cannot be read: {exc}") from None
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
                raise _Damaged(f"integrity check failed: {check!r}")
            db.executescript(_SCHEMA)
            for table, expected in _COLUMNS.items():
                columns = tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
                if columns != expected:
                    raise _Damaged(
                        f"table {table!r} has columns {columns!r}, expected {expected!r}"
                    )
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise _Damaged(f"schema version {version!r}, expected {SCHEMA_VERSION}")
            # A file that cannot be written (or is locked) is an error now, not at the first action.
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            finally:
                _rollback(db)
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

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query; `StoreError` when the database cannot be read."""
        try:
            rows: list[tuple[Any, ...]] = self.db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the game store {str(self.path)!r}: {exc}") from None
        return rows

    def _ids(self, sql: str, params: tuple[object, ...] = ()) -> list[int]:
        """The first column of a query's rows, as whole numbers."""
        return [int(row[0]) for row in self._read(sql, params)]

    def _write(
        self, statements: Sequence[tuple[str, tuple[object, ...]]], games: Sequence[int]
    ) -> None:
        """Run ``statements``, which change only the games ``games``, in one transaction.

        When the commit itself fails, a second transaction puts those games back as they were:
        the failed commit may have reached the journal (a sync error) and would otherwise come
        back at the next start, after the caller was told the action was not recorded.
        """
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            before = _snapshot(db, games)
            for sql, params in statements:
                db.execute(sql, params)
        except sqlite3.Error as exc:
            _rollback(db)
            raise self._not_written(exc) from None
        try:
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(db)
            try:
                _restore(db, before)
            except sqlite3.Error as second:
                _rollback(db)
                if not _is_full(exc):
                    raise StoreError(
                        f"cannot write to the game store {str(self.path)!r} ({exc}), nor undo "
                        f"the attempt ({second}): the last action may have been recorded; "
                        "restart dicekeeper to see the game as stored"
                    ) from None
            raise self._not_written(exc) from None

    def _not_written(self, exc: sqlite3.Error) -> StoreError:
        if _is_full(exc):
            return StoreFull(_full_message(self.path))
        return StoreError(
            f"cannot write to the game store {str(self.path)!r} ({exc}): the last action was "
            "not recorded and the game did not advance"
        )

    def start_game(self, start: Mapping[str, object], events: Sequence[str] = ()) -> int:
        """Record a new game (its start record and first events, atomically); returns its id.

        Any game still unfinished is marked abandoned in the same transaction.
        """
        (game_id,) = self._ids("SELECT COALESCE(MAX(id), 0) + 1 FROM games")
        open_games = self._ids("SELECT id FROM games WHERE finished IS NULL AND abandoned = 0")
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
        self._write(statements, [game_id, *open_games])
        return game_id

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
        reopen: bool = False,
    ) -> None:
        """Append several events to a game in one transaction (all or none).

        In the same transaction, ``start`` replaces the game's start record (e.g. a computer
        player joined and the device must remember its strategy), ``reopen`` unfinishes a game
        (the throw that ended it was corrected) and ``result`` finishes the game.
        """
        (seq,) = self._ids(
            "SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE game = ?", (game_id,)
        )
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
        if reopen:
            statements.append(
                ("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game_id,))
            )
        if result is not None:
            statements.append(self._finish_statement(game_id, result))
        self._write(statements, [game_id])

    def finish(self, game_id: int, result: Mapping[str, object]) -> None:
        """Mark a game finished with its result (e.g. the winner and final scores)."""
        self._write([self._finish_statement(game_id, result)], [game_id])

    def _finish_statement(
        self, game_id: int, result: Mapping[str, object]
    ) -> tuple[str, tuple[object, ...]]:
        return (
            "UPDATE games SET finished = ?, result = ? WHERE id = ?",
            (self._clock(), json.dumps(result, sort_keys=True), game_id),
        )

    def abandon(self, game_id: int) -> None:
        """Mark an unfinished game abandoned (it will not be resumed)."""
        self._write([("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))], [game_id])

    def quarantine(self, game_id: int, reason: str) -> str:
        """Set aside the one game ``game_id`` whose records no longer replay: it is kept as it is
        but never resumed, and the other games (the finished ones above all) stay. When even that
        cannot be written, the whole database is moved aside (`set_aside`).

        Returns the notice to show, which is also kept in ``notice``.
        """
        try:
            self.abandon(game_id)
        except StoreFull:
            raise
        except StoreError:
            return self.set_aside(reason)
        self.notice = (
            f"{reason}; that game was set aside in the store and a new one started "
            "(the finished games are kept)"
        )
        return self.notice

    def unfinished(self) -> StoredGame | None:
        """The game to resume: the latest one neither finished nor abandoned, if any.

        A game whose records cannot be decoded comes back with ``damage`` saying why.
        """
        ids = self._ids(
            "SELECT id FROM games WHERE finished IS NULL AND abandoned = 0 ORDER BY id DESC LIMIT 1"
        )
        return self.game(ids[0]) if ids else None

    def game(self, game_id: int) -> StoredGame:
        """One stored game with its events (``damage`` set when they cannot be decoded)."""
        # Read as bytes and decoded here: a stray byte is a damaged game, not a failed query.
        rows = self._read(
            "SELECT started, CAST(start AS BLOB), finished, CAST(result AS BLOB) "
            "FROM games WHERE id = ?",
            (game_id,),
        )
        if not rows:
            raise StoreError(f"no game {game_id!r} in the game store {str(self.path)!r}")
        started, start, finished, result = rows[0]
        events = self._read(
            "SELECT seq, CAST(event AS BLOB) FROM events WHERE game = ? ORDER BY seq", (game_id,)
        )
        try:
            for number, (seq, _) in enumerate(events):
                if seq != number:
                    raise _BadRecord(f"its event {number} is numbered {seq!r}")
            return StoredGame(
                id=game_id,
                started=_number(started, "its start time"),
                start=_json_mapping(start, "its start record"),
                events=tuple(_text(e, f"its event {seq}") for seq, e in events),
                finished=None if finished is None else _number(finished, "its end time"),
                result=None if result is None else _json_mapping(result, "its result"),
            )
        except _BadRecord as exc:
            started_at = started if isinstance(started, (int, float)) else 0.0
            finished_at = finished if isinstance(finished, (int, float)) else None
            return StoredGame(game_id, started_at, {}, (), finished_at, None, damage=str(exc))

    def history(self, limit: int = 50) -> list[StoredGame]:
        """Finished games, newest first (a damaged one with ``damage`` set, see `game`)."""
        ids = self._ids(
            "SELECT id FROM games WHERE finished IS NOT NULL ORDER BY id DESC LIMIT ?", (limit,)
        )
        return [self.game(i) for i in ids]

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


class _BadRecord(ValueError):
    """A stored value that does not decode (not UTF-8, not JSON, not the expected shape)."""


def _text(value: object, what: str) -> str:
    if not isinstance(value, bytes):
        raise _BadRecord(f"{what} is {value!r}, not text")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _BadRecord(f"{what} is not UTF-8 text (byte {exc.start}: {value[:40]!r})") from None


def _json_mapping(value: object, what: str) -> Mapping[str, object]:
    text = _text(value, what)
    try:
        decoded = json.loads(text)
    except ValueError as exc:
        raise _BadRecord(f"{what} is not JSON ({exc}): {text[:40]!r}") from None
    if not isinstance(decoded, dict):
        raise _BadRecord(f"{what} is not a JSON object: {text[:40]!r}")
    return decoded


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _BadRecord(f"{what} is {value!r}, not a number")
    return float(value)


_Snapshot = dict[int, tuple[tuple[object, ...] | None, int]]


def _snapshot(db: sqlite3.Connection, games: Sequence[int]) -> _Snapshot:
    """Each game's row (None if absent, the texts as bytes) and its last event's number."""
    before: _Snapshot = {}
    for game_id in games:
        row = db.execute(
            "SELECT started, CAST(start AS BLOB), finished, CAST(result AS BLOB), abandoned "
            "FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        last = db.execute(
            "SELECT COALESCE(MAX(seq), -1) FROM events WHERE game = ?", (game_id,)
        ).fetchone()[0]
        before[game_id] = (None if row is None else tuple(row), int(last))
    return before


def _restore(db: sqlite3.Connection, before: _Snapshot) -> None:
    """Put the games of ``before`` back as they were, in one transaction."""
    db.execute("BEGIN IMMEDIATE")
    for game_id, (row, last) in before.items():
        db.execute("DELETE FROM events WHERE game = ? AND seq > ?", (game_id, last))
        if row is None:
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        else:
            db.execute(
                "UPDATE games SET started = ?, start = CAST(? AS TEXT), finished = ?, "
                "result = CAST(? AS TEXT), abandoned = ? WHERE id = ?",
                (*row, game_id),
            )
    # Writing the header page always adds a commit to the WAL journal, where it replaces the
    # failed commit's pages: without it an undo that changed nothing would leave them there.
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    db.execute("COMMIT")


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        # The connection may have ended the transaction itself (e.g. after an I/O error).
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


def _is_damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether an error opening the database says its file is damaged (not merely unusable now)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, _Damaged) or (
        code is not None and (code & 0xFF) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    )


def _open_message(path: Path, exc: sqlite3.Error) -> str:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return (
            f"the game store {str(path)!r} is locked by another process ({exc}): is dicekeeper "
            "already running? Stop it (systemctl stop dicekeeper) and try again"
        )
    if primary in (_SQLITE_READONLY, _SQLITE_PERM, _SQLITE_CANTOPEN, _SQLITE_AUTH):
        return (
            f"the game store {str(path)!r} cannot be opened for writing ({exc}): check that "
            "the file and its folder belong to the user running dicekeeper"
        )
    return f"cannot open the game store {str(path)!r}: {exc}"


def _is_full(exc: sqlite3.Error) -> bool:
    return "database or disk is full" in str(exc)


def _full_message(path: Path) -> str:
    return (
        f"the disk holding the game store {str(path)!r} is full: the last action was not "
        "recorded and the game did not advance; free some space and try again"
    )
