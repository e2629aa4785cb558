"""The finished games as the web and `dicekeeper history --csv` give them: each game replayed
from its stored events into its players, scores, winner and every turn.

`game_record(stored)` replays one `StoredGame` (its rules from its start record, as
`device.session.Session.resume` does); `summary_json` and `game_json` are the API's JSON, and
`write_csv` writes one CSV row per turn with the `csv` module. A game that no longer replays (a
rules file since removed, damaged records) keeps what it can of its stored result (a score that is
not a whole number is left out) and has no turns.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TextIO

from device.session import stored_rules
from device.store import StoredGame
from engine.errors import DicekeeperError
from engine.events import Corrected, event_from_json
from engine.state import GameState, apply

__all__ = [
    "CSV_FIELDS",
    "GameRecord",
    "TurnRow",
    "game_json",
    "game_record",
    "iso_time",
    "records",
    "summary_json",
    "write_csv",
]

CSV_FIELDS = (
    "game",
    "rules",
    "started",
    "finished",
    "winner",
    "turn",
    "player",
    "points",
    "total",
    "bust",
    "corrected",
)
"""The CSV's columns: the game's fields repeated on each of its turns, then the turn's."""


@dataclass(frozen=True, slots=True)
class TurnRow:
    """One finished turn: whose, the points it scored, the total after, bust, corrections."""

    player: str
    points: int
    total: int
    bust: bool
    corrected: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: its rules, times (epoch seconds), final scores, winner, turns and the
    score to reach (0 when its records do not say)."""

    id: int
    rules: str
    started: float
    finished: float | None
    players: tuple[tuple[str, int], ...]
    winner: str | None
    turns: tuple[TurnRow, ...]
    problem: str = ""
    """Why the turns are missing ("" when the game replayed)."""
    target: int = 0


def iso_time(epoch: float | None) -> str | None:
    """``epoch`` as local ISO 8601 time with its offset, to the second (None stays None, and
    so does a time out of the calendar's range)."""
    if epoch is None:
        return None
    try:
        return datetime.fromtimestamp(epoch).astimezone().isoformat(timespec="seconds")
    except (OverflowError, ValueError, OSError):  # a stored time no calendar holds
        return None


def game_record(stored: StoredGame) -> GameRecord:
    """``stored`` replayed into its turns (a game that does not replay: its result, no turns)."""
    result = stored.result or {}
    winners = result.get("winners")
    winner = " and ".join(map(str, winners)) if isinstance(winners, list) and winners else None
    scores = result.get("scores")
    players = (
        tuple((str(name), points) for name, points in scores.items() if _is_whole(points))
        if isinstance(scores, dict)
        else ()
    )
    rules = str(result.get("rules", stored.start.get("rules", "?")))
    target = stored.start.get("target")
    base = GameRecord(
        stored.id,
        rules,
        stored.started,
        stored.finished,
        players,
        winner,
        (),
        target=target if isinstance(target, int) and target > 0 else 0,
    )
    if stored.is_damaged:
        return _without_turns(base, stored.damage)
    try:
        state, turns = _replay(stored)
    except (DicekeeperError, KeyError, ValueError, TypeError, ArithmeticError) as exc:
        return _without_turns(base, str(exc))
    except RecursionError:
        return _without_turns(base, "its records are nested too deep")
    return replace(
        base,
        rules=state.rules.name,
        players=tuple((p.name, p.total) for p in state.players),
        turns=turns,
        target=state.rules.target,
    )


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _without_turns(record: GameRecord, problem: str) -> GameRecord:
    return replace(record, turns=(), problem=problem or "its events cannot be read")


def _replay(stored: StoredGame) -> tuple[GameState, tuple[TurnRow, ...]]:
    """The final state and the turns in the order they were played (a corrected throw that
    changed how a turn ended replaces it)."""
    state = GameState.new(stored_rules(stored))
    order: list[tuple[str, int]] = []  # (player, turn number) as the turns ended
    records: dict[tuple[str, int], tuple[int, int, bool]] = {}
    corrections: dict[tuple[str, int], int] = {}
    for line in stored.events:
        event = event_from_json(json.loads(line))
        if isinstance(event, Corrected) and state.open_throw is not None:
            before = state.open_throw.before
            turns = next((p.turns for p in before.players if p.name == event.player), 0)
            key = (event.player, turns + 1)
            corrections[key] = corrections.get(key, 0) + 1
        state = apply(state, event)
        for player in state.players:
            for record in player.history:
                key = (player.name, record.number)
                if key not in records:
                    order.append(key)
                records[key] = (record.points, record.total, record.is_bust)
            for key in [k for k in order if k[0] == player.name and k[1] > player.turns]:
                order.remove(key)  # a corrected throw reopened the turn
                del records[key]
    rows = tuple(
        TurnRow(name, *records[(name, number)], corrections.get((name, number), 0))
        for name, number in order
    )
    return state, rows


def summary_json(record: GameRecord) -> dict[str, Any]:
    """A game as ``GET /api/games`` lists it."""
    return {
        "id": record.id,
        "rules": record.rules,
        "started": iso_time(record.started),
        "finished": iso_time(record.finished),
        "players": [{"name": name, "score": score} for name, score in record.players],
        "winner": record.winner,
        "target": record.target,
    }


def game_json(record: GameRecord) -> dict[str, Any]:
    """A game with every turn, as ``GET /api/games/{id}`` gives it."""
    return {
        **summary_json(record),
        "turns": [
            {
                "player": t.player,
                "points": t.points,
                "total": t.total,
                "bust": t.bust,
                "corrected": t.corrected,
            }
            for t in record.turns
        ],
    }


def write_csv(records: Iterable[GameRecord], out: TextIO) -> None:
    """One header line, then one row per turn of each game in ``records`` (`CSV_FIELDS`)."""
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_FIELDS)
    for record in records:
        game = [
            record.id,
            _cell(record.rules),
            iso_time(record.started),
            iso_time(record.finished) or "",
            _cell(record.winner or ""),
        ]
        for number, turn in enumerate(record.turns, start=1):
            bust = "true" if turn.bust else "false"
            writer.writerow(
                [*game, number, _cell(turn.player), turn.points, turn.total, bust, turn.corrected]
            )


def _cell(text: str) -> str:
    """``text`` safe in a spreadsheet: a leading ``=``, ``+``, ``-`` or ``@`` (which would make
    a formula of a player's name) is quoted with an apostrophe."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def records(games: Sequence[StoredGame]) -> list[GameRecord]:
    """The records of ``games`` in the same order."""
    return [game_record(game) for game in games]
