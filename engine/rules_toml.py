"""Rule sets from TOML text: `parse_rules(text)`, validating every key (device/ reads the files).

A file may start from a registered rule set (``base = "farkle"``) and override what differs::

    name = "farkle-500"
    description = "Farkle, but the first score must be at least 500"
    base = "farkle"
    target = 5000
    [entry]
    threshold = 500
    applies_to = "first-score"      # none | first-roll | banked-turn | first-score
    [scoring]
    singles = { 1 = 100, 5 = 50 }   # face = points
    three_of_a_kind = 100           # x face value
    three_of_a_kind_overrides = { 1 = 1000 }
    of_a_kind = { 3 = 1, 4 = 2 }    # count = multiplier of the three-of-a-kind points
    [[scoring.combinations]]
    name = "small straight"
    dice = [1, 2, 3, 4, 5]
    points = 1000

Top-level keys: name, description, source, base, dice, faces, keep ("choose" | "all"), hot_dice,
target, end ("round" | "last-turn" | "immediate"), passing, and the tables entry and scoring.

Sizes are bounded so that a rule set is playable in reasonable time: at most `MAX_DICE` dice of at
most `MAX_FACES` faces, at most `MAX_THROWS` different throws of all the dice (the computer players
weigh every one), a target and entry threshold of at most `MAX_POINTS`, and at most
`MAX_COMBINATIONS` extra combinations.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Mapping
from typing import TypeVar

from engine.errors import InvalidRules
from engine.rules import (
    Combination,
    EndRule,
    EntryRule,
    KeepRule,
    Rules,
    ScoringTable,
    find_rules,
)

_TOP = (
    "name", "description", "source", "base", "dice", "faces", "keep", "hot_dice", "target", "end",
    "passing", "entry", "scoring",
)  # fmt: skip
_ENTRY = ("threshold", "applies_to")
_SCORING = ("singles", "three_of_a_kind", "three_of_a_kind_overrides", "of_a_kind", "combinations")
_COMBINATION = ("name", "dice", "points")

MAX_DICE = 10
MAX_FACES = 20
MAX_THROWS = 5005
"""Different throws of all the dice (multisets): 6 dice of 10 faces, 10 of 6; 6d6 has 462."""
MAX_POINTS = 1_000_000
MAX_COMBINATIONS = 64

E = TypeVar("E", KeepRule, EntryRule, EndRule)
T = TypeVar("T")


def parse_rules(text: str, *, origin: str = "<rules>") -> Rules:
    """A rule set from TOML text; `InvalidRules` naming the key, the value and what is allowed."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidRules(f"{origin}: not valid TOML: {exc}") from None
    _check_keys(data, _TOP, "")
    base = find_rules(_get(data, "base", str)) if "base" in data else None
    fields: dict[str, object] = {}
    for key, kind in (
        ("name", str),
        ("description", str),
        ("source", str),
        ("dice", int),
        ("faces", int),
        ("target", int),
        ("hot_dice", bool),
        ("passing", bool),
    ):
        if key in data:
            fields[key] = _get(data, key, kind)
    if "keep" in data:
        fields["keep"] = _enum(data, "keep", KeepRule)
    if "end" in data:
        fields["end"] = _enum(data, "end", EndRule)
    if "entry" in data:
        entry = _table(data, "entry")
        _check_keys(entry, _ENTRY, "entry.")
        if "threshold" in entry:
            fields["entry_threshold"] = _get(entry, "threshold", int, "entry.")
        if "applies_to" in entry:
            fields["entry"] = _enum(entry, "applies_to", EntryRule, "entry.")
    if "scoring" in data:
        fields["scoring"] = _scoring(_table(data, "scoring"), base)
    if base is None:
        for required in ("name", "description", "dice"):
            if required not in fields:
                raise InvalidRules(f"{origin}: missing key {required!r} (or give base = NAME)")
        _check_sizes(fields, None, origin)
        return Rules(**fields)  # type: ignore[arg-type]
    if "name" not in fields:
        raise InvalidRules(f"{origin}: missing key 'name'")
    _check_sizes(fields, base, origin)
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def _check_sizes(fields: Mapping[str, object], base: Rules | None, origin: str) -> None:
    """`InvalidRules` when the dice, faces, target or combinations are over the limits."""

    def value(key: str, default: int) -> int:
        given = fields.get(key, getattr(base, key, default))
        return given if isinstance(given, int) else default

    dice, faces = value("dice", 1), value("faces", 6)
    for key, number, high in (
        ("dice", dice, MAX_DICE),
        ("faces", faces, MAX_FACES),
        ("target", value("target", 0), MAX_POINTS),
        ("entry.threshold", value("entry_threshold", 0), MAX_POINTS),
    ):
        if number > high:
            raise InvalidRules(f"{origin}: {key} = {number!r}: at most {high:,}")
    throws = math.comb(dice + faces - 1, dice) if dice >= 1 and faces >= 1 else 0
    if throws > MAX_THROWS:
        raise InvalidRules(
            f"{origin}: dice = {dice!r} of faces = {faces!r} make {throws:,} different throws, "
            f"at most {MAX_THROWS:,} (e.g. 6 dice of 10 faces, or 10 of 6)"
        )
    scoring = fields.get("scoring")
    if isinstance(scoring, ScoringTable) and len(scoring.extra) > MAX_COMBINATIONS:
        raise InvalidRules(
            f"{origin}: {len(scoring.extra)} scoring.combinations: at most {MAX_COMBINATIONS}"
        )


def _scoring(table: Mapping[str, object], base: Rules | None) -> ScoringTable:
    _check_keys(table, _SCORING, "scoring.")
    start = base.scoring if base is not None else ScoringTable()
    changes: dict[str, object] = {}
    for key in ("singles", "three_of_a_kind_overrides", "of_a_kind"):
        if key in table:
            changes[key] = _int_pairs(table, key)
    if "three_of_a_kind" in table:
        changes["three_of_a_kind"] = _get(table, "three_of_a_kind", int, "scoring.")
    if "combinations" in table:
        combos = table["combinations"]
        if not isinstance(combos, list):
            raise InvalidRules(f"scoring.combinations = {combos!r}: must be an array of tables")
        extra = []
        for combo in combos:
            if not isinstance(combo, dict):
                raise InvalidRules(f"scoring.combinations entry {combo!r}: must be a table")
            _check_keys(combo, _COMBINATION, "scoring.combinations.")
            dice = combo.get("dice")
            if not isinstance(dice, list) or not all(type(d) is int for d in dice):
                raise InvalidRules(
                    f"scoring.combinations.dice = {dice!r}: must be a list of whole numbers"
                )
            points = _get(combo, "points", int, "scoring.combinations.")
            name = _get(combo, "name", str, "scoring.combinations.") if "name" in combo else ""
            extra.append(Combination(tuple(sorted(dice)), points, name))
        changes["extra"] = tuple(extra)
    return dataclasses.replace(start, **changes)  # type: ignore[arg-type]


def _check_keys(table: Mapping[str, object], allowed: tuple[str, ...], prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise InvalidRules(
                f"unknown key {prefix + key!r} = {table[key]!r}: allowed keys are "
                + ", ".join(prefix + name for name in allowed)
            )


def _get(table: Mapping[str, object], key: str, kind: type[T], prefix: str = "") -> T:
    value = table.get(key)
    # bool is an int subclass; a bool where a number is wanted is a mistake.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidRules(f"{prefix}{key} = {value!r}: must be {_KIND_NAMES.get(kind, kind)}")
    return value


_KIND_NAMES: dict[type, str] = {str: "a string", int: "a whole number", bool: "true or false"}


def _table(table: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = table[key]
    if not isinstance(value, dict):
        raise InvalidRules(f"{key} = {value!r}: must be a table")
    return value


def _enum(table: Mapping[str, object], key: str, kind: type[E], prefix: str = "") -> E:
    value = table[key]
    for member in kind:
        if member.value == value:
            return member
    allowed = ", ".join(repr(member.value) for member in kind)
    raise InvalidRules(f"{prefix}{key} = {value!r}: allowed {allowed}")


def _int_pairs(table: Mapping[str, object], key: str) -> tuple[tuple[int, int], ...]:
    value = table[key]
    if not isinstance(value, dict):
        raise InvalidRules(f"scoring.{key} = {value!r}: must be a table like {{ 1 = 100 }}")
    pairs = []
    for face, points in value.items():
        if not face.isdigit() or type(points) is not int:
            raise InvalidRules(
                f"scoring.{key}.{face} = {points!r}: keys and values must be whole numbers"
            )
        pairs.append((int(face), points))
    return tuple(pairs)
