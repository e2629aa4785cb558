"""Advice for people at the table: the hint line, what a computer player (``expert`` by default)
would do now, as `engine.strategy.hint` says it.

Shown on the screens' hint line when hints are switched on (``players.hints`` or the menu).
"""

from __future__ import annotations

from collections.abc import Callable

from device.computer import find_computer
from engine.errors import DicekeeperError
from engine.state import GameState
from engine.strategy import hint
from engine.strategy_core import Strategy

__all__ = ["Advisor"]


class Advisor:
    """Finds the ``spec`` strategy once and remembers the last hint, so a redraw asks nothing."""

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
            if self._strategy is None:
                self._strategy = self._find(self.spec)
            advice = hint(state, advisor=self._strategy)
            text = str(advice) if advice is not None else ""
        except DicekeeperError:
            text = ""
        self._last = (state, text)
        return text
