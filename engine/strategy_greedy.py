"""The greedy player: a risk dial in [0, 1] with race adjustments, and named personalities.

Risk sets how much turn total the player will put at stake for the dice it would throw. Throwing
n dice busts with probability p(n) and otherwise scores g(n) on average, so one more throw is worth
it (in expected points, one step ahead) while the turn total is below ``g(n)·(1-p(n))/p(n)``.
Greedy throws on while the turn total is below that break-even times ``(risk / (1 - risk))²``:
risk 0.5 is the one-step break-even, risk 0 banks at the first chance, risk 1 never banks before
its total reaches the target. On top of that it adjusts to the race: it takes more risk the further
it trails the leader, less after recent busts, always banks once the bank reaches the target, and
on its last turn (the final round) never banks short of beating the leader.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.rules import Rules
from engine.scoring import Keep
from engine.solver_model import throw_model
from engine.strategy_core import Situation, SituationStrategy, UnknownStrategy, must_beat


def break_even(rules: Rules, dice: int) -> float:
    """Turn total (points) at which one more throw of ``dice`` dice gains nothing on average."""
    model = throw_model(rules)
    dm = model.by_dice[dice]
    gain = sum(p * s for p, s in zip(dm.single_p, dm.single_s, strict=True))
    gain += sum(g.probability * max(s for s, _ in g.moves) for g in dm.choices)
    if dm.bust <= 0.0:
        return math.inf
    return gain * model.unit / dm.bust


@dataclass(frozen=True, slots=True)
class Greedy(SituationStrategy):
    """A greedy player.

    ``risk`` in [0, 1]: the dial described in the module docstring. ``chase``: how much bolder it
    gets per target-length it trails the leader (1.0 = twice as bold when a whole target behind).
    ``caution``: how much of its boldness each of its last three turns' busts takes away.
    ``label`` and ``saying``: how a personality presents itself.
    """

    risk: float
    chase: float = 1.0
    caution: float = 0.2
    label: str = ""
    saying: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.risk, int | float) or not 0.0 <= self.risk <= 1.0:
            raise UnknownStrategy(f"greedy risk {self.risk!r} must be a number in [0, 1]")

    @property
    def name(self) -> str:  # type: ignore[override]
        """The spec of this player (its personality name, or ``greedy:RISK``)."""
        return self.label or f"greedy:{self.risk:g}"

    def boldness(self, situation: Situation) -> float:
        """The factor on the break-even turn total, after the race adjustments (may be inf)."""
        if self.risk >= 1.0:
            return math.inf
        base = (self.risk / (1.0 - self.risk)) ** 2
        behind = max(0, situation.leader - situation.my_score)
        factor = 1.0 + self.chase * behind / situation.rules.target
        factor *= max(0.0, 1.0 - self.caution * situation.recent_busts)
        return base * factor

    def threshold(self, situation: Situation) -> float:
        """The turn total (points) below which it throws the dice left."""
        bold = self.boldness(situation)
        if bold == 0.0:
            return 0.0
        if math.isinf(bold):
            return math.inf
        return bold * break_even(situation.rules, situation.dice_left)

    def keep_for(self, situation: Situation) -> Keep:
        """The highest-scoring keep (with the most dice among equals)."""
        return situation.options[0]

    def roll_for(self, situation: Situation) -> bool:
        """Throw on while under the threshold; see the module docstring for the race rules."""
        total = situation.my_score + situation.turn_total
        beat = must_beat(situation)
        if beat is not None:
            return total <= beat
        if situation.rules.reaches_target(total):
            return False
        return situation.turn_total < self.threshold(situation)

    def pass_for(self, situation: Situation) -> bool:
        """Take passed dice when their total is under the threshold for that many dice."""
        assert situation.passed is not None
        points, dice = situation.passed
        if self.risk <= 0.0:
            return False
        bold = self.boldness(situation)
        return math.isinf(bold) or points < bold * break_even(situation.rules, dice)

    def remark_for(self, situation: Situation) -> str:
        """The personality's saying, or what the dial says now."""
        if self.saying:
            return self.saying
        limit = self.threshold(situation) if situation.dice_left else 0.0
        shown = "no limit" if math.isinf(limit) else f"rolls under {int(limit)}"
        return f"risk {self.risk:g}: {shown}"


PERSONALITIES: dict[str, Greedy] = {
    p.label: p
    for p in (
        Greedy(
            0.25,
            chase=0.5,
            caution=0.4,
            label="cautious",
            saying="A bird in the hand is worth two in the cup.",
        ),
        Greedy(0.45, label="steady", saying="Slow and steady wins the race."),
        Greedy(0.65, chase=1.5, caution=0.1, label="bold", saying="Fortune favours the bold."),
        Greedy(0.85, chase=2.0, caution=0.0, label="reckless", saying="Roll them all!"),
        Greedy(0.4, chase=4.0, caution=0.2, label="chaser", saying="Never count me out."),
    )
}
