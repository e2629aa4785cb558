"""Fixtures of the hardware tests: a fake clock (SDL and mock pins come from tests/conftest.py)."""

from __future__ import annotations

import pytest


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
