"""The game review: hand-made games on small solved tables whose mistakes are known by hand,
computer players' games, corrections, luck and the curve."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest

from engine.events import Corrected, Event, Thrown, event_from_json
from engine.game import Game
from engine.review import review_game, review_json
from engine.rules import Rules, find_rules
from engine.solver_optimal import OptimalTable, solve_optimal
from engine.solver_turn import solve_reach
from engine.state import Phase
from engine.strategy import find_strategy
from engine.strategy_expert import reach_table
from engine.strategy_play import play_one_turn

PIG = find_rules("pig").with_target(20)
KOANS = find_rules("greed-koans").with_target(500)
FARKLE = find_rules("farkle").with_target(300)
HOUSE = find_rules("greed-house").with_target(300)  # passing: take the dice or throw fresh
_TABLES: dict[Rules, OptimalTable] = {}


def table(rules: Rules) -> OptimalTable:
    if rules not in _TABLES:
        _TABLES[rules] = solve_optimal(rules)
    return _TABLES[rules]


def played(rules: Rules, moves: Iterable[str]) -> Game:
    """A game of Ann and Bob: "t 6" throws, "k 1 1" keeps, "b" banks."""
    game = Game(rules, ["Ann", "Bob"])
    for move in moves:
        kind, _, rest = move.partition(" ")
        if kind == "t":
            game.throw([int(v) for v in rest.split()])
        elif kind == "k":
            game.keep([int(v) for v in rest.split()])
        elif kind == "b":
            game.bank()
        else:
            raise ValueError(move)
    return game


def test_rolling_on_past_an_immediate_win_in_pig_is_a_blunder_costing_the_bust() -> None:
    # Ann holds 20 = the target: banking wins at once. Rolling wins unless a 1 comes (1/6),
    # which gives Bob the first turn of a fresh game: the loss is W(0, 0) / 6.
    game = played(PIG, ["t 6", "t 6", "t 6", "t 2", "t 1"])
    review = review_game(PIG, game.events, table=table(PIG))
    assert review.evaluator == "optimal" and review.note == ""
    last = review.decisions[-1]
    assert last.player == "Ann" and last.turn_total == 20
    assert last.best.describe() == "bank 20" and last.best.value == 1.0
    assert last.made.describe(past=True) == "rolled 1"
    assert last.loss == pytest.approx(table(PIG).first_player_wins() / 6)
    assert last.severity == "blunder"
    assert [d.severity for d in review.decisions[:-1]] == ["", "", ""]  # rolling on at 6, 12, 18
    ann = review.player("Ann")
    assert (ann.decisions, ann.mistakes, ann.blunders) == (4, 0, 1)
    assert ann.accuracy == pytest.approx(100 * (3 + last.made.value) / 4)


def test_banking_short_of_the_leader_on_the_last_turn_is_worth_nothing() -> None:
    # Ann banks 1000 (the target is 500): Bob's turn is his last. With 1000 he ties (a loss by
    # the solver's convention); throwing his 2 dice passes 1000 unless both miss: 1 - (4/6)^2.
    game = played(KOANS, ["t 1 1 1 2 3", "b", "t 1 1 1 3 4", "b"])
    review = review_game(KOANS, game.events, table=table(KOANS))
    bob = [d for d in review.decisions if d.player == "Bob"]
    assert len(bob) == 1
    assert bob[0].made.describe() == "bank 1000" and bob[0].made.value == 0.0
    assert bob[0].best.describe() == "roll 2"
    assert bob[0].best.value == pytest.approx(1 - (4 / 6) ** 2)
    assert bob[0].severity == "blunder" and bob[0].measure == "win"


def test_the_keep_and_the_action_are_one_decision() -> None:
    # Farkle to 300, Bob's last turn against 1000: keeping 1 1 1 5 and banking 1050 wins;
    # keeping 1 1 1 and throwing 3 dice wins unless they bust (60 of 216 throws).
    game = played(FARKLE, ["t 1 1 1 2 3 4", "k 1 1 1", "b", "t 1 1 1 5 2 3", "k 1 1 1", "t 2 2 3"])
    review = review_game(FARKLE, game.events, table=table(FARKLE))
    last = review.decisions[-1]
    assert last.player == "Bob" and last.thrown == (1, 1, 1, 5, 2, 3)
    assert last.best.describe() == "keep 1 1 1 5 and bank 1050" and last.best.value == 1.0
    assert last.made.describe(past=True) == "kept 1 1 1 and rolled 3"
    assert last.made.value == pytest.approx(1 - 60 / 216)
    assert last.line() == "keep 1 1 1 5 and bank 1050: 100 % — you kept 1 1 1 and rolled 3: 72 %"
    assert review.mistakes == (last,)


def test_without_a_table_expected_points_are_used_and_said() -> None:
    game = played(KOANS, ["t 1 1 1 2 3", "b", "t 1 1 1 3 4", "b"])
    review = review_game(KOANS, game.events, table=None)
    assert review.evaluator == "expected points"
    assert "no solved table for greed-koans to 500" in review.note
    assert review.curve == ()
    # the last turn is still valued exactly: the chance to pass the leader
    bob = next(d for d in review.decisions if d.player == "Bob")
    assert bob.measure == "reach" and bob.best.value == pytest.approx(1 - (4 / 6) ** 2)


def test_a_table_of_other_rules_is_not_used() -> None:
    game = played(PIG, ["t 6", "b"])
    review = review_game(PIG, game.events, table=table(PIG.with_target(21)))
    assert review.evaluator == "expected points"


def test_expected_points_value_a_bank_against_rolling_on() -> None:
    # Pig, three players: no optimal table. Banking 2 at the start forgoes the expected points
    # of rolling on, which the expert's table gives.
    game = Game(PIG, ["Ann", "Bob", "Cy"])
    game.throw([2])
    game.bank()
    review = review_game(PIG, game.events, table=table(PIG))
    assert review.evaluator == "expected points" and "3 players" in review.note
    (decision,) = review.decisions
    assert decision.measure == "points"
    assert decision.made.value == 2.0 and decision.best.action == "roll"
    assert decision.best.value > 2.0 and decision.severity == "blunder"


def play(rules: Rules, specs: list[str], seed: int, tables: OptimalTable | None) -> Game:
    strategies = {
        f"{spec.title()} {i}": find_strategy(spec, tables=lambda _r: tables)
        for i, spec in enumerate(specs)
    }
    game = Game(rules, list(strategies), rng=random.Random(seed))
    while game.state.phase is not Phase.OVER:
        player = game.state.current_player
        assert player is not None
        play_one_turn(game, strategies[player.name])
    return game


@pytest.mark.parametrize("rules", [PIG, KOANS, FARKLE, HOUSE], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_optimal_player_makes_no_mistakes(rules: Rules, seed: int) -> None:
    solved = table(rules)
    game = play(rules, ["optimal", "optimal"], seed, solved)
    review = review_game(rules, game.events, table=solved)
    assert review.decisions, "the game had decisions to review"
    assert all(d.loss == 0.0 for d in review.decisions)
    assert all(p.accuracy == 100.0 for p in review.players)
    if rules.passing:
        assert any(d.made.action in ("take", "decline") for d in review.decisions)


def test_computer_players_mistakes_are_found() -> None:
    solved = table(FARKLE)
    found = 0
    for seed in range(1, 6):
        game = play(FARKLE, ["reckless", "optimal"], seed, solved)
        review = review_game(FARKLE, game.events, table=solved)
        reckless, optimal = review.players
        assert optimal.mistakes == optimal.blunders == 0
        found += reckless.mistakes + reckless.blunders
        assert reckless.accuracy <= 100.0
    assert found > 0


def test_a_corrected_throw_is_reviewed_as_corrected() -> None:
    game = played(PIG, ["t 6", "t 6", "t 6", "t 2"])
    game.throw([1])
    game.correct([4], by="buttons")
    game.bank()
    events = list(game.events)
    assert any(isinstance(e, Corrected) for e in events)
    plain = [e for e in events if not isinstance(e, Corrected)]
    plain[plain.index(Thrown("Ann", (1,)))] = Thrown("Ann", (4,))
    assert review_game(PIG, events, table=table(PIG)) == review_game(PIG, plain, table=table(PIG))


def test_luck_counts_busts_and_points_against_the_odds() -> None:
    game = played(PIG, ["t 6", "t 6", "t 6", "t 2", "t 1", "t 1"])
    luck = review_game(PIG, game.events, table=table(PIG)).player("Ann").luck
    assert luck.throws == 5 and luck.busts == 1
    assert luck.bust_luck == pytest.approx(5 / 6 - 1)
    assert luck.points == 20 and luck.expected_points == pytest.approx(5 * 20 / 6)
    bob = review_game(PIG, game.events, table=table(PIG)).player("Bob").luck
    assert bob.busts == 1 and bob.bust_luck == pytest.approx(1 / 6 - 1)
    assert bob.line("Bob", hot_dice=False) == (
        "Bob's dice were 0.8 busts unluckier than average, 3 points below expectation (1 throws)"
    )


def test_the_curve_follows_the_turns_and_ends_with_the_winner() -> None:
    game = play(KOANS, ["optimal", "bold"], 4, table(KOANS))
    review = review_game(KOANS, game.events, table=table(KOANS))
    assert len(review.curve) == review.turns + 1
    assert review.curve_players == tuple(p.name for p in game.state.players)
    for point in review.curve:
        assert sum(point) == pytest.approx(1.0)
    assert review.curve[0][0] == pytest.approx(table(KOANS).first_player_wins())
    winner = game.state.winners[0].name
    assert review.curve[-1][review.curve_players.index(winner)] == 1.0
    for player in review.players:
        changes = [abs(s.change) for s in player.swings]
        assert changes == sorted(changes, reverse=True) and len(changes) <= 3


def test_the_json_round_trips_and_a_restart_starts_the_review_again() -> None:
    game = played(PIG, ["t 6", "t 2", "b"])
    game.restart()
    game.throw([3])
    game.bank()
    review = review_game(PIG, game.events, table=table(PIG))
    assert review.turns == 1 and len(review.decisions) == 1
    data = json.loads(json.dumps(review_json(review)))
    assert data["evaluator"] == "optimal" and data["decisions"][0]["made"]["text"] == "bank 3"
    assert len(data["curve"]) == 2


def test_events_that_do_not_replay_raise() -> None:
    events: list[Event] = [event_from_json({"type": "player_added", "name": "Ann"})]
    events.append(Thrown("Bob", (3,)))
    with pytest.raises(Exception, match="Bob"):
        review_game(PIG, events)


def test_the_reach_table_covers_a_leader_far_past_the_target() -> None:
    # Farkle to 300: twice the target is 12 units; a leader at 2000 needs 41 from nothing.
    small = solve_reach(FARKLE, 2 * 300 // 50 + 2)
    covering = reach_table(FARKLE, need=41)
    assert covering.size > 41
    assert covering.at(41, 6) < small.at(41, 6)  # the small one answers for 13 units
    assert covering.at(13, 6) == pytest.approx(small.at(13, 6))
