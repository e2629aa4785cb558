"""Computer players measured: solve time and memory of the optimal table per rule set, its size,
the first player's predicted chance of winning against the one measured in optimal self-play, and
head-to-head win rates (optimal vs expert, expert vs greedy dials) with 95% Wilson intervals;
for pig, the solvers' turn expectation and first player's chance beside the published ones.

Usage: python benchmarks/strategy.py [--rules NAME ...] [--target POINTS] [--games N] [--seed S]
                                     [--cache DIR] [--json]

Without ``--target`` each rule set is played to its own target (farkle and greed-house at 10,000
take a long time to solve in pure Python the first time; the table is cached in ``--cache``).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from device.tables import DiskTables, cache_directory  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import Rules, find_rules  # noqa: E402
from engine.solver_optimal import OptimalTable  # noqa: E402
from engine.state import Phase  # noqa: E402
from engine.strategy import find_strategy  # noqa: E402
from engine.strategy_expert import turn_table  # noqa: E402
from engine.strategy_play import play_game, wilson  # noqa: E402

# Published exact results, printed beside the solvers' own: rules name -> (source, turn EV,
# first player's chance). Pig: hold at 20 for the most points a turn; 53.06% for the starter.
PUBLISHED = {
    "pig": ('Neller & Presser, "Optimal Play of the Dice Game Pig" (2004)', 8.1418, 0.530593)
}

PAIRS = (
    ("optimal", "expert"),
    ("expert", "greedy:0.3"),
    ("expert", "greedy:0.5"),
    ("expert", "greedy:0.8"),
    ("optimal", "greedy:0.5"),
)


def head_to_head(
    rules: Rules, a: str, b: str, games: int, seed: int, tables: DiskTables
) -> dict[str, Any]:
    """``a`` against ``b``, seats alternating: a's wins, ties and the interval."""
    players = [(a, find_strategy(a, tables=tables)), (b, find_strategy(b, tables=tables))]
    rng = random.Random(seed)
    wins = ties = 0
    began = time.perf_counter()
    for number in range(games):
        seated = players if number % 2 == 0 else players[::-1]
        result = play_game(rules, seated, rng=rng)
        if result.winners == (a,):
            wins += 1
        elif len(result.winners) > 1:
            ties += 1
    low, high = wilson(wins, games)
    return {
        "player": a,
        "opponent": b,
        "games": games,
        "wins": wins,
        "ties": ties,
        "win_rate": round(wins / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "ms_per_game": round(1000 * (time.perf_counter() - began) / games, 2),
    }


def self_play(
    rules: Rules, table: OptimalTable, games: int, seed: int, tables: DiskTables
) -> dict[str, Any]:
    """Optimal against optimal, fixed seats: the starter's measured rate vs the table's."""
    optimal = find_strategy("optimal", tables=tables)
    rng = random.Random(seed)
    wins = 0
    for _ in range(games):
        result = play_game(rules, [("first", optimal), ("second", optimal)], rng=rng)
        wins += result.winners == ("first",)
    low, high = wilson(wins, games)
    predicted = table.first_player_wins()
    return {
        "predicted": round(predicted, 4),
        "measured": round(wins / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "agree": low <= predicted <= high,
    }


def decision_microseconds(rules: Rules, tables: DiskTables, spec: str, calls: int = 2000) -> float:
    """Mean time of one roll-or-bank decision of ``spec`` in a two-player game (microseconds)."""
    strategy = find_strategy(spec, tables=tables)
    game = Game(rules, ["a", "b"], rng=random.Random(3))
    while game.phase is not Phase.DECIDE:
        if game.phase is Phase.KEEP:
            game.keep(game.options[0].dice)
        else:
            game.throw()
    strategy.wants_to_roll(game)
    began = time.perf_counter()
    for _ in range(calls):
        strategy.wants_to_roll(game)
    return 1e6 * (time.perf_counter() - began) / calls


def measure(name: str, target: int | None, games: int, seed: int, cache: Path) -> dict[str, Any]:
    """Everything for one rule set."""
    rules = find_rules(name)
    if target is not None:
        rules = rules.with_target(target)
    turn = turn_table(rules)
    tables = DiskTables(cache, limit_units=10_000)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.perf_counter()
    table = tables(rules)
    assert table is not None
    loaded = time.perf_counter() - began
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report = {
        "rules": name,
        "target": rules.target,
        "expected_points": round(turn.start * turn.model.unit, 2),
        "bank_at": {str(n): k * turn.model.unit for n, k in turn.bank_at().items()},
        "solve_seconds": round(table.seconds, 1),
        "load_seconds": round(loaded, 2),
        "peak_rss_mb": round(max(rss_after, rss_before) / 1024, 1),
        "table_mb": round((len(table.start) * 8 + len(table.rolls) * 4) / 1e6, 1),
        "states": len(table.start) + len(table.rolls),
        "decision_us": {
            spec: round(decision_microseconds(rules, tables, spec), 1)
            for spec in ("optimal", "expert", "greedy:0.5")
        },
        "first_player": self_play(rules, table, games, seed, tables),
        "head_to_head": [head_to_head(rules, a, b, games, seed + 1, tables) for a, b in PAIRS],
    }
    if name in PUBLISHED and target in (None, rules.target):
        source, points, first = PUBLISHED[name]
        report["published"] = {
            "source": source,
            "expected_points": [round(turn.start * turn.model.unit, 4), points],
            "first_player_wins": [round(table.first_player_wins(), 6), first],
        }
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rules", nargs="*", default=["greed-koans", "greed", "farkle", "greed-house", "pig"]
    )
    parser.add_argument("--target", type=int, help="play every rule set to this target")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=cache_directory())
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name in args.rules:
        report = measure(name, args.target, args.games, args.seed, args.cache)
        if args.json:
            print(json.dumps(report), flush=True)
            continue
        fp = report["first_player"]
        print(
            f"{name} to {report['target']}: turn EV {report['expected_points']}, "
            f"bank at {report['bank_at']}"
        )
        print(
            f"  optimal table: solved in {report['solve_seconds']} s, {report['table_mb']} MB, "
            f"peak RSS {report['peak_rss_mb']} MB, loaded in {report['load_seconds']} s"
        )
        print(f"  one decision (microseconds): {report['decision_us']}")
        if "published" in report:
            paper = report["published"]
            print(
                f"  solved vs published ({paper['source']}): turn EV "
                f"{paper['expected_points'][0]} vs {paper['expected_points'][1]}, first player "
                f"{paper['first_player_wins'][0]:.6f} vs {paper['first_player_wins'][1]:.6f}"
            )
        print(
            f"  first player: predicted {fp['predicted']}, measured {fp['measured']} "
            f"(95% CI {fp['ci95'][0]}-{fp['ci95'][1]}) {'agree' if fp['agree'] else 'DISAGREE'}"
        )
        for row in report["head_to_head"]:
            print(
                f"  {row['player']:>8} vs {row['opponent']:<11} {row['win_rate']:.3f} "
                f"(95% CI {row['ci95'][0]:.3f}-{row['ci95'][1]:.3f}, {row['games']} games, "
                f"{row['ms_per_game']} ms/game)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
