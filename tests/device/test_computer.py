"""Computer players at the table: optimal never solves while people wait, and uses cached tables."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from device.computer import CachedTables, UnknownComputer, display_name, find_computer
from device.tables import DiskTables, save_table
from engine.rules import find_rules
from engine.solver_optimal import solve_optimal


def test_a_missing_table_is_not_solved_at_the_table_and_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tables = CachedTables(DiskTables(tmp_path, limit_units=0))
    rules = find_rules("greed-koans").with_target(500)
    with caplog.at_level(logging.WARNING, logger="device.computer"):
        assert tables(rules) is None
        assert tables(rules) is None
    assert [r.getMessage().count("--solve") for r in caplog.records] == [1]
    assert not list(tmp_path.iterdir())  # nothing was solved and written


def test_a_cached_table_is_used(tmp_path: Path) -> None:
    rules = find_rules("greed-koans").with_target(500)
    save_table(solve_optimal(rules), tmp_path)
    table = CachedTables(DiskTables(tmp_path, limit_units=0))(rules)
    assert table is not None and table.rules == rules


def test_specs_and_names() -> None:
    assert find_computer("greedy:0.3").name
    with pytest.raises(UnknownComputer, match="'wizard'"):
        find_computer("wizard")
    assert display_name("greedy:0.3") == "Greedy 0.3"
