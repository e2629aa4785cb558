"""How the review values a decision's choices: the chance of winning, or expected points.

`OptimalEvaluator` reads the solved two-player table (`engine.solver_optimal.OptimalTable`),
`PointsEvaluator` `expert`'s exact turn tables (`engine.strategy_expert`); both value a last turn
(the final round) by the chance to pass the leader (`engine.solver_turn.ReachTable`). Each gives,
for a situation and the situations after each legal keep, every `Choice` (a keep, then roll or
bank) with its value, and for passed dice the two choices. `engine.review` says what the values
mean and how a decision is judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.review_luck import throw_odds
from engine.rules import Rules
from engine.scoring import Keep
from engine.solver_optimal import OptimalTable
from engine.solver_turn import ReachTable, TurnTable
from engine.state import GameState
from engine.strategy_core import Situation, must_beat
from engine.strategy_expert import banking_wins, entry_table, reach_table, turn_table
from engine.strategy_optimal import Optimal

__all__ = [
    "BANK",
    "DECLINE",
    "OPTIMAL",
    "POINTS",
    "ROLL",
    "TAKE",
    "Choice",
    "Evaluator",
    "OptimalEvaluator",
    "PointsEvaluator",
]

OPTIMAL = "optimal"
POINTS = "expected points"

ROLL, BANK, TAKE, DECLINE = "roll", "bank", "take", "decline"


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of a decision: dice set aside (``()``: none), then ``action`` (roll, bank,
    take, decline); ``dice`` thrown next when rolling, ``total`` the turn total after the keep,
    ``value`` what the evaluator gives it."""

    keep: tuple[int, ...]
    action: str
    dice: int
    total: int
    value: float

    def describe(self, *, past: bool = False) -> str:
        """ "keep 1 1 and roll 4", "keep 1 and bank 350", "bank 350"; ``past``: "kept ..."."""
        if self.action == TAKE:
            return "took the passed dice" if past else "take the passed dice"
        if self.action == DECLINE:
            return "threw all dice fresh" if past else "throw all dice fresh"
        act = (
            ("rolled" if past else "roll")
            if self.action == ROLL
            else ("banked" if past else "bank")
        )
        what = f"{act} {self.dice}" if self.action == ROLL else f"{act} {self.total}"
        if not self.keep:
            return what
        dice = " ".join(map(str, self.keep))
        return f"{'kept' if past else 'keep'} {dice} and {what}"


def _units(points: int, unit: int) -> int:
    return -(-points // unit)


class Evaluator:
    """Values the choices of one decision; a subclass per kind of value."""

    name = ""
    last_turn_measure = "win"
    """What a last turn's values are measured in (`pass_values`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def unit(self) -> int:
        """The score unit of the rules' tables."""
        return turn_table(self.rules).model.unit

    def reach(self, need: int) -> ReachTable:
        """The reach table (`engine.strategy_expert.reach_table`) covering ``need`` units."""
        return reach_table(self.rules, need=need)

    def last_turn(self, after: Situation, action: str, beat: int) -> float:
        """The chance to pass ``beat`` (the leader) on a last turn; a tie is not passing it."""
        need = _units(beat + 1 - after.my_score - after.turn_total, self.unit())
        if action == BANK:
            return 1.0 if need <= 0 else 0.0
        return self.reach(need).forced(need, after.dice_left)

    def last_turn_pass(self, situation: Situation, take: bool, beat: int) -> float:
        """On a last turn, the chance to pass the leader taking the passed dice or not."""
        unit = self.unit()
        need = _units(beat + 1 - situation.my_score, unit)
        reach = self.reach(need)
        if take:
            assert situation.passed is not None
            points, dice = situation.passed
            return reach.forced(need - points // unit, dice)
        return reach.fresh(need, entered=situation.has_entered)

    def values(
        self, situation: Situation, afters: list[tuple[Keep | None, Situation]]
    ) -> tuple[str, list[Choice]]:
        """The measure and every choice of a keep (or none) then roll or bank."""
        raise NotImplementedError

    def pass_values(self, situation: Situation) -> tuple[str, list[Choice]]:
        """The measure and the two choices of passed dice: taken, or thrown fresh (on a last
        turn, by the chance to pass the leader, measured as `last_turn_measure`)."""
        assert situation.passed is not None
        points, dice = situation.passed
        beat = must_beat(situation)
        if beat is not None:
            measure = self.last_turn_measure
            take = self.last_turn_pass(situation, True, beat)
            fresh = self.last_turn_pass(situation, False, beat)
        else:
            measure, take, fresh = self.pass_chances(situation, points, dice)
        return measure, [
            Choice((), TAKE, dice, points, take),
            Choice((), DECLINE, self.rules.dice, 0, fresh),
        ]

    def pass_chances(
        self, situation: Situation, points: int, dice: int
    ) -> tuple[str, float, float]:
        """Before a last turn: the measure, and the values of taking ``points`` on ``dice``
        passed and of throwing fresh."""
        raise NotImplementedError

    def scale(self, situation: Situation, best: float) -> float:
        """What a loss in expected points is divided by (chances: 1)."""
        return 1.0


def _actions(after: Situation) -> list[str]:
    actions = []
    if after.dice_left > 0:
        actions.append(ROLL)
    if after.can_bank:
        actions.append(BANK)
    return actions


def _choice(keep: Keep | None, action: str, after: Situation, value: float) -> Choice:
    dice = after.dice_left if action == ROLL else 0
    return Choice(keep.dice if keep else (), action, dice, after.turn_total, value)


class OptimalEvaluator(Evaluator):
    """Chances of winning from the solved two-player table."""

    name = OPTIMAL

    def __init__(self, rules: Rules, table: OptimalTable) -> None:
        super().__init__(rules)
        self.table = table
        self.player = Optimal(tables=lambda _rules: table)

    def values(
        self, situation: Situation, afters: list[tuple[Keep | None, Situation]]
    ) -> tuple[str, list[Choice]]:
        t = self.table
        beat = must_beat(situation)
        choices = []
        for keep, after in afters:
            c = Optimal.coordinates(t, after)
            for action in _actions(after):
                if beat is not None:
                    value = self.last_turn(after, action, beat)
                elif action == BANK or (c.turn >= t.span(c.mine) and after.can_bank):
                    # past the table's span it banks: rolling on there is valued as banking
                    value = t.bank(c.seat, c.mine, c.theirs, c.turn, after.dice_left)
                else:
                    value = t.roll(c.seat, c.mine, c.theirs, c.turn, after.dice_left)
                choices.append(_choice(keep, action, after, value))
        return "win", choices

    def pass_chances(
        self, situation: Situation, points: int, dice: int
    ) -> tuple[str, float, float]:
        t = self.table
        c = Optimal.coordinates(t, situation)
        take = t.roll(c.seat, c.mine, c.theirs, points // t.unit, dice)
        return "win", take, t.start_value(c.seat, c.mine, c.theirs)

    def start_chance(self, state: GameState) -> float:
        """The chance of the player to move, at the start of a turn, to win."""
        situation = Situation.of(state)
        beat = must_beat(situation)
        if beat is None:
            chance = self.player.win_chance(situation)
            if chance is not None:
                return chance
            beat = situation.leader
        fresh = self.last_turn_pass(situation, False, beat)
        if situation.passed is not None:
            return max(fresh, self.last_turn_pass(situation, True, beat))
        return fresh


class PointsEvaluator(Evaluator):
    """Expected points of the turn, from `expert`'s turn tables."""

    name = POINTS
    last_turn_measure = "reach"

    def turn(self, situation: Situation) -> TurnTable:
        return turn_table(self.rules) if situation.has_entered else entry_table(self.rules)

    def values(
        self, situation: Situation, afters: list[tuple[Keep | None, Situation]]
    ) -> tuple[str, list[Choice]]:
        beat = must_beat(situation)
        choices = []
        if beat is not None:
            for keep, after in afters:
                for action in _actions(after):
                    value = self.last_turn(after, action, beat)
                    choices.append(_choice(keep, action, after, value))
            return "reach", choices
        if any(banking_wins(after) for _, after in afters):
            for keep, after in afters:
                wins = banking_wins(after)
                for action in _actions(after):
                    if action == BANK:
                        value = 1.0 if wins else 0.0
                    else:
                        value = 1.0 - throw_odds(self.rules, after.dice_left).bust if wins else 0.0
                    choices.append(_choice(keep, action, after, value))
            return "win", choices
        table = self.turn(situation)
        unit = table.model.unit
        for keep, after in afters:
            for action in _actions(after):
                if action == BANK:
                    value = float(after.turn_total)
                else:
                    value = unit * table.throw_value(after.turn_total // unit, after.dice_left)
                choices.append(_choice(keep, action, after, value))
        return "points", choices

    def pass_chances(
        self, situation: Situation, points: int, dice: int
    ) -> tuple[str, float, float]:
        table = self.turn(situation)
        unit = table.model.unit
        return "points", unit * table.throw_value(points // unit, dice), unit * table.start

    def scale(self, situation: Situation, best: float) -> float:
        table = self.turn(situation)
        return max(best, table.start * table.model.unit, 1.0)

    def fresh_points(self, situation: Situation) -> float:
        """The expected points of a fresh turn for the deciding player."""
        table = self.turn(situation)
        return float(table.start * table.model.unit)
