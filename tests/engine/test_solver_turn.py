"""The one-turn solvers: hand-solved small cases, threshold shape, and the reach table."""

from __future__ import annotations

import pytest

from engine.rules import Rules, ScoringTable, find_rules
from engine.solver_model import throw_model
from engine.solver_turn import TURN_CAP_UNITS, solve_reach, solve_turn

BUILT_IN = ("greed", "greed-koans", "farkle", "greed-house")

# One die: a 1 scores 100, a 5 scores 50, anything else busts; a scoring die is hot dice.
ONE_DIE = Rules(
    name="one-die",
    description="one die, 1 = 100, 5 = 50",
    dice=1,
    scoring=ScoringTable(singles=((1, 100), (5, 50)), of_a_kind=((3, 1),)),
)


def test_one_die_turn_by_hand() -> None:
    # E(k) = max(k, (E(k+2) + E(k+1)) / 6) in units of 50: throwing on from k >= 1 is worth
    # at most (2k + 3) / 6 < k, so bank at once; the turn is worth (2 + 1) / 6 units = 25 points.
    table = solve_turn(ONE_DIE)
    assert table.model.unit == 50
    assert table.bank_at() == {1: 1}
    assert table.start * 50 == pytest.approx(25.0)
    assert not table.roll_at(1, 1)


def test_one_die_reach_by_hand() -> None:
    # reach(r) = (reach(r - 2) + reach(r - 1)) / 6 with reach(<= 0) = 1.
    reach = solve_reach(ONE_DIE, 10)
    one = 2 / 6
    two = 1 / 6 + one / 6
    three = (one + two) / 6
    assert reach.at(1, 1) == pytest.approx(one)
    assert reach.at(2, 1) == pytest.approx(two)
    assert reach.at(3, 1) == pytest.approx(three)
    assert reach.at(0, 1) == 1.0
    assert reach.forced(0, 1) == pytest.approx(2 / 6)


@pytest.mark.parametrize("name", BUILT_IN)
def test_expert_table_is_a_threshold(name: str) -> None:
    """Below bank_at the expert always throws on, from it on it always banks."""
    table = solve_turn(find_rules(name))
    for n, bank_at in table.bank_at().items():
        for k in range(1, TURN_CAP_UNITS):
            assert table.roll_at(k, n) == (k < bank_at), (n, k, bank_at)


@pytest.mark.parametrize("name", BUILT_IN)
def test_expert_values_follow_their_equation(name: str) -> None:
    table = solve_turn(find_rules(name))
    model = table.model
    for n in range(1, model.dice + 1):
        for k in (1, 5, 20, 60):
            dm = model.by_dice[n]
            go = sum(
                p * table.value_at(k + s, m)
                for p, s, m in zip(dm.single_p, dm.single_s, dm.single_n, strict=True)
            )
            go += sum(
                g.probability * max(table.value_at(k + s, m) for s, m in g.moves)
                for g in dm.choices
            )
            assert table.value_at(k, n) == pytest.approx(max(k, go))


def test_cap_is_far_beyond_every_threshold() -> None:
    for name in BUILT_IN:
        assert max(solve_turn(find_rules(name)).bank_at().values()) < TURN_CAP_UNITS // 2


def test_one_die_left_with_a_large_total_banks() -> None:
    for name in BUILT_IN:
        table = solve_turn(find_rules(name))
        assert not table.roll_at(1000 // 50, 1)


def test_entry_rule_changes_the_table() -> None:
    koans = find_rules("greed-koans")
    entered, fresh = solve_turn(koans), solve_turn(koans, entered=False)
    assert fresh.min_bank == 6  # 300 points
    assert fresh.start < entered.start  # the threshold costs something
    assert fresh.roll_at(5, 1)  # 250 with one die: cannot bank, so throw
    greed = find_rules("greed")
    # Greed's first throw must score 300: most first throws bust.
    assert solve_turn(greed, entered=False).start < 0.5 * solve_turn(greed).start


def test_model_probabilities_add_up() -> None:
    for name in BUILT_IN:
        model = throw_model(find_rules(name))
        for dm in model.by_dice[1:]:
            total = dm.bust + sum(dm.single_p) + sum(g.probability for g in dm.choices)
            assert total == pytest.approx(1.0)
        assert model.by_dice[1].bust == pytest.approx(4 / 6)
