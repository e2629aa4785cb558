"""Fixtures of the device tests: a fake clock for `dicekeeper calibrate` that moves only when slept
on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from device.commands import calibrate as command


class FakeTime:
    """A clock that moves only when slept on; ``on_sleep`` runs at each sleep (a person)."""

    def __init__(self, on_sleep: Callable[[int], None] = lambda number: None) -> None:
        self.now = 0.0
        self.sleeps = 0
        self.on_sleep = on_sleep

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps += 1
        self.now += seconds
        self.on_sleep(self.sleeps)


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """`dicekeeper calibrate`'s clock and sleep replaced by a `FakeTime`."""
    fake = FakeTime()
    monkeypatch.setattr(command, "_clock", fake.clock)
    monkeypatch.setattr(command, "_sleep", fake.sleep)
    return fake
