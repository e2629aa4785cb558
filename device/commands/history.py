"""`dicekeeper history [--config FILE] [--json | --csv]`: the finished games kept in the game
store; ``--csv`` writes every turn of each game, as the web scoreboard's download does
(`device.web.games`).

A game whose stored records cannot be decoded is left out with a line on stderr naming it, and the
exit status is then 2. An event that is not JSON is not counted among the corrected throws.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from device.config import load_config
from device.menu import finished_count, history_line
from device.store import GameStore, StoredGame, state_directory
from device.web.games import records, write_csv

MAX_LIMIT = 100_000
"""The most games ``--limit`` lists."""


def limit(text: str) -> int:
    """``--limit``: a whole number of games from 0 to `MAX_LIMIT`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if not 0 <= value <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: from 0 to {MAX_LIMIT} games")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``history`` command."""
    parser = subparsers.add_parser(
        "history",
        help="list the finished games in the game store",
        description="List the finished games, newest first, from the configured state directory.",
    )
    parser.add_argument("--config", metavar="FILE", type=Path, help="the TOML configuration")
    parser.add_argument("--limit", type=limit, default=20, help="how many games (default 20)")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON object per line")
    form.add_argument(
        "--csv", action="store_true", help="one CSV row per turn of each game, with a header"
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Print the finished games; a damaged one gets a line on stderr and the exit status 2."""
    config = load_config(args.config)
    with GameStore.in_directory(state_directory(config.state.directory)) as store:
        if store.notice:
            print(f"dicekeeper history: {store.notice}", file=sys.stderr)
        stored = store.history(max(0, args.limit))
        total = finished_count(store)  # the newest finished game's number
    damaged = [game for game in stored if game.is_damaged]
    games = [game for game in stored if not game.is_damaged]
    for game in damaged:
        print(
            f"dicekeeper history: game {game.id} in {str(store.path)!r} is damaged and not "
            f"shown: {game.damage}",
            file=sys.stderr,
        )
    if args.csv:
        write_csv(records(games), sys.stdout)
        return 2 if damaged else 0
    newest = len(stored) if total is None else total
    numbers = {game.id: newest - index for index, game in enumerate(stored)}
    for game in games:
        if args.json:
            print(
                json.dumps(
                    {
                        "id": game.id,
                        "finished": game.finished,
                        "result": game.result,
                        "corrected": corrected_throws(game),
                    },
                    sort_keys=True,
                )
            )
        else:
            when = _when(game.finished or game.started)
            corrected = corrected_throws(game)
            plural = "" if corrected == 1 else "s"
            fixed = f"  ({corrected} throw{plural} corrected)" if corrected else ""
            print(f"{when}  {history_line(game, numbers[game.id])}{fixed}")
    if not stored and not args.json:
        print("no finished games yet")
    return 2 if damaged else 0


def corrected_throws(game: StoredGame) -> int:
    """How many throws of ``game`` the players corrected at the table."""
    return sum(_type(event) == "corrected" for event in game.events)


def _when(epoch: float) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))
    except (OverflowError, ValueError, OSError):
        return "????-??-?? ??:??"


def _type(event: str) -> object:
    """An event's ``type`` (None when the event is not a JSON object)."""
    try:
        decoded = json.loads(event)
    except (ValueError, RecursionError):
        return None
    return decoded.get("type") if isinstance(decoded, dict) else None
