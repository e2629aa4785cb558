"""Computer players playing whole games through the real `Game`, for tournaments and demos."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import DicekeeperError
from engine.game import Game
from engine.rules import Rules
from engine.state import Phase
from engine.strategy_core import Strategy

# A game that has not ended after this many turns is stopped (highest total wins): only
# strategies that never bank under rules that never bust could get there.
MAX_TURNS = 5000


class StuckGame(DicekeeperError, RuntimeError):
    """A game between computer players that cannot go on."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game went: seat order (player names), winners, final totals, turns played,
    and the totals after every turn (one tuple per turn, in seat order)."""

    seats: tuple[str, ...]
    winners: tuple[str, ...]
    totals: tuple[int, ...]
    turns: int
    trajectory: tuple[tuple[int, ...], ...]


def play_one_turn(game: Game, strategy: Strategy) -> None:
    """Let ``strategy`` play the current player's turn of ``game`` to its end."""
    player = game.state.current_player
    if player is None:
        raise StuckGame(f"no current player (phase {game.state.phase.value!r})")
    turns = player.turns
    while (state := game.state).phase is not Phase.OVER:
        current = state.current_player
        if current is None or current.name != player.name or current.turns != turns:
            return
        phase = state.phase
        if phase is Phase.THROW:
            game.throw()
        elif phase is Phase.KEEP:
            game.keep(strategy.choose_keep(state).dice)
        elif phase is Phase.DECIDE:
            if state.dice_to_throw and (not state.can_bank or strategy.wants_to_roll(state)):
                game.throw()
            elif state.can_bank:
                game.bank()
            else:
                game.next_player()
        elif phase is Phase.PASS:
            if strategy.wants_pass(state):
                game.take_passed()
            else:
                game.decline_passed()


def play_game(
    rules: Rules,
    players: Sequence[tuple[str, Strategy]],
    *,
    rng: random.Random,
) -> GameResult:
    """Play one game between named strategies, seated in the given order, dice from ``rng``."""
    names = [name for name, _ in players]
    by_name = dict(players)
    game = Game(rules, names, rng=rng)
    trajectory: list[tuple[int, ...]] = []
    turns = 0
    while game.state.phase is not Phase.OVER and turns < MAX_TURNS:
        current = game.state.current_player
        assert current is not None
        play_one_turn(game, by_name[current.name])
        turns += 1
        trajectory.append(tuple(p.total for p in game.state.players))
    totals = tuple(p.total for p in game.state.players)
    if game.state.phase is Phase.OVER:
        winners = tuple(p.name for p in game.state.winners)
    else:
        best = max(totals)
        winners = tuple(n for n, t in zip(names, totals, strict=True) if t == best)
    return GameResult(tuple(names), winners, totals, turns, tuple(trajectory))


def wilson(wins: float, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
