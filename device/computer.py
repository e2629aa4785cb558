"""Computer players at the table: strategies found by spec, `optimal` reading its tables from disk.

Solving an optimal table takes minutes (longer than systemd's watchdog allows a stalled loop), so
the table never solves one while people wait: `optimal` uses a table cached on disk by
``dicekeeper strategy --rules NAME --solve`` and otherwise plays ``expert``, saying so once
in the log.
"""

from __future__ import annotations

import logging

from device.tables import DiskTables
from engine.errors import DicekeeperError
from engine.rules import Rules
from engine.solver_optimal import OptimalTable
from engine.strategy import find_strategy
from engine.strategy_core import Strategy
from engine.strategy_greedy import PERSONALITIES

__all__ = [
    "CachedTables",
    "UnknownComputer",
    "cached_table",
    "display_name",
    "find_computer",
    "personalities",
]

log = logging.getLogger(__name__)


class UnknownComputer(DicekeeperError, ValueError):
    """A computer player spec that names no strategy."""


class CachedTables:
    """A table source that only reads solved tables (memory, then disk) and never solves."""

    def __init__(self, disk: DiskTables | None = None) -> None:
        self.disk = disk if disk is not None else DiskTables(limit_units=0)
        self._missing: set[Rules] = set()

    def __call__(self, rules: Rules) -> OptimalTable | None:
        """The cached table of ``rules``, or None (logged once per rule set)."""
        table = self.disk(rules)
        if table is None and rules not in self._missing:
            self._missing.add(rules)
            log.warning(
                "no optimal table for %s to %d in %s: optimal plays expert; "
                "solve it once with `dicekeeper strategy --rules %s --solve`",
                rules.name,
                rules.target,
                self.disk.directory,
                rules.name,
            )
        return table


_TABLES = CachedTables()


def cached_table(rules: Rules) -> OptimalTable | None:
    """The cached table of ``rules`` the computer players use (memory, then disk; never solved,
    nothing logged when there is none): the review reads it too, so a table is held once."""
    return _TABLES.disk(rules)


def find_computer(spec: str, *, tables: CachedTables | None = None) -> Strategy:
    """The strategy ``spec`` names; `UnknownComputer` naming the spec when there is none."""
    try:
        return find_strategy(spec, tables=tables if tables is not None else _TABLES)
    except DicekeeperError as exc:
        raise UnknownComputer(f"computer player {spec!r}: {exc}") from None


def personalities() -> tuple[str, ...]:
    """The names of the computer personalities the menu offers."""
    return tuple(PERSONALITIES)


def display_name(spec: str) -> str:
    """A seat name for a computer: ``expert`` -> ``Expert``, ``greedy:0.3`` -> ``Greedy 0.3``."""
    return " ".join(part.capitalize() if part.isalpha() else part for part in spec.split(":"))
