"""The `dicekeeper` command line: parses arguments, runs a subcommand, maps errors to exits.

Exit status: 0 on success, 2 for bad usage or bad input (one line on stderr naming the input),
1 for an unexpected failure.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from device.commands import register_all
from device.logs import setup_logging
from engine.errors import DicekeeperError

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_INPUT = 2

VERBOSE_HELP = "log debugging messages too (on stderr)"

log = logging.getLogger(__name__)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose refusals are one line on stderr (the usage is behind
    ``--help``), with exit status 2, as every other bad input's."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered (each a `_Parser` too)."""
    parser: argparse.ArgumentParser = _Parser(
        prog="dicekeeper",
        description="A tabletop companion for Greed and Farkle.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help=VERBOSE_HELP)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    register_all(subparsers)
    for (
        command
    ) in subparsers.choices.values():  # `dicekeeper run -v` as well as `dicekeeper -v run`
        command.add_argument(
            "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help=VERBOSE_HELP
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    setup_logging(args.command, verbose=args.verbose)
    try:
        status: int = args.func(args)
    except DicekeeperError as exc:
        # Bad input that reached a domain check: one line, naming the input.
        log.error("%s", exc)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_FAILURE
    except BrokenPipeError:
        # The reader went away (`dicekeeper play | head`): not an error worth a traceback.
        # Point stdout at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILURE
    except OSError as exc:
        if exc.filename is None:
            raise
        # A path from the command line that cannot be used (a file where a folder is wanted...).
        log.error("%r: %s", str(exc.filename), exc.strerror or exc)
        return EXIT_BAD_INPUT
    return status


if __name__ == "__main__":
    sys.exit(main())
