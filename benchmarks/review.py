"""The game review measured: the time to review a game of about 40 turns with the table solved.

Computer players (``--players``, optimal against a greedy dial by default, so the review finds
mistakes to write up) play games from ``--seed`` on until one lasts at least ``--turns`` turns;
that game is reviewed ``--repeat`` times. The first review is cold (the reach and turn tables
and every turn's chances solved afresh: a fresh copy of the table, the engine's caches cleared),
the others warm. CPU time is one core's (`time.process_time`); the wall time shows the load.

The solved table is read from the cache (``dicekeeper strategy --rules NAME --solve``); without
it the script solves it with `device.solver_fast` and saves it there first (``--no-solve``: stop
instead).

Usage: .venv/bin/python benchmarks/review.py [--rules farkle] [--target N] [--turns 40]
           [--players optimal,greedy:0.5] [--seed 1] [--repeat 5] [--no-solve] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import engine.review_luck
import engine.strategy_expert
from device.solver_fast import solve_fast
from device.tables import cache_directory, load_table, save_table
from engine.game import Game
from engine.review import review_game
from engine.rules import Rules, find_rules
from engine.solver_optimal import OptimalTable
from engine.state import Phase
from engine.strategy import find_strategy
from engine.strategy_play import play_one_turn


def long_game(
    rules: Rules, specs: list[str], table: OptimalTable, turns: int, seed: int
) -> tuple[Game, int]:
    """The first game from ``seed`` on lasting at least ``turns`` turns, and its seed."""
    for tried in range(seed, seed + 10_000):
        strategies = {
            f"{spec} {i}": find_strategy(spec, tables=lambda _r: table)
            for i, spec in enumerate(specs)
        }
        game = Game(rules, list(strategies), rng=random.Random(tried))
        played = 0
        while game.state.phase is not Phase.OVER:
            player = game.state.current_player
            assert player is not None
            play_one_turn(game, strategies[player.name])
            played += 1
        if played >= turns:
            return game, tried
    raise SystemExit(f"no game of {turns} turns from seed {seed} on")


def cold(table: OptimalTable) -> OptimalTable:
    """The table with every cache the review fills emptied."""
    table._turns.clear()
    engine.strategy_expert._TURNS.clear()
    engine.strategy_expert._ENTRY.clear()
    engine.strategy_expert._REACH.clear()
    engine.review_luck._ODDS.clear()
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="farkle")
    parser.add_argument("--target", type=int, default=0)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--players", default="optimal,greedy:0.5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-solve", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = find_rules(args.rules)
    if args.target:
        rules = rules.with_target(args.target)
    began = time.perf_counter()
    table = load_table(rules, cache_directory())
    loaded = time.perf_counter() - began
    if table is None:
        if args.no_solve:
            print(f"no solved table for {rules.name} to {rules.target}", file=sys.stderr)
            return 2
        began = time.perf_counter()
        table = solve_fast(rules)
        save_table(table, cache_directory())
        print(f"solved {rules.name} to {rules.target} in {time.perf_counter() - began:.0f} s")
    specs = [s.strip() for s in args.players.split(",")]
    game, seed = long_game(rules, specs, table, args.turns, args.seed)
    cpu: list[float] = []
    wall: list[float] = []
    review = None
    for run in range(max(1, args.repeat)):
        if run == 0:
            cold(table)
        began_cpu, began = time.process_time(), time.perf_counter()
        review = review_game(rules, game.events, table=table)
        cpu.append(time.process_time() - began_cpu)
        wall.append(time.perf_counter() - began)
    assert review is not None
    report: dict[str, Any] = {
        "rules": rules.name,
        "target": rules.target,
        "players": specs,
        "seed": seed,
        "turns": review.turns,
        "decisions": len(review.decisions),
        "mistakes": len(review.mistakes),
        "evaluator": review.evaluator,
        "table_load_s": round(loaded, 3),
        "cold_cpu_s": round(cpu[0], 3),
        "cold_wall_s": round(wall[0], 3),
        "warm_cpu_s": round(statistics.median(cpu[1:]), 3) if len(cpu) > 1 else None,
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{rules.name} to {rules.target}, {' vs '.join(specs)} (seed {seed}): {review.turns} "
        f"turns, {len(review.decisions)} decisions, {len(review.mistakes)} mistakes or "
        f"blunders, judged by {review.evaluator}"
    )
    print(f"  the table loaded and verified from the cache in {loaded:.3f} s")
    print(f"  review, cold: {cpu[0]:.3f} s CPU ({wall[0]:.3f} s wall)")
    if len(cpu) > 1:
        print(f"  review, warm: {statistics.median(cpu[1:]):.3f} s CPU (median of {len(cpu) - 1})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
