"""Players and their history: one `TurnRecord` per finished turn (points or bust, total after)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class TurnOutcome(enum.Enum):
    """How a turn ended."""

    BANKED = "banked"
    BUST = "bust"
    SKIPPED = "skipped"  # ended on request ("next player") without scoring


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One finished turn: the player's turn number (1, 2, ...), points, outcome, total after."""

    number: int
    points: int
    outcome: TurnOutcome
    total: int

    @property
    def is_bust(self) -> bool:
        """True if the turn lost its points to a throw with nothing scoring (or below entry)."""
        return self.outcome is TurnOutcome.BUST

    def __str__(self) -> str:
        result = f"+{self.points}" if self.outcome is TurnOutcome.BANKED else self.outcome.value
        return f"turn {self.number}: {result} (total {self.total})"


@dataclass(frozen=True, slots=True)
class Player:
    """A player: a name and the record of every finished turn, oldest first."""

    name: str
    history: tuple[TurnRecord, ...] = ()

    @property
    def total(self) -> int:
        """The player's score: the sum of the points of their turns."""
        return sum(record.points for record in self.history)

    @property
    def turns(self) -> int:
        """How many turns the player has finished."""
        return len(self.history)

    @property
    def has_entered(self) -> bool:
        """True once the player has banked a turn (after that no entry threshold applies)."""
        return any(record.outcome is TurnOutcome.BANKED for record in self.history)

    def with_turn(self, points: int, outcome: TurnOutcome) -> Player:
        """This player with one more finished turn."""
        record = TurnRecord(self.turns + 1, points, outcome, self.total + points)
        return Player(self.name, (*self.history, record))
