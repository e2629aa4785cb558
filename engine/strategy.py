"""Computer players found by a spec, and hints for people.

``find_strategy("greedy:0.3")``, ``find_strategy("expert")``, ``find_strategy("optimal")`` or a
personality name (``cautious``, ``steady``, ``bold``, ``reckless``, ``chaser``) gives a `Strategy`
(`engine.strategy_core`): `engine.strategy_greedy.Greedy`, `engine.strategy_expert.Expert` or
`engine.strategy_optimal.Optimal`. `hint` says what the best available player would do now and,
in a two-player game with a solved table, the current chance of winning.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game
from engine.scoring import Keep
from engine.state import Phase
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
    """What a strong player would do now.

    ``action``: ``"keep"``, ``"roll"``, ``"bank"``, ``"take"`` (the passed dice), ``"fresh"`` or
    ``"throw"`` (nothing to decide). ``keep``: the keep, for ``"keep"``. ``advisor``: which
    strategy advises. ``win_chance``: the chance to win playing on optimally, when known.
    """

    action: str
    advisor: str
    keep: Keep | None = None
    win_chance: float | None = None

    def __str__(self) -> str:
        what = f"keep {''.join(map(str, self.keep.dice))}" if self.keep else self.action
        chance = f", {100 * self.win_chance:.0f}% to win" if self.win_chance is not None else ""
        return f"{self.advisor}: {what}{chance}"


def hint(game: GameLike, *, tables: TableSource | None = None) -> Hint:
    """What `optimal` (or `expert` without a table) would do in ``game`` now.

    Raises `NoDecision` when nobody is to play (no players, or the game is over).
    """
    optimal = Optimal(tables if tables is not None else memory_tables)
    situation = Situation.of(game)
    phase = (game.state if isinstance(game, Game) else game).phase
    has_table = optimal.table_for(situation) is not None
    advisor = "optimal" if has_table else "expert"
    chance = optimal.win_chance(situation) if has_table else None
    if phase is Phase.KEEP:
        return Hint("keep", advisor, optimal.keep_for(situation), chance)
    if phase is Phase.DECIDE:
        return Hint("roll" if optimal.decide_roll(situation) else "bank", advisor, None, chance)
    if phase is Phase.PASS and situation.passed is not None:
        return Hint("take" if optimal.pass_for(situation) else "fresh", advisor, None, chance)
    return Hint("throw", advisor, None, chance)
