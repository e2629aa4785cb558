"""A decision situation for strategy tests: two players who have entered, 300 on the turn with
three dice left, with any field changed."""

from __future__ import annotations

from dataclasses import replace

from engine.rules import find_rules
from engine.strategy_core import Situation


def situation(rules_name: str = "farkle", **changes: object) -> Situation:
    base = Situation(
        rules=find_rules(rules_name),
        scores=(1000, 1500),
        me=0,
        turn_total=300,
        dice_left=3,
        entered=(True, True),
    )
    return replace(base, **changes)  # type: ignore[arg-type]
