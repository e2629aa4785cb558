"""Scoring one throw: every legal keep with its score, the best, the bust; and throw probabilities.

`score_throw(rules, dice)` is cached per rule set by the sorted multiset of values, so a solver may
call it millions of times. `throw_distribution(rules, n)` lists the distinct multisets of ``n`` dice
with how many of the ``faces ** n`` ordered throws give each.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass

from engine.dice import Throw
from engine.errors import InvalidThrow
from engine.rules import Combination, Rules

Counts = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Keep:
    """Scoring dice a player may set aside from one throw (ascending), and what they score."""

    dice: tuple[int, ...]
    score: int

    def __str__(self) -> str:
        return f"{Throw(self.dice)}={self.score}"


@dataclass(frozen=True, slots=True)
class Scoring:
    """Everything about one throw's score.

    ``options``: every legal keep (a non-empty set of scoring dice, each die counted once), best
    first (highest score, then more dice). ``best``: the highest score (0 on a bust).
    ``non_scoring``: the dice the best keep leaves (all of them on a bust).
    """

    dice: tuple[int, ...]
    options: tuple[Keep, ...]
    best: int
    is_bust: bool
    non_scoring: tuple[int, ...]

    @property
    def best_keep(self) -> Keep | None:
        """The keep scoring ``best`` with the most dice (None on a bust)."""
        return self.options[0] if self.options else None

    def find(self, dice: Iterable[int]) -> Keep | None:
        """The option setting aside exactly these dice (any order), or None if it is not legal."""
        wanted = tuple(sorted(dice))
        for option in self.options:
            if option.dice == wanted:
                return option
        return None


class _Scorer:
    """The cached scorer of one rule set."""

    def __init__(self, rules: Rules) -> None:
        self.faces = rules.faces
        self.max_dice = rules.dice
        self.every_die = rules.every_die_scores
        # Each combination as a count vector, filed under its lowest face: any exact cover of a
        # multiset must cover the lowest die present with a combination whose lowest face it is.
        self._by_lowest: dict[int, list[tuple[Counts, int]]] = {}
        for combo in rules.combinations():
            counts = [0] * self.faces
            for value in combo.dice:
                counts[value - 1] += 1
            self._by_lowest.setdefault(combo.dice[0] - 1, []).append((tuple(counts), combo.points))
        self._cover: dict[Counts, int | None] = {(0,) * self.faces: 0}
        self._scorings: dict[tuple[int, ...], Scoring] = {}

    def cover(self, counts: Counts) -> int | None:
        """The best score of setting aside exactly these dice, or None if some die cannot score."""
        cached = self._cover.get(counts, -1)
        if cached != -1:
            return cached
        lowest = next(i for i, c in enumerate(counts) if c)
        best: int | None = None
        for combo, points in self._by_lowest.get(lowest, ()):
            if all(c >= k for c, k in zip(counts, combo, strict=True)):
                rest = self.cover(tuple(c - k for c, k in zip(counts, combo, strict=True)))
                if rest is not None and (best is None or points + rest > best):
                    best = points + rest
        self._cover[counts] = best
        return best

    def score(self, key: tuple[int, ...]) -> Scoring:
        scoring = self._scorings.get(key)
        if scoring is None:
            scoring = self._score_new(key)
            self._scorings[key] = scoring
        return scoring

    def _score_new(self, key: tuple[int, ...]) -> Scoring:
        Throw(key).check(faces=self.faces, max_count=self.max_dice)
        counts = [0] * self.faces
        for value in key:
            counts[value - 1] += 1
        present = [i for i, c in enumerate(counts) if c]
        options: list[Keep] = []
        for chosen in itertools.product(*(range(counts[i] + 1) for i in present)):
            if not any(chosen):
                continue
            sub = [0] * self.faces
            for i, c in zip(present, chosen, strict=True):
                sub[i] = c
            points = self.cover(tuple(sub))
            if points is not None:
                dice = tuple(v for i, c in zip(present, chosen, strict=True) for v in [i + 1] * c)
                options.append(Keep(dice, points))
        if self.every_die:  # only keeps of every die thrown; a die that cannot score busts
            options = [keep for keep in options if len(keep.dice) == len(key)]
        options.sort(key=lambda keep: (-keep.score, -len(keep.dice), keep.dice))
        if not options:
            return Scoring(key, (), 0, True, key)
        return Scoring(key, tuple(options), options[0].score, False, _minus(key, options[0].dice))


def _minus(dice: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(dice)
    for value in taken:
        rest.remove(value)
    return tuple(rest)


_SHARED: dict[tuple[int, int, tuple[Combination, ...], bool], _Scorer] = {}


def _scorer(rules: Rules) -> _Scorer:
    # The scorer rides on the Rules object itself (a dict lookup per call, gone with the rules);
    # rules that score alike (e.g. differing only in target) share one cache.
    scorer: _Scorer | None = rules.__dict__.get("_scorer")
    if scorer is None:
        key = (rules.faces, rules.dice, rules.combinations(), rules.every_die_scores)
        scorer = _SHARED.get(key)
        if scorer is None:
            scorer = _SHARED[key] = _Scorer(rules)
        object.__setattr__(rules, "_scorer", scorer)  # frozen: bypass on purpose, not a field
    return scorer


def score_throw(rules: Rules, dice: Iterable[int] | Throw) -> Scoring:
    """Score one throw of 0..rules.dice dice; `InvalidThrow` for a value the dice cannot show.

    A throw of no dice scores 0 and is no bust (nothing was thrown).
    """
    values = dice.values if isinstance(dice, Throw) else tuple(dice)
    if not values:
        return Scoring((), (), 0, False, ())
    return _scorer(rules).score(tuple(sorted(values)))


@dataclass(frozen=True, slots=True)
class ThrowOutcome:
    """A multiset of dice values (ascending) and in how many of ``faces ** n`` ordered throws."""

    dice: tuple[int, ...]
    ways: int
    probability: float


@functools.lru_cache(maxsize=256)
def _distribution(faces: int, n: int) -> tuple[ThrowOutcome, ...]:
    total = faces**n
    outcomes = []
    for dice in itertools.combinations_with_replacement(range(1, faces + 1), n):
        ways = math.factorial(n)
        for _, group in itertools.groupby(dice):
            ways //= math.factorial(len(list(group)))
        outcomes.append(ThrowOutcome(dice, ways, ways / total))
    return tuple(outcomes)


def throw_distribution(rules: Rules, n: int) -> tuple[ThrowOutcome, ...]:
    """Every distinct multiset of ``n`` dice under ``rules`` with its count and probability."""
    if type(n) is not int or not 1 <= n <= rules.dice:
        raise InvalidThrow(f"cannot throw {n!r} dice: allowed 1..{rules.dice}")
    return _distribution(rules.faces, n)
