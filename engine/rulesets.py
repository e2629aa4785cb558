"""The built-in rule sets, registered by name: greed, greed-koans, farkle and greed-house here, and
every rule file shipped in the package (``engine/*.rules.toml``: pig).
"""

from __future__ import annotations

from importlib import resources

from engine.rules import (
    Combination,
    EndRule,
    EntryRule,
    KeepRule,
    Rules,
    ScoringTable,
    register_rules,
)
from engine.rules_toml import parse_rules

GREED = register_rules(
    Rules(
        name="greed",
        description="OOPSLA '89 Greed: 5 dice, all scoring dice set aside, first roll of a turn "
        "must score 300 to enter, 5000 and equal turns",
        source="OOPSLA '89 Greed specification",
        dice=5,
        entry=EntryRule.FIRST_ROLL,
        entry_threshold=300,
        keep=KeepRule.ALL,
        target=5000,
        end=EndRule.ROUND,
    )
)

GREED_KOANS = register_rules(
    Rules(
        name="greed-koans",
        description="Ruby Koans Greed: 5 dice, all scoring dice set aside, bank 300 in one turn "
        "to enter, 3000 starts the final round",
        source="Ruby Koans GREED_RULES",
        dice=5,
        entry=EntryRule.BANKED_TURN,
        entry_threshold=300,
        keep=KeepRule.ALL,
        target=3000,
        end=EndRule.LAST_TURN,
    )
)

FARKLE = register_rules(
    Rules(
        name="farkle",
        description="Farkle: 6 dice, keep the scoring dice you choose, 10,000 then everyone "
        "else has one last turn",
        source="Farkle requirements",
        dice=6,
        keep=KeepRule.CHOOSE,
        target=10_000,
        end=EndRule.LAST_TURN,
    )
)

GREED_HOUSE = register_rules(
    Rules(
        name="greed-house",
        description="'The Game Greed' house rules: 6 dice, 4/5/6 of a kind double, straights, "
        "first score 500, pass the leftover dice, target 10,000",
        source='"The Game Greed" house rules',
        dice=6,
        scoring=ScoringTable(
            of_a_kind=((3, 1), (4, 2), (5, 4), (6, 8)),
            extra=(
                Combination((1, 2, 3, 4, 5), 1000, "small straight"),
                Combination((2, 3, 4, 5, 6), 1000, "small straight"),
                Combination((1, 2, 3, 4, 5, 6), 2000, "large straight"),
            ),
        ),
        entry=EntryRule.FIRST_SCORE,
        entry_threshold=500,
        keep=KeepRule.CHOOSE,
        target=10_000,
        end=EndRule.LAST_TURN,
        passing=True,
    )
)


def _register_shipped() -> None:
    """Register the rule files shipped in the package, in name order."""
    package = resources.files("engine")
    for entry in sorted(package.iterdir(), key=lambda entry: entry.name):
        if entry.name.endswith(".rules.toml"):
            register_rules(parse_rules(entry.read_text(encoding="utf-8"), origin=entry.name))


_register_shipped()
