"""Typed, validating access to one table of a parsed TOML file, for the configuration loader.

Every getter names the full key (``camera.width``), the bad value with ``!r`` and what is allowed,
and a table rejects keys it does not know with the closest known key as a hint.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from engine.errors import DicekeeperError

T = TypeVar("T")


class ConfigError(DicekeeperError, ValueError):
    """A configuration file that cannot be used: unreadable, not TOML, or a bad key or value."""


class Table:
    """One TOML table with the dotted name it has in the file, read key by key.

    Call `finish()` after reading every key: it rejects the keys nobody asked for.
    """

    def __init__(self, name: str, data: object) -> None:
        if not isinstance(data, Mapping):
            raise ConfigError(f"[{name}] must be a table, not {data!r}")
        # Tables come from tomllib, whose keys are always strings.
        self.name = name
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

    def string(self, key: str, default: str, *, choices: Sequence[str] = ()) -> str:
        """A string value, optionally one of ``choices``."""
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise ConfigError(f"{self.key(key)} = {value!r}: expected a string")
        if choices and value not in choices:
            raise ConfigError(
                f"{self.key(key)} = {value!r}: allowed values are {', '.join(map(repr, choices))}"
            )
        return value

    def integer(
        self, key: str, default: int, *, low: int | None = None, high: int | None = None
    ) -> int:
        """An integer value within [low, high]."""
        value = self.raw(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{self.key(key)} = {value!r}: expected a whole number")
        _check_range(self.key(key), value, low, high)
        return value

    def number(
        self, key: str, default: float, *, low: float | None = None, high: float | None = None
    ) -> float:
        """A number (int or float) within [low, high]."""
        value = self.raw(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{self.key(key)} = {value!r}: expected a number")
        _check_range(self.key(key), value, low, high)
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        """A boolean value (true or false)."""
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(f"{self.key(key)} = {value!r}: expected true or false")
        return value

    def strings(self, key: str, default: Sequence[str] = ()) -> tuple[str, ...]:
        """A list of non-empty strings."""
        value = self.raw(key)
        if value is None:
            return tuple(default)
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ConfigError(f"{self.key(key)} = {value!r}: expected a list of non-empty strings")
        return tuple(v.strip() for v in value)

    def table(self, key: str) -> Table:
        """A sub-table (an empty one when absent)."""
        value = self.raw(key)
        return Table(self.key(key), {} if value is None else value)

    def finish(self) -> None:
        """Reject every key of the table that no getter asked for, with a hint."""
        for key in self._data:
            if key not in self._known:
                raise ConfigError(unknown_key_message(self.key(key), key, self._known))


def unknown_key_message(full: str, key: str, known: Iterable[str]) -> str:
    """The message for an unknown key: the closest known key as a hint, else the whole list."""
    known = sorted(known)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
    return f"unknown key {full!r}: {hint}"


def _check_range(name: str, value: float, low: float | None, high: float | None) -> None:
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (
            f"from {low} to {high}"
            if low is not None and high is not None
            else f"at least {low}"
            if low is not None
            else f"at most {high}"
        )
        raise ConfigError(f"{name} = {value!r}: allowed values are {bounds}")
