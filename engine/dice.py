"""Dice values: the `Throw` value type and its text form ("11345", or "1-10-11" past nine faces)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import InvalidThrow

_SEPARATORS = re.compile(r"[\s,;/-]+")


@dataclass(frozen=True, slots=True)
class Throw:
    """The values shown by the dice of one throw, in the order they were read.

    ``Throw.from_str("11345")`` and ``str(throw)`` round-trip. A throw only knows its
    values; whether they fit a rule set's dice is checked by `check` (or ``rules.check_throw``).
    """

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.values:
            raise InvalidThrow("a throw needs at least one die, got ()")
        for value in self.values:
            if type(value) is not int or value < 1:
                raise InvalidThrow(
                    f"die value {value!r} in {self.values!r} is not a whole number >= 1"
                )

    @classmethod
    def of(cls, values: Iterable[int]) -> Throw:
        """A throw of these values."""
        return cls(tuple(values))

    @classmethod
    def from_str(cls, text: str) -> Throw:
        """Parse "11345" (one digit per die) or "1-10-11" / "1 10 11" / "1,10,11"."""
        stripped = text.strip()
        if not stripped:
            raise InvalidThrow(f"no dice in {text!r}")
        if _SEPARATORS.search(stripped):
            parts = [part for part in _SEPARATORS.split(stripped) if part]
            if not parts:
                raise InvalidThrow(f"no dice in {text!r}")
        else:
            parts = list(stripped)
        if not all(part.isdigit() and part.isascii() for part in parts):
            raise InvalidThrow(
                f"cannot read dice from {text!r}: use digits like '11345' or '1-10-11'"
            )
        return cls(tuple(int(part) for part in parts))

    @classmethod
    def random(cls, rng: random.Random, count: int, *, faces: int) -> Throw:
        """``count`` dice of ``faces`` faces drawn from ``rng``."""
        if count < 1:
            raise InvalidThrow(f"cannot throw {count!r} dice")
        return cls(tuple(rng.randint(1, faces) for _ in range(count)))

    def __str__(self) -> str:
        if all(value <= 9 for value in self.values):
            return "".join(str(value) for value in self.values)
        if len(self.values) == 1:
            return f"{self.values[0]},"  # "11" alone would read back as two dice
        return "-".join(str(value) for value in self.values)

    def __len__(self) -> int:
        return len(self.values)

    @property
    def sorted(self) -> tuple[int, ...]:
        """The values in ascending order (the key scoring uses)."""
        return tuple(sorted(self.values))

    def check(self, *, faces: int, count: int | None = None, max_count: int | None = None) -> Throw:
        """Return self if every value is 1..faces and the count fits, else raise `InvalidThrow`."""
        for value in self.values:
            if value > faces:
                raise InvalidThrow(
                    f"die value {value!r} in {str(self)!r} is impossible on {faces}-faced dice "
                    f"(allowed 1..{faces})"
                )
        if count is not None and len(self.values) != count:
            raise InvalidThrow(f"expected {_dice(count)}, got {len(self.values)}: {str(self)!r}")
        if max_count is not None and len(self.values) > max_count:
            raise InvalidThrow(
                f"at most {_dice(max_count)} allowed, got {len(self.values)}: {str(self)!r}"
            )
        return self


def _dice(count: int) -> str:
    return "1 die" if count == 1 else f"{count} dice"
