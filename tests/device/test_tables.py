"""The table cache: files verified when loaded, bad ones set aside and solved again; the solve
command that fills the cache ahead of play."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from device.cli import main
from device.tables import RETRY_SECONDS, DiskTables, load_table, save_table, table_path
from engine.rules import find_rules
from engine.solver_optimal import FORMAT, OptimalTable, solve_optimal

RULES = find_rules("greed-koans").with_target(400)


@pytest.fixture(scope="module")
def good() -> OptimalTable:
    return solve_optimal(RULES)


@pytest.fixture(autouse=True)
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state" / "dicekeeper" / "cache" / "strategy"


def _with_header(data: bytes, **fields: object) -> bytes:
    line, body = data.split(b"\n", 1)
    header = json.loads(line)
    header.update(fields)
    return json.dumps(header).encode() + b"\n" + body


def _damaged(table: OptimalTable) -> dict[str, bytes]:
    data = table.to_bytes()
    flipped = bytearray(data)
    flipped[-1] ^= 0x40
    other = solve_optimal(find_rules("greed").with_target(400)).to_bytes()
    return {
        "checksum": bytes(flipped),
        "truncated": data[:-16],
        "older format": _with_header(data, format="dicekeeper-optimal-2"),
        "other rules": other,
        "garbage": b"\x00\x01 not a table",
    }


@pytest.mark.parametrize(
    "kind", ["checksum", "truncated", "older format", "other rules", "garbage"]
)
def test_a_bad_file_is_set_aside_not_trusted(
    tmp_path: Path, good: OptimalTable, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = table_path(RULES, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_damaged(good)[kind])
    with caplog.at_level(logging.WARNING, logger="device.tables"):
        assert load_table(RULES, tmp_path) is None
    assert not path.exists() and path.with_suffix(".bad").exists()
    assert [str(path) in r.getMessage() for r in caplog.records] == [True]
    # a source allowed to solve solves it again and writes a good file
    table = DiskTables(tmp_path, limit_units=100)(RULES)
    assert table is not None and table.start == pytest.approx(good.start, abs=1e-9)
    assert load_table(RULES, tmp_path) is not None


def test_a_good_file_loads_with_its_format(tmp_path: Path, good: OptimalTable) -> None:
    path = save_table(good, tmp_path)
    assert json.loads(path.read_bytes().split(b"\n", 1)[0])["format"] == FORMAT
    loaded = load_table(RULES, tmp_path)
    assert loaded is not None and loaded.start == good.start and path.exists()


def test_a_table_solved_later_is_picked_up(tmp_path: Path, good: OptimalTable) -> None:
    now = [0.0]
    source = DiskTables(tmp_path, limit_units=0, clock=lambda: now[0])
    assert source(RULES) is None
    save_table(good, tmp_path)
    now[0] += RETRY_SECONDS / 2
    assert source(RULES) is None  # not looked for again yet
    now[0] += RETRY_SECONDS
    found = source(RULES)
    assert found is not None and found.start == good.start


def _solve_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert main(["strategy", "--solve", "--json", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_solve_fills_the_cache_then_verifies_it(
    capsys: pytest.CaptureFixture[str], state_home: Path, good: OptimalTable
) -> None:
    argv = ("--rules", "greed-koans", "pig", "--target", "400")
    first = _solve_json(capsys, *argv)
    assert [(r["rules"], r["target"], r["solved"]) for r in first] == [
        ("greed-koans", 400, True),
        ("pig", 400, True),
    ]
    assert first[0]["first_player_wins"] == pytest.approx(good.first_player_wins(), abs=1e-6)
    assert all(Path(str(r["path"])).parent == state_home for r in first)
    again = _solve_json(capsys, *argv)
    assert [r["solved"] for r in again] == [False, False]  # loaded and verified
    Path(str(again[0]["path"])).write_bytes(b"broken")
    third = _solve_json(capsys, *argv)
    assert [r["solved"] for r in third] == [True, False]
    assert Path(str(again[0]["path"])).with_suffix(".bad").exists()


def test_solve_text_names_time_and_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategy", "--solve", "--rules", "greed-koans", "--target", "300"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("greed-koans to 300: solved in ") and "s CPU)" in out and "MB" in out


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--solve", "--rules", "yahtzee"], "'yahtzee'"),
        (["--turn-ev"], "--turn-ev"),
        (["--solve", "--rules", "greed", "--target", "0"], "target"),
    ],
)
def test_bad_solve_requests_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    assert main(["strategy", *argv]) == 2
    err = capsys.readouterr().err
    assert named in err and err.count("\n") == 1
