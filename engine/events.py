"""Game events: one frozen value per accepted request, each round-tripping through JSON.

``event.to_json()`` gives a plain dict (``{"type": "thrown", "player": "Ann", "dice": [1, 5]}``);
`event_from_json` turns such a dict back into the event, raising `InvalidEvent` on anything else.
Replaying the events in order (`engine.game.Game.replay`) rebuilds the game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import InvalidEvent

JsonValue = str | int | list[int]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of the events; ``type`` names the event in its JSON form."""

    type: ClassVar[str] = ""

    def to_json(self) -> dict[str, JsonValue]:
        """This event as a JSON-ready dict with a ``"type"`` key."""
        data: dict[str, JsonValue] = {"type": self.type}
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            data[item.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class PlayerAdded(Event):
    """A player joined, at the end of the turn order."""

    type: ClassVar[str] = "player_added"
    name: str


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    """A player left (between turns); their history goes with them."""

    type: ClassVar[str] = "player_removed"
    name: str


@dataclass(frozen=True, slots=True)
class Thrown(Event):
    """The current player threw these values (read by the camera or drawn by the engine)."""

    type: ClassVar[str] = "thrown"
    player: str
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Corrected(Event):
    """The players corrected the last throw of ``player``: it showed ``dice``, not what was read.

    ``read`` is the reading as the camera read it (0 for a die it could not read), ``by`` who
    corrected ("buttons", "keyboard", "web"). Allowed until the table moves on (see
    `engine.state.GameState.can_correct`); replay puts ``dice`` in place of the last throw.
    """

    type: ClassVar[str] = "corrected"
    player: str
    read: tuple[int, ...]
    dice: tuple[int, ...]
    by: str


@dataclass(frozen=True, slots=True)
class Kept(Event):
    """The current player set these scoring dice aside (rules where the player chooses)."""

    type: ClassVar[str] = "kept"
    player: str
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Banked(Event):
    """The current player banked the turn total ``points``."""

    type: ClassVar[str] = "banked"
    player: str
    points: int


@dataclass(frozen=True, slots=True)
class PassTaken(Event):
    """The current player took over the dice and turn total the previous player passed."""

    type: ClassVar[str] = "pass_taken"
    player: str


@dataclass(frozen=True, slots=True)
class PassDeclined(Event):
    """The current player declined the passed dice and will throw all dice fresh."""

    type: ClassVar[str] = "pass_declined"
    player: str


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """The current player's turn ended without scoring, on request (go to the next player)."""

    type: ClassVar[str] = "turn_skipped"
    player: str


@dataclass(frozen=True, slots=True)
class Restarted(Event):
    """The game started again: same players and order, empty histories."""

    type: ClassVar[str] = "restarted"


EVENT_TYPES: dict[str, type[Event]] = {
    kind.type: kind
    for kind in (
        PlayerAdded,
        PlayerRemoved,
        Thrown,
        Corrected,
        Kept,
        Banked,
        PassTaken,
        PassDeclined,
        TurnSkipped,
        Restarted,
    )
}


def event_from_json(data: object) -> Event:
    """The event a `Event.to_json` dict describes; `InvalidEvent` naming what is wrong."""
    if not isinstance(data, dict):
        raise InvalidEvent(f"an event must be a JSON object, got {data!r}")
    kind = EVENT_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if kind is None:
        known = ", ".join(EVENT_TYPES)
        raise InvalidEvent(f"unknown event type {data.get('type')!r}: known types are {known}")
    names = {item.name: item for item in dataclasses.fields(kind)}
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise InvalidEvent(f"event {data!r} has unknown keys {sorted(extra)!r}")
    values: dict[str, object] = {}
    for name in names:
        if name not in data:
            raise InvalidEvent(f"event {data!r} lacks the key {name!r}")
        value = data[name]
        if name == "dice":
            if not isinstance(value, list) or not all(type(v) is int and v >= 1 for v in value):
                raise InvalidEvent(f"event {data!r}: dice must be a list of whole numbers >= 1")
            value = tuple(value)
        elif name == "read":
            if not isinstance(value, list) or not all(type(v) is int and v >= 0 for v in value):
                raise InvalidEvent(f"event {data!r}: read must be a list of whole numbers >= 0")
            value = tuple(value)
        elif name == "points":
            if type(value) is not int:
                raise InvalidEvent(f"event {data!r}: points must be a whole number")
        elif not isinstance(value, str):
            raise InvalidEvent(f"event {data!r}: {name} must be a string")
        values[name] = value
    return kind(**values)
