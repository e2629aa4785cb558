"""Control requests from the web, checked and applied on the table's thread through the same
controller paths as the buttons and the menu, so a refusal carries the buttons' message.

`parse(kind, body)` checks a request's JSON body (`BadRequest` for a missing or wrong field) and
returns an action for `device.web.bridge.WebBridge.submit`; the action runs in the table's step
and returns an `Outcome`: accepted or refused, the table's message, and the view after it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from device.computer import display_name, find_computer
from device.config import COMPUTER_PREFIX, name_problem
from device.correction import NOT_A_DIE, Point
from device.menu import Action, MenuItem
from device.session import rules_for
from engine.errors import DicekeeperError
from engine.rules import rules_names
from hardware.buttons import Button
from hardware.view import TableView

if TYPE_CHECKING:
    from device.controller import Controller

__all__ = ["KINDS", "BadRequest", "Outcome", "parse"]

CORRECTED_BY = "web"
"""Who corrected, as stored with a correction made from the web page."""
MAX_DICE = 20


class BadRequest(ValueError):
    """A control request whose body is not what the endpoint takes (HTTP 400)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the table made of a request: ``ok`` (else refused), its message, the view after."""

    ok: bool
    message: str
    view: TableView


Step = Callable[["Controller", float], None]


def parse(kind: str, body: object) -> Callable[[Controller, float], Outcome]:
    """The action of the request ``kind`` (one of `KINDS`) with JSON ``body``."""
    if not isinstance(body, Mapping):
        raise BadRequest("the body must be a JSON object")
    if kind not in _PARSERS:
        raise BadRequest(f"no control request {kind!r}")
    step = _PARSERS[kind](body)
    return lambda controller, now: _perform(controller, now, step)


def _perform(controller: Controller, now: float, step: Step) -> Outcome:
    if controller.is_correcting:
        message = "the dice are being corrected at the table: finish there first"
        return Outcome(False, message, controller.view())
    if controller.in_menu:  # the phone takes over: the menu left open at the table closes
        controller.close_menu()
    before = controller.refusals
    step(controller, now)
    view = controller.view()
    return Outcome(controller.refusals == before, view.message, view)


def _only(body: Mapping[str, object], *keys: str) -> None:
    unknown = sorted(set(body) - set(keys))
    if unknown:
        allowed = ", ".join(map(repr, keys)) or "none"
        raise BadRequest(f"unknown field {unknown[0]!r} (allowed: {allowed})")


def _press(button: Button) -> Callable[[Mapping[str, object]], Step]:
    def parse_press(body: Mapping[str, object]) -> Step:
        _only(body)
        return lambda controller, now: controller.press(button, now)

    return parse_press


def _keep(body: Mapping[str, object]) -> Step:
    _only(body, "option")
    option = body.get("option")
    if isinstance(option, bool) or not isinstance(option, int) or option < 0:
        raise BadRequest(f"option = {option!r}: expected the index of a keep (0, 1, ...)")
    return lambda controller, now: controller.select_keep(option, now)


def _correct(body: Mapping[str, object]) -> Step:
    _only(body, "dice", "at")
    dice = body.get("dice")
    if not isinstance(dice, list) or not 1 <= len(dice) <= MAX_DICE:
        raise BadRequest(f"dice = {dice!r}: expected a list of 1 to {MAX_DICE} values")
    values: list[int] = []
    for value in dice:
        if value is None:
            values.append(NOT_A_DIE)
        elif isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
            values.append(value)
        else:
            raise BadRequest(f"dice: {value!r} is not a die's value (1 to 6, or null: not a die)")
    at = _points(body.get("at", []), len(values))
    return lambda controller, now: controller.correct_to(values, CORRECTED_BY, at=at)


def _points(at: object, count: int) -> tuple[Point | None, ...]:
    """The ``at`` of a correction: for each die, null or where the players pointed at it on the
    tray's picture ([x, y], fractions of its width and height)."""
    if not isinstance(at, list) or len(at) not in (0, count):
        raise BadRequest(f"at = {at!r}: expected one point or null for each of the {count} dice")
    points: list[Point | None] = []
    for point in at:
        if point is None:
            points.append(None)
            continue
        if (
            not isinstance(point, list)
            or len(point) != 2
            or not all(
                isinstance(c, int | float) and not isinstance(c, bool) and 0 <= c <= 1
                for c in point
            )
        ):
            raise BadRequest(f"at: {point!r} is not a point on the picture ([x, y], 0 to 1)")
        points.append((float(point[0]), float(point[1])))
    return tuple(points)


def _players(body: Mapping[str, object]) -> Step:
    _only(body, "add", "remove")
    if len(body) != 1:
        raise BadRequest('expected {"add": NAME} or {"remove": NAME}')
    ((key, name),) = body.items()
    if not isinstance(name, str):
        raise BadRequest(f"{key} = {name!r}: expected a player's name")
    if key == "remove":
        return lambda controller, now: controller.choose(MenuItem("", Action.REMOVE, name))
    if name.startswith(COMPUTER_PREFIX):
        spec = name[len(COMPUTER_PREFIX) :].strip()
        try:
            find_computer(spec)
        except DicekeeperError as exc:
            raise BadRequest(str(exc)) from None
        seat, strategy = display_name(spec), spec
    else:
        seat, strategy = name.strip(), None
    problem = name_problem(seat)
    if problem is not None:
        raise BadRequest(f"the name {problem}")
    item = MenuItem("", Action.ADD, seat, strategy)
    return lambda controller, now: controller.choose(item)


def _rules(body: Mapping[str, object]) -> Step:
    _only(body, "rules")
    name = body.get("rules")
    playable = [r for r in rules_names() if rules_for(r).faces == 6]
    if not isinstance(name, str) or name not in playable:
        raise BadRequest(f"rules = {name!r}: choose one of {', '.join(playable)}")
    return lambda controller, now: controller.choose(MenuItem("", Action.RULES, name))


def _new_game(body: Mapping[str, object]) -> Step:
    _only(body)
    return lambda controller, now: controller.choose(MenuItem("", Action.NEW_GAME))


_PARSERS: dict[str, Callable[[Mapping[str, object]], Step]] = {
    "correct": _correct,
    "keep": _keep,
    "roll": _press(Button.ROLL),
    "bank": _press(Button.STOP),
    "players": _players,
    "rules": _rules,
    "new-game": _new_game,
}
KINDS = tuple(_PARSERS)
"""The control endpoints: ``POST /api/KIND``."""
