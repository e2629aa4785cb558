"""The luck of the dice: each throw's chances (a bust, hot dice, its points) against what they were.

For a throw of n dice the chances are exact, from every distinct throw of n dice
(`engine.scoring.throw_distribution`): the chance of a bust (no scoring dice, or a first throw
below the entry threshold under `EntryRule.FIRST_ROLL`), the chance that all n dice score (hot
dice), and the expected best score of the throw (0 on a bust). `Luck` sums, per player, what the
throws did against those expectations: ``bust_luck`` is the busts expected minus the busts thrown
("1.4 busts luckier than average" when positive).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import EntryRule, Rules
from engine.scoring import score_throw, throw_distribution

__all__ = ["Luck", "ThrowOdds", "throw_odds"]


@dataclass(frozen=True, slots=True)
class ThrowOdds:
    """The chances of one throw of ``dice`` dice: bust, all dice scoring, the expected points."""

    dice: int
    bust: float
    hot: float
    points: float


_ODDS: dict[tuple[Rules, int, int], ThrowOdds] = {}


def throw_odds(rules: Rules, dice: int, *, threshold: int = 0) -> ThrowOdds:
    """The (cached) chances of throwing ``dice`` dice; a best score below ``threshold`` busts."""
    key = (rules, dice, threshold)
    odds = _ODDS.get(key)
    if odds is None:
        bust = hot = points = 0.0
        for outcome in throw_distribution(rules, dice):
            scoring = score_throw(rules, outcome.dice)
            if scoring.is_bust or scoring.best < threshold:
                bust += outcome.probability
                continue
            points += outcome.probability * scoring.best
            if any(len(keep.dice) == dice for keep in scoring.options):
                hot += outcome.probability
        odds = _ODDS[key] = ThrowOdds(dice, bust, hot, points)
    return odds


def entry_threshold(rules: Rules, *, first: bool, entered: bool) -> int:
    """The least best score a throw needs not to bust: the entry threshold on a first throw of a
    player still to enter under `EntryRule.FIRST_ROLL`, else 0."""
    if first and not entered and rules.entry is EntryRule.FIRST_ROLL:
        return rules.entry_threshold
    return 0


@dataclass(frozen=True, slots=True)
class Luck:
    """One player's throws summed: how many, and what they did against the expectation."""

    throws: int = 0
    busts: int = 0
    expected_busts: float = 0.0
    hot: int = 0
    expected_hot: float = 0.0
    points: int = 0
    expected_points: float = 0.0

    def add(self, odds: ThrowOdds, *, bust: bool, hot: bool, points: int) -> Luck:
        """This luck with one more throw of these odds, which did as said."""
        return Luck(
            self.throws + 1,
            self.busts + bust,
            self.expected_busts + odds.bust,
            self.hot + hot,
            self.expected_hot + odds.hot,
            self.points + points,
            self.expected_points + odds.points,
        )

    @property
    def bust_luck(self) -> float:
        """Busts expected minus busts thrown: positive is luckier than average."""
        return self.expected_busts - self.busts

    @property
    def hot_luck(self) -> float:
        """Hot dice thrown minus hot dice expected."""
        return self.hot - self.expected_hot

    @property
    def points_luck(self) -> float:
        """Points thrown (the best score of each throw) minus the points expected."""
        return self.points - self.expected_points

    def line(self, name: str, *, hot_dice: bool = True) -> str:
        """One sentence: "Ann's dice were 1.4 busts luckier than average, ...".

        ``hot_dice``: whether hot dice mean anything under the rules (more than one die).
        """
        if not self.throws:
            return f"{name} threw no dice"
        busts = abs(self.bust_luck)
        word = "bust" if round(busts, 1) == 1.0 else "busts"
        side = "luckier" if self.bust_luck >= 0 else "unluckier"
        parts = [f"{name}'s dice were {busts:.1f} {word} {side} than average"]
        if hot_dice:
            more = "more" if self.hot_luck >= 0 else "fewer"
            parts.append(f"{abs(self.hot_luck):.1f} hot dice {more}")
        above = "above" if self.points_luck >= 0 else "below"
        parts.append(f"{abs(self.points_luck):.0f} points {above} expectation")
        return f"{', '.join(parts)} ({self.throws} throws)"
