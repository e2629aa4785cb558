"""The optimal tables measured, per rule set: solve time (wall and CPU) and peak memory of the
solve, each in a child process of its own (``ru_maxrss`` of that child, so one solve's memory
does not hide another's), the table's size and load time, the first player's predicted chance
of winning against the one measured in optimal self-play (95% Wilson interval), one decision's
time; for pig, the turn expectation and first player's chance beside the published ones; for the
Pigs (every throw of all the dice), the best hold-at-n rule and its turn expectation.
``--head-to-head`` adds optimal vs expert and expert vs greedy dials.

Usage: .venv/bin/python benchmarks/strategy.py [--rules NAME ...] [--target POINTS]
           [--games N] [--seed S] [--cache DIR] [--jobs N] [--head-to-head] [--json]

Without ``--rules``, every shipped rule set to its own target. The tables are solved afresh
with `device.solver_fast` (BLAS held to one thread) and saved in ``--cache`` (default: a fresh
temporary folder). The machine's load shows in the wall times; the CPU times do not count it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from device.solver_fast import solve_fast
from device.tables import DiskTables, load_table, save_table
from engine.game import Game
from engine.rules import Rules, find_rules, rules_names
from engine.solver_model import throw_model
from engine.state import Phase
from engine.strategy import find_strategy
from engine.strategy_expert import turn_table
from engine.strategy_play import play_game, wilson

# Published exact results, printed beside the solvers' own: rules name -> (source, turn EV,
# first player's chance). Pig: hold at 20 for the most points a turn; 53.06% for the starter.
PUBLISHED = {
    "pig": ('Neller & Presser, "Optimal Play of the Dice Game Pig" (2004)', 8.1418, 0.530593)
}
# Neller & Busche's optimal Farkle is not compared: no shipped rule set is theirs (our farkle
# follows its requirements document: no straights, no three pairs, no three-farkle penalty).
# Neller & Presser also analyse two-dice variants of Pig, but no figure of theirs for these exact
# rules (100 to win at once, two players) was at hand to print beside ours.
UNCOMPARED = {
    "farkle": "Neller & Busche's Farkle: other rules than any shipped set",
    "pig-two-dice": "no published figure found for these rules",
    "big-pig": "no published figure found for these rules",
}

PAIRS = (
    ("optimal", "expert"),
    ("expert", "greedy:0.3"),
    ("expert", "greedy:0.5"),
    ("expert", "greedy:0.8"),
)


def rules_for(name: str, target: int | None) -> Rules:
    """The rule set ``name``, at ``target`` if given."""
    rules = find_rules(name)
    return rules.with_target(target) if target is not None else rules


def solve(rules: Rules, cache: Path) -> dict[str, Any]:
    """Solve and save one table: time and this process's peak memory right after."""
    began, cpu = time.perf_counter(), time.process_time()
    table = solve_fast(rules)
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    save_table(table, cache)
    return {
        "solve_wall_s": round(wall, 1),
        "solve_cpu_s": round(used, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "table_mb": round(table.nbytes / 1e6, 2),
    }


def self_play(rules: Rules, games: int, seed: int, tables: DiskTables) -> dict[str, Any]:
    """Optimal against optimal, fixed seats: the starter's measured rate vs the table's."""
    table = tables(rules)
    assert table is not None
    optimal = find_strategy("optimal", tables=tables)
    rng = random.Random(seed)
    wins = 0
    began = time.process_time()
    for _ in range(games):
        result = play_game(rules, [("first", optimal), ("second", optimal)], rng=rng)
        wins += result.winners == ("first",)
    low, high = wilson(wins, games)
    predicted = table.first_player_wins()
    return {
        "predicted": round(predicted, 4),
        "measured": round(wins / games, 4),
        "games": games,
        "ci95": [round(low, 4), round(high, 4)],
        "agree": low <= predicted <= high,
        "cpu_ms_per_game": round(1000 * (time.process_time() - began) / games, 1),
    }


def head_to_head(
    rules: Rules, a: str, b: str, games: int, seed: int, tables: DiskTables
) -> dict[str, Any]:
    """``a`` against ``b``, seats alternating: a's wins and the interval."""
    players = [(a, find_strategy(a, tables=tables)), (b, find_strategy(b, tables=tables))]
    rng = random.Random(seed)
    wins = 0
    for number in range(games):
        seated = players if number % 2 == 0 else players[::-1]
        wins += play_game(rules, seated, rng=rng).winners == (a,)
    low, high = wilson(wins, games)
    return {
        "player": a,
        "opponent": b,
        "games": games,
        "win_rate": round(wins / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
    }


def decision_microseconds(rules: Rules, tables: DiskTables, spec: str, calls: int = 200) -> float:
    """Mean CPU time of one roll-or-bank decision of ``spec`` early in a game (microseconds);
    optimal's first decision of a turn solves that turn, so it is timed from a cold cache."""
    strategy = find_strategy(spec, tables=tables)
    game = Game(rules, ["a", "b"], rng=random.Random(3))
    while game.state.phase is not Phase.DECIDE:
        if game.state.phase is Phase.KEEP:
            game.keep(game.state.options[0].dice)
        else:
            game.throw()
    table = tables(rules)
    began = time.process_time()
    for _ in range(calls):
        if table is not None:
            table._turns.clear()
        strategy.wants_to_roll(game)
    return 1e6 * (time.process_time() - began) / calls


def hold_at(rules: Rules) -> tuple[int, float] | None:
    """The best "hold at n" rule for one turn and its expected points: where every throw is of
    all the dice (the Pigs), else None. A wipe-out counts as a bust here (its loss of the banked
    score is no points of the turn)."""
    model = throw_model(rules)
    dm = model.by_dice[rules.dice]
    if dm.choices or any(n != rules.dice for n in dm.single_n):
        return None
    moves = list(zip(dm.single_p, dm.single_s, strict=True))
    top = model.units(rules.goal)
    best = (0, 0.0)
    for hold in range(1, top + 1):
        value = [float(k) for k in range(hold + max(s for _, s in moves) + 1)]
        for k in range(hold - 1, -1, -1):
            value[k] = sum(p * value[k + s] for p, s in moves)
        if value[0] > best[1]:
            best = (hold, value[0])
    return best[0] * model.unit, best[1] * model.unit


def measure(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """Everything for one rule set; run in a fresh child process (`main`), so that the peak
    memory measured right after the solve is that solve's alone."""
    rules = rules_for(name, args.target)
    turn = turn_table(rules)
    report: dict[str, Any] = {
        "rules": name,
        "target": rules.target,
        "expected_points": round(turn.start * turn.model.unit, 2),
        "bank_at": {str(n): k * turn.model.unit for n, k in turn.bank_at().items()},
    }
    holding = hold_at(rules)
    if holding is not None:
        report["hold_at"] = {"points": holding[0], "expected_points": round(holding[1], 4)}
    report.update(solve(rules, args.cache))
    began = time.perf_counter()
    table = load_table(rules, args.cache)
    assert table is not None, f"the table of {name} did not verify"
    report["load_s"] = round(time.perf_counter() - began, 2)
    tables = DiskTables(args.cache, limit_units=0)
    report["decision_us"] = {
        spec: round(decision_microseconds(rules, tables, spec), 1) for spec in ("optimal", "expert")
    }
    report["first_player"] = self_play(rules, args.games, args.seed, tables)
    if args.head_to_head:
        report["head_to_head"] = [
            head_to_head(rules, a, b, args.games, args.seed + 1, tables) for a, b in PAIRS
        ]
    if name in PUBLISHED and rules.target == find_rules(name).target:
        source, points, first = PUBLISHED[name]
        report["published"] = {
            "source": source,
            "expected_points": [round(turn.start * turn.model.unit, 4), points],
            "first_player_wins": [round(table.first_player_wins(), 6), first],
        }
    if name in UNCOMPARED:
        report["not_compared"] = UNCOMPARED[name]
    return report


def show(report: dict[str, Any]) -> None:
    """Print one rule set's figures."""
    fp = report["first_player"]
    print(
        f"{report['rules']} to {report['target']}: turn EV {report['expected_points']}, "
        f"bank at {report['bank_at']}"
    )
    print(
        f"  optimal table: solved in {report['solve_wall_s']} s wall, {report['solve_cpu_s']} s "
        f"CPU, peak RSS {report['peak_rss_mb']} MB; {report['table_mb']} MB, loaded and "
        f"verified in {report['load_s']} s"
    )
    print(
        f"  first player: predicted {fp['predicted']}, measured {fp['measured']} in "
        f"{fp['games']} games (95% CI {fp['ci95'][0]}-{fp['ci95'][1]}) "
        f"{'agree' if fp['agree'] else 'DISAGREE'}; {fp['cpu_ms_per_game']} ms CPU a game"
    )
    print(f"  one decision, cold (microseconds CPU): {report['decision_us']}")
    if "hold_at" in report:
        hold = report["hold_at"]
        print(
            f"  best hold-at-n: hold at {hold['points']}, {hold['expected_points']} points a turn; "
            f"optimal first player {fp['predicted']}"
        )
    if "published" in report:
        paper = report["published"]
        print(
            f"  solved vs published ({paper['source']}): turn EV "
            f"{paper['expected_points'][0]} vs {paper['expected_points'][1]}, first player "
            f"{paper['first_player_wins'][0]:.6f} vs {paper['first_player_wins'][1]:.6f}"
        )
    if "not_compared" in report:
        print(f"  not compared: {report['not_compared']}")
    for row in report.get("head_to_head", []):
        print(
            f"  {row['player']:>8} vs {row['opponent']:<11} {row['win_rate']:.3f} "
            f"(95% CI {row['ci95'][0]:.3f}-{row['ci95'][1]:.3f}, {row['games']} games)"
        )
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=sorted(rules_names()))
    parser.add_argument("--target", type=int, help="play every rule set to this target")
    parser.add_argument("--games", type=int, default=400, help="self-play games per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, help="where the tables go (default: a temp folder)")
    parser.add_argument("--jobs", type=int, default=1, help="rule sets measured at once")
    parser.add_argument("--head-to-head", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # one core per solve: the children start afresh and read these before numpy loads BLAS
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    context = multiprocessing.get_context("spawn")
    with (
        tempfile.TemporaryDirectory(prefix="dicekeeper-tables-") as scratch,
        ProcessPoolExecutor(args.jobs, mp_context=context, max_tasks_per_child=1) as pool,
    ):
        if args.cache is None:
            args.cache = Path(scratch)
        for report in pool.map(measure, args.rules, [args] * len(args.rules)):
            if args.json:
                print(json.dumps(report), flush=True)
            else:
                show(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
