"""The rule-file keys beyond scoring, each on throws worked out by hand.

``target_passed`` (more than the target), ``[penalty]`` (what every n-th bust in a row costs, and
whether a score may go below zero), ``instant_win``, ``pass_to_entered`` and
``inherited_enters`` (passing), ``every_die_scores`` and ``wipe_out`` (the Pigs with two dice),
and a rule sheet spelt out one combination at a time.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from engine.errors import EntryThresholdNotMet, InvalidRules
from engine.game import Game, Phase
from engine.players import TurnOutcome
from engine.rules import Rules, find_rules
from engine.rules_toml import MAX_COMBINATIONS, format_rules, parse_rules
from engine.scoring import score_throw, throw_distribution
from engine.solver_optimal import Unsolvable, solve_optimal
from engine.strategy import find_strategy
from engine.strategy_core import Situation
from engine.strategy_play import MAX_TURNS, play_game

FARKLE_BUST = "223346"  # no 1, no 5, no three of a kind: nothing scores under farkle


def _rules(text: str) -> Rules:
    rules = parse_rules('name = "test"\n' + text)
    assert parse_rules(format_rules(rules)) == rules  # every key written back
    return rules


def _bust(game: Game) -> None:
    game.throw(FARKLE_BUST)
    assert game.state.last_turn is not None and game.state.last_turn[1].is_bust


def _take(game: Game, throw: str, keep: str) -> None:
    game.throw(throw)
    game.keep(keep)


# --- a target to pass, not reach ---------------------------------------------------------------


@pytest.mark.parametrize(("passed", "final_at_500"), [(False, True), (True, False)])
def test_a_target_that_must_be_passed(passed: bool, final_at_500: bool) -> None:
    rules = _rules(f'base = "farkle"\ntarget = 500\ntarget_passed = {str(passed).lower()}\n')
    assert rules.goal == (501 if passed else 500)
    game = Game(rules, ["Ann", "Bob"])
    _take(game, "555234", "555")  # three 5s: exactly 500
    game.bank()
    assert game.state.player("Ann").total == 500
    assert game.state.is_final_round is final_at_500
    if passed:
        _bust(game)  # Bob
        _take(game, "122346", "1")  # 100 more: 600 is past 500
        game.bank()
        assert game.state.is_final_round and game.state.final_round_by == "Ann"


# --- the bust penalty ----------------------------------------------------------------------------


@pytest.mark.parametrize(("below_zero", "after"), [(True, -700), (False, 0)])
def test_every_third_bust_in_a_row_costs_the_penalty(below_zero: bool, after: int) -> None:
    flag = str(below_zero).lower()
    rules = _rules(f'base = "farkle"\n[penalty]\npoints = 1000\nbelow_zero = {flag}\n')
    game = Game(rules, ["Ann", "Bob"])
    _take(game, "333246", "333")  # 300
    game.bank()
    _bust(game)  # Bob's first bust: no penalty
    for number in (1, 2, 3):
        _bust(game)  # Ann
        ann = game.state.player("Ann")
        assert ann.total == (300 if number < 3 else after)
        _bust(game)  # Bob
    assert game.state.player("Ann").history[-1].points == after - 300
    assert game.state.player("Bob").total == (-1000 if below_zero else 0)  # his third bust


def test_a_penalty_every_second_bust() -> None:
    rules = _rules('base = "farkle"\n[penalty]\npoints = 300\nbusts = 2\nbelow_zero = true\n')
    game = Game(rules, ["Ann"])
    totals = []
    for _ in range(4):
        _bust(game)
        totals.append(game.state.player("Ann").total)
    assert totals == [0, -300, -300, -600]


def test_the_zilch_hook_is_the_penalty_of_500_every_third_bust() -> None:
    zilch = find_rules("zilch")
    assert zilch.bust_points(busts_in_a_row=2, total=800) == -500
    assert zilch.bust_points(busts_in_a_row=2, total=200) == -200  # never below 0
    assert zilch.bust_points(busts_in_a_row=1, total=800) == 0


# --- an instant win ------------------------------------------------------------------------------


def test_six_ones_in_one_throw_win_at_once() -> None:
    rules = _rules('base = "farkle"\ninstant_win = [[1, 1, 1, 1, 1, 1]]\n')
    game = Game(rules, ["Ann", "Bob"])
    for _ in range(2):
        _bust(game)  # Ann
        _take(game, "111115", "11111")  # Bob: three 1s and two single 1s, 1200
        game.bank()
    assert game.state.player("Bob").total == 2400
    game.throw("111111")  # two three-of-a-kinds of 1s, 2000: behind Bob, but the game is won
    assert game.state.phase is Phase.OVER
    assert [p.name for p in game.state.winners] == ["Ann"]
    record = game.state.player("Ann").history[-1]
    assert record.outcome is TurnOutcome.BANKED and record.points == 2000
    replayed = Game.replay(rules, game.events)
    assert replayed.state.winners == game.state.winners


def test_five_ones_are_no_instant_win() -> None:
    rules = _rules('base = "farkle"\ninstant_win = [[1, 1, 1, 1, 1, 1]]\n')
    game = Game(rules, ["Ann", "Bob"])
    game.throw("111115")
    assert game.state.phase is Phase.KEEP


def test_optimal_play_refuses_an_instant_win_clearly() -> None:
    rules = _rules('base = "pig"\ninstant_win = [[6]]\n')
    with pytest.raises(Unsolvable, match="instant_win"):
        solve_optimal(rules)


# --- passing only to a player on the board, and inherited points -----------------------------


def test_the_pass_is_offered_only_to_a_player_who_has_entered() -> None:
    rules = _rules('base = "greed-house"\npass_to_entered = true\n')
    game = Game(rules, ["Ann", "Bob"])
    _take(game, "111234", "111")  # 1000, three dice left
    game.bank()
    assert game.state.phase is Phase.THROW and game.state.passed is None  # Bob is not on
    _take(game, "555234", "555")  # Bob: 500 enters
    game.bank()
    assert game.state.phase is Phase.PASS  # Ann is on the board
    assert game.state.passed is not None and game.state.passed.points == 500

    anyone = Game(find_rules("greed-house"), ["Ann", "Bob"])
    _take(anyone, "111234", "111")
    anyone.bank()
    assert anyone.state.phase is Phase.PASS  # the shipped house rules offer it to anyone


@pytest.mark.parametrize("counts", [True, False])
def test_inherited_points_toward_the_entry(counts: bool) -> None:
    rules = _rules(f'base = "greed-house"\ninherited_enters = {str(counts).lower()}\n')
    game = Game(rules, ["Ann", "Bob"])
    _take(game, "111234", "111")
    game.bank()
    game.take_passed()  # Bob takes 1000 and three dice
    _take(game, "523", "5")  # 1050, of which Bob threw 50
    assert game.state.turn.total == 1050 and game.state.turn.inherited == 1000
    assert game.state.can_bank is counts
    if counts:
        assert game.bank().points == 1050
    else:
        with pytest.raises(EntryThresholdNotMet):
            game.bank()


def test_optimal_play_refuses_inherited_points_that_do_not_enter() -> None:
    rules = _rules('base = "greed-house"\ninherited_enters = false\ntarget = 600\n')
    with pytest.raises(Unsolvable, match="inherited_enters = false"):
        solve_optimal(rules)


# --- every die must score; a wipe-out (the Pigs with two dice) ---------------------------------


def test_two_dice_pig() -> None:
    game = Game(find_rules("pig-two-dice"), ["Ann", "Bob"])
    game.throw("35")
    assert game.state.turn.total == 8 and game.state.dice_to_throw == 2  # thrown again
    game.throw("66")
    game.bank()
    assert game.state.player("Ann").total == 20
    game.throw("22")
    game.bank()  # Bob 4
    game.throw("41")  # one 1: the turn total is lost
    assert game.state.player("Ann").total == 20
    assert game.state.player("Ann").history[-1].outcome is TurnOutcome.BUST
    game.throw("13")  # Bob busts
    game.throw("23")
    game.throw("11")  # two 1s: the whole score is lost
    ann = game.state.player("Ann")
    assert ann.total == 0 and ann.history[-1].points == -20 and ann.history[-1].is_bust
    assert game.state.player("Bob").total == 4


def test_big_pig() -> None:
    rules = find_rules("big-pig")
    assert [score_throw(rules, d).best for d in ((1, 1), (4, 4), (3, 5), (6, 6), (1, 6))] == [
        25,
        16,
        8,
        24,
        0,
    ]
    game = Game(rules, ["Ann", "Bob"])
    game.throw("11")
    assert game.state.turn.total == 25 and game.state.phase is Phase.DECIDE
    game.throw("44")
    assert game.state.turn.total == 41
    game.throw("16")
    assert game.state.player("Ann").total == 0 and game.state.current_player is not None
    assert game.state.current_player.name == "Bob"


def test_every_die_scores_under_choose() -> None:
    rules = _rules('base = "farkle"\nevery_die_scores = true\n')
    assert score_throw(rules, (1, 5, 2)).is_bust  # the 2 cannot score
    options = score_throw(rules, (1, 1, 5)).options
    assert [o.dice for o in options] == [(1, 1, 5)]  # every die is set aside


def test_the_odds_of_the_two_dice_pigs() -> None:
    def bust(name: str) -> float:
        rules = find_rules(name)
        return sum(
            o.probability
            for o in throw_distribution(rules, 2)
            if score_throw(rules, o.dice).is_bust
        )

    assert bust("pig-two-dice") == pytest.approx(11 / 36)  # any 1
    assert bust("big-pig") == pytest.approx(10 / 36)  # one 1, not two


# --- checked keys ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('base = "farkle"\ninstant_win = [1, 1]\n', ["instant_win", "list of dice lists"]),
        ('base = "farkle"\nwipe_out = [[1, 7]]\n', ["wipe_out", "[1, 7]", "1-6"]),
        ('base = "pig"\nwipe_out = [[1, 1]]\n', ["wipe_out", "[1, 1]", "1 to 1 dice"]),
        ('base = "farkle"\n[penalty]\nbusts = 2\n', ["penalty.points", "missing"]),
        ('base = "farkle"\n[penalty]\npoints = 9\nbelow = true\n', ["penalty.below"]),
        ('base = "farkle"\n[penalty]\npoints = 9\nbusts = 0\n', ["penalty.busts", "0"]),
        ('base = "farkle"\ntarget_passed = 1\n', ["target_passed", "true or false"]),
    ],
)
def test_bad_new_keys_are_named(text: str, words: list[str]) -> None:
    with pytest.raises(InvalidRules) as info:
        parse_rules('name = "bad"\n' + text)
    for word in words:
        assert word in str(info.value)


# --- a rule sheet spelt out one combination at a time ----------------------------------------


def test_the_boxed_farkle_spelt_out_scores_alike() -> None:
    patch = find_rules("farkle-patch")
    combos = patch.combinations()
    assert 84 <= len(combos) <= MAX_COMBINATIONS
    lines = [
        'name = "farkle-longhand"',
        'base = "farkle"',
        "[scoring]",
        "singles = {}",
        "three_of_a_kind = 0",
        "three_of_a_kind_overrides = {}",
        "of_a_kind = {}",
    ]
    for combo in combos:
        lines += [
            "[[scoring.combinations]]",
            f"dice = {list(combo.dice)}",
            f"points = {combo.points}",
        ]
    longhand = parse_rules("\n".join(lines) + "\n")
    assert len(longhand.combinations()) == len(combos)
    for n in range(1, 7):
        for outcome in throw_distribution(patch, n):
            mine, theirs = score_throw(longhand, outcome.dice), score_throw(patch, outcome.dice)
            assert (mine.best, mine.is_bust) == (theirs.best, theirs.is_bust), outcome.dice


def test_a_few_hundred_combinations_are_accepted() -> None:
    # every throw of four and of five dice, scoring ten times the sum of its faces: 378 entries
    sets = [
        dice for n in (4, 5) for dice in itertools.combinations_with_replacement(range(1, 7), n)
    ]
    combos = "".join(
        f"[[scoring.combinations]]\ndice = {list(dice)}\npoints = {10 * sum(dice)}\n"
        for dice in sets
    )
    rules = parse_rules('name = "many"\nbase = "farkle"\n[scoring]\nsingles = {}\n' + combos)
    assert len(rules.scoring.extra) == 126 + 252
    # no split of all six dice: the best is five of them, leaving a 2: (2+3+3+4+6) x 10
    scoring = score_throw(rules, (2, 2, 3, 3, 4, 6))
    assert scoring.best == 180 and scoring.non_scoring == (2,)
    assert score_throw(rules, (1, 1, 1)).best == 1000  # farkle's three 1s still score


# --- the README's examples ------------------------------------------------------------------------


def _readme_examples() -> list[Rules]:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Rules beyond scoring") :]
    blocks = section.split("```toml\n")[1:]
    return [parse_rules(block[: block.index("```")]) for block in blocks[:2]]


def test_the_readme_examples_do_what_it_says() -> None:
    facebook, on_board = _readme_examples()
    assert not facebook.reaches_target(10_000) and facebook.reaches_target(10_050)
    game = Game(facebook, ["Ann", "Bob"])
    _take(game, "333246", "333")
    game.bank()
    for _ in range(3):
        _bust(game)  # Bob
        _bust(game)  # Ann
    assert game.state.player("Ann").total == -700
    _bust(game)  # Bob
    game.throw("111111")
    assert [p.name for p in game.state.winners] == ["Ann"]
    assert game.state.player("Ann").total == 1300

    game = Game(on_board, ["Ann", "Bob"])
    _take(game, "111234", "111")
    game.bank()
    assert game.state.phase is Phase.THROW and game.state.dice_to_throw == 6


# --- computer players under the new keys --------------------------------------------------------


def test_the_situation_knows_inherited_points_do_not_enter() -> None:
    rules = _rules('base = "greed-house"\ninherited_enters = false\n')
    game = Game(rules, ["Ann", "Bob"])
    _take(game, "111234", "111")
    game.bank()
    game.take_passed()
    game.throw("523")
    situation = Situation.of(game)
    assert situation.inherited == 1000 and situation.can_bank is False
    assert situation.after_keep(game.state.options[0]).can_bank is False  # 1050, 50 his own


@pytest.mark.parametrize(
    "text",
    [
        'base = "farkle"\ntarget = 2000\ntarget_passed = true\ninstant_win = [[1, 1, 1, 1, 1, 1]]\n'
        "[penalty]\npoints = 1000\nbelow_zero = true\n",
        'base = "greed-house"\ntarget = 2000\npass_to_entered = true\n',
        'base = "greed-house"\ntarget = 2000\ninherited_enters = false\n',
        'base = "pig-two-dice"\n',
        'base = "big-pig"\n',
    ],
)
def test_computer_players_finish_a_game(text: str) -> None:
    rules = _rules(text)
    players = [("expert", find_strategy("expert")), ("greedy", find_strategy("greedy:0.5"))]
    for seed in range(3):
        result = play_game(rules, players, rng=random.Random(seed))
        assert result.turns < MAX_TURNS and len(result.winners) >= 1
