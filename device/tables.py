"""The on-disk cache of solved optimal tables, under the state directory's ``cache/strategy``.

The engine solves and serialises (`engine.solver_optimal.OptimalTable.to_bytes`); this module
only reads and writes the bytes. `DiskTables` is the `engine.strategy_optimal.TableSource` the
appliance and the tournament hand to ``find_strategy("optimal", tables=...)``: memory first, then
disk, then a solve (saved for next time) if the target is small enough to solve in minutes.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from device.store import state_directory
from engine.rules import Rules
from engine.solver_model import throw_model
from engine.solver_optimal import BadTable, OptimalTable, Progress, rules_key, solve_optimal

log = logging.getLogger(__name__)

# Targets up to this many units (of 50 points) are solved on demand: greed to 5000 took 70 s on
# one desktop core. Farkle to 10,000 took 19 CPU minutes (75 MB table) and greed-house to 10,000
# needs roughly twice that in pure Python: solve those once with
# `dicekeeper strategy --rules NAME --solve`; until then `optimal` plays `expert`.
SOLVE_LIMIT_UNITS = 100


def cache_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where solved tables live: ``<state directory>/cache/strategy``."""
    return state_directory(None, environ) / "cache" / "strategy"


def table_path(rules: Rules, directory: Path) -> Path:
    """The file of ``rules``'s table: named by rules and target, plus a hash of the whole rules."""
    digest = hashlib.sha256(rules_key(rules).encode()).hexdigest()[:12]
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in rules.name)
    return directory / f"optimal-{safe}-{rules.target}-{digest}.bin"


def load_table(rules: Rules, directory: Path) -> OptimalTable | None:
    """The cached table of ``rules``, or None if absent; a damaged file is removed."""
    path = table_path(rules, directory)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return OptimalTable.from_bytes(data, rules)
    except BadTable:
        path.unlink(missing_ok=True)
        return None


def save_table(table: OptimalTable, directory: Path) -> Path:
    """Write ``table`` atomically (temporary file, then rename); returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = table_path(table.rules, directory)
    temporary = path.with_suffix(f".tmp{os.getpid()}")
    temporary.write_bytes(table.to_bytes())
    os.replace(temporary, path)
    return path


class DiskTables:
    """A table source: memory, then the cache directory, then a solve within ``limit_units``.

    ``on_solve(rules)`` is called before a solve starts (e.g. to tell the user it will take a
    while); ``progress`` receives the solver's (done, total).
    """

    def __init__(
        self,
        directory: Path | None = None,
        *,
        limit_units: int = SOLVE_LIMIT_UNITS,
        on_solve: Callable[[Rules], None] | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.directory = directory if directory is not None else cache_directory()
        self.limit_units = limit_units
        self.on_solve = on_solve
        self.progress = progress
        self._memory: dict[Rules, OptimalTable | None] = {}

    def __call__(self, rules: Rules) -> OptimalTable | None:
        """The table for ``rules`` (None when not cached and too large to solve now)."""
        if rules in self._memory:
            return self._memory[rules]
        table = load_table(rules, self.directory)
        if table is None and self.units(rules) <= self.limit_units:
            table = self.solve(rules)
        self._memory[rules] = table
        return table

    @staticmethod
    def units(rules: Rules) -> int:
        """The target in solver units."""
        return -(-rules.target // throw_model(rules).unit)

    def solve(self, rules: Rules) -> OptimalTable:
        """Solve ``rules`` now and cache the table on disk."""
        if self.on_solve is not None:
            self.on_solve(rules)
        table = solve_optimal(rules, progress=self.progress)
        try:
            save_table(table, self.directory)
        except OSError as exc:
            log.warning("could not cache the table in %s: %s", self.directory, exc)
        self._memory[rules] = table
        return table
