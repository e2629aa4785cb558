"""Typed, validating access to one table of a parsed TOML file: rule files and the configuration.

`Table(name, data, error)` reads a table key by key. Every getter names the full dotted key
(``camera.width``, ``scoring.singles.7``), the bad value with ``!r`` and what is expected, in one
line, e.g. ``camera.width = 'x': expected a whole number``; `finish()` rejects the keys no getter
asked for, with the closest known key as a hint. The exception raised is the caller's ``error``
(`engine.errors.InvalidRules` for rule files, ``device.config.ConfigError`` for the configuration),
and the caller puts the file's name in front of the message.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeGuard


class Table:
    """One TOML table with the dotted name it has in the file, read key by key.

    Call `finish()` after reading every key: it rejects the keys nobody asked for. Sub-tables
    raise the same ``error``.
    """

    def __init__(self, name: str, data: object, error: type[Exception]) -> None:
        self.name = name
        self.error = error
        if not isinstance(data, Mapping):
            raise error(f"[{name}] must be a table, not {data!r}")
        # Tables come from tomllib, whose keys are always strings.
        self._data: Mapping[str, object] = data
        self._known: set[str] = set()

    def key(self, key: str) -> str:
        """The full dotted name of ``key`` in this table (for messages)."""
        return f"{self.name}.{key}" if self.name else key

    def has(self, key: str) -> bool:
        """Whether the file gives ``key`` (marks it known)."""
        self._known.add(key)
        return key in self._data

    def raw(self, key: str) -> object:
        """The value of ``key`` as parsed, or None when absent (marks it known)."""
        self._known.add(key)
        return self._data.get(key)

    def require(self, *keys: str) -> None:
        """Raise the error ``KEY is missing`` for the first of ``keys`` the file does not give."""
        for key in keys:
            if not self.has(key):
                raise self.error(f"{self.key(key)} is missing")

    def refuse(self, key: str, value: object, expected: str) -> Exception:
        """The error for ``key = value``, saying what is ``expected`` (the caller raises it)."""
        return self.error(f"{self.key(key)} = {value!r}: {expected}")

    def string(self, key: str, default: str, *, choices: Sequence[str] = ()) -> str:
        """A string value, optionally one of ``choices``."""
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self.refuse(key, value, "expected a string")
        if choices and value not in choices:
            raise self.refuse(key, value, f"allowed values are {', '.join(map(repr, choices))}")
        return value

    def integer(
        self, key: str, default: int, *, low: int | None = None, high: int | None = None
    ) -> int:
        """An integer value within [low, high]."""
        value = self.raw(key)
        if value is None:
            return default
        if not _is_integer(value):
            raise self.refuse(key, value, "expected a whole number")
        self._check_range(key, value, low, high)
        return value

    def number(
        self, key: str, default: float, *, low: float | None = None, high: float | None = None
    ) -> float:
        """A number (int or float) within [low, high]."""
        value = self.raw(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.refuse(key, value, "expected a number")
        self._check_range(key, value, low, high)
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        """A boolean value (true or false)."""
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.refuse(key, value, "expected true or false")
        return value

    def strings(self, key: str, default: Sequence[str] = ()) -> tuple[str, ...]:
        """A list of non-empty strings (each stripped)."""
        value = self.raw(key)
        if value is None:
            return tuple(default)
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.refuse(key, value, "expected a list of non-empty strings")
        return tuple(v.strip() for v in value)

    def integers(self, key: str, default: Sequence[int] = ()) -> tuple[int, ...]:
        """A list of whole numbers."""
        value = self.raw(key)
        if value is None:
            return tuple(default)
        if not isinstance(value, list) or not all(_is_integer(v) for v in value):
            raise self.refuse(key, value, "expected a list of whole numbers")
        return tuple(value)

    def numbered(self, key: str) -> tuple[tuple[int, int], ...]:
        """A table of whole number = whole number (``{ 1 = 100, 5 = 50 }``) as pairs, in order."""
        value = self.raw(key)
        if value is None:
            return ()
        if not isinstance(value, Mapping):
            raise self.refuse(key, value, "expected a table like { 1 = 100 }")
        pairs = []
        for number, points in value.items():
            if not number.isdigit() or not _is_integer(points):
                raise self.error(
                    f"{self.key(key)}.{number} = {points!r}: "
                    "expected whole numbers for keys and values"
                )
            pairs.append((int(number), points))
        return tuple(pairs)

    def table(self, key: str) -> Table:
        """A sub-table (an empty one when absent)."""
        value = self.raw(key)
        return Table(self.key(key), {} if value is None else value, self.error)

    def tables(self, key: str) -> tuple[Table, ...]:
        """An array of tables (``[[key]]``), each named ``key[1]``, ``key[2]``... in messages."""
        value = self.raw(key)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.refuse(key, value, f"expected an array of tables, each written [[{key}]]")
        return tuple(
            Table(f"{self.key(key)}[{number}]", item, self.error)
            for number, item in enumerate(value, start=1)
        )

    def finish(self) -> None:
        """Reject every key of the table that no getter asked for, with a hint."""
        for key in self._data:
            if key not in self._known:
                raise self.error(unknown_key_message(self.key(key), key, self._known))

    def _check_range(self, key: str, value: float, low: float | None, high: float | None) -> None:
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = (
                f"from {low} to {high}"
                if low is not None and high is not None
                else f"at least {low}"
                if low is not None
                else f"at most {high}"
            )
            raise self.refuse(key, value, f"allowed values are {bounds}")


def unknown_key_message(full: str, key: str, known: Iterable[str]) -> str:
    """The message for an unknown key: the closest known key as a hint, else the whole list."""
    known = sorted(known)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
    return f"unknown key {full!r}: {hint}"


def _is_integer(value: object) -> TypeGuard[int]:
    # bool is an int subclass; a bool where a number is wanted is a mistake.
    return isinstance(value, int) and not isinstance(value, bool)
