"""Storage faults: damaged records, a foreign schema, a locked or read-only file, a failed commit.

Each ends in a message (and exit status 2 on the command line) or the damaged game set aside with
the table going on; a store that is only locked or not writable is never moved aside, and an action
reported "not recorded" is not there when the store is opened again.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from device.menu import history_items
from device.session import Seat, Session, rules_for
from device.store import DATABASE_NAME, GameStore, StoreError, StoreFull
from engine.events import Banked, Thrown
from engine.state import Phase
from hardware.buttons import Button
from tests.device.harness import config, open_rig

CLOCK = 1_800_000_000.0
SEATS = (Seat("Ann"), Seat("Bob"))


def _store(directory: Path, **kwargs: object) -> GameStore:
    return GameStore(directory / DATABASE_NAME, clock=lambda: CLOCK, **kwargs)  # type: ignore[arg-type]


def _raw(directory: Path) -> sqlite3.Connection:
    return sqlite3.connect(directory / DATABASE_NAME, isolation_level=None)


def _damage(directory: Path, sql: str) -> None:
    db = _raw(directory)
    try:
        db.execute(sql)
    finally:
        db.close()


def _aside(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".corrupt-" in p.name)


def _games(directory: Path, *, finished: int, unfinished: bool) -> None:
    """A store with ``finished`` finished games and, if asked, one in progress."""
    with _store(directory) as store:
        for number in range(finished):
            game = store.start_game({"rules": "greed", "n": number}, ['{"e": 0}'])
            store.finish(game, {"rules": "greed", "winners": ["Ann"], "scores": {"Ann": 10_000}})
        if unfinished:
            Session.new(store, rules_for("greed"), SEATS)


UNFINISHED_DAMAGE = {
    "start is not JSON": "UPDATE games SET start = 'rules: greed' WHERE finished IS NULL",
    "start is a list": "UPDATE games SET start = '[1, 2]' WHERE finished IS NULL",
    "bad UTF-8 in an event": (
        "UPDATE events SET event = CAST(X'7B2274797065223A22FF227D' AS TEXT) "
        "WHERE game = (SELECT MAX(id) FROM games)"
    ),
    "bad UTF-8 in the start": (
        "UPDATE games SET start = CAST(X'7BFF7D' AS TEXT) WHERE finished IS NULL"
    ),
}


@pytest.mark.parametrize("sql", UNFINISHED_DAMAGE.values(), ids=UNFINISHED_DAMAGE.keys())
def test_a_damaged_game_in_progress_is_set_aside_and_a_new_one_starts(
    tmp_path: Path, sql: str
) -> None:
    _games(tmp_path, finished=1, unfinished=True)
    _damage(tmp_path, sql)
    with _store(tmp_path) as store:
        stored = store.unfinished()
        assert stored is not None and stored.is_damaged and stored.start == {}
        assert Session.resume(store) is None
        assert "could not be resumed" in store.notice and "set aside" in store.notice
        session = Session.new(store, rules_for("greed"), SEATS)
        session.apply(Thrown("Ann", (1, 1, 1, 2, 3)))
        assert [game.id for game in store.history()] == [1]  # the finished game stays
        assert store.game(stored.id).id == stored.id  # the damaged one is kept, not resumed
        assert store.unfinished() is not None and store.unfinished().id == session.game_id  # type: ignore[union-attr]
    assert _aside(tmp_path) == []  # the database itself was not moved


def test_an_event_numbered_past_the_end_sets_its_game_aside(tmp_path: Path) -> None:
    _games(tmp_path, finished=2, unfinished=True)
    _damage(tmp_path, f"UPDATE events SET seq = {2**63 - 1} WHERE game = 3 AND seq = 1")
    with _store(tmp_path) as store:
        stored = store.unfinished()
        assert stored is not None and "numbered" in stored.damage
        assert Session.resume(store) is None and "could not be resumed" in store.notice
        session = Session.new(store, rules_for("greed"), SEATS)
        session.apply(Thrown("Ann", (1, 1, 1, 2, 3)))
        assert [game.id for game in store.history()] == [2, 1]


def test_the_table_resumes_past_a_damaged_game_with_a_message(tmp_path: Path) -> None:
    cfg = config(tmp_path, script=[[1, 1, 1, 2, 3]])
    with open_rig(cfg).table:
        pass
    _damage(tmp_path / "state", UNFINISHED_DAMAGE["start is not JSON"])
    rig = open_rig(cfg)
    with rig.table:
        assert "could not be resumed" in rig.table.store.notice
        view = rig.step()
        assert "could not be resumed" in view.message
        assert [p.name for p in rig.table.controller.state.players] == ["Ann", "Bob"]


FINISHED_DAMAGE = {
    "result is not JSON": "UPDATE games SET result = '{winners: Ann' WHERE id = 2",
    "bad UTF-8 in a result": "UPDATE games SET result = CAST(X'7B22FF227D' AS TEXT) WHERE id = 2",
    "start is not JSON": "UPDATE games SET start = 'x' WHERE id = 2",
    "end time is text": "UPDATE games SET finished = 'yesterday' WHERE id = 2",
}


@pytest.mark.parametrize("sql", FINISHED_DAMAGE.values(), ids=FINISHED_DAMAGE.keys())
def test_history_leaves_out_a_damaged_finished_game(tmp_path: Path, sql: str) -> None:
    _games(tmp_path, finished=3, unfinished=False)
    _damage(tmp_path, sql)
    with _store(tmp_path) as store:
        games = store.history()
        assert [g.id for g in games] == [3, 2, 1]
        assert [g.is_damaged for g in games] == [False, True, False]
        assert games[1].damage
        lines = [item.label for item in history_items(games)]
        assert lines[2] == "#2 damaged, not shown"
        assert lines[1].startswith("#3 greed: Ann won")
    result = _cli("history", tmp_path)
    assert result.returncode == 2
    assert len(result.stdout.splitlines()) == 2  # games 3 and 1
    (error,) = result.stderr.splitlines()
    assert error.startswith("dicekeeper history: game 2 ") and "damaged" in error
    assert _aside(tmp_path) == []


def test_the_menus_history_shows_a_damaged_game_as_such(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    _games(tmp_path / "state", finished=2, unfinished=False)
    _damage(tmp_path / "state", FINISHED_DAMAGE["result is not JSON"])
    rig = open_rig(cfg)
    with rig.table:
        view = rig.press(Button.MENU)
        rig.press(*[Button.SELECT] * view.menu.index("History"), Button.ROLL)
        assert rig.view.menu[1:] == ("#2 damaged, not shown", "#1 greed: Ann won (Ann 10000)")


def test_the_menus_history_says_when_the_store_cannot_be_read(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path))
    with rig.table:
        real = rig.table.store.db
        rig.table.store._db = _Failing(real, "SELECT id FROM games WHERE finished IS NOT NULL")  # type: ignore[assignment]
        view = rig.press(Button.MENU)
        view = rig.press(*[Button.SELECT] * view.menu.index("History"), Button.ROLL)
        assert "cannot read the game store" in view.message
        rig.table.store._db = real


def test_a_games_table_with_other_columns_is_moved_aside(tmp_path: Path) -> None:
    _damage(tmp_path, "CREATE TABLE games (id INTEGER PRIMARY KEY, who TEXT, score INTEGER)")
    with _store(tmp_path) as store:
        assert "columns" in store.notice and "moved to" in store.notice
        Session.new(store, rules_for("greed"), SEATS)
    assert len(_aside(tmp_path)) == 1


def _cli(command: str, directory: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    cfg = directory.parent / f"{directory.name}.toml"
    cfg.write_text(f'[state]\ndirectory = "{directory}"\n')
    return subprocess.run(
        [sys.executable, "-m", "device", command, "--config", str(cfg), *extra],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)


def test_a_store_that_cannot_be_written_is_an_error_not_damage(tmp_path: Path) -> None:
    _games(tmp_path, finished=1, unfinished=True)
    before = (tmp_path / DATABASE_NAME).read_bytes()
    with pytest.raises(StoreError, match=r"cannot be opened for writing .*readonly.*belong to"):
        _store(tmp_path, connect=_read_only)
    assert _aside(tmp_path) == []
    assert (tmp_path / DATABASE_NAME).read_bytes() == before


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A store another process holds an exclusive lock on."""
    _games(tmp_path, finished=1, unfinished=True)
    other = _raw(tmp_path)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("UPDATE games SET abandoned = abandoned + 0")
    try:
        yield tmp_path
    finally:
        other.execute("ROLLBACK")
        other.close()


def _impatient(path: Path) -> sqlite3.Connection:
    # The appliance waits 5 s for a lock; the test gives up at once (the same error, sooner).
    return sqlite3.connect(path, isolation_level=None, timeout=0)


def test_a_locked_store_is_an_error_not_damage(locked: Path) -> None:
    with pytest.raises(StoreError, match=r"locked by another process.*already running"):
        _store(locked, connect=_impatient)
    assert _aside(locked) == []


class _Failing:
    """A connection whose statement starting with ``fails`` raises (after running, if ``late``)."""

    def __init__(self, real: sqlite3.Connection, fails: str, *, late: bool = False) -> None:
        self.real = real
        self.fails = fails
        self.late = late
        self.times = 1

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor:
        if self.times and sql.startswith(self.fails):
            self.times -= 1
            if self.late:
                self.real.execute(sql, params)
            raise sqlite3.OperationalError("disk I/O error")
        return self.real.execute(sql, params)

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


def _faulty_store(
    directory: Path, fails: str, *, late: bool = True, times: int = 1
) -> tuple[GameStore, Callable[[], None]]:
    wrapped: list[_Failing] = []

    def connect(path: Path) -> sqlite3.Connection:
        wrapped.append(_Failing(sqlite3.connect(path, isolation_level=None), fails, late=late))
        wrapped[-1].times = 0
        return wrapped[-1]  # type: ignore[return-value]

    def arm() -> None:
        wrapped[-1].times = times

    return _store(directory, connect=connect), arm


_BANK = (Banked("Ann", 1000),)  # greed sets the scoring dice aside by itself


def _crash(store: GameStore) -> None:
    """Drop the store as a killed process would: no checkpoint, nothing more written."""
    store._db = None


@pytest.mark.parametrize("late", [True, False], ids=["commit-lands-then-fails", "commit-fails"])
def test_an_action_reported_not_recorded_is_not_there_after_a_restart(
    tmp_path: Path, late: bool
) -> None:
    store, arm = _faulty_store(tmp_path, "COMMIT", late=late)
    session = Session.new(store, rules_for("greed"), SEATS)
    session.apply(Thrown("Ann", (1, 1, 1, 2, 3)))
    before = session.state
    arm()
    with pytest.raises(StoreError, match="not recorded") as info:
        session.apply(*_BANK)
    assert not isinstance(info.value, StoreFull)
    assert session.state == before
    _crash(store)
    with _store(tmp_path) as again:
        resumed = Session.resume(again)
        assert resumed is not None and resumed.state == before


def test_a_failed_commit_of_a_new_game_leaves_the_old_one_to_resume(tmp_path: Path) -> None:
    store, arm = _faulty_store(tmp_path, "COMMIT")
    first = Session.new(store, rules_for("greed"), SEATS)
    first.apply(Thrown("Ann", (5, 2, 3, 4, 6)))
    arm()
    with pytest.raises(StoreError, match="not recorded"):
        Session.new(store, rules_for("farkle"), SEATS)
    _crash(store)
    with _store(tmp_path) as again:
        resumed = Session.resume(again)
        assert resumed is not None and resumed.game_id == first.game_id
        assert resumed.state == first.state


def test_a_failed_commit_that_ended_the_game_leaves_it_unfinished(tmp_path: Path) -> None:
    store, arm = _faulty_store(tmp_path, "COMMIT")
    session = Session.new(store, rules_for("greed", 1000), SEATS)
    session.apply(Thrown("Ann", (1, 1, 1, 2, 3)), *_BANK)
    before = session.state
    arm()
    with pytest.raises(StoreError, match="not recorded"):
        session.apply(Thrown("Bob", (2, 3, 4, 6, 6)))  # Bob busts on his last turn: game over
    assert session.state == before
    _crash(store)
    with _store(tmp_path) as again:
        assert again.history() == []
        resumed = Session.resume(again)
        assert resumed is not None and resumed.state == before
    with _store(tmp_path) as again:  # the same throw, stored this time, ends the game
        resumed = Session.resume(again)
        assert resumed is not None
        assert resumed.apply(Thrown("Bob", (2, 3, 4, 6, 6))).phase is Phase.OVER
        assert [g.id for g in again.history()] == [resumed.game_id]


def test_when_the_undo_fails_too_the_message_says_the_action_may_be_recorded(
    tmp_path: Path,
) -> None:
    store, arm = _faulty_store(tmp_path, "COMMIT", times=2)
    session = Session.new(store, rules_for("greed"), SEATS)
    session.apply(Thrown("Ann", (1, 1, 1, 2, 3)))
    arm()
    with pytest.raises(StoreError, match="may have been recorded; restart dicekeeper"):
        session.apply(*_BANK)


def test_a_failed_statement_writes_nothing_and_says_so(tmp_path: Path) -> None:
    store, arm = _faulty_store(tmp_path, "INSERT INTO events", late=False)
    session = Session.new(store, rules_for("greed"), SEATS)
    arm()
    with pytest.raises(StoreError, match=r"disk I/O error.*not recorded"):
        session.apply(Thrown("Ann", (1, 1, 1, 2, 3)))
    store.close()
    with _store(tmp_path) as again:
        stored = again.unfinished()
        assert stored is not None and len(stored.events) == 2  # the two players


def test_history_of_a_store_with_damaged_records_prints_json_for_the_rest(tmp_path: Path) -> None:
    _games(tmp_path, finished=2, unfinished=False)
    _damage(tmp_path, FINISHED_DAMAGE["bad UTF-8 in a result"])
    result = _cli("history", tmp_path, "--json")
    assert result.returncode == 2
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [1]


def test_a_second_reader_never_moves_a_damaged_store_aside(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"not a database " * 300)
    with pytest.raises(StoreError, match="cannot be read"):
        GameStore(tmp_path / DATABASE_NAME, repair=False)
    assert _aside(tmp_path) == [] and (tmp_path / DATABASE_NAME).exists()
    with _store(tmp_path) as store:  # the table's own open does
        assert "moved to" in store.notice
    assert len(_aside(tmp_path)) == 1


def test_the_web_reads_the_store_without_moving_it(tmp_path: Path) -> None:
    import asyncio

    from device.web.auth import Pairing
    from device.web.bridge import WebBridge
    from device.web.server import WebContext

    (tmp_path / DATABASE_NAME).write_bytes(b"not a database " * 300)

    async def read() -> None:
        context = WebContext(WebBridge(), Pairing(), store_path=tmp_path / DATABASE_NAME)
        try:
            with pytest.raises(StoreError):
                await context.read_store(lambda store: store.history())
        finally:
            context.close()

    asyncio.run(read())
    assert _aside(tmp_path) == []
