"""`dicekeeper strategy (--turn-ev | --solve) [--rules NAME ...] [--target POINTS]`.

``--turn-ev`` prints, for each rule set named, the most expected points of one turn for a player
who has already entered, with no target in sight, and the turn total at which to bank for each
number of dice left (``--json``: one object per line, ``{"rules": NAME, "expected_points": FLOAT,
"bank_at": {"1": INT, ...}}``).
``--solve`` makes sure the optimal two-player table of each rule set (every shipped one without
``--rules``; names and rule files alike) is in the cache under the state directory: a table
already there is loaded and verified, a missing or bad one is solved (`device.solver_fast`,
progress on stderr) and saved. One line per rule set with the solve time (wall and CPU), the
table's size and the first player's chance (``--json``: one object per line,
``{"rules", "target", "solved", "seconds", "cpu_seconds", "bytes", "first_player_wins",
"path"}``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from device.commands.score import resolve_rules
from device.commands.tournament import ProgressBar, rules_with_target
from device.solver_fast import solve_fast
from device.tables import cache_directory, load_table, save_table, table_path
from engine.errors import DicekeeperError
from engine.rules import Rules, rules_names
from engine.strategy_expert import turn_table


class StrategyUsage(DicekeeperError, ValueError):
    """Options of ``dicekeeper strategy`` that do not go together."""


MAX_SOLVE_TARGET = 20_000
"""The highest target solved: the time grows with the square of the target (the shipped games to
10,000 take minutes; 1,000,000 would take days)."""
MAX_TARGET = 10**9


def target(text: str) -> int:
    """``--target``: a whole number (its range is checked by `checked_target`)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None


def checked_target(value: int | None) -> int | None:
    """``--target`` if it is from 1 to `MAX_TARGET` points; else `StrategyUsage`."""
    if value is not None and not 1 <= value <= MAX_TARGET:
        raise StrategyUsage(f"--target {value}: a target is from 1 to {MAX_TARGET:,} points")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``strategy`` command."""
    parser = subparsers.add_parser(
        "strategy",
        help="what the computer players know: turn expectations, solved tables",
        description="Show the expert's turn expectation or solve the optimal tables ahead of play.",
    )
    parser.add_argument(
        "--rules",
        nargs="+",
        metavar="NAME",
        help="rule sets (see `dicekeeper rules`) or rules files, one or more; --turn-ev needs "
        "it, --solve without it takes every shipped rule set",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--turn-ev",
        action="store_true",
        help="maximum expected points of a turn and when to bank, per number of dice, for "
        "each rule set named",
    )
    mode.add_argument(
        "--solve",
        action="store_true",
        help="solve (or load and verify) the optimal two-player tables and cache them",
    )
    parser.add_argument("--target", type=target, metavar="POINTS", help="another target score")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the turn expectation or solve tables."""
    checked_target(args.target)
    if args.turn_ev:
        if not args.rules:
            raise StrategyUsage("--turn-ev needs --rules NAME (one or more)")
        every = [rules_with_target(resolve_rules(name), args.target) for name in args.rules]
        for rules in every:
            turn_ev(rules, args.json)
        return 0
    names = args.rules or list(rules_names())
    every = [rules_with_target(resolve_rules(name), args.target) for name in names]
    for rules in every:
        if rules.target > MAX_SOLVE_TARGET:
            raise StrategyUsage(
                f"--solve {rules.name} to {rules.target:,}: targets above "
                f"{MAX_SOLVE_TARGET:,} are not solved (the time grows with the square of the "
                f"target: about {(rules.target / 10_000) ** 2:,.0f} times the solve to 10,000)"
            )
    for rules in every:
        solve(rules, args.json)
    return 0


def turn_ev(rules: Rules, as_json: bool) -> int:
    """Print one turn's expectation and when to bank."""
    table = turn_table(rules)
    unit = table.model.unit
    bank_at = {str(n): k * unit for n, k in table.bank_at().items()}
    expected = round(table.start * unit, 6)
    if as_json:
        print(json.dumps({"rules": rules.name, "expected_points": expected, "bank_at": bank_at}))
    else:
        # four significant digits, at least one decimal: 539.8 (farkle), 8.142 (pig)
        decimals = max(1, 3 - int(math.log10(max(expected, 1.0))))
        print(f"{rules.name}: {expected:.{decimals}f} points per turn at best (entered, no target)")
        for n, points in bank_at.items():
            print(f"  {n} {'die' if n == '1' else 'dice'} left: bank at {points} or more")
    return 0


def solve(rules: Rules, as_json: bool) -> None:
    """Load and verify the cached table of ``rules``, or solve and save it; print one line."""
    directory = cache_directory()
    table = load_table(rules, directory)
    solved = table is None
    if table is None:
        bar = ProgressBar(sys.stderr, label=f"solving {rules.name} to {rules.target}")
        table = solve_fast(rules, progress=bar.update)
        bar.close()
        path = save_table(table, directory)
    else:
        path = table_path(rules, directory)
    report = {
        "rules": rules.name,
        "target": rules.target,
        "solved": solved,
        "seconds": round(table.seconds, 2),
        "cpu_seconds": round(table.cpu_seconds, 2),
        "bytes": table.nbytes,
        "first_player_wins": round(table.first_player_wins(), 6),
        "path": str(path),
    }
    if as_json:
        print(json.dumps(report), flush=True)
        return
    how = "solved" if solved else "cached and verified, solved"
    print(
        f"{rules.name} to {rules.target}: {how} in {report['seconds']} s "
        f"({report['cpu_seconds']} s CPU), {table.nbytes / 1e6:.1f} MB; the first player wins "
        f"{100 * table.first_player_wins():.2f}% of optimal games ({path})",
        flush=True,
    )
