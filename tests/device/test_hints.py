"""The table's hint line: `device.hints.Advisor` says `engine.strategy.hint`, once a state."""

from __future__ import annotations

import random

from device.hints import Advisor
from engine.errors import DicekeeperError
from engine.game import Game
from engine.rules import find_rules
from engine.scoring import Keep
from engine.strategy import hint
from engine.strategy_core import GameLike, Strategy
from engine.strategy_expert import Expert
from engine.strategy_greedy import Greedy


class Counting:
    """`expert`, counting the keeps it is asked for."""

    name = "expert"

    def __init__(self) -> None:
        self.asked = 0
        self.expert = Expert()

    def choose_keep(self, game: GameLike) -> Keep:
        self.asked += 1
        return self.expert.choose_keep(game)

    def wants_to_roll(self, game: GameLike) -> bool:
        return self.expert.wants_to_roll(game)

    def wants_pass(self, game: GameLike) -> bool:
        return self.expert.wants_pass(game)

    def remark(self, game: GameLike) -> str:
        return ""


def test_the_hint_line_is_the_engines_hint_found_once_and_remembered_per_state() -> None:
    found: list[str] = []
    expert = Counting()

    def find(spec: str) -> Strategy:
        found.append(spec)
        return expert

    advisor = Advisor("expert", find=find)
    game = Game(find_rules("farkle"), ["Ann", "Bob"], rng=random.Random(1))
    assert advisor.hint(game.state) == ""  # dice to throw: nothing to decide
    game.throw((1, 1, 1, 2, 3, 4))
    line = advisor.hint(game.state)
    assert line == str(hint(game, advisor=Expert())) and line.startswith("expert: keep 111")
    assert advisor.hint(game.state) == line and expert.asked == 1  # the same state: remembered
    assert found == ["expert"]


def test_a_strategy_that_cannot_be_found_or_answer_gives_no_hint() -> None:
    def missing(spec: str) -> Strategy:
        raise DicekeeperError(f"no strategy {spec!r}")

    game = Game(find_rules("farkle"), ["Ann"], rng=random.Random(1))
    game.throw((1, 5, 2, 3, 4, 6))
    assert Advisor("genius", find=missing).hint(game.state) == ""
    assert (
        Advisor("greedy:1", find=lambda spec: Greedy(1.0))
        .hint(game.state)
        .startswith("greedy:1: keep ")
    )
