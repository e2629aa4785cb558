"""The `dicekeeper` command line: parses arguments, runs a subcommand, maps errors to exits.

Exit status: 0 on success, 2 for bad usage or bad input (one line on stderr naming the input),
1 for an unexpected failure.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from device.commands import register_all
from engine.errors import DicekeeperError

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="dicekeeper",
        description="A tabletop companion for Greed and Farkle.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    register_all(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except DicekeeperError as exc:
        # Bad input that reached a domain check: one line, naming the input.
        print(f"dicekeeper {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_FAILURE
    except BrokenPipeError:
        # The reader went away (`dicekeeper play | head`): not an error worth a traceback.
        # Point stdout at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILURE
    return status


if __name__ == "__main__":
    sys.exit(main())
