"""Checks the mutation sweep found untested: bad values given to `Rules`, `Combination` and
`ScoringTable` directly (not through a file), the edges of the rule-file limits, the dice a throw
distribution accepts, and passing under rules without hot dice."""

from __future__ import annotations

import dataclasses

import pytest

from engine.errors import InvalidRules, InvalidThrow
from engine.game import Game, Phase
from engine.rules import Combination, Rules, ScoringTable, find_rules
from engine.rules_toml import MAX_COMBINATIONS, parse_rules
from engine.scoring import throw_distribution


@pytest.mark.parametrize(
    ("dice", "points"),
    [((), 100), ((0,), 100), ((1, -2), 100), ((1.0,), 100), ((1,), 0), ((1,), -50), ((1,), 1.5)],
)
def test_a_bad_combination_is_refused(dice: tuple[int, ...], points: int) -> None:
    with pytest.raises(InvalidRules):
        Combination(dice, points)


@pytest.mark.parametrize(
    "singles", [((1, 0),), ((1, -100),), ((1, 100.0),), ((0, 100),), ((1.0, 100),)]
)
def test_a_bad_scoring_entry_is_refused(singles: tuple[tuple[int, int], ...]) -> None:
    with pytest.raises(InvalidRules, match=r"scoring\.singles"):
        ScoringTable(singles=singles)


@pytest.mark.parametrize("name", ["", "   ", 7])
def test_a_rule_set_needs_a_name(name: object) -> None:
    with pytest.raises(InvalidRules, match="name"):
        Rules(name=name, description="x", dice=5)  # type: ignore[arg-type]


def test_exactly_the_most_combinations_are_accepted() -> None:
    def text(count: int) -> str:
        combos = "".join(
            f"[[scoring.combinations]]\ndice = [2, 3]\npoints = {n + 1}\n" for n in range(count)
        )
        return 'name = "many"\nbase = "farkle"\n' + combos

    assert len(parse_rules(text(MAX_COMBINATIONS)).scoring.extra) == MAX_COMBINATIONS
    with pytest.raises(InvalidRules, match=f"{MAX_COMBINATIONS + 1} scoring.combinations"):
        parse_rules(text(MAX_COMBINATIONS + 1))


def test_triplets_of_as_many_faces_as_the_dice_have_are_throwable() -> None:
    base = 'name = "coins"\ndescription = "two faces"\ndice = 9\nfaces = 2\n'
    rules = parse_rules(base + "[scoring]\ntriplets = { 2 = 500 }\n")
    assert dict(rules.scoring.triplets) == {2: 500}
    flag = "four_of_a_kind_is_two_pairs = true\n"
    with pytest.raises(InvalidRules, match=r"scoring\.triplets\.3 = 500"):
        parse_rules(base + "[scoring]\n" + flag + "triplets = { 3 = 500 }\n")


@pytest.mark.parametrize("n", [0, 6, -1])
def test_a_throw_distribution_of_too_many_or_no_dice_is_refused(n: int) -> None:
    with pytest.raises(InvalidThrow):
        throw_distribution(find_rules("greed"), n)


def test_no_dice_are_passed_when_every_die_has_scored_without_hot_dice() -> None:
    rules = dataclasses.replace(find_rules("greed-house"), name="cold-house", hot_dice=False)
    game = Game(rules, ["Ann", "Bob"])
    game.throw("111555")  # every die scores, and nothing comes back
    game.keep("111555")
    assert game.state.dice_to_throw == 0
    game.bank()
    assert game.state.phase is Phase.THROW and game.state.passed is None
