"""The bust message says what a bust cost: the turn, or under a wipe-out the whole score."""

from __future__ import annotations

from device.prompts import bust_message
from engine.rules import find_rules


def test_a_wipe_out_says_the_whole_score_goes() -> None:
    rules = find_rules("pig-two-dice")
    assert bust_message(rules, "Ann", (1, 1), 12) == (
        "Ann busts with 1 1: that loses the whole score and the turn's 12"
    )
    assert bust_message(rules, "Ann", (1, 1), 0) == "Ann busts with 1 1: that loses the whole score"


def test_a_single_one_loses_the_turn_only() -> None:
    for name in ("pig-two-dice", "big-pig"):
        said = bust_message(find_rules(name), "Ann", (4, 1), 12)
        assert said == "Ann busts with 4 1: nothing scores, 12 lost"
