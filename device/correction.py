"""Correcting the dice as read, at the table: what each die shows and which die is being set.

A `Correction` is a plain value the controller steps with the buttons: SELECT moves to the next die,
ROLL steps the die's value through 1…faces and "not a die" (an unknown die first to the value
the reader found likeliest, when it has one), STOP confirms (`problem` must be
empty) and `event` gives what is stored. It corrects either the throw just counted
(``replaces``: the game goes back and takes the corrected dice) or a reading refused for unreadable
dice, too many dice or too few (the dice the reader missed follow the dice read as unknown dice,
with no likeliest value), which then counts as a throw of the corrected dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from device.prompts import dice_text
from engine.events import Corrected

__all__ = ["NOT_A_DIE", "Correction", "Point", "guesses"]

NOT_A_DIE = 0
"""The value of a die marked "not a die" (a shadow or a crumb the reader took for a die)."""
Point = tuple[float, float]
"""Where the players pointed at a die the reader missed on the tray's picture: (x, y) as
fractions of the camera frame's width and height."""


def guesses(
    read: Sequence[int | None], likely: Sequence[int | None], faces: int = 6
) -> tuple[int | None, ...]:
    """``likely`` fitted to the dice ``read``, one entry a die: a die's likeliest value (1 to
    ``faces``) where it was not read (None), else None; missing entries are None."""
    padded = (*likely[: len(read)], *(None,) * (len(read) - len(likely)))
    return tuple(
        guess if value is None and guess is not None and 1 <= guess <= faces else None
        for value, guess in zip(read, padded, strict=True)
    )


@dataclass(frozen=True, slots=True)
class Correction:
    """Dice being corrected for ``player``.

    ``read`` is the reading as read (None: a die the reader could not read), ``values`` the dice
    as set so far (None: still unknown, `NOT_A_DIE`: not a die), ``cursor`` the die being set.
    ``likely`` is, for each die of ``read`` not read, the value the reader found likeliest (None:
    no guess): ROLL on that die while it is unknown sets it to that value. A die is never set to
    it before ROLL is pressed.
    """

    player: str
    read: tuple[int | None, ...]
    values: tuple[int | None, ...]
    replaces: bool
    faces: int = 6
    cursor: int = 0
    start: tuple[int | None, ...] = ()
    likely: tuple[int | None, ...] = ()

    @classmethod
    def of(
        cls,
        player: str,
        read: Sequence[int | None],
        *,
        replaces: bool,
        faces: int = 6,
        start: Sequence[int | None] | None = None,
        likely: Sequence[int | None] = (),
    ) -> Correction:
        """A correction of the reading ``read`` starting from ``start`` (default: the reading),
        at its first unknown die (or the first die). ``likely`` gives, in the order of ``read``,
        each unread die's likeliest value (None, a value outside 1…faces or a die that was
        read: no guess)."""
        values = tuple(read if start is None else start)
        cursor = values.index(None) if None in values else 0
        offered = guesses(read, likely, faces)
        return cls(player, tuple(read), values, replaces, faces, cursor, values, offered)

    def next_die(self) -> Correction:
        """Move to the next die (after the last: the first)."""
        return replace(self, cursor=(self.cursor + 1) % max(len(self.values), 1))

    def step(self) -> Correction:
        """Step the current die's value: unknown -> its likeliest value (else 1), then on
        -> … faces -> not a die -> 1 -> 2 …"""
        if not self.values:
            return self
        value = self.values[self.cursor]
        if value is None:
            new = self.offer or 1
        elif value == NOT_A_DIE:
            new = 1
        elif value >= self.faces:
            new = NOT_A_DIE
        else:
            new = value + 1
        values = (*self.values[: self.cursor], new, *self.values[self.cursor + 1 :])
        return replace(self, values=values)

    @property
    def offer(self) -> int | None:
        """The value ROLL first gives the current die while it is unknown: the likeliest (None:
        the die is set already, or the reader had no guess)."""
        if not self.values or self.values[self.cursor] is not None:
            return None
        return self.likely[self.cursor] if self.cursor < len(self.likely) else None

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice as corrected: every die set to a value (unknown and "not a die" left out)."""
        return tuple(v for v in self.values if v is not None and v != NOT_A_DIE)

    @property
    def struck(self) -> frozenset[int]:
        """Indexes of the dice marked "not a die"."""
        return frozenset(i for i, v in enumerate(self.values) if v == NOT_A_DIE)

    @property
    def is_changed(self) -> bool:
        """Whether any die differs from where the correction started."""
        return self.values != self.start

    def problem(self, expected: int) -> str:
        """Why the dice cannot be confirmed yet ("" when they can): ``expected`` dice are needed."""
        unknown = [i + 1 for i, v in enumerate(self.values) if v is None]
        if unknown:
            which = ", ".join(map(str, unknown))
            return f"die {which} not set yet: SELECT moves to it, ROLL sets its value"
        count = len(self.dice)
        if count != expected:
            return (
                f"{dice_text(count)} set but {dice_text(expected)} were thrown: "
                'ROLL steps a die to "not a die" or back'
            )
        return ""

    def status(self) -> str:
        """One line about the die being set ("correcting die 2 of 5: 4"; an unknown die with a
        guess: "correcting die 2 of 5: ? (likeliest 5)", short enough for the OLED)."""
        if not self.values:
            return "no dice to correct"
        value = self.values[self.cursor]
        shown = "?" if value is None else "not a die" if value == NOT_A_DIE else str(value)
        if self.offer is not None:
            shown += f" (likeliest {self.offer})"
        return f"correcting die {self.cursor + 1} of {len(self.values)}: {shown}"

    def event(self, by: str) -> Corrected:
        """The stored correction: the reading as read (0: unreadable), the dice, who corrected."""
        read = tuple(NOT_A_DIE if v is None else v for v in self.read)
        return Corrected(self.player, read, self.dice, by)
