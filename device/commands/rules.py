"""`dicekeeper rules [--json] [NAME]`: list the rule sets with a one-line description each, or show
one (a name or the path of a rules file) in full: its summary, its source and its rule file text.
"""

from __future__ import annotations

import argparse
import json

from device.rules_file import find_rules_or_file
from engine.rules import Rules, builtin_rules
from engine.rules_toml import format_rules


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
    parser.add_argument(
        "name",
        nargs="?",
        metavar="NAME",
        help="show this rule set (or rules file) in full, as a rules file would say it",
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
    """Print the rule sets, or one in full."""
    if args.name is not None:
        return _show(find_rules_or_file(args.name), as_json=args.json)
    all_rules = builtin_rules()
    if args.json:
        print(json.dumps([{"name": r.name, "description": r.description} for r in all_rules]))
        return 0
    width = max(len(rules.name) for rules in all_rules)
    for rules in all_rules:
        print(f"{rules.name:<{width}}  {rules.description}")
    return 0


def _show(rules: Rules, *, as_json: bool) -> int:
    text = format_rules(rules)
    if as_json:
        fields = {"name": rules.name, "description": rules.description, "source": rules.source}
        print(json.dumps({**fields, "summary": summary(rules), "toml": text}))
        return 0
    print(f"{rules.name}: {summary(rules)}")
    print(f"source: {rules.source or '-'}")
    print()
    print(text, end="")
    return 0
