"""Every table of the configuration rejects a key it does not know, naming the key in full.

A typo under any table (``[game]``, ``[players]``, ``[camera]``, ``[buttons]``, ``[buttons.pins]``,
each ``[[display]]``, ``[system]``, ``[state]`` or the top level) must stop the start-up with a
`ConfigError` that names it, never be ignored silently.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator, MutableMapping
from pathlib import Path

import pytest

from device.config import ConfigError, load_config, parse_config

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "config.example.toml"

# (where the key goes, the typo, its full dotted name, the known key it is close to)
TYPOS = [
    ((), "gmae", "gmae", "game"),
    (("game",), "rulez", "game.rulez", "rules"),
    (("game",), "targett", "game.targett", "target"),
    (("players",), "hint", "players.hint", "hints"),
    (("players",), "computer", "players.computer", "computers"),
    (("camera",), "widht", "camera.widht", "width"),
    (("camera",), "settle_second", "camera.settle_second", "settle_seconds"),
    (("buttons",), "debounse", "buttons.debounse", "debounce"),
    (("buttons",), "long_pres", "buttons.long_pres", "long_press"),
    (("buttons", "pins"), "rol", "buttons.pins.rol", "roll"),
    (("buttons", "pins"), "selekt", "buttons.pins.selekt", "select"),
    (("system",), "shutdwn", "system.shutdwn", "shutdown"),
    (("state",), "directroy", "state.directroy", "directory"),
]


def _with(path: tuple[str, ...], key: str, value: object) -> dict[str, object]:
    data: dict[str, object] = {}
    table: MutableMapping[str, object] = data
    for name in path:
        inner: dict[str, object] = {}
        table[name] = inner
        table = inner
    table[key] = value
    return data


@pytest.mark.parametrize(("path", "key", "full", "close"), TYPOS, ids=lambda v: str(v))
def test_a_typo_in_any_table_is_rejected_with_the_close_key(
    path: tuple[str, ...], key: str, full: str, close: str
) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(_with(path, key, 1), environ={})
    message = str(error.value)
    assert repr(full) in message
    assert f"did you mean {close!r}" in message


@pytest.mark.parametrize(
    "path",
    [
        (),
        ("game",),
        ("players",),
        ("camera",),
        ("buttons",),
        ("buttons", "pins"),
        ("system",),
        ("state",),
    ],
    ids=lambda p: ".".join(p) or "top",
)
def test_an_unrelated_key_is_rejected_listing_the_known_ones(path: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(_with(path, "zzzzzz", True), environ={})
    message = str(error.value)
    full = ".".join((*path, "zzzzzz"))
    assert f"unknown key {full!r}" in message
    assert "known keys:" in message


@pytest.mark.parametrize("number", [1, 2])
def test_a_typo_in_any_display_is_rejected(number: int) -> None:
    displays: list[dict[str, object]] = [{"kind": "oled"}, {"kind": "screen"}]
    displays[number - 1]["fulscreen"] = True
    with pytest.raises(ConfigError) as error:
        parse_config({"display": displays}, environ={})
    assert f"'display[{number}].fulscreen'" in str(error.value)
    assert "did you mean 'fullscreen'" in str(error.value)


def _tables(
    data: MutableMapping[str, object], path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], MutableMapping[str, object]]]:
    """Every table of parsed TOML (array-of-tables entries by index), the top level first."""
    yield path, data
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _tables(value, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    yield from _tables(item, (*path, key, index))


def _example_tables() -> list[tuple[str | int, ...]]:
    return [path for path, _ in _tables(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))]


def test_the_example_has_every_table() -> None:
    found = {tuple(p for p in path if isinstance(p, str)) for path in _example_tables()}
    expected = {(), ("game",), ("players",), ("camera",), ("buttons",), ("buttons", "pins")}
    expected |= {("display",), ("system",), ("state",)}
    assert expected <= found


@pytest.mark.parametrize("where", _example_tables(), ids=lambda p: ".".join(map(str, p)) or "top")
def test_an_unknown_key_in_each_table_of_the_example_file_is_rejected(
    where: tuple[str | int, ...],
) -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    load_config(EXAMPLE, environ={})  # the example itself is valid
    broken = copy.deepcopy(data)
    table: object = broken
    for step in where:
        table = table[step]  # type: ignore[index]
    assert isinstance(table, dict)
    table["not_a_setting"] = 1
    with pytest.raises(ConfigError) as error:
        parse_config(broken, environ={})
    name = "".join(
        f"[{step + 1}]" if isinstance(step, int) else f".{step}" for step in where
    ).lstrip(".")
    full = f"{name}.not_a_setting" if name else "not_a_setting"
    assert f"unknown key {full!r}" in str(error.value)


def test_the_file_name_is_in_the_message(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('[game]\nrules = "greed"\nplayerz = ["Ann"]\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(file, environ={})
    assert str(file) in str(error.value) and "'game.playerz'" in str(error.value)
    assert "did you mean 'players'" in str(error.value)
