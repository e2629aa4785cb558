"""One-turn solvers: the most expected points of a turn, and the best chance to reach a total.

`TurnTable` is the expert's dynamic programme over (turn total, dice left) for a player who wants
the most points from this turn and nothing else (no target in sight). `ReachTable` is the chance,
playing for nothing else, to score at least ``r`` more points this turn: what a player on their
last turn needs to beat the leader. Both count in the units of `engine.solver_model`.

`solve_entry` is the turn of a player still to enter, played exactly: a bust then costs more than
the turn total, because the next turns are again spent on entering. In the long run a player earns
``g`` points per turn once entered (the entered table's ``start``); not having entered is worth a
fixed ``h < 0`` points relative to that, and the pair solves ``h + g = start(bust = h)`` (the
average-reward form of the expected points per turn).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules import EntryRule, Rules
from engine.solver_model import DiceModel, ThrowModel, throw_model

# Turn totals past this many units are banked without asking: rolling on there is worth less
# than a tenth of a point for every built-in rule set (checked by the tests).
TURN_CAP_UNITS = 800


def roll_value(
    model: DiceModel, values: Sequence[Sequence[float]], k: int, on_bust: float
) -> float:
    """Expected value of throwing ``model.dice`` dice at turn total ``k``.

    ``values[n][k]`` is the value of holding turn total k with n dice to throw next; the best move
    of each throw is taken; a bust is worth ``on_bust``.
    """
    total = model.bust * on_bust
    for p, s, n in zip(model.single_p, model.single_s, model.single_n, strict=True):
        total += p * values[n][k + s]
    for group in model.choices:
        best = -1.0
        for s, n in group.moves:
            v = values[n][k + s]
            if v > best:
                best = v
        total += group.probability * best
    return total


@dataclass(frozen=True, slots=True)
class TurnTable:
    """The expert's turn: value and decision for every (dice left, turn total in units).

    ``value[n][k]``: the most expected points of the turn from holding k units with n dice to
    throw (bank or go on); ``rolls[n][k]``: whether going on is strictly better than banking.
    ``min_bank``: the least turn total (units) that may be banked (entry threshold, or 1).
    ``bust``: what a bust is worth (units; 0, or the cost of staying out for a player to enter).
    """

    model: ThrowModel
    min_bank: int
    value: tuple[tuple[float, ...], ...]
    rolls: tuple[tuple[bool, ...], ...]
    start: float
    bust: float = 0.0

    @property
    def cap(self) -> int:
        """Turn totals (units) at or above this are always banked."""
        return TURN_CAP_UNITS

    def roll_at(self, k: int, n: int) -> bool:
        """Whether to throw n dice holding k units (True past the entry minimum only if better)."""
        if k >= TURN_CAP_UNITS:
            return False
        return self.rolls[n][k]

    def value_at(self, k: int, n: int) -> float:
        """The expected points (units) of holding k units with n dice to throw."""
        if k >= TURN_CAP_UNITS:
            return float(k)
        return self.value[n][k]

    def throw_value(self, k: int, n: int) -> float:
        """The expected points of throwing n dice holding k units (e.g. passed dice)."""
        k = min(k, TURN_CAP_UNITS - 1)
        return roll_value(self.model.by_dice[n], self.value, k, self.bust)

    def bank_at(self) -> dict[int, int]:
        """Per number of dice, the least turn total (units) from which banking is always best."""
        result: dict[int, int] = {}
        for n in range(1, self.model.dice + 1):
            k = TURN_CAP_UNITS - 1
            while k >= 1 and not self.rolls[n][k]:
                k -= 1
            result[n] = max(k + 1, self.min_bank)
        return result


def solve_turn(rules: Rules, *, entered: bool = True, bust: float = 0.0) -> TurnTable:
    """The expert's turn table for ``rules`` (an entered player, or one still to enter).

    ``bust``: the value (units) of a bust, relative to banking nothing; see `solve_entry`.
    """
    model = throw_model(rules)
    limit = TURN_CAP_UNITS + max(_max_score(model), 1) + 1
    min_bank = 1
    if not entered and rules.entry in (EntryRule.BANKED_TURN, EntryRule.FIRST_SCORE):
        min_bank = max(1, model.entry_units())
    min_bank = max(min_bank, -(-rules.bank_minimum // model.unit))
    dice = model.dice
    values = [[float(k) for k in range(limit)] for _ in range(dice + 1)]
    rolls = [[False] * limit for _ in range(dice + 1)]
    for k in range(TURN_CAP_UNITS - 1, -1, -1):
        bank = float(k) if k >= min_bank else -math.inf
        values[0][k] = bank if k >= min_bank else bust
        for n in range(1, dice + 1):
            go = roll_value(model.by_dice[n], values, k, bust)
            if go > bank:
                values[n][k] = go
                rolls[n][k] = True
            else:
                values[n][k] = bank
    first = model.first_roll if not entered else model.by_dice[dice]
    start = roll_value(first, values, 0, bust)
    return TurnTable(
        model=model,
        min_bank=min_bank,
        value=tuple(tuple(row) for row in values),
        rolls=tuple(tuple(row) for row in rolls),
        start=start,
        bust=bust,
    )


def solve_entry(rules: Rules, *, tolerance: float = 1e-9) -> TurnTable:
    """The turn table of a player still to enter, with a bust costing what staying out costs.

    Its ``bust`` is the root ``h`` of ``start(h) - g - h`` (module docstring), found by the
    secant method: ``start`` is piecewise linear in ``h`` with a slope in [0, 1) (the chance the
    turn busts), so the root is unique. Without an entry rule ``h`` is 0 and this is `solve_turn`.
    """
    if rules.entry is EntryRule.NONE or rules.entry_threshold <= 0:
        return solve_turn(rules, entered=False)
    gain = solve_turn(rules).start
    low, high = 0.0, -gain
    f_low = solve_turn(rules, entered=False, bust=low).start - gain - low
    table = solve_turn(rules, entered=False, bust=high)
    f_high = table.start - gain - high
    for _ in range(60):
        if abs(f_high) < tolerance or f_high == f_low:
            break
        low, high, f_low = high, high - f_high * (high - low) / (f_high - f_low), f_high
        table = solve_turn(rules, entered=False, bust=high)
        f_high = table.start - gain - high
    return table


def _max_score(model: ThrowModel) -> int:
    best = 0
    for dm in model.by_dice[1:]:
        best = max([best, *dm.single_s, *(s for g in dm.choices for s, _ in g.moves)])
    return best


@dataclass(frozen=True, slots=True)
class ReachTable:
    """The best chance to score at least ``r`` more units this turn, with n dice to throw.

    ``chance[n][r]`` for r in 0..size-1 (r <= 0 is already reached: 1.0); the player never
    banks short of r. `fresh` gives the chance at the start of a turn.
    """

    model: ThrowModel
    chance: tuple[tuple[float, ...], ...]
    first_roll: tuple[float, ...]

    @property
    def size(self) -> int:
        """Needs (units) the table covers; larger needs are looked up at the last one."""
        return len(self.chance[0])

    def at(self, r: int, n: int) -> float:
        """Chance to score r more units holding n dice (r <= 0: reached)."""
        if r <= 0:
            return 1.0
        return self.chance[n][min(r, self.size - 1)]

    def forced(self, r: int, n: int) -> float:
        """Chance when the n dice must be thrown first (passed dice): a bust ends it."""
        if r > 0:
            return self.at(r, n)
        return 1.0 - self.model.by_dice[n].bust

    def fresh(self, r: int, *, entered: bool = True) -> float:
        """Chance from the start of a turn (a first throw under the entry rule if not entered)."""
        if r <= 0:
            return 1.0
        if entered:
            return self.at(r, self.model.dice)
        return self.first_roll[min(r, self.size - 1)]


def solve_reach(rules: Rules, size: int) -> ReachTable:
    """The reach table for needs 0..size-1 units."""
    model = throw_model(rules)
    dice = model.dice
    # values[n][x] holds the chance with x = size - r (so throws move to larger x, like totals).
    top = size + _max_score(model) + 1
    values = [[1.0] * top for _ in range(dice + 1)]
    for n in range(dice + 1):
        for x in range(size):
            values[n][x] = 0.0
    for x in range(size - 1, -1, -1):
        # r = size - x > 0 still to score; n = 0 (no hot dice) cannot go on.
        for n in range(1, dice + 1):
            values[n][x] = roll_value(model.by_dice[n], values, x, 0.0)
    chance = [[1.0] + [values[n][size - r] for r in range(1, size)] for n in range(dice + 1)]
    first = [1.0] + [roll_value(model.first_roll, values, size - r, 0.0) for r in range(1, size)]
    return ReachTable(model, tuple(tuple(row) for row in chance), tuple(first))
