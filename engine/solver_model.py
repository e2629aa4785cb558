"""The throw model the solvers share: every throw of n dice reduced to the moves it allows.

A solver does not care which dice show, only what a throw lets the player do next: set aside a
keep scoring ``s`` and go on with ``n'`` dice. `ThrowModel` lists, for each number of dice, the
distinct sets of such moves with their probability, in score *units* (the greatest common divisor
of every score and the entry threshold: 50 for greed and farkle, 1 for pig; the solvers round the
target up to whole units).

Throws allowing the same moves are merged. For a solver whose values never fall as the turn total
grows (the expert's expected points), `throw_model` also keeps, of the keeps leaving the same number
of dice, only the highest-scoring one. The chance to win is not like that: reaching the target
early hands the opponent a last turn, so a smaller keep can win more often, and the optimal solver
asks for every distinct move (``monotone=False``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.rules import EntryRule, KeepRule, Rules
from engine.scoring import score_throw, throw_distribution

# One move: (score in units, dice left to throw; 0 = the turn must stop, hot dice give rules.dice).
Move = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MoveGroup:
    """Throws of equal moves: their total probability and the moves (best score first)."""

    probability: float
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class DiceModel:
    """What a throw of one number of dice allows.

    ``singles``: groups with one move, as parallel tuples (probability, score, dice left) for tight
    loops. ``choices``: groups with more than one move. ``bust``: probability of no scoring dice
    (or of a throw that loses more: a ``wipe_out``). ``wipe``: the part of ``bust`` that loses the
    thrower's whole score too (the rules' ``wipe_out``); solvers that do not model it treat it as
    a bust.
    """

    dice: int
    single_p: tuple[float, ...]
    single_s: tuple[int, ...]
    single_n: tuple[int, ...]
    choices: tuple[MoveGroup, ...]
    bust: float
    wipe: float = 0.0


@dataclass(frozen=True, slots=True)
class ThrowModel:
    """The reduced throws of a rule set for 1..rules.dice dice, in score units.

    ``by_dice[n]`` is the model for throwing n dice (index 0 unused). ``first_roll`` is the model
    of a not-yet-entered player's first throw under `EntryRule.FIRST_ROLL` (a throw scoring below
    the threshold busts), else the same as ``by_dice[rules.dice]``.
    """

    rules: Rules
    unit: int
    by_dice: tuple[DiceModel, ...]
    first_roll: DiceModel

    @property
    def dice(self) -> int:
        """Dice in a fresh throw."""
        return self.rules.dice

    def units(self, points: int) -> int:
        """``points`` in units, rounded down."""
        return points // self.unit

    def entry_units(self) -> int:
        """The entry threshold in units (rounded up; 0 when there is none)."""
        if self.rules.entry is EntryRule.NONE:
            return 0
        return -(-self.rules.entry_threshold // self.unit)


def _unit(rules: Rules) -> int:
    unit = 0
    for combo in rules.combinations():
        unit = math.gcd(unit, combo.points)
    unit = math.gcd(unit, rules.entry_threshold) if rules.entry_threshold else unit
    unit = math.gcd(unit, rules.bank_minimum) if rules.bank_minimum else unit
    return max(unit, 1)


def _moves(
    rules: Rules, dice: tuple[int, ...], unit: int, min_best: int, monotone: bool
) -> tuple[Move, ...]:
    scoring = score_throw(rules, dice)
    if scoring.is_bust or scoring.best < min_best or rules.holds(dice, rules.wipe_out):
        return ()
    n = len(dice)
    if rules.keep is KeepRule.ALL:
        candidates = [(scoring.best, len(scoring.non_scoring))]
    else:
        candidates = [(keep.score, n - len(keep.dice)) for keep in scoring.options]
    moves: set[Move] = set()
    best_by_left: dict[int, int] = {}
    for score, left in candidates:
        after = left if left else (rules.dice if rules.hot_dice else 0)
        moves.add((score // unit, after))
        if score > best_by_left.get(after, -1):
            best_by_left[after] = score
    if monotone:
        moves = {(s // unit, left) for left, s in best_by_left.items()}
    return tuple(sorted(moves, reverse=True))


def _dice_model(rules: Rules, n: int, unit: int, min_best: int, monotone: bool) -> DiceModel:
    groups: dict[tuple[Move, ...], float] = {}
    bust = wipe = 0.0
    for outcome in throw_distribution(rules, n):
        moves = _moves(rules, outcome.dice, unit, min_best, monotone)
        if rules.holds(outcome.dice, rules.wipe_out):
            wipe += outcome.probability
        if not moves:
            bust += outcome.probability
        else:
            groups[moves] = groups.get(moves, 0.0) + outcome.probability
    singles = [(p, m[0]) for m, p in groups.items() if len(m) == 1]
    choices = tuple(MoveGroup(p, m) for m, p in groups.items() if len(m) > 1)
    return DiceModel(
        dice=n,
        single_p=tuple(p for p, _ in singles),
        single_s=tuple(move[0] for _, move in singles),
        single_n=tuple(move[1] for _, move in singles),
        choices=choices,
        bust=bust,
        wipe=wipe,
    )


_MODELS: dict[tuple[Rules, bool], ThrowModel] = {}


def throw_model(rules: Rules, *, monotone: bool = True) -> ThrowModel:
    """The (cached) throw model of ``rules``; ``monotone``: see the module docstring."""
    key = (rules, monotone)
    model = _MODELS.get(key)
    if model is None:
        unit = _unit(rules)
        by_dice = [DiceModel(0, (), (), (), (), 1.0)]
        by_dice += [_dice_model(rules, n, unit, 0, monotone) for n in range(1, rules.dice + 1)]
        if rules.entry is EntryRule.FIRST_ROLL and rules.entry_threshold > 0:
            first = _dice_model(rules, rules.dice, unit, rules.entry_threshold, monotone)
        else:
            first = by_dice[rules.dice]
        model = ThrowModel(rules, unit, tuple(by_dice), first)
        _MODELS[key] = model
    return model
