"""Advice for people at the table: what a computer player (``expert`` by default) would do now.

Shown on the screens' hint line when hints are switched on (``players.hints`` or the menu).
"""

from __future__ import annotations

from collections.abc import Callable

from device.computer import find_computer
from engine.dice import Throw
from engine.errors import DicekeeperError
from engine.events import Kept
from engine.state import GameState, Phase, apply
from engine.strategy_core import Strategy

__all__ = ["Advisor"]


class Advisor:
    """Answers "what would ``spec`` do?" for the current player; remembers the last answer."""

    def __init__(self, spec: str = "expert", *, find: Callable[[str], Strategy] = find_computer):
        self.spec = spec
        self._find = find
        self._strategy: Strategy | None = None
        self._last: tuple[GameState, str] | None = None

    def hint(self, state: GameState) -> str:
        """One line of advice for ``state`` ("" when there is nothing to decide)."""
        if self._last is not None and self._last[0] is state:
            return self._last[1]
        try:
            text = self._advise(state)
        except DicekeeperError:
            text = ""
        self._last = (state, text)
        return text

    def _advise(self, state: GameState) -> str:
        player = state.current_player
        if player is None or state.phase not in (Phase.KEEP, Phase.DECIDE, Phase.PASS):
            return ""
        if self._strategy is None:
            self._strategy = self._find(self.spec)
        strategy = self._strategy
        if state.phase is Phase.PASS:
            taken = strategy.wants_pass(state)
            return f"{self.spec}: {'take the passed dice' if taken else 'throw fresh'}"
        if state.phase is Phase.KEEP:
            keep = strategy.choose_keep(state)
            after = apply(state, Kept(player.name, keep.dice))
            then = "roll on" if strategy.wants_to_roll(after) else "bank"
            return f"{self.spec}: keep {Throw(keep.dice)}, then {then}"
        if strategy.wants_to_roll(state):
            return f"{self.spec}: roll {state.dice_to_throw}"
        return f"{self.spec}: bank {state.turn.total}"
