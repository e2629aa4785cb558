"""The expert player: the most expected points per turn, from the exact turn table.

Outside the final round the expert plays `engine.solver_turn.TurnTable` for its rule set, with the
race adjustments that points alone miss:

- the entry rule exactly: until it has entered it plays `engine.solver_turn.solve_entry`, where a
  bust also costs the turns spent entering again (under OOPSLA Greed, whose first throw of a turn
  must score 300, one in five: a bust after entering costs about 770 points more than the turn);
- it banks as soon as banking wins outright: at the target where the game ends at once (Pig),
  and under round-ending rules (OOPSLA Greed) when the player closing the round banks at the
  target in the lead. Otherwise reaching the target only hands the others a last turn to pass
  it, so it plays on for points as the table says: a larger lead is harder to pass (banking at
  the target there loses games: greed-house expert vs greedy:0.5 0.73 instead of 0.78);
- on its last turn points no longer matter, only beating the leader, so it plays the reach table:
  the keep and the throws that give the best chance to pass the leader, never banking short of it.

The name ``expert+race`` (what `optimal` fell back to) is kept as another name of the same player.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import EndRule, Rules
from engine.scoring import Keep
from engine.solver_turn import ReachTable, TurnTable, solve_entry, solve_reach, solve_turn
from engine.strategy_core import Situation, SituationStrategy, must_beat

_TURNS: dict[tuple[Rules, bool], TurnTable] = {}
_ENTRY: dict[Rules, TurnTable] = {}
_REACH: dict[Rules, ReachTable] = {}


def turn_table(rules: Rules, *, entered: bool = True) -> TurnTable:
    """The (cached) pure turn table of ``rules`` (points of this turn only, bust worth 0)."""
    key = (rules, entered)
    table = _TURNS.get(key)
    if table is None:
        table = _TURNS[key] = solve_turn(rules, entered=entered)
    return table


def entry_table(rules: Rules) -> TurnTable:
    """The (cached) table the expert plays before entering: `engine.solver_turn.solve_entry`."""
    table = _ENTRY.get(rules)
    if table is None:
        table = _ENTRY[rules] = solve_entry(rules)
    return table


def reach_table(rules: Rules, *, need: int = 0) -> ReachTable:
    """The (cached) reach table of ``rules``, covering needs up to twice the target, and up to
    ``need`` units (a leader far past the target): solved again larger when asked for more."""
    table = _REACH.get(rules)
    if table is None or need >= table.size:
        model = turn_table(rules).model
        size = max(2 * rules.target // model.unit + 2, 2 * need + 2)
        table = _REACH[rules] = solve_reach(rules, size)
    return table


def _dice_after(situation: Situation, keep: Keep) -> int:
    return situation.after_keep(keep).dice_left


def banking_wins(situation: Situation) -> bool:
    """Whether banking now ends the game with the deciding player in the lead.

    That is where the game ends at once (`EndRule.IMMEDIATE`) and the bank reaches the target;
    and under round-ending rules (`EndRule.ROUND`) outside the final round, when the player
    closes the round and the bank reaches the target (everyone else is still short of it).
    """
    total = situation.my_score + situation.turn_total
    if situation.rules.end is EndRule.IMMEDIATE:
        return situation.rules.reaches_target(total) and situation.can_bank
    return (
        situation.rules.end is EndRule.ROUND
        and situation.ends_round
        and must_beat(situation) is None
        and situation.rules.reaches_target(total)
        and total > situation.leader
        and situation.can_bank
    )


@dataclass(frozen=True, slots=True)
class Expert(SituationStrategy):
    """Maximises the expected points of each turn, with the race adjustments (module docstring)."""

    @property
    def name(self) -> str:  # type: ignore[override]
        """``expert``."""
        return "expert"

    def _table(self, situation: Situation) -> TurnTable:
        if situation.has_entered:
            return turn_table(situation.rules)
        return entry_table(situation.rules)

    def keep_value(self, situation: Situation, keep: Keep) -> float:
        """What the expert expects after setting ``keep`` aside (points, or a chance to win).

        A keep after which banking wins is banked: it is worth its turn total (and `keep_for`
        prefers any such keep to the others).
        """
        after = situation.after_keep(keep)
        beat = must_beat(situation)
        if beat is not None:
            unit = turn_table(situation.rules).model.unit
            need = -(-(beat + 1 - situation.my_score - after.turn_total) // unit)
            return reach_table(situation.rules, need=need).at(need, after.dice_left)
        table = self._table(situation)
        unit = table.model.unit
        if banking_wins(after):
            return after.turn_total / unit
        return table.value_at(after.turn_total // unit, after.dice_left)

    def keep_for(self, situation: Situation) -> Keep:
        """The keep with the best value (the first of equals, so the highest score).

        A keep after which banking wins comes first.
        """

        def key(keep: Keep) -> tuple[bool, float]:
            return (banking_wins(situation.after_keep(keep)), self.keep_value(situation, keep))

        return max(situation.options, key=key)

    def roll_for(self, situation: Situation) -> bool:
        """Throw on where the table says so; bank when that wins; on the last turn, until past
        the leader."""
        beat = must_beat(situation)
        if beat is not None:
            return situation.my_score + situation.turn_total <= beat
        if banking_wins(situation):
            return False
        table = self._table(situation)
        return table.roll_at(situation.turn_total // table.model.unit, situation.dice_left)

    def pass_for(self, situation: Situation) -> bool:
        """Take the passed dice when throwing them is worth more than a fresh turn."""
        assert situation.passed is not None
        points, dice = situation.passed
        beat = must_beat(situation)
        if beat is not None:
            unit = turn_table(situation.rules).model.unit
            need = -(-(beat + 1 - situation.my_score) // unit)
            reach = reach_table(situation.rules, need=need)
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
            dice = "1 die" if situation.dice_left == 1 else f"{situation.dice_left} dice"
            return f"banks at {bank} with {dice}"
        return "expected points first"
