"""The subcommands of the `dicekeeper` command line, one module each.

Each module defines ``register(subparsers)``, which adds its parser and sets ``func`` to a function
taking the parsed ``argparse.Namespace`` and returning the exit status. Add a module's name to
``COMMANDS`` to make it part of the command line.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Protocol

COMMANDS: tuple[str, ...] = (
    "score",
    "rules",
    "play",
    "read",
    "strategy",
    "tournament",
    "run",
    "demo",
    "history",
    "review",
    "calibrate",
    "photos",
    "adapt",
)

Handler = Callable[[argparse.Namespace], int]


class CommandModule(Protocol):
    """What a subcommand module provides."""

    def register(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        """Add this command's parser to ``subparsers``."""


def register_all(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register every subcommand module that exists (modules not yet written are skipped)."""
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"device.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"device.commands.{name}":
                raise
            continue
        module.register(subparsers)
