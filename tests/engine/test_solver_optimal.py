"""The optimal solver: its table satisfies the Bellman equations, recomputed by hand."""

from __future__ import annotations

import dataclasses
import functools
import json
import random

import pytest

from engine.rules import EntryRule, KeepRule, Rules, find_rules
from engine.scoring import score_throw, throw_distribution
from engine.solver_optimal import BadTable, OptimalTable, solve_optimal


@functools.cache
def solved(name: str, target: int) -> OptimalTable:
    return solve_optimal(find_rules(name).with_target(target))


# Small targets keep the solves to a second or two; between them they cover keep-all and choose,
# all three entry rules, both end rules (seats) and passing.
CASES = [("greed", 600), ("greed-koans", 600), ("farkle", 400), ("greed-house", 400)]


def roll_by_hand(table: OptimalTable, s: int, i: int, j: int, k: int, n: int) -> float:
    """R(k, n) recomputed from `score_throw` over every throw (not the solver's reduced model)."""
    rules: Rules = table.rules
    unit = table.unit
    lose = 1.0 - table.start_value(table.other(s), j, i)
    first = k == 0
    total = 0.0
    for outcome in throw_distribution(rules, n):
        scoring = score_throw(rules, outcome.dice)
        bust = scoring.is_bust or (
            first and i == 0 and not rules.first_roll_enters(scoring.best, entered=False)
        )
        if bust:
            total += outcome.probability * lose
            continue
        keeps = scoring.options if rules.keep is KeepRule.CHOOSE else (scoring.options[0],)
        best = 0.0
        for keep in keeps:
            left = n - len(keep.dice) or rules.dice
            best = max(best, table.value(s, i, j, k + keep.score // unit, left))
        total += outcome.probability * best
    return total


@pytest.mark.parametrize(("name", "target"), CASES)
def test_bellman_equations_on_sampled_states(name: str, target: int) -> None:
    table = solved(name, target)
    rng = random.Random(5)
    for s in range(table.seats):
        for i, j in [(0, 0), (0, table.target - 1), (table.target - 1, 0)]:
            assert table.start_value(s, i, j) == pytest.approx(
                roll_by_hand(table, s, i, j, 0, table.dice), abs=1e-6
            )
    for _ in range(40):
        s = rng.randrange(table.seats)
        i, j = rng.randrange(table.target), rng.randrange(table.target)
        n = rng.randint(1, table.dice)
        k = rng.randrange(1, table.span(i))
        assert table.roll(s, i, j, k, n) == pytest.approx(
            roll_by_hand(table, s, i, j, k, n), abs=2e-6
        ), (s, i, j, k, n)
        assert 0.0 <= table.value(s, i, j, k, n) <= 1.0


@pytest.mark.parametrize(("name", "target"), CASES)
def test_bank_values_follow_the_end_rules(name: str, target: int) -> None:
    table = solved(name, target)
    t = table.target
    # Banking to the target with a huge lead: the opponent needs more than a target in one turn.
    assert table.bank(0, t - 1, 0, table.margin, 1) > 0.5
    if table.seats == 2:
        assert table.bank(1, t - 1, t - 1, 1, 1) == 1.0  # the second player completes the round
    # Before the target, banking hands the opponent the start of their turn.
    if not table.rules.passing:
        assert table.bank(0, 2, 3, 3, 2) == pytest.approx(
            1 - table.start_value(table.other(0), 3, 5)
        )


def test_entry_threshold_forbids_small_banks() -> None:
    table = solved("greed-house", 400)
    assert table.rules.entry is EntryRule.FIRST_SCORE
    assert not table.can_bank(0, 9)  # 450 < 500 before entering
    assert table.can_bank(0, 10) and table.can_bank(3, 1)
    assert table.bank(0, 0, 3, 9, 2) == -1.0
    assert table.rolls_on(0, 0, 3, 9, 1)  # must throw on, even with one die


def test_one_die_with_a_large_total_banks() -> None:
    table = solved("farkle", 400)
    assert not table.rolls_on(0, 0, 0, 6, 1)  # 300 with one die at 0-0: bank
    assert table.rolls_on(0, 0, 0, 1, 6)  # 50 with six dice: throw


def test_probabilities_are_sane_and_the_leader_is_ahead() -> None:
    table = solved("farkle", 400)
    first = table.first_player_wins()
    assert 0.5 < first < 0.7  # going first helps in farkle
    assert table.start_value(0, 7, 0) > table.start_value(0, 0, 7)
    assert solved("greed", 600).first_player_wins() < 0.5  # the second player ends the round


def test_table_bytes_round_trip() -> None:
    table = solved("greed-koans", 600)
    again = OptimalTable.from_bytes(table.to_bytes(), table.rules)
    assert again.start == table.start and again.passes == table.passes
    assert again.first_player_wins() == table.first_player_wins()
    rng = random.Random(3)
    for _ in range(50):
        i, j = rng.randrange(table.target), rng.randrange(table.target)
        k, n = rng.randrange(1, table.span(i)), rng.randint(1, table.dice)
        assert again.roll(0, i, j, k, n) == table.roll(0, i, j, k, n)


def test_passing_rows_round_trip() -> None:
    table = solved("greed-house", 400)
    assert len(table.passes) == table.pass_size > 0
    again = OptimalTable.from_bytes(table.to_bytes(), table.rules)
    assert again.passes == table.passes
    # the stored passing rows are the turn's own chances, as float32
    for a, b, k, n in [(0, 3, 2, 6), (2, 5, 5, 1), (7, 7, 1, 3)]:
        assert table.passed(0, a, b, k, n) == pytest.approx(table.roll(0, a, b, k, n), rel=1e-6)


def _corrupt(data: bytes, header: dict[str, object]) -> bytes:
    line, body = data.split(b"\n", 1)
    fields = json.loads(line)
    fields.update(header)
    return json.dumps(fields).encode() + b"\n" + body


def test_a_table_is_verified_when_read() -> None:
    table = solved("greed-koans", 600)
    data = table.to_bytes()
    with pytest.raises(BadTable, match="other rules"):
        OptimalTable.from_bytes(data, find_rules("greed-koans"))  # another target
    with pytest.raises(BadTable, match="other rules"):
        OptimalTable.from_bytes(data, dataclasses.replace(table.rules, hot_dice=False))
    with pytest.raises(BadTable, match="truncated"):
        OptimalTable.from_bytes(data[:-8], table.rules)
    with pytest.raises(BadTable, match="checksum"):
        OptimalTable.from_bytes(data + b"\0", table.rules)
    flipped = bytearray(data)
    flipped[-3] ^= 1
    with pytest.raises(BadTable, match="checksum"):
        OptimalTable.from_bytes(bytes(flipped), table.rules)
    with pytest.raises(BadTable, match="older format"):
        OptimalTable.from_bytes(_corrupt(data, {"format": "dicekeeper-optimal-2"}), table.rules)
    with pytest.raises(BadTable, match="not an optimal table"):
        OptimalTable.from_bytes(_corrupt(data, {"format": "something-else"}), table.rules)
    with pytest.raises(BadTable, match="wrong shape"):
        OptimalTable.from_bytes(_corrupt(data, {"target": 11}), table.rules)
    with pytest.raises(BadTable):
        OptimalTable.from_bytes(b"nonsense\n", table.rules)
    with pytest.raises(BadTable):
        OptimalTable.from_bytes(b"", table.rules)
