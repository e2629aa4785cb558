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
    of_a_kind = { 3 = 1, 4 = 2 }    # count = multiplier of the three-of-a-kind points,
                                    # or "additive" ((n-2) x) or "doubling" (x 2 per extra die)
    of_a_kind_points = { 6 = 3000 } # count = flat points whatever the face
    pairs = { 3 = 1500 }            # three pairs of different faces
    four_of_a_kind_is_two_pairs = true   # four of a kind and a pair is three pairs
    triplets = { 2 = 2500 }         # two triplets
    four_and_pair = 1500            # four of a kind and a pair
    straights = { 5 = 600, 6 = 1200 }    # length = points (1-5 and 2-6 both score 600)
    no_score = 500                  # a throw of all the dice in which nothing else scores
    [[scoring.combinations]]        # any other combination, die by die
    name = "one two"
    dice = [1, 2]
    points = 150

Top-level keys: name, description, source, base, dice, faces, keep ("choose" | "all"), hot_dice,
target, end ("round" | "last-turn" | "immediate"), passing, bank_minimum (the least turn total
any bank needs), hooks (named rules beyond data, see
`engine.rules.HOOKS`: ``hooks = ["zilch-penalty"]``), and the tables entry and scoring.
An entry that can never be thrown (a face the dice do not have, more dice than are thrown) is an
error naming it. `format_rules` writes a rule set back as text that parses to the same rules.

Sizes are bounded so that a rule set is playable in reasonable time: at most `MAX_DICE` dice of at
most `MAX_FACES` faces, at most `MAX_THROWS` different throws of all the dice (the computer players
weigh every one), a target and entry threshold of at most `MAX_POINTS`, and at most
`MAX_COMBINATIONS` extra combinations.
"""

from __future__ import annotations

import dataclasses
import json
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
    "passing", "hooks", "bank_minimum", "entry", "scoring",
)  # fmt: skip
_ENTRY = ("threshold", "applies_to")
_SCORING = (
    "singles", "three_of_a_kind", "three_of_a_kind_overrides", "of_a_kind", "of_a_kind_points",
    "pairs", "four_of_a_kind_is_two_pairs", "triplets", "four_and_pair", "straights", "no_score",
    "combinations",
)  # fmt: skip
_PAIR_TABLES = (
    "singles", "three_of_a_kind_overrides", "of_a_kind", "of_a_kind_points", "pairs", "triplets",
    "straights",
)  # fmt: skip
_OF_A_KIND_RULES = ("additive", "doubling")
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
        ("bank_minimum", int),
        ("hot_dice", bool),
        ("passing", bool),
    ):
        if key in data:
            fields[key] = _get(data, key, kind)
    if "hooks" in data:
        hooks = data["hooks"]
        if not isinstance(hooks, list) or not all(isinstance(hook, str) for hook in hooks):
            raise InvalidRules(f'hooks = {hooks!r}: must be a list of names like ["zilch-penalty"]')
        fields["hooks"] = tuple(hooks)
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
    if base is None:
        for required in ("name", "description", "dice"):
            if required not in fields:
                raise InvalidRules(f"{origin}: missing key {required!r} (or give base = NAME)")
    elif "name" not in fields:
        raise InvalidRules(f"{origin}: missing key 'name'")
    _check_sizes(fields, base, origin)
    dice = _int_field(fields, base, "dice", 1)
    faces = _int_field(fields, base, "faces", 6)
    if "scoring" in data:
        given = _table(data, "scoring")
        scoring = _scoring(given, base, dice=dice, faces=faces)
        fields["scoring"] = scoring
        _check_sizes(fields, base, origin)
        _check_throwable(scoring, given, dice, faces, origin)
    rules = (
        Rules(**fields)  # type: ignore[arg-type]
        if base is None
        else dataclasses.replace(base, **fields)  # type: ignore[arg-type]
    )
    return rules


def _int_field(fields: Mapping[str, object], base: Rules | None, key: str, default: int) -> int:
    given = fields.get(key, getattr(base, key, default))
    return given if isinstance(given, int) else default


def _check_throwable(
    table: ScoringTable, given: Mapping[str, object], dice: int, faces: int, origin: str
) -> None:
    """`InvalidRules` naming the first entry written in the file that can never be thrown."""

    def refuse(entry: str, why: str) -> None:
        raise InvalidRules(f"{origin}: {entry} can never be thrown: {why}")

    on_dice = f"the rules throw {dice} {'die' if dice == 1 else 'dice'}"
    for key in ("singles", "three_of_a_kind_overrides"):
        if key in given:
            for face, points in getattr(table, key):
                if face > faces:
                    refuse(f"scoring.{key}.{face} = {points}", f"the dice have faces 1-{faces}")
    for key, size in (
        ("of_a_kind", 1),
        ("of_a_kind_points", 1),
        ("pairs", 2),
        ("triplets", 3),
        ("straights", 1),
    ):
        if key in given and not isinstance(given[key], str):
            for count, points in getattr(table, key):
                if count * size > dice:
                    refuse(
                        f"scoring.{key}.{count} = {points}", f"it needs {count * size}, {on_dice}"
                    )
                if key == "straights" and count > faces:
                    refuse(f"scoring.{key}.{count} = {points}", f"the dice have faces 1-{faces}")
                if key in ("pairs", "triplets") and count > faces * (
                    2 if key == "pairs" and table.four_of_a_kind_is_two_pairs else 1
                ):
                    refuse(f"scoring.{key}.{count} = {points}", f"the dice have {faces} faces")
    if "four_and_pair" in given and table.four_and_pair and dice < 6:
        refuse(f"scoring.four_and_pair = {table.four_and_pair}", f"it needs 6, {on_dice}")
    if "combinations" in given:
        for number, combo in enumerate(table.extra, start=1):
            label = f"scoring.combinations #{number} {list(combo.dice)!r}"
            if len(combo.dice) > dice:
                refuse(label, f"it needs {len(combo.dice)}, {on_dice}")
            if max(combo.dice) > faces:
                refuse(label, f"the dice have faces 1-{faces}")


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
        ("bank_minimum", value("bank_minimum", 0), MAX_POINTS),
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


def _scoring(
    table: Mapping[str, object], base: Rules | None, *, dice: int, faces: int
) -> ScoringTable:
    _check_keys(table, _SCORING, "scoring.")
    start = base.scoring if base is not None else ScoringTable()
    changes: dict[str, object] = {}
    for key in _PAIR_TABLES:
        if key == "of_a_kind" and isinstance(table.get(key), str):
            changes[key] = _of_a_kind_rule(table[key], dice)
        elif key in table:
            changes[key] = _int_pairs(table, key)
    for key in ("three_of_a_kind", "four_and_pair", "no_score"):
        if key in table:
            changes[key] = _get(table, key, int, "scoring.")
    if "four_of_a_kind_is_two_pairs" in table:
        changes["four_of_a_kind_is_two_pairs"] = _get(
            table, "four_of_a_kind_is_two_pairs", bool, "scoring."
        )
    if "combinations" in table:
        combos = table["combinations"]
        if not isinstance(combos, list):
            raise InvalidRules(f"scoring.combinations = {combos!r}: must be an array of tables")
        extra: list[Combination] = []
        for combo in combos:
            if not isinstance(combo, dict):
                raise InvalidRules(f"scoring.combinations entry {combo!r}: must be a table")
            _check_keys(combo, _COMBINATION, "scoring.combinations.")
            values = combo.get("dice")
            if not isinstance(values, list) or not all(type(d) is int for d in values):
                raise InvalidRules(
                    f"scoring.combinations.dice = {values!r}: must be a list of whole numbers"
                )
            points = _get(combo, "points", int, "scoring.combinations.")
            name = _get(combo, "name", str, "scoring.combinations.") if "name" in combo else ""
            extra.append(Combination(tuple(sorted(values)), points, name))
        changes["extra"] = tuple(extra)
    return dataclasses.replace(start, **changes)  # type: ignore[arg-type]


def _of_a_kind_rule(rule: object, dice: int) -> tuple[tuple[int, int], ...]:
    """The multipliers of ``"additive"`` ((n-2) x the triple) or ``"doubling"`` (x 2 per die)."""
    if rule == "additive":
        return tuple((count, count - 2) for count in range(3, dice + 1))
    if rule == "doubling":
        return tuple((count, 2 ** (count - 3)) for count in range(3, dice + 1))
    allowed = ", ".join(repr(name) for name in _OF_A_KIND_RULES)
    raise InvalidRules(
        f"scoring.of_a_kind = {rule!r}: allowed {allowed} or a table like {{ 3 = 1 }}"
    )


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


def format_rules(rules: Rules) -> str:
    """``rules`` as TOML text, every key written out (no base), that `parse_rules` reads back."""
    table = rules.scoring
    lines = [
        f"name = {_string(rules.name)}",
        f"description = {_string(rules.description)}",
        f"source = {_string(rules.source)}",
        f"dice = {rules.dice}",
        f"faces = {rules.faces}",
        f"keep = {_string(rules.keep.value)}",
        f"hot_dice = {_bool(rules.hot_dice)}",
        f"target = {rules.target}",
        f"end = {_string(rules.end.value)}",
        f"passing = {_bool(rules.passing)}",
        f"hooks = [{', '.join(_string(hook) for hook in rules.hooks)}]",
        f"bank_minimum = {rules.bank_minimum}",
        "",
        "[entry]",
        f"threshold = {rules.entry_threshold}",
        f"applies_to = {_string(rules.entry.value)}",
        "",
        "[scoring]",
    ]
    for key in _PAIR_TABLES:
        pairs: tuple[tuple[int, int], ...] = getattr(table, key)
        lines.append(
            f"{key} = {{ {', '.join(f'{k} = {v}' for k, v in pairs)} }}".replace("{  }", "{}")
        )
    lines += [
        f"three_of_a_kind = {table.three_of_a_kind}",
        f"four_of_a_kind_is_two_pairs = {_bool(table.four_of_a_kind_is_two_pairs)}",
        f"four_and_pair = {table.four_and_pair}",
        f"no_score = {table.no_score}",
    ]
    for combo in table.extra:
        lines += [
            "",
            "[[scoring.combinations]]",
            f"name = {_string(combo.name)}",
            f"dice = {list(combo.dice)!r}",
            f"points = {combo.points}",
        ]
    return "\n".join(lines) + "\n"


def _string(text: str) -> str:
    # A JSON string is a TOML basic string (same escapes).
    return json.dumps(text)


def _bool(value: bool) -> str:
    return "true" if value else "false"
