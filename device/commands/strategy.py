"""`dicekeeper strategy --rules NAME (--turn-ev | --solve) [--target POINTS] [--json]`.

``--turn-ev`` prints the most expected points of one turn for a player who has already entered,
with no target in sight, and the turn total at which to bank for each number of dice left
(``--json``: ``{"rules": NAME, "expected_points": FLOAT, "bank_at": {"1": INT, ...}}``).
``--solve`` solves the optimal two-player table for the rules (and ``--target``) and caches it
under the state directory, printing the solve time, the table size and the first player's chance
(``--json``: ``{"rules", "target", "seconds", "entries", "bytes", "first_player_wins", "path"}``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from device.commands.score import add_rules_option, resolve_rules
from device.commands.tournament import ProgressBar, rules_with_target
from device.tables import DiskTables, load_table, save_table
from engine.solver_optimal import solve_optimal
from engine.strategy_expert import turn_table


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``strategy`` command."""
    parser = subparsers.add_parser(
        "strategy",
        help="what the computer players know: turn expectations, solved tables",
        description="Show the expert's turn expectation or solve the optimal table.",
    )
    add_rules_option(parser)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--turn-ev",
        action="store_true",
        help="maximum expected points of a turn and when to bank, per number of dice",
    )
    mode.add_argument(
        "--solve", action="store_true", help="solve and cache the optimal two-player table"
    )
    parser.add_argument("--target", type=int, metavar="POINTS", help="another target score")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the turn expectation or solve a table."""
    rules = rules_with_target(resolve_rules(args.rules), args.target)
    if args.turn_ev:
        table = turn_table(rules)
        unit = table.model.unit
        bank_at = {str(n): k * unit for n, k in table.bank_at().items()}
        expected = round(table.start * unit, 6)
        if args.json:
            print(
                json.dumps({"rules": rules.name, "expected_points": expected, "bank_at": bank_at})
            )
        else:
            # four significant digits, at least one decimal: 539.8 (farkle), 8.142 (pig)
            decimals = max(1, 3 - int(math.log10(max(expected, 1.0))))
            print(
                f"{rules.name}: {expected:.{decimals}f} points per turn at best "
                "(entered, no target)"
            )
            for n, points in bank_at.items():
                print(f"  {n} {'die' if n == '1' else 'dice'} left: bank at {points} or more")
        return 0
    cache = DiskTables()
    found = load_table(rules, cache.directory)
    if found is None:
        bar = ProgressBar(sys.stderr, label=f"solving {rules.name}")
        found = solve_optimal(rules, progress=bar.update)
        bar.close()
        path = save_table(found, cache.directory)
    else:
        from device.tables import table_path

        path = table_path(rules, cache.directory)
    size = len(found.start) * 8 + len(found.rolls) * 4
    report = {
        "rules": rules.name,
        "target": rules.target,
        "seconds": round(found.seconds, 2),
        "entries": len(found.start) + len(found.rolls),
        "bytes": size,
        "first_player_wins": round(found.first_player_wins(), 6),
        "path": str(path),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{rules.name} to {rules.target}: solved in {report['seconds']} s, "
            f"{size / 1e6:.1f} MB; the first player wins "
            f"{100 * found.first_player_wins():.2f}% of optimal games ({path})"
        )
    return 0
