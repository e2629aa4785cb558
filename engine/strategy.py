"""Computer players found by a spec, and hints for people.

``find_strategy("greedy:0.3")``, ``find_strategy("expert")``, ``find_strategy("optimal")`` or a
personality name (``cautious``, ``steady``, ``bold``, ``reckless``, ``chaser``) gives a `Strategy`
(`engine.strategy_core`): `engine.strategy_greedy.Greedy`, `engine.strategy_expert.Expert` or
`engine.strategy_optimal.Optimal`. `hint` says what a strategy would do now (the table's hint
line) and, in a two-player game with a solved table, the current chance of winning.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Throw
from engine.events import Kept
from engine.game import Game
from engine.scoring import Keep
from engine.state import Phase, apply
from engine.strategy_core import (
    GameLike,
    NoDecision,
    Situation,
    SituationStrategy,
    Strategy,
    UnknownStrategy,
)
from engine.strategy_expert import Expert
from engine.strategy_greedy import PERSONALITIES, Greedy
from engine.strategy_optimal import Optimal, TableSource, memory_tables

__all__ = [
    "Hint",
    "NoDecision",
    "Situation",
    "Strategy",
    "UnknownStrategy",
    "find_strategy",
    "hint",
    "strategy_specs",
]


def strategy_specs() -> tuple[str, ...]:
    """The specs `find_strategy` accepts (``greedy:RISK`` stands for any risk in [0, 1])."""
    return ("greedy:RISK", "expert", "expert+race", "optimal", *PERSONALITIES)


def find_strategy(spec: str, *, tables: TableSource | None = None) -> SituationStrategy:
    """The strategy ``spec`` names; `UnknownStrategy` (listing the valid specs) if none.

    ``tables`` gives `optimal` its solved tables (default: small targets solved in memory).
    """
    text = spec.strip().lower() if isinstance(spec, str) else ""
    if text.startswith("greedy:"):
        raw = text.partition(":")[2]
        try:
            risk = float(raw)
        except ValueError:
            raise UnknownStrategy(f"greedy risk {raw!r} in {spec!r} is not a number") from None
        if not 0.0 <= risk <= 1.0:
            raise UnknownStrategy(f"greedy risk {raw!r} in {spec!r} must be in [0, 1]")
        return Greedy(risk)
    if text == "greedy":
        return Greedy(0.5)
    if text in PERSONALITIES:
        return PERSONALITIES[text]
    if text in ("expert", "expert+race"):
        return Expert()  # expert+race: the old name; the expert now always plays the race
    if text == "optimal":
        return Optimal(tables if tables is not None else memory_tables)
    known = ", ".join(strategy_specs())
    raise UnknownStrategy(f"unknown strategy {spec!r}: valid specs are {known}")


@dataclass(frozen=True, slots=True)
class Hint:
    """What ``advisor`` (a strategy's name) would do now; its text is the table's hint line.

    ``action``: ``"keep"`` (set ``keep`` aside, then ``"roll"`` or ``"bank"`` as ``then`` says),
    ``"roll"`` (throw ``dice`` dice), ``"bank"`` (bank ``total``), ``"take"`` (the passed dice) or
    ``"fresh"`` (throw all dice fresh). ``win_chance``: the chance to win playing on optimally,
    when a solved table knows it.
    """

    action: str
    advisor: str
    keep: Keep | None = None
    then: str = ""
    dice: int = 0
    total: int = 0
    win_chance: float | None = None

    def __str__(self) -> str:
        if self.keep is not None:
            then = "roll on" if self.then == "roll" else "bank"
            what = f"keep {Throw(self.keep.dice)}, then {then}"
        else:
            what = {
                "roll": f"roll {self.dice}",
                "bank": f"bank {self.total}",
                "take": "take the passed dice",
                "fresh": "throw fresh",
            }.get(self.action, self.action)
        chance = f", {100 * self.win_chance:.0f}% to win" if self.win_chance is not None else ""
        return f"{self.advisor}: {what}{chance}"


def hint(game: GameLike, *, advisor: Strategy | None = None) -> Hint | None:
    """What ``advisor`` would do in ``game`` now; None when there is nothing to decide.

    ``advisor`` defaults to `optimal` on the tables solved in memory. An `Optimal` advisor
    without a table for the situation plays, and is named, ``expert``; with one, the hint
    carries the chance to win. Nothing to decide: no player, the game over, or dice to throw.
    """
    state = game.state if isinstance(game, Game) else game
    player = state.current_player
    if player is None or state.phase not in (Phase.KEEP, Phase.DECIDE, Phase.PASS):
        return None
    strategy = advisor if advisor is not None else Optimal(memory_tables)
    name, chance = strategy.name, None
    if isinstance(strategy, Optimal):
        situation = Situation.of(state)
        if strategy.table_for(situation) is None:
            name = "expert"
        else:
            chance = strategy.win_chance(situation)
    if state.phase is Phase.PASS:
        taken = strategy.wants_pass(state)
        return Hint("take" if taken else "fresh", name, win_chance=chance)
    if state.phase is Phase.KEEP:
        keep = strategy.choose_keep(state)
        after = apply(state, Kept(player.name, keep.dice))
        then = "roll" if strategy.wants_to_roll(after) else "bank"
        return Hint("keep", name, keep, then, win_chance=chance)
    if strategy.wants_to_roll(state):
        return Hint("roll", name, dice=state.dice_to_throw, win_chance=chance)
    return Hint("bank", name, total=state.turn.total, win_chance=chance)
