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
target, target_passed (the target must be passed, not reached), end ("round" | "last-turn" |
"immediate"), passing, pass_to_entered (only a player who has banked is offered the pass),
inherited_enters (points taken over count toward the entry threshold; default true),
bank_minimum (the least turn total any bank needs), every_die_scores (a throw busts unless every
die scores), instant_win and wipe_out (lists of dice lists: a throw holding one wins the game at
once, or loses the thrower's whole score), hooks (named rules beyond data, see
`engine.rules.HOOKS`: ``hooks = ["zilch-penalty"]``), and the tables penalty (``points``, every
``busts``-th bust in a row, default 3; ``below_zero``), entry and scoring.
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

from engine.errors import InvalidRules, UnknownRules
from engine.rules import (
    SWITCHES,
    Combination,
    EndRule,
    EntryRule,
    KeepRule,
    Rules,
    ScoringTable,
    find_rules,
)
from engine.tomltable import Table

_PAIR_TABLES = (
    "singles", "three_of_a_kind_overrides", "of_a_kind", "of_a_kind_points", "pairs", "triplets",
    "straights",
)  # fmt: skip
_OF_A_KIND_RULES = ("additive", "doubling")

MAX_DICE = 10
MAX_FACES = 20
MAX_THROWS = 5005
"""Different throws of all the dice (multisets): 6 dice of 10 faces, 10 of 6; 6d6 has 462."""
MAX_POINTS = 1_000_000
MAX_COMBINATIONS = 500
"""Spelt-out combinations: a boxed rule sheet written one combination at a time needs about 90;
500 on six dice score every throw in about a second."""

E = TypeVar("E", KeepRule, EntryRule, EndRule)


def parse_rules(text: str, *, origin: str = "<rules>") -> Rules:
    """A rule set from TOML text.

    Raises `InvalidRules` (`UnknownRules` for an unknown ``base``), one line naming ``origin``, the
    key, the value and what is allowed (the messages of `engine.tomltable.Table`).
    """
    try:
        return _parse_rules(text)
    except (InvalidRules, UnknownRules) as exc:
        raise type(exc)(f"{origin}: {exc}") from None


def _parse_rules(text: str) -> Rules:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidRules(f"not valid TOML: {exc}") from None
    top = Table("", data, InvalidRules)
    base = find_rules(top.string("base", "")) if top.has("base") else None
    fields: dict[str, object] = {}
    for key in ("name", "description", "source"):
        if top.has(key):
            fields[key] = top.string(key, "")
    for key in ("dice", "faces", "target", "bank_minimum"):
        if top.has(key):
            fields[key] = top.integer(key, 0)
    for key in SWITCHES:
        if top.has(key):
            fields[key] = top.boolean(key, False)
    for key in ("instant_win", "wipe_out"):
        if top.has(key):
            fields[key] = _dice_lists(top, key)
    if top.has("penalty"):
        penalty = top.table("penalty")
        penalty.require("points")
        fields["penalty_points"] = penalty.integer("points", 0, low=0, high=MAX_POINTS)
        if penalty.has("busts"):
            fields["penalty_busts"] = penalty.integer("busts", 3, low=1, high=100)
        if penalty.has("below_zero"):
            fields["below_zero"] = penalty.boolean("below_zero", False)
        penalty.finish()
    if top.has("hooks"):
        fields["hooks"] = top.strings("hooks")
    if top.has("keep"):
        fields["keep"] = _enum(top, "keep", KeepRule)
    if top.has("end"):
        fields["end"] = _enum(top, "end", EndRule)
    if top.has("entry"):
        entry = top.table("entry")
        if entry.has("threshold"):
            fields["entry_threshold"] = entry.integer("threshold", 0)
        if entry.has("applies_to"):
            fields["entry"] = _enum(entry, "applies_to", EntryRule)
        entry.finish()
    given = top.table("scoring") if top.has("scoring") else None
    top.finish()
    if base is None:
        for required in ("name", "description", "dice"):
            if required not in fields:
                raise InvalidRules(f"missing key {required!r} (or give base = NAME)")
    elif "name" not in fields:
        raise InvalidRules("missing key 'name'")
    _check_sizes(fields, base)
    dice = _int_field(fields, base, "dice", 1)
    faces = _int_field(fields, base, "faces", 6)
    if given is not None:
        scoring, written = _scoring(given, base, dice=dice)
        fields["scoring"] = scoring
        _check_sizes(fields, base)
        _check_throwable(scoring, written, dice, faces)
    rules = (
        Rules(**fields)  # type: ignore[arg-type]
        if base is None
        else dataclasses.replace(base, **fields)  # type: ignore[arg-type]
    )
    return rules


def _dice_lists(table: Table, key: str) -> tuple[tuple[int, ...], ...]:
    """A list of dice lists (``[[1, 1], [6, 6, 6]]``), each sorted."""
    value = table.raw(key)
    if not isinstance(value, list) or not all(
        isinstance(dice, list)
        and dice
        and all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
        for dice in value
    ):
        raise table.refuse(key, value, "expected a list of dice lists, like [[1, 1, 1, 1, 1, 1]]")
    return tuple(tuple(sorted(dice)) for dice in value)


def _int_field(fields: Mapping[str, object], base: Rules | None, key: str, default: int) -> int:
    given = fields.get(key, getattr(base, key, default))
    return given if isinstance(given, int) else default


def _check_throwable(table: ScoringTable, written: set[str], dice: int, faces: int) -> None:
    """`InvalidRules` naming the first entry ``written`` in the file that can never be thrown."""

    def refuse(entry: str, why: str) -> None:
        raise InvalidRules(f"{entry} can never be thrown: {why}")

    on_dice = f"the rules throw {dice} {'die' if dice == 1 else 'dice'}"
    for key in ("singles", "three_of_a_kind_overrides"):
        if key in written:
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
        if key in written:
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
    if "four_and_pair" in written and table.four_and_pair and dice < 6:
        refuse(f"scoring.four_and_pair = {table.four_and_pair}", f"it needs 6, {on_dice}")
    if "combinations" in written:
        for number, combo in enumerate(table.extra, start=1):
            label = f"scoring.combinations #{number} {list(combo.dice)!r}"
            if len(combo.dice) > dice:
                refuse(label, f"it needs {len(combo.dice)}, {on_dice}")
            if max(combo.dice) > faces:
                refuse(label, f"the dice have faces 1-{faces}")


def _check_sizes(fields: Mapping[str, object], base: Rules | None) -> None:
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
            raise InvalidRules(f"{key} = {number!r}: at most {high:,}")
    throws = math.comb(dice + faces - 1, dice) if dice >= 1 and faces >= 1 else 0
    if throws > MAX_THROWS:
        raise InvalidRules(
            f"dice = {dice!r} of faces = {faces!r} make {throws:,} different throws, "
            f"at most {MAX_THROWS:,} (e.g. 6 dice of 10 faces, or 10 of 6)"
        )
    scoring = fields.get("scoring")
    if isinstance(scoring, ScoringTable) and len(scoring.extra) > MAX_COMBINATIONS:
        raise InvalidRules(f"{len(scoring.extra)} scoring.combinations: at most {MAX_COMBINATIONS}")


def _scoring(table: Table, base: Rules | None, *, dice: int) -> tuple[ScoringTable, set[str]]:
    """The scoring table: ``base``'s with what ``table`` gives, and the count-keyed entries
    written in the file (for `_check_throwable`)."""
    start = base.scoring if base is not None else ScoringTable()
    changes: dict[str, object] = {}
    written: set[str] = set()
    for key in _PAIR_TABLES:
        if key == "of_a_kind" and isinstance(table.raw(key), str):
            changes[key] = _of_a_kind_rule(table, dice)
        elif table.has(key):
            changes[key] = table.numbered(key)
            written.add(key)
    for key in ("three_of_a_kind", "four_and_pair", "no_score"):
        if table.has(key):
            changes[key] = table.integer(key, 0)
            written.add(key)
    if table.has("four_of_a_kind_is_two_pairs"):
        changes["four_of_a_kind_is_two_pairs"] = table.boolean("four_of_a_kind_is_two_pairs", False)
    if table.has("combinations"):
        extra: list[Combination] = []
        for combo in table.tables("combinations"):
            combo.require("dice", "points")
            dice_values = combo.integers("dice")
            extra.append(
                Combination(
                    tuple(sorted(dice_values)), combo.integer("points", 0), combo.string("name", "")
                )
            )
            combo.finish()
        changes["extra"] = tuple(extra)
        written.add("combinations")
    table.finish()
    return dataclasses.replace(start, **changes), written  # type: ignore[arg-type]


def _of_a_kind_rule(table: Table, dice: int) -> tuple[tuple[int, int], ...]:
    """The multipliers of ``"additive"`` ((n-2) x the triple) or ``"doubling"`` (x 2 per die)."""
    rule = table.string("of_a_kind", "")
    if rule == "additive":
        return tuple((count, count - 2) for count in range(3, dice + 1))
    if rule == "doubling":
        return tuple((count, 2 ** (count - 3)) for count in range(3, dice + 1))
    allowed = ", ".join(repr(name) for name in _OF_A_KIND_RULES)
    raise table.refuse(
        "of_a_kind", rule, f"allowed values are {allowed} or a table like {{ 3 = 1 }}"
    )


def _enum(table: Table, key: str, kind: type[E]) -> E:
    return kind(table.string(key, "", choices=[member.value for member in kind]))


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
        f"target_passed = {_bool(rules.target_passed)}",
        f"pass_to_entered = {_bool(rules.pass_to_entered)}",
        f"inherited_enters = {_bool(rules.inherited_enters)}",
        f"every_die_scores = {_bool(rules.every_die_scores)}",
        f"instant_win = {_lists(rules.instant_win)}",
        f"wipe_out = {_lists(rules.wipe_out)}",
        "",
        "[penalty]",
        f"points = {rules.penalty_points}",
        f"busts = {rules.penalty_busts}",
        f"below_zero = {_bool(rules.below_zero)}",
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


def _lists(dice: tuple[tuple[int, ...], ...]) -> str:
    return "[" + ", ".join(repr(list(one)) for one in dice) + "]"


def _bool(value: bool) -> str:
    return "true" if value else "false"
