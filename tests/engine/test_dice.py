"""The `Throw` value: text round trip and validation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import Throw
from engine.errors import InvalidThrow


@given(st.lists(st.integers(1, 20), min_size=1, max_size=8))
def test_text_round_trip(values: list[int]) -> None:
    throw = Throw(tuple(values))
    assert Throw.from_str(str(throw)) == throw


@pytest.mark.parametrize(
    ("text", "values"),
    [("11345", (1, 1, 3, 4, 5)), ("1-10-11", (1, 10, 11)), (" 6, 6 ,1 ", (6, 6, 1)), ("3", (3,))],
)
def test_from_str(text: str, values: tuple[int, ...]) -> None:
    assert Throw.from_str(text).values == values


@pytest.mark.parametrize("text", ["", "  ", "12a", "1.5", "-", "０"])
def test_from_str_rejects(text: str) -> None:
    with pytest.raises(InvalidThrow, match="dice"):
        Throw.from_str(text)


def test_check_against_the_dice() -> None:
    with pytest.raises(InvalidThrow, match=r"die value 7 in '11347' is impossible on 6-faced"):
        Throw.from_str("11347").check(faces=6)
    with pytest.raises(InvalidThrow, match="expected 5 dice, got 3"):
        Throw.from_str("113").check(faces=6, count=5)
    with pytest.raises(InvalidThrow, match="at most 5 dice"):
        Throw.from_str("113455").check(faces=6, max_count=5)
    with pytest.raises(InvalidThrow, match="0"):
        Throw((1, 0))
    assert Throw.from_str("11345").check(faces=6, count=5).sorted == (1, 1, 3, 4, 5)
