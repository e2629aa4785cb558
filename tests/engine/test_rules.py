"""The rule-set registry, the built-in table of the issue, TOML loading and a hook-based variant."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from engine.errors import InvalidRules, UnknownRules
from engine.rules import (
    Combination,
    EndRule,
    EntryRule,
    KeepRule,
    Rules,
    builtin_rules,
    find_rules,
    register_rules,
)
from engine.rules_toml import parse_rules
from engine.scoring import score_throw

# name, dice, entry rule, threshold, keep rule, target, end rule, passing (the table)
TABLE = [
    ("greed", 5, EntryRule.FIRST_ROLL, 300, KeepRule.ALL, 5000, EndRule.ROUND, False),
    ("greed-koans", 5, EntryRule.BANKED_TURN, 300, KeepRule.ALL, 3000, EndRule.LAST_TURN, False),
    ("farkle", 6, EntryRule.NONE, 0, KeepRule.CHOOSE, 10_000, EndRule.LAST_TURN, False),
    (
        "greed-house",
        6,
        EntryRule.FIRST_SCORE,
        500,
        KeepRule.CHOOSE,
        10_000,
        EndRule.LAST_TURN,
        True,
    ),
]


@pytest.mark.parametrize(
    ("name", "dice", "entry", "threshold", "keep", "target", "end", "passing"), TABLE
)
def test_builtin_rules_match_the_table(
    name: str,
    dice: int,
    entry: EntryRule,
    threshold: int,
    keep: KeepRule,
    target: int,
    end: EndRule,
    passing: bool,
) -> None:
    rules = find_rules(name)
    assert (rules.name, rules.dice, rules.faces) == (name, dice, 6)
    assert (rules.entry, rules.entry_threshold, rules.keep) == (entry, threshold, keep)
    assert (rules.target, rules.end, rules.passing, rules.hot_dice) == (target, end, passing, True)
    assert rules.description


def test_builtin_names_in_order() -> None:
    names = [rules.name for rules in builtin_rules()]
    assert names[:4] == ["greed", "greed-koans", "farkle", "greed-house"]


def test_unknown_rules_lists_the_known_names() -> None:
    with pytest.raises(UnknownRules, match=r"'yahtzee'.*greed, greed-koans, farkle, greed-house"):
        find_rules("yahtzee")
    with pytest.raises(LookupError):
        find_rules("")


def test_greed_family_scores_the_same_on_five_dice() -> None:
    greed, koans, farkle = find_rules("greed"), find_rules("greed-koans"), find_rules("farkle")
    for dice in itertools.combinations_with_replacement(range(1, 7), 5):
        assert score_throw(greed, dice) == score_throw(koans, dice) == score_throw(farkle, dice)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("faces", 1, "faces = 1"),
        ("dice", 0, "dice = 0"),
        ("target", -5, "target = -5"),
        ("keep", "all", "keep = 'all'"),
        ("hot_dice", 1, "hot_dice = 1"),
    ],
)
def test_rules_validate_their_fields(field: str, value: object, message: str) -> None:
    with pytest.raises(InvalidRules, match=message):
        dataclasses.replace(find_rules("farkle"), **{field: value})  # type: ignore[arg-type]


THREE_PAIRS_VARIANT = """
name = "farkle-bonus"
description = "Farkle with a full house bonus and a 500 first score"
base = "farkle"
target = 5000
[entry]
threshold = 500
applies_to = "first-score"
[scoring]
of_a_kind = { 3 = 1, 4 = 2 }
[[scoring.combinations]]
name = "full house"
dice = [2, 2, 3, 3, 3]
points = 900
"""


def test_toml_variant_from_a_base() -> None:
    rules = parse_rules(THREE_PAIRS_VARIANT)
    assert (rules.name, rules.dice, rules.target, rules.entry_threshold) == (
        "farkle-bonus", 6, 5000, 500
    )  # fmt: skip
    assert score_throw(rules, (2, 2, 3, 3, 3, 6)).best == 900
    assert score_throw(rules, (4, 4, 4, 4)).best == 800


def test_toml_standalone_with_eleven_faces() -> None:
    rules = parse_rules('name = "d11"\ndescription = "eleven faces"\ndice = 4\nfaces = 11\n')
    assert score_throw(rules, (10, 10, 10, 5)).best == 1050


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'name = "x"\nbase = "farkle"\ncolour = 1',
            "unknown key 'colour': known keys: bank_minimum, base",
        ),
        (
            'name = "x"\nbase = "farkle"\nkeep = "some"',
            "keep = 'some': allowed values are 'choose', 'all'",
        ),
        (
            'name = "x"\nbase = "farkle"\n[entry]\napplies_to = "never"',
            "entry.applies_to = 'never'",
        ),
        ('name = "x"\nbase = "farkle"\n[entry]\nlevel = 3', "unknown key 'entry.level'"),
        ('name = "x"\nbase = "farkle"\ndice = true', "dice = True: expected a whole number"),
        ('name = "x"\nbase = "farkle"\n[scoring]\nsingles = { a = 1 }', "scoring.singles.a"),
        ('name = "x"\nbase = "chess"', "unknown rules 'chess'"),
        ('description = "x"\ndice = 5', "missing key 'name'"),
        ("name = ", "not valid TOML"),
    ],
)
def test_toml_errors_name_key_value_and_what_is_allowed(text: str, message: str) -> None:
    with pytest.raises((InvalidRules, UnknownRules), match=message):
        parse_rules(text)


@dataclasses.dataclass(frozen=True)
class ThreePairs(Rules):
    """Farkle where any three pairs score 750: a variant through the `combinations` hook."""

    def combinations(self) -> tuple[Combination, ...]:
        pairs = itertools.combinations(range(1, self.faces + 1), 3)
        extra = tuple(Combination((a, a, b, b, c, c), 750, "three pairs") for a, b, c in pairs)
        return super().combinations() + extra


def test_a_hook_variant_in_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.rules

    monkeypatch.setattr(engine.rules, "_REGISTRY", dict(engine.rules._REGISTRY))
    farkle = {f.name: getattr(find_rules("farkle"), f.name) for f in dataclasses.fields(Rules)}
    rules = register_rules(ThreePairs(**{**farkle, "name": "farkle-pairs"}))
    assert find_rules("farkle-pairs") is rules
    assert score_throw(rules, (2, 2, 4, 4, 6, 6)).best == 750
    assert score_throw(find_rules("farkle"), (2, 2, 4, 4, 6, 6)).is_bust
