"""Events serialise to JSON and back; malformed JSON is refused with a named problem."""

from __future__ import annotations

import json

import pytest

from engine.errors import InvalidEvent
from engine.events import (
    EVENT_TYPES,
    Banked,
    Corrected,
    Event,
    Kept,
    PassDeclined,
    PassTaken,
    PlayerAdded,
    PlayerRemoved,
    Restarted,
    Thrown,
    TurnSkipped,
    event_from_json,
)

EXAMPLES: list[Event] = [
    PlayerAdded("Ann"),
    PlayerRemoved("Ann"),
    Thrown("Ann", (1, 5, 3)),
    Corrected("Ann", (0, 5, 3), (1, 5, 3), "buttons"),
    Kept("Ann", (1, 5)),
    Banked("Ann", 150),
    PassTaken("Bob"),
    PassDeclined("Bob"),
    TurnSkipped("Bob"),
    Restarted(),
]


def test_every_event_type_has_an_example() -> None:
    assert {type(event) for event in EXAMPLES} == set(EVENT_TYPES.values())


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: e.type)
def test_json_round_trip(event: Event) -> None:
    data = json.loads(json.dumps(event.to_json()))
    assert data["type"] == event.type
    assert event_from_json(data) == event


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"type": "jumped"}, "unknown event type 'jumped'"),
        ({"type": "thrown", "player": "Ann"}, "lacks the key 'dice'"),
        ({"type": "thrown", "player": "Ann", "dice": [1, "2"]}, "dice must be"),
        ({"type": "banked", "player": "Ann", "points": "150"}, "points must be"),
        (
            {"type": "corrected", "player": "Ann", "read": [-1], "dice": [1], "by": "keyboard"},
            "read must be",
        ),
        ({"type": "player_added", "name": 3}, "name must be a string"),
        ({"type": "restarted", "extra": 1}, "unknown keys"),
    ],
)
def test_bad_json_is_refused(data: object, message: str) -> None:
    with pytest.raises(InvalidEvent, match=message):
        event_from_json(data)
