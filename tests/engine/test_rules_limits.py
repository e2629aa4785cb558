"""Rule files are bounded: huge dice counts, faces, targets or tables are refused with a message
naming the key, before anything enumerates throws (a rule set with faces = 1e9 never plays)."""

from __future__ import annotations

import pytest

from engine.errors import InvalidRules
from engine.rules_toml import MAX_COMBINATIONS, parse_rules

BASE = 'name = "big"\nbase = "greed"\n'


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("faces = 1000000000", "faces = 1000000000: at most 20"),
        ("faces = 1e9", "faces = 1000000000.0: expected a whole number"),
        ("dice = 100000", "dice = 100000: at most 10"),
        ("target = 1000000000000", "target = 1000000000000: at most 1,000,000"),
        ("[entry]\nthreshold = 99999999", "entry.threshold = 99999999: at most 1,000,000"),
        ("dice = 7\nfaces = 10", "dice = 7 of faces = 10 make 11,440 different throws"),
        ("dice = 10\nfaces = 7", "8,008 different throws"),
    ],
)
def test_over_the_limits_is_refused_naming_the_key(body: str, words: str) -> None:
    with pytest.raises(InvalidRules) as info:
        parse_rules(BASE + body, origin="big.toml")
    assert str(info.value).startswith("big.toml: ")
    assert words in str(info.value)


def test_a_rule_set_without_a_base_is_bounded_too() -> None:
    text = 'name = "d20"\ndescription = "many faces"\ndice = 5\nfaces = 21\n'
    with pytest.raises(InvalidRules, match="faces = 21: at most 20"):
        parse_rules(text)


def test_too_many_combinations_are_refused() -> None:
    combos = "".join(
        f"[[scoring.combinations]]\ndice = [1, 2]\npoints = {n + 1}\n"
        for n in range(MAX_COMBINATIONS + 1)
    )
    with pytest.raises(InvalidRules, match=f"{MAX_COMBINATIONS + 1} scoring.combinations"):
        parse_rules(BASE + combos)


@pytest.mark.parametrize(
    ("body", "dice", "faces"),
    [
        ("dice = 6\nfaces = 10", 6, 10),
        ("dice = 10\nfaces = 6", 10, 6),
        ("faces = 20\ndice = 3", 3, 20),
    ],
)
def test_at_the_limits_is_accepted(body: str, dice: int, faces: int) -> None:
    rules = parse_rules(BASE + body + "\ntarget = 1000000")
    assert (rules.dice, rules.faces, rules.target) == (dice, faces, 1_000_000)
