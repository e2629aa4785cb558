"""The on-disk cache of solved optimal tables, under the state directory's ``cache/strategy``.

The engine defines the table and its bytes (`engine.solver_optimal.OptimalTable`: a versioned
format with the rules' fingerprint and a sha256 of the arrays), `device.solver_fast` solves it
with numpy; this module reads and writes the files. A file that fails any check when loaded (an
older format, other rules, a bad checksum, cut short) is set aside as ``*.bad`` with a warning,
never trusted, and solved again where solving is allowed. `DiskTables` is the
`engine.strategy_optimal.TableSource` the appliance and the tournament hand to
``find_strategy("optimal", tables=...)``: memory first, then disk, then a solve (saved for next
time) when the target is at most ``limit_units``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from device.solver_fast import solve_fast
from device.store import state_directory, write_atomically
from engine.rules import Rules
from engine.solver_model import throw_model
from engine.solver_optimal import BadTable, OptimalTable, Progress, rules_key, unsupported

log = logging.getLogger(__name__)

# Targets up to this many units (of 50 points) are solved on demand by a `DiskTables` that is
# allowed to solve (the tournament's): seconds with `device.solver_fast`. The table never
# solves while people wait (`device.computer.CachedTables`); the shipped rule sets are solved
# ahead of play by `dicekeeper strategy --solve` (systemd/install.sh runs it).
SOLVE_LIMIT_UNITS = 100
# A table missing from the cache is looked for again after this long (seconds): one solved in
# the background (`dicekeeper strategy --solve`, started by systemd/install.sh) is picked up
# while the appliance runs.
RETRY_SECONDS = 60.0


def cache_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where solved tables live: ``<state directory>/cache/strategy``."""
    return state_directory(None, environ) / "cache" / "strategy"


def table_path(rules: Rules, directory: Path) -> Path:
    """The file of ``rules``'s table: named by rules and target, plus a hash of the whole rules."""
    digest = hashlib.sha256(rules_key(rules).encode()).hexdigest()[:12]
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in rules.name)
    return directory / f"optimal-{safe}-{rules.target}-{digest}.bin"


def load_table(rules: Rules, directory: Path) -> OptimalTable | None:
    """The cached, verified table of ``rules``; None if absent or set aside as bad."""
    path = table_path(rules, directory)
    try:
        with path.open("rb") as stream:
            return OptimalTable.read(stream, rules)
    except FileNotFoundError:
        return None
    except BadTable as exc:
        aside = path.with_suffix(".bad")
        try:
            os.replace(path, aside)
            log.warning("%s is %s: set aside as %s", path, exc, aside.name)
        except OSError as error:
            log.warning("%s is %s, and could not be set aside: %s", path, exc, error)
        return None
    except OSError as exc:
        log.warning("cannot read the optimal table %s: %s", path, exc)
        return None


def save_table(table: OptimalTable, directory: Path) -> Path:
    """Write ``table`` atomically (`device.store.write_atomically`); returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = table_path(table.rules, directory)
    write_atomically(path, table.write)
    return path


class DiskTables:
    """A table source: memory, then the cache directory, then a solve within ``limit_units``.

    ``on_solve(rules)`` is called before a solve starts (e.g. to tell the user it will take a
    while); ``progress`` receives the solver's (done, total). A table found missing is looked
    for on disk again once ``RETRY_SECONDS`` of ``clock`` have passed.
    """

    def __init__(
        self,
        directory: Path | None = None,
        *,
        limit_units: int = SOLVE_LIMIT_UNITS,
        on_solve: Callable[[Rules], None] | None = None,
        progress: Progress | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.directory = directory if directory is not None else cache_directory()
        self.limit_units = limit_units
        self.on_solve = on_solve
        self.progress = progress
        self.clock = clock
        self._memory: dict[Rules, OptimalTable] = {}
        self._missing: dict[Rules, float] = {}

    def __call__(self, rules: Rules) -> OptimalTable | None:
        """The table for ``rules`` (None when not cached and too large to solve now)."""
        table = self._memory.get(rules)
        if table is not None:
            return table
        looked = self._missing.get(rules)
        if looked is not None and self.clock() - looked < RETRY_SECONDS:
            return None
        table = load_table(rules, self.directory)
        if table is None and not unsupported(rules) and self.units(rules) <= self.limit_units:
            table = self.solve(rules)
        if table is None:
            self._missing[rules] = self.clock()
            return None
        self._missing.pop(rules, None)
        self._memory[rules] = table
        return table

    @staticmethod
    def units(rules: Rules) -> int:
        """The target in solver units."""
        return -(-rules.goal // throw_model(rules).unit)

    def solve(self, rules: Rules) -> OptimalTable:
        """Solve ``rules`` now and cache the table on disk."""
        if self.on_solve is not None:
            self.on_solve(rules)
        table = solve_fast(rules, progress=self.progress)
        try:
            save_table(table, self.directory)
        except OSError as exc:
            log.warning("could not cache the table in %s: %s", self.directory, exc)
        self._memory[rules] = table
        return table
