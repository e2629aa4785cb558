"""`dicekeeper rules [--json]`: list the built-in rule sets with a one-line description each."""

from __future__ import annotations

import argparse
import json

from engine.rules import Rules, builtin_rules


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules`` command."""
    parser = subparsers.add_parser(
        "rules",
        help="list the rule sets",
        description="List the built-in rule sets (use a name with --rules).",
    )
    parser.add_argument(
        "--json", action="store_true", help='print [{"name": ..., "description": ...}, ...]'
    )
    parser.set_defaults(func=run)


def summary(rules: Rules) -> str:
    """The key numbers of a rule set in a few words."""
    keep = "all scoring dice set aside" if rules.is_keep_forced else "choose what to keep"
    entry = (
        f"enter with {rules.entry_threshold} ({rules.entry.value})"
        if rules.entry_threshold
        else "no entry threshold"
    )
    passing = ", passing" if rules.passing else ""
    return (
        f"{rules.dice} {'die' if rules.dice == 1 else 'dice'} d{rules.faces}, {keep}, {entry}, "
        f"target {rules.target} "
        f"({rules.end.value}){passing}"
    )


def run(args: argparse.Namespace) -> int:
    """Print the rule sets."""
    all_rules = builtin_rules()
    if args.json:
        print(json.dumps([{"name": r.name, "description": r.description} for r in all_rules]))
        return 0
    width = max(len(rules.name) for rules in all_rules)
    for rules in all_rules:
        print(f"{rules.name:<{width}}  {rules.description}")
    return 0
