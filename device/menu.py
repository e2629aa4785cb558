"""The table's menu (long press on SELECT): its items and what each one asks the controller to do.

SELECT moves to the next item, ROLL chooses it, STOP (or another long press) closes the menu.
"""

from __future__ import annotations

import enum
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from device.computer import display_name
from device.store import GameStore, StoredGame, StoreError

__all__ = ["Action", "MenuItem", "finished_count", "history_items", "main_menu", "submenu"]


class Action(enum.Enum):
    """What choosing a menu item does."""

    CLOSE = "close"
    OPEN = "open"
    BACK = "back"
    ADD = "add"
    REMOVE = "remove"
    RULES = "rules"
    NEW_GAME = "new game"
    HISTORY = "history"
    HINTS = "hints"
    ADAPT = "adapt"
    CALIBRATE = "calibrate"
    SHUT_DOWN = "shut down"


@dataclass(frozen=True, slots=True)
class MenuItem:
    """One line of the menu: its label, its action, and the action's argument.

    ``name`` is the player to add or remove, or the rule set to choose; ``strategy`` the computer
    player's spec when adding a computer.
    """

    label: str
    action: Action
    name: str = ""
    strategy: str | None = None
    children: tuple[MenuItem, ...] = ()
    """The items of a sub-menu (action OPEN)."""


def main_menu(
    *,
    seated: Sequence[str],
    people: Sequence[str],
    computers: Sequence[str],
    rules: str,
    rule_sets: Sequence[str],
    hints: bool = False,
    adapt: bool = False,
    joining: Sequence[str] = (),
) -> tuple[MenuItem, ...]:
    """The menu: close, add a player (people, a guest, computers), remove a player, rules (every
    one of ``rule_sets`` and the game's own ``rules``, marked "now"; choosing one starts a new
    game), new game, history, hints on/off, adapt the reader to the kept photos (when
    ``adapt``), calibrate the camera, shut down; the lists are sub-menus. People already seated
    are not offered again, nor those waiting to join (``joining``)."""
    taken = {name.casefold() for name in (*seated, *joining)}
    adds = [MenuItem(f"Add {p}", Action.ADD, p) for p in people if p.casefold() not in taken]
    guest = next(f"Guest {n}" for n in range(1, 100) if f"guest {n}" not in taken)
    adds.append(MenuItem(f"Add {guest.lower()}", Action.ADD, guest))
    for spec in computers:
        name = display_name(spec)
        if name.casefold() not in taken:
            adds.append(MenuItem(f"Add computer {name}", Action.ADD, name, spec))
    removes = [MenuItem(f"Remove {name}", Action.REMOVE, name) for name in seated]
    listed = rule_sets if rules in rule_sets else [rules, *rule_sets]  # the game's own file too
    choices = [
        MenuItem(f"Rules: {r}{' (now)' if r == rules else ''}", Action.RULES, r) for r in listed
    ]
    items = [
        MenuItem("Close menu", Action.CLOSE),
        MenuItem("Add player...", Action.OPEN, children=tuple(adds)),
        MenuItem("Remove player...", Action.OPEN, children=tuple(removes)),
        MenuItem(f"Rules ({rules})...", Action.OPEN, children=tuple(choices)),
        MenuItem("New game", Action.NEW_GAME),
        MenuItem("History", Action.HISTORY),
        MenuItem("Hints: hide" if hints else "Hints: show", Action.HINTS),
        *([MenuItem("Adapt to these dice", Action.ADAPT)] if adapt else []),
        MenuItem("Calibrate camera", Action.CALIBRATE),
        MenuItem("Shut down", Action.SHUT_DOWN),
    ]
    return tuple(item for item in items if item.action is not Action.OPEN or item.children)


def history_items(games: Sequence[StoredGame], total: int | None = None) -> tuple[MenuItem, ...]:
    """ "Back", then the finished games ``games`` (newest first) as menu lines, numbered in the
    order they finished: the newest is number ``total`` (default: as many as ``games``)."""
    newest = len(games) if total is None else total
    lines = [
        MenuItem(history_line(game, newest - index), Action.HISTORY)
        for index, game in enumerate(games[:8])
    ]
    if not lines:
        lines = [MenuItem("No finished games yet", Action.HISTORY)]
    return (MenuItem("Back", Action.BACK), *lines)


def submenu(item: MenuItem) -> tuple[MenuItem, ...]:
    """The items shown when ``item`` (action OPEN) is chosen: "Back", then its children."""
    return (MenuItem("Back", Action.BACK), *item.children)


def finished_count(store: GameStore) -> int | None:
    """How many games in ``store`` are finished (the newest finished game's number); None when
    the store cannot tell."""
    try:
        row = store.db.execute("SELECT COUNT(*) FROM games WHERE finished IS NOT NULL").fetchone()
        return int(row[0])
    except (sqlite3.Error, StoreError, TypeError, ValueError):
        return None


def history_line(game: StoredGame, number: int | None = None) -> str:
    """One finished game in a line: its number among the finished games (default: its id in
    the store; abandoned games use up ids), rules, winner(s) and the scores."""
    shown = game.id if number is None else number
    if game.is_damaged:
        return f"#{shown} damaged, not shown"
    result = game.result or {}
    scores = result.get("scores")
    winners = result.get("winners")
    text_scores = (
        ", ".join(f"{name} {points}" for name, points in scores.items())
        if isinstance(scores, dict)
        else "?"
    )
    won = "/".join(map(str, winners)) if isinstance(winners, list) else "?"
    return f"#{shown} {result.get('rules', '?')}: {won} won ({text_scores})"
