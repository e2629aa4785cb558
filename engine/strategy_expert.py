"""The expert player: the most expected points per turn, from the exact turn table.

Outside the final round the expert plays `engine.solver_turn.TurnTable` for its rule set (the one
for a player still to enter while it has not entered). On its last turn points no longer matter,
only beating the leader, so it plays the reach table instead: the keep and the throws that give the
best chance to pass the leader. With ``race=True`` (what `optimal` falls back to with more than two
players or a target too large to solve) it also banks whenever the bank reaches the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import Rules
from engine.scoring import Keep
from engine.solver_turn import ReachTable, TurnTable, solve_reach, solve_turn
from engine.strategy_core import Situation, SituationStrategy, must_beat

_TURNS: dict[tuple[Rules, bool], TurnTable] = {}
_REACH: dict[Rules, ReachTable] = {}


def turn_table(rules: Rules, *, entered: bool = True) -> TurnTable:
    """The (cached) expert turn table of ``rules``."""
    key = (rules, entered)
    table = _TURNS.get(key)
    if table is None:
        table = _TURNS[key] = solve_turn(rules, entered=entered)
    return table


def reach_table(rules: Rules) -> ReachTable:
    """The (cached) reach table of ``rules``, covering needs up to twice the target."""
    table = _REACH.get(rules)
    if table is None:
        model = turn_table(rules).model
        table = _REACH[rules] = solve_reach(rules, 2 * rules.target // model.unit + 2)
    return table


def _dice_after(situation: Situation, keep: Keep) -> int:
    return situation.after_keep(keep).dice_left


@dataclass(frozen=True, slots=True)
class Expert(SituationStrategy):
    """Maximises the expected points of each turn; plays to beat the leader on its last turn."""

    race: bool = False

    @property
    def name(self) -> str:  # type: ignore[override]
        """``expert`` (``expert+race`` with the race adjustment)."""
        return "expert+race" if self.race else "expert"

    def _table(self, situation: Situation) -> TurnTable:
        return turn_table(situation.rules, entered=situation.has_entered)

    def keep_value(self, situation: Situation, keep: Keep) -> float:
        """What the expert expects after setting ``keep`` aside (points, or a chance to win)."""
        after = situation.after_keep(keep)
        beat = must_beat(situation)
        if beat is not None:
            reach = reach_table(situation.rules)
            need = beat + 1 - situation.my_score - after.turn_total
            unit = reach.model.unit
            return reach.at(-(-need // unit), after.dice_left)
        table = self._table(situation)
        unit = table.model.unit
        return table.value_at(after.turn_total // unit, after.dice_left)

    def keep_for(self, situation: Situation) -> Keep:
        """The keep with the best value (the first of equals, so the highest score)."""
        return max(situation.options, key=lambda keep: self.keep_value(situation, keep))

    def roll_for(self, situation: Situation) -> bool:
        """Throw on where the table says so; on the last turn, until past the leader."""
        total = situation.my_score + situation.turn_total
        beat = must_beat(situation)
        if beat is not None:
            return total <= beat
        if self.race and total >= situation.rules.target:
            return False
        table = self._table(situation)
        return table.roll_at(situation.turn_total // table.model.unit, situation.dice_left)

    def pass_for(self, situation: Situation) -> bool:
        """Take the passed dice when throwing them is worth more than a fresh turn."""
        assert situation.passed is not None
        points, dice = situation.passed
        beat = must_beat(situation)
        if beat is not None:
            reach = reach_table(situation.rules)
            unit = reach.model.unit
            need = -(-(beat + 1 - situation.my_score) // unit)
            fresh = reach.fresh(need, entered=situation.has_entered)
            return reach.forced(need - points // unit, dice) > fresh
        table = self._table(situation)
        unit = table.model.unit
        return table.throw_value(points // unit, dice) > table.start

    def remark_for(self, situation: Situation) -> str:
        """What the table says about going on."""
        if must_beat(situation) is not None:
            return f"last turn: must pass {situation.leader}"
        table = self._table(situation)
        if situation.dice_left:
            bank = table.bank_at().get(situation.dice_left, 0) * table.model.unit
            return f"banks at {bank} with {situation.dice_left} dice"
        return "expected points first"
