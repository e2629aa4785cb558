"""`dicekeeper demo --correct`: the simulated people correct misreads through the buttons, and the
demo's last line tallies the reader. The reader here knows the truth and misreads on purpose (a
wrong value every third throw, an unreadable die every fifth), so the tally is known to need all
of its parts."""

from __future__ import annotations

import argparse
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from device.commands import demo
from device.correction import NOT_A_DIE
from device.truth import TruthReader
from device.wiring import Table
from hardware.buttons import Button, ScriptedButtons
from vision.types import Box, DieReading, Frame, Reading

SUMMARY = re.compile(
    r"^reader: (\d+) of (\d+) throws read exactly, (\d+) corrected by the players, "
    r"(\d+) refused and thrown again, (\d+) scored wrongly$"
)


class Misreader:
    """Reads the truth, but every third settled throw with die 1 wrong and every fifth with die 2
    unreadable (the same way each time the same frame is read)."""

    def __init__(self, truth: Callable[[Frame], Reading]) -> None:
        self._truth = truth
        self._seen: dict[bytes, Reading] = {}
        self.misread = self.unreadable = 0

    def __call__(self, frame: Frame) -> Reading:
        key = hashlib.blake2b(frame.tobytes(), digest_size=16).digest()
        if key in self._seen:
            return self._seen[key]
        reading = self._truth(frame)
        if reading.dice:
            number = len(self._seen) + 1
            dice = list(reading.dice)
            if number % 5 == 0 and len(dice) >= 2:
                dice[1] = replace(dice[1], value=None)
                self.unreadable += 1
            elif number % 3 == 0:
                value = dice[0].value or 1
                dice[0] = replace(dice[0], value=value % 6 + 1)
                self.misread += 1
            reading = Reading(tuple(dice))
            self._seen[key] = reading
        return reading


def run_demo(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *options: str
) -> tuple[list[str], Misreader]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    made: list[Misreader] = []
    real_open = demo.open_table

    def open_misreading(config: Any, **kwargs: Any) -> Table:
        truth = TruthReader(kwargs.pop("render"))
        made.append(Misreader(truth.read))
        return real_open(config, read=made[0], render=truth.render, **kwargs)

    monkeypatch.setattr(demo, "open_table", open_misreading)
    parser = argparse.ArgumentParser()
    demo.register(parser.add_subparsers())
    args = parser.parse_args(["demo", "--target", "1500", "--seed", "2", "--fast", *options])
    assert demo.handle(args) == 0
    return capsys.readouterr().out.strip().splitlines(), made[0]


def tally(lines: list[str]) -> tuple[int, ...]:
    match = SUMMARY.match(lines[-1])
    assert match is not None, lines[-3:]
    exact, total, corrected, refused, wrong = map(int, match.groups())
    assert exact + corrected + refused + wrong == total
    return exact, total, corrected, refused, wrong


def test_without_correcting_misreads_are_scored_wrongly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, reader = run_demo(monkeypatch, capsys)
    exact, _, corrected, refused, wrong = tally(lines)
    assert exact > 0 and reader.misread > 0 and reader.unreadable > 0
    assert corrected == 0 and wrong == reader.misread and refused == reader.unreadable


def test_the_players_correct_every_misread_through_the_buttons(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, reader = run_demo(monkeypatch, capsys, "--correct")
    exact, _, corrected, refused, wrong = tally(lines)
    assert exact > 0 and wrong == 0 and refused == 0
    assert corrected == reader.misread + reader.unreadable > 0
    assert lines[-3].startswith("winner: ")
    halves = re.fullmatch(
        r"not read exactly: (\d+) of the first (\d+) throws, (\d+) of the last (\d+)", lines[-2]
    )
    assert halves is not None, lines[-2]
    first, first_total, last, last_total = map(int, halves.groups())
    assert first + last == corrected and first_total + last_total == exact + corrected
    assert first_total in (last_total, last_total - 1)


@pytest.mark.parametrize(
    ("shown", "truth", "presses"),
    [
        ((1, 2, 3), (1, 2, 3), []),
        ((2, 5), (1, 5), ["correct", *["roll"] * 6, "select", "select", "stop"]),
        ((4, None), (4, 1), ["correct", "roll", "select", "select", "stop"]),
        ((3, 6), (3,), ["correct", "select", "roll", "select", "stop"]),
        ((2,), (2, 2), []),
    ],
)
def test_the_presses_a_person_makes(
    shown: Sequence[int | None], truth: Sequence[int], presses: list[str]
) -> None:
    assert NOT_A_DIE == 0
    assert demo.correction_presses(shown, truth) == [Button(p) for p in presses]


@pytest.mark.parametrize(
    ("shown", "truth", "likely", "presses"),
    [
        ((4, None, 2), (4, 5, 2), (None, 5, None), ["correct", "roll", *["select"] * 3]),
        ((None, None), (2, 5), (5, None), ["correct", "roll", "select", "roll", "roll", "select"]),
        ((None,), (3,), (5,), ["correct", *["roll"] * 6, "select"]),  # 5 6 x 1 2 3: a wrong guess
    ],
)
def test_an_unread_die_starts_at_its_likeliest_value(
    shown: Sequence[int | None],
    truth: Sequence[int],
    likely: Sequence[int | None],
    presses: list[str],
) -> None:
    made = demo.correction_presses(shown, truth, replaces=False, likely=likely)
    assert made == [*(Button(p) for p in presses), Button.STOP]


def presses_for_refused(thrown: tuple[int, ...], dice: list[DieReading]) -> list[Button]:
    """The buttons the demo's players press when a reading of ``dice`` of the throw ``thrown``
    is refused."""
    recorder = demo._Recorder(lambda values, seed: [])
    recorder(thrown, 0)
    buttons = ScriptedButtons(clock=lambda: 0.0)
    people = demo._Players(recorder, buttons, correct=True)
    people.on_refused(Reading(tuple(dice)))
    return [event.button for event in buttons.poll()]


def _die(value: int | None) -> DieReading:
    return DieReading(value, (5.0, 5.0), Box(0, 0, 10, 10), 1.0)


def test_the_players_fix_a_refused_die_from_its_likeliest_value() -> None:
    dice = [_die(4), replace(_die(None), likely=5), _die(2)]
    pressed = presses_for_refused((4, 5, 2), dice)
    assert pressed == [Button.CORRECT, Button.ROLL, *[Button.SELECT] * 3, Button.STOP]


def test_the_players_add_a_die_the_reader_missed() -> None:
    pressed = presses_for_refused((4, 5, 2), [_die(4), _die(2)])  # the added third die: 1 -> 5
    assert pressed == [Button.CORRECT, *[Button.ROLL] * 5, *[Button.SELECT] * 3, Button.STOP]
