"""`dicekeeper score --rules NAME [--json] D D D ...`: score one throw; shared dice formatting.

With ``--json`` it prints one object:
``{"rules": NAME, "dice": [...], "best": INT, "options": [{"keep": [...], "score": INT}, ...],
"bust": BOOL}``. A value the dice cannot show (or a throw of more dice than the rules have) exits 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable

from device.rules_file import find_rules_or_file
from engine.dice import Throw
from engine.errors import InvalidThrow
from engine.rules import Rules
from engine.scoring import Scoring, score_throw


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` command."""
    parser = subparsers.add_parser(
        "score",
        help="score one throw",
        description="Score one throw: every legal keep with its score, the best, whether a bust.",
    )
    add_rules_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "dice", nargs="*", metavar="D", help="the value of each die, e.g. 1 5 3 (none: scores 0)"
    )
    parser.set_defaults(func=run)


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """The ``--rules NAME`` option shared by the engine's commands."""
    parser.add_argument(
        "--rules",
        required=True,
        metavar="NAME",
        help="a rule set (see `dicekeeper rules`) or the path of a rules file",
    )


def resolve_rules(name: str) -> Rules:
    """The rule set named ``name``, or read from the rules file at that path."""
    return find_rules_or_file(name)


def parse_dice(tokens: Iterable[str]) -> tuple[int, ...]:
    """Die values from command-line words; `InvalidThrow` quoting a word that is not a number."""
    values = []
    for token in tokens:
        if not (token.isascii() and token.isdigit()):
            raise InvalidThrow(f"die value {token!r} is not a whole number")
        values.append(int(token))
    return tuple(values)


def format_dice(dice: Iterable[int]) -> str:
    """Dice as text: ``1 1 5`` (or ``-`` for none)."""
    text = " ".join(str(value) for value in dice)
    return text or "-"


def format_scoring(scoring: Scoring, *, limit: int | None = None) -> list[str]:
    """Readable lines for one throw's scoring."""
    if not scoring.dice:
        return ["no dice: a throw of no dice scores 0"]
    if scoring.is_bust:
        return [f"{format_dice(scoring.dice)}: nothing scores: bust"]
    lines = [
        f"{format_dice(scoring.dice)}: best {scoring.best} "
        f"(keep {format_dice(scoring.options[0].dice)}, leaves {format_dice(scoring.non_scoring)})"
    ]
    shown = scoring.options if limit is None else scoring.options[:limit]
    for number, option in enumerate(shown, start=1):
        lines.append(f"  {number:>2}) keep {format_dice(option.dice):<12} {option.score:>5}")
    if len(shown) < len(scoring.options):
        lines.append(f"  ... and {len(scoring.options) - len(shown)} more")
    return lines


def scoring_json(rules: Rules, dice: tuple[int, ...], scoring: Scoring) -> dict[str, object]:
    """The JSON object of the score contract."""
    return {
        "rules": rules.name,
        "dice": list(dice),
        "best": scoring.best,
        "options": [{"keep": list(o.dice), "score": o.score} for o in scoring.options],
        "bust": scoring.is_bust,
    }


def run(args: argparse.Namespace) -> int:
    """Score the throw given on the command line."""
    rules = resolve_rules(args.rules)
    dice = parse_dice(args.dice)
    shown = " ".join(args.dice)
    for token, value in zip(args.dice, dice, strict=True):  # the die named as typed, not '117'
        if not 1 <= value <= rules.faces:
            raise InvalidThrow(
                f"die value {token!r} is impossible on {rules.faces}-faced dice "
                f"(allowed 1..{rules.faces})"
            )
    if len(dice) > rules.dice:
        raise InvalidThrow(f"at most {rules.dice} dice allowed, got {len(dice)}: {shown!r}")
    if dice:  # a throw of no dice scores 0
        rules.check_throw(Throw(dice))  # before sorting, so an error quotes the dice as given
    scoring = score_throw(rules, dice)
    if args.json:
        print(json.dumps(scoring_json(rules, dice, scoring)))
    else:
        print(f"{rules.name}:")
        for line in format_scoring(scoring):
            print(line)
    return 0
