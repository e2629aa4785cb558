"""engine.tomltable: one line per bad key, naming it, its value and what is expected, raised as the
caller's error; unknown keys with a hint."""

from __future__ import annotations

import pytest

from engine.errors import InvalidRules
from engine.rules_toml import parse_rules
from engine.tomltable import Table


class Oops(ValueError):
    """The caller's error class."""


def test_getters_give_values_and_defaults() -> None:
    t = Table("camera", {"width": 640, "fps": 2.5, "on": True, "names": [" a "]}, Oops)
    assert t.integer("width", 1, low=64) == 640
    assert t.number("fps", 1.0) == 2.5
    assert t.boolean("on", False) is True
    assert t.strings("names") == ("a",)
    assert t.string("absent", "x") == "x"
    t.finish()


@pytest.mark.parametrize(
    ("data", "read", "message"),
    [
        (
            {"width": "x"},
            lambda t: t.integer("width", 0),
            "camera.width = 'x': expected a whole number",
        ),
        ({"width": True}, lambda t: t.integer("width", 0), "camera.width = True: expected a whole"),
        (
            {"width": 10},
            lambda t: t.integer("width", 0, low=64),
            "= 10: allowed values are at least 64",
        ),
        ({"on": 1}, lambda t: t.boolean("on", False), "camera.on = 1: expected true or false"),
        (
            {"s": "b"},
            lambda t: t.string("s", "", choices=("a",)),
            "camera.s = 'b': allowed values are 'a'",
        ),
        (
            {"d": [1, "2"]},
            lambda t: t.integers("d"),
            "camera.d = [1, '2']: expected a list of whole",
        ),
        ({"p": {"a": 1}}, lambda t: t.numbered("p"), "camera.p.a = 1: expected whole numbers"),
        ({"p": 3}, lambda t: t.numbered("p"), "camera.p = 3: expected a table like { 1 = 100 }"),
        (
            {"x": {"k": 1}},
            lambda t: t.tables("x"),
            "camera.x = {'k': 1}: expected an array of tables",
        ),
        ({"x": [3]}, lambda t: t.tables("x"), "[camera.x[1]] must be a table, not 3"),
        ({}, lambda t: t.require("kind"), "camera.kind is missing"),
        (
            {"widht": 1},
            lambda t: (t.integer("width", 0), t.finish()),
            "unknown key 'camera.widht': did you mean 'width'?",
        ),
    ],
)
def test_a_bad_value_raises_the_callers_error_naming_the_key(
    data: dict[str, object], read: object, message: str
) -> None:
    table = Table("camera", data, Oops)
    with pytest.raises(Oops) as info:
        read(table)  # type: ignore[operator]
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_sub_tables_raise_the_same_error() -> None:
    with pytest.raises(Oops, match=r"^a\.b\.c = 'x': expected a whole number$"):
        Table("a", {"b": {"c": "x"}}, Oops).table("b").integer("c", 0)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[[scoring.combinations]]\ndice = [1, 2]", "scoring.combinations[1].points is missing"),
        (
            "[[scoring.combinations]]\ndice = [1, 'a']\npoints = 5",
            "combinations[1].dice = [1, 'a']",
        ),
        (
            "[[scoring.combinations]]\ndice = [1]\npoints = 5\nbonus = 1",
            "'scoring.combinations[1].bonus'",
        ),
        ("[entry]\nthreshold = 'high'", "entry.threshold = 'high': expected a whole number"),
    ],
)
def test_rule_files_name_the_file_and_the_key(body: str, message: str) -> None:
    with pytest.raises(InvalidRules) as info:
        parse_rules('name = "x"\nbase = "farkle"\n' + body, origin="mine.toml")
    assert str(info.value).startswith("mine.toml: ")
    assert message in str(info.value)
