"""`dicekeeper review [GAME] [--config FILE] [--json]`: a finished game's review (`engine.review`):
every decision against the best choice, mistakes and blunders, each player's accuracy, swings and
luck. Without GAME, the last finished game.

The thresholds are the config's ``[review]``; the solved optimal table of the game's rules is
read from the cache (``dicekeeper strategy --solve``) and never solved here: without it, or with
more than two players, decisions are valued by expected points and the review says so. A game
that cannot be reviewed (no such game, not finished, damaged) is one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from device.config import load_config
from device.review import ReviewSettings, find_stored, review_stored, text_lines
from device.store import GameStore, state_directory
from engine.review import review_json


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``review`` command."""
    parser = subparsers.add_parser(
        "review",
        help="review a finished game: every decision against the best choice, and the luck",
        description=(
            "Review a finished game (the last one without GAME): each decision against the "
            "best choice, mistakes and blunders, accuracy, swings and the luck of the dice."
        ),
    )
    parser.add_argument(
        "game", nargs="?", type=_game_id, metavar="GAME", help="the game's number (history)"
    )
    parser.add_argument("--config", metavar="FILE", type=Path, help="the TOML configuration")
    parser.add_argument("--json", action="store_true", help="the review as one JSON object")
    parser.set_defaults(func=handle)


def _game_id(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"GAME {text!r}: expected a game's number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"GAME {text!r}: expected a game's number (1 or more)")
    return number


def handle(args: argparse.Namespace) -> int:
    """Print the review; `device.review.ReviewRefused` (exit 2) when it cannot be made."""
    config = load_config(args.config)
    settings = ReviewSettings(mistake=config.review.mistake, blunder=config.review.blunder)
    with GameStore.in_directory(state_directory(config.state.directory)) as store:
        if store.notice:
            print(f"dicekeeper review: {store.notice}", file=sys.stderr)
        stored = find_stored(store, args.game)
    review = review_stored(stored, settings)
    if args.json:
        print(json.dumps({"game": stored.id, **review_json(review)}, ensure_ascii=False))
    else:
        print("\n".join(text_lines(review, stored)))
    return 0
