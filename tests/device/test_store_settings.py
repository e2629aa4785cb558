"""The game store's durability settings, read back from its open SQLite connection.

"Nothing is lost in a power cut" rests on these: a WAL journal, ``synchronous=FULL`` (every commit
reaches the disk), foreign keys enforced, autocommit with explicit transactions, and the schema
version. They are checked on every connection the store opens: fresh, reopened, after a damaged
file was moved aside, and after `set_aside`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from device.store import DATABASE_NAME, SCHEMA_VERSION, GameStore

SYNCHRONOUS_FULL = 2  # PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA


def _store(tmp_path: Path) -> GameStore:
    return GameStore.in_directory(tmp_path, clock=lambda: 1_800_000_000.0)


def _pragma(store: GameStore, name: str) -> object:
    row = store.db.execute(f"PRAGMA {name}").fetchone()
    assert row is not None, name
    return row[0]


def _settings(store: GameStore) -> dict[str, object]:
    return {
        "journal_mode": str(_pragma(store, "journal_mode")).lower(),
        "synchronous": _pragma(store, "synchronous"),
        "foreign_keys": _pragma(store, "foreign_keys"),
        "user_version": _pragma(store, "user_version"),
    }


EXPECTED = {
    "journal_mode": "wal",
    "synchronous": SYNCHRONOUS_FULL,
    "foreign_keys": 1,
    "user_version": SCHEMA_VERSION,
}


def _fresh(tmp_path: Path) -> GameStore:
    return _store(tmp_path)


def _reopened(tmp_path: Path) -> GameStore:
    with _store(tmp_path) as store:
        store.start_game({"rules": "greed"})
    return _store(tmp_path)


def _after_damage(tmp_path: Path) -> GameStore:
    (tmp_path / DATABASE_NAME).write_bytes(b"not a database at all" * 100)
    store = _store(tmp_path)
    assert "moved to" in store.notice
    return store


def _after_set_aside(tmp_path: Path) -> GameStore:
    store = _store(tmp_path)
    store.set_aside("the events no longer replay")
    return store


@pytest.mark.parametrize(
    "opened",
    [_fresh, _reopened, _after_damage, _after_set_aside],
    ids=["fresh", "reopened", "after-damage", "after-set-aside"],
)
def test_every_connection_has_the_durable_settings(
    tmp_path: Path, opened: Callable[[Path], GameStore]
) -> None:
    with opened(tmp_path) as store:
        assert _settings(store) == EXPECTED


def test_synchronous_is_full_not_merely_normal(tmp_path: Path) -> None:
    # In WAL mode NORMAL can lose the last commits in a power cut; only FULL syncs every commit.
    with _store(tmp_path) as store:
        assert _pragma(store, "synchronous") == SYNCHRONOUS_FULL
        assert (tmp_path / (DATABASE_NAME + "-wal")).exists()  # the journal really is a WAL


def test_a_write_is_committed_before_the_call_returns(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        game = store.start_game({"rules": "greed"}, ['{"e": 0}'])
        store.append(game, '{"e": 1}')
        assert not store.db.in_transaction  # autocommit: nothing is left pending
        # A second, independent connection (as after a crash) sees every event already.
        other = sqlite3.connect(tmp_path / DATABASE_NAME)
        try:
            rows = other.execute("SELECT event FROM events ORDER BY seq").fetchall()
        finally:
            other.close()
        assert rows == [('{"e": 0}',), ('{"e": 1}',)]


def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    with _store(tmp_path) as store, pytest.raises(sqlite3.IntegrityError):
        store.db.execute("INSERT INTO events (game, seq, event) VALUES (99, 0, '{}')")
