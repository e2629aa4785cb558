"""The numpy solver gives the reference solver's table, for every shipped rule set."""

from __future__ import annotations

import dataclasses

import pytest

from device.solver_fast import solve_fast
from engine.rules import EndRule, Rules, find_rules, rules_names
from engine.solver_optimal import solve_optimal

# Small targets: a second or two each for the pure-Python reference, yet several diagonals of
# turn totals past the target, entry thresholds, passing (greed-house) and both seat layouts.
SHIPPED = sorted(rules_names())


def small(name: str) -> int:
    """A target past the entry threshold (greed-house's 500), where passing changes choices."""
    if find_rules(name).end is EndRule.IMMEDIATE:  # the Pigs
        return 30
    return 600 if find_rules(name).passing else 300


# Rule-file keys the solvers model, on rule sets that do not ship with them.
VARIANTS = {
    "greed-house passing to entered players": dataclasses.replace(
        find_rules("greed-house"), name="house-entered", pass_to_entered=True
    ).with_target(600),
    "farkle to pass 300": dataclasses.replace(
        find_rules("farkle"), name="farkle-past", target_passed=True
    ).with_target(300),
}


@pytest.mark.parametrize("name", SHIPPED)
def test_fast_solver_matches_the_reference(name: str) -> None:
    _same_tables(find_rules(name).with_target(small(name)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_solver_matches_the_reference_on_new_keys(variant: str) -> None:
    _same_tables(VARIANTS[variant])


def _same_tables(rules: Rules) -> None:
    name = rules.name
    reference, fast = solve_optimal(rules), solve_fast(rules)
    assert (fast.target, fast.margin, fast.seats) == (
        reference.target,
        reference.margin,
        reference.seats,
    )
    assert len(fast.start) == len(reference.start) and len(fast.passes) == len(reference.passes)
    worst = max(abs(a - b) for a, b in zip(fast.start, reference.start, strict=True))
    assert worst < 1e-9, (name, worst)
    if rules.passing:
        assert len(fast.passes) > 0
        worst = max(abs(a - b) for a, b in zip(fast.passes, reference.passes, strict=True))
        assert worst < 1e-6, (name, worst)  # float32 rows: a rounding step at most
    # not a trivial table: chances spread over (0, 1)
    assert 0.3 < fast.first_player_wins() < 0.7
    assert max(fast.start) - min(fast.start) > 0.1


def test_every_shipped_rule_set_is_covered() -> None:
    assert {"farkle", "greed", "greed-house", "pig", "zilch"} <= set(SHIPPED)
