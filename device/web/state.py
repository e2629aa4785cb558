"""The table as the web API gives it: a `TableView` turned into plain JSON data.

The fields are the contract of ``GET /api/state`` (README, "Web scoreboard"): every player's score
and running totals, whose turn, the phase, the dice as read, the keeps, the messages, the winner.
"""

from __future__ import annotations

from typing import Any

from hardware.view import Phase, TableView

__all__ = ["EMPTY_VIEW", "state_json"]

EMPTY_VIEW = TableView()
"""What the web shows before the table drew its first view."""


def state_json(view: TableView, *, camera: int = 0, paired: bool = False) -> dict[str, Any]:
    """``view`` as the API's state; ``camera`` numbers the newest camera picture (0: none) and
    ``paired`` says whether the request carried a valid token."""
    winner = view.winner_player
    return {
        "rules": view.rules,
        "target": view.target,
        "players": [
            {
                "name": p.name,
                "score": p.total,
                "computer": p.is_computer,
                "history": list(p.history),
            }
            for p in view.players
        ],
        "current": view.current,
        "phase": view.phase.value,
        "dice": list(view.dice),
        "likely": [view.guess(index) for index in range(len(view.dice))],
        "kept": list(view.kept),
        "options": [{"dice": list(o.dice), "score": o.score} for o in view.options],
        "selected": view.selected,
        "turn_total": view.turn_total,
        "prompt": view.prompt,
        "message": view.message,
        "alert": view.alert,
        "last_turn": view.last_turn,
        "tray_label": view.tray_label,
        "cursor": view.cursor,
        "struck": sorted(view.struck),
        "boxes": [list(box) for box in view.boxes],
        "winner": None if winner is None else winner.name,
        "final_round": is_final_round(view),
        "camera": camera,
        "paired": paired,
    }


def is_final_round(view: TableView) -> bool:
    """Whether somebody reached the target and the game is finishing its last round or turns."""
    if view.target <= 0 or view.winner is not None or view.phase is Phase.GAME_OVER:
        return False
    return any(p.total >= view.target for p in view.players)
