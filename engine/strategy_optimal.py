"""The optimal player: maximises its chance of winning a two-player game, from a solved table.

The tables come from a `TableSource` (the device keeps them on disk, see ``device/tables.py``; the
engine alone solves small targets in memory). With more than two players, or when no table is
available for the rule set and target, it plays `Expert` (with its race adjustments) instead. On its
last turn it plays the reach table (the exact best chance to pass the leader), as the solver
assumes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.rules import Rules
from engine.scoring import Keep
from engine.solver_optimal import OptimalTable, solve_optimal, solve_work, unsupported
from engine.strategy_core import Situation, SituationStrategy, must_beat
from engine.strategy_expert import Expert

TableSource = Callable[[Rules], OptimalTable | None]

# The largest solve (`engine.solver_optimal.solve_work`) the engine makes by itself in memory when
# asked for a table: up to ~15 s of pure Python on a desktop (greed-house to 1000, 40 million;
# pig to 100, 2.5 million). Larger tables are the device's job (solved once and cached on disk by
# device.tables.DiskTables, which the caller passes as `tables`).
MEMORY_SOLVE_WORK = 50_000_000

_MEMORY: dict[Rules, OptimalTable] = {}


def memory_tables(rules: Rules) -> OptimalTable | None:
    """A `TableSource` solving small targets in memory (cached), None for larger ones."""
    table = _MEMORY.get(rules)
    if table is None:
        if unsupported(rules) or solve_work(rules) > MEMORY_SOLVE_WORK:
            return None
        table = _MEMORY[rules] = solve_optimal(rules)
    return table


@dataclass(frozen=True, slots=True)
class Coordinates:
    """A situation as table coordinates: seat, own and opponent's score, turn total (units)."""

    seat: int
    mine: int
    theirs: int
    turn: int


@dataclass(frozen=True)
class Optimal(SituationStrategy):
    """Plays the solved table; falls back to ``expert`` where there is none."""

    tables: TableSource = memory_tables
    fallback: Expert = field(default_factory=Expert)

    @property
    def name(self) -> str:  # type: ignore[override]
        """``optimal``."""
        return "optimal"

    def table_for(self, situation: Situation) -> OptimalTable | None:
        """The table this situation is played from (None: the fallback decides)."""
        if len(situation.scores) != 2 or must_beat(situation) is not None:
            return None
        table = self.tables(situation.rules)
        if table is None:
            return None
        if max(situation.scores) >= table.target * table.unit:
            return None
        return table

    @staticmethod
    def coordinates(table: OptimalTable, situation: Situation) -> Coordinates:
        """Where ``situation`` is in ``table``."""
        unit = table.unit
        seat = 0 if table.seats == 1 or situation.is_starter else 1
        return Coordinates(
            seat,
            situation.my_score // unit,
            situation.leader // unit,
            situation.turn_total // unit,
        )

    def win_chance(self, situation: Situation) -> float | None:
        """The chance to win from here playing optimally (None without a table)."""
        table = self.table_for(situation)
        if table is None:
            return None
        c = self.coordinates(table, situation)
        if situation.passed is not None:
            offer = table.roll(
                c.seat, c.mine, c.theirs, situation.passed[0] // table.unit, situation.passed[1]
            )
            return max(table.start_value(c.seat, c.mine, c.theirs), offer)
        if c.turn == 0:
            return table.start_value(c.seat, c.mine, c.theirs)
        if situation.options:
            return max(self.keep_chance(table, situation, keep) for keep in situation.options)
        return table.value(c.seat, c.mine, c.theirs, c.turn, situation.dice_left)

    def keep_chance(self, table: OptimalTable, situation: Situation, keep: Keep) -> float:
        """The chance to win after setting ``keep`` aside."""
        after = situation.after_keep(keep)
        c = self.coordinates(table, after)
        return table.value(c.seat, c.mine, c.theirs, c.turn, after.dice_left)

    def keep_for(self, situation: Situation) -> Keep:
        """The keep with the best chance to win (the first of equals)."""
        table = self.table_for(situation)
        if table is None:
            return self.fallback.keep_for(situation)
        return max(situation.options, key=lambda keep: self.keep_chance(table, situation, keep))

    def roll_for(self, situation: Situation) -> bool:
        """Throw on exactly when that wins more often than banking."""
        table = self.table_for(situation)
        if table is None:
            return self.fallback.roll_for(situation)
        c = self.coordinates(table, situation)
        return table.rolls_on(c.seat, c.mine, c.theirs, c.turn, situation.dice_left)

    def pass_for(self, situation: Situation) -> bool:
        """Take the passed dice when throwing them wins more often than a fresh turn."""
        table = self.table_for(situation)
        if table is None:
            return self.fallback.pass_for(situation)
        assert situation.passed is not None
        points, dice = situation.passed
        c = self.coordinates(table, situation)
        offer = table.roll(c.seat, c.mine, c.theirs, points // table.unit, dice)
        return offer > table.start_value(c.seat, c.mine, c.theirs)

    def remark_for(self, situation: Situation) -> str:
        """The current chance to win, when known."""
        chance = self.win_chance(situation)
        if chance is None:
            return self.fallback.remark_for(situation)
        return f"chance to win {100 * chance:.0f}%"
