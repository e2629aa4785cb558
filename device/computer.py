"""Computer players at the table: a strategy found by its spec, with a simple built-in fallback.

Strategies come from `engine.strategy.find_strategy` (``"expert"``, ``"optimal"``,
``"greedy:0.3"``, a personality name). When that module is not installed the built-in `SimpleBanker`
plays instead: it keeps the best option and banks at 300 or more, or with two dice or fewer left.
"""

from __future__ import annotations

import importlib
from typing import cast

from engine.errors import DicekeeperError
from engine.scoring import Keep
from engine.strategy_core import Situation, SituationStrategy, Strategy

__all__ = [
    "SimpleBanker",
    "UnknownComputer",
    "display_name",
    "find_computer",
    "personalities",
]


class UnknownComputer(DicekeeperError, ValueError):
    """A computer player spec that names no strategy."""


class SimpleBanker(SituationStrategy):
    """Keeps the best option; banks at ``bank_at`` points or more, or with ``few`` dice or fewer.

    Takes passed dice when three or more are offered.
    """

    def __init__(self, name: str = "simple", *, bank_at: int = 300, few: int = 2) -> None:
        self.name = name
        self.bank_at = bank_at
        self.few = few

    def keep_for(self, situation: Situation) -> Keep:
        """The best legal keep."""
        return situation.options[0]

    def roll_for(self, situation: Situation) -> bool:
        """Roll while under ``bank_at`` with more than ``few`` dice left."""
        return situation.turn_total < self.bank_at and situation.dice_left > self.few

    def pass_for(self, situation: Situation) -> bool:
        """Take the passed dice when three or more are offered."""
        return situation.passed is not None and situation.passed[1] >= 3

    def remark_for(self, situation: Situation) -> str:
        """A plain line: what it does."""
        return "I bank at 300, or with two dice or fewer"


def find_computer(spec: str) -> Strategy:
    """The strategy ``spec`` names (engine.strategy), or `SimpleBanker` if that module is missing.

    Raises `UnknownComputer` naming the spec when the strategy module rejects it.
    """
    try:
        module = importlib.import_module("engine.strategy")
    except ModuleNotFoundError as exc:
        if exc.name != "engine.strategy":
            raise
        return SimpleBanker(spec)
    try:
        return cast(Strategy, module.find_strategy(spec))
    except DicekeeperError as exc:
        raise UnknownComputer(f"computer player {spec!r}: {exc}") from None


def personalities() -> tuple[str, ...]:
    """The personality names the strategy module offers (none when it is missing)."""
    try:
        module = importlib.import_module("engine.strategy")
    except ModuleNotFoundError:
        return ()
    return tuple(str(name) for name in getattr(module, "PERSONALITIES", ()))


def has_strategies() -> bool:
    """Whether the engine's strategy module is installed (else computers play `SimpleBanker`)."""
    try:
        importlib.import_module("engine.strategy")
    except ModuleNotFoundError:
        return False
    return True


def display_name(spec: str) -> str:
    """A seat name for a computer: ``expert`` -> ``Expert``, ``greedy:0.3`` -> ``Greedy 0.3``."""
    return " ".join(part.capitalize() if part.isalpha() else part for part in spec.split(":"))
