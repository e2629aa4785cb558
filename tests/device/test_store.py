"""Tests of the game store: events survive reopening, damage is set aside, full disk is safe."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from device.store import DATABASE_NAME, GameStore, StoreError, StoreFull, state_directory


def _store(tmp_path: Path) -> GameStore:
    return GameStore.in_directory(tmp_path, clock=lambda: 1_800_000_000.0)


def test_events_survive_reopening_in_order(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        game = store.start_game({"rules": "greed", "players": ["Ann", "Bob"]}, ['{"e": 0}'])
        store.append(game, '{"e": 1}')
        store.append_many(game, ['{"e": 2}', '{"e": 3}'])
    with _store(tmp_path) as store:
        resumed = store.unfinished()
        assert resumed is not None
        assert resumed.id == game
        assert resumed.start == {"rules": "greed", "players": ["Ann", "Bob"]}
        assert resumed.events == ('{"e": 0}', '{"e": 1}', '{"e": 2}', '{"e": 3}')
        assert not resumed.is_finished


def test_finished_games_go_to_history_and_are_not_resumed(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        first = store.start_game({"n": 1})
        store.finish(first, {"winner": "Ann"})
        second = store.start_game({"n": 2})
        assert store.unfinished() is not None
        third = store.start_game({"n": 3})  # abandons the second
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.id == third
        store.finish(third, {"winner": "Bob"})
        assert store.unfinished() is None
        assert [g.id for g in store.history()] == [third, first]
        assert store.history()[1].result == {"winner": "Ann"}
        assert second not in [g.id for g in store.history()]


def test_a_corrupt_database_is_moved_aside_not_overwritten(tmp_path: Path) -> None:
    garbage = b"this is not a database, it is a shopping list" * 100
    (tmp_path / DATABASE_NAME).write_bytes(garbage)
    with _store(tmp_path) as store:
        assert "could not be read" in store.notice
        assert "moved to" in store.notice
        assert store.unfinished() is None
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1
    assert aside[0].read_bytes() == garbage


def test_set_aside_keeps_the_old_file(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        store.start_game({"n": 1}, ['{"bad": true}'])
        notice = store.set_aside("the saved game no longer replays")
        assert "no longer replays" in notice
        assert store.unfinished() is None
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())


class _FullConnection:
    """A connection whose writes fail as on a full disk (reads go to the real database)."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.full = False

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        if self.full and sql.startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, params)

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


def test_a_full_disk_raises_a_clear_error_and_writes_nothing(tmp_path: Path) -> None:
    wrapped: list[_FullConnection] = []

    def connect(path: Path) -> sqlite3.Connection:
        wrapped.append(_FullConnection(sqlite3.connect(path, isolation_level=None)))
        return wrapped[-1]  # type: ignore[return-value]

    store = GameStore(tmp_path / DATABASE_NAME, connect=connect)
    game = store.start_game({"n": 1}, ['{"e": 0}'])
    wrapped[-1].full = True
    with pytest.raises(StoreFull) as info:
        store.append_many(game, ['{"e": 1}', '{"e": 2}'])
    assert "full" in str(info.value) and "did not advance" in str(info.value)
    assert isinstance(info.value, StoreError) and isinstance(info.value, OSError)
    wrapped[-1].full = False
    unfinished = store.unfinished()
    assert unfinished is not None and unfinished.events == ('{"e": 0}',)
    store.close()
    store.close()


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"STATE_DIRECTORY": "/var/lib/dicekeeper"}, "/var/lib/dicekeeper"),
        ({"STATE_DIRECTORY": "/a:/b", "HOME": "/h"}, "/a"),
        ({"XDG_STATE_HOME": "/x", "HOME": "/h"}, "/x/dicekeeper"),
        ({"HOME": "/h"}, "/h/.local/state/dicekeeper"),
    ],
)
def test_state_directory(environ: dict[str, str], expected: str) -> None:
    assert state_directory(None, environ) == Path(expected)
    assert state_directory(Path("/cfg"), environ) == Path("/cfg")


def test_a_database_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    def cannot(path: Path) -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")

    with pytest.raises(StoreError, match=r"cannot create the game store .*unable to open"):
        GameStore(tmp_path / DATABASE_NAME, connect=cannot)
    assert list(tmp_path.iterdir()) == []
