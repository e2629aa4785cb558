"""`dicekeeper adapt [--undo] [--background] [--config FILE]`: fit the dice classifier to the
table's own dice.

The classifier's last layer, and the judge's network's (`vision.judge`), are fitted (numpy, on
the Pi itself) to the labelled photos kept of the table's throws (`device.photos`) but the newest
quarter, which the refit must read at least as well as the reader in use (`vision.adapt.refit`);
then saved beside the shipped weights, in the state directory (`device.adaptation`), and the table
reads with them from its next start (a running table that adapted by itself, at once). A refit
that reads worse is not saved. ``--undo`` removes them: back to the shipped classifier. Too few
photos kept, or a refit that reads worse: a message and exit status 2. ``--background`` lowers
the process's priority (as the table runs it while the game goes on).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from pathlib import Path

from device.adaptation import (
    AdaptedFileError,
    adapt_from_ring,
    adapted_path,
    checked_line,
    load_last_layer,
    remove_last_layer,
    save_last_layer,
)
from device.config import load_config
from device.photos import PhotoRing
from device.store import state_directory

__all__ = ["register"]

RESTART = "restart dicekeeper to read with it (sudo systemctl restart dicekeeper)"
BACKGROUND_NICENESS = 10
"""How much ``--background`` lowers the priority (the game's own process keeps the CPU)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``adapt`` command."""
    parser = subparsers.add_parser(
        "adapt",
        help="fit the dice classifier to the table's own dice (the kept photos); --undo",
        description=(
            "Fit the dice classifier's last layer to the labelled photos kept of the table's "
            "throws, so that dice it did not know (an emblem on the six, unusual colours) are "
            "read; saved in the state directory. --undo goes back to the shipped classifier."
        ),
    )
    parser.add_argument("--undo", action="store_true", help="go back to the shipped classifier")
    parser.add_argument(
        "--background", action="store_true", help="at low priority (the table's own runs)"
    )
    parser.add_argument("--config", metavar="FILE", type=Path, help="the TOML configuration")
    parser.add_argument(
        "--state", metavar="DIR", type=Path, help="the state directory (default: the config's)"
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Fit and save the adapted layer, or remove it."""
    config = load_config(args.config)
    state = args.state or state_directory(config.state.directory)
    if args.undo:
        if remove_last_layer(state):
            print(f"removed {adapted_path(state)}: back to the shipped classifier; {RESTART}")
        else:
            print("nothing to undo: the reader uses the shipped classifier")
        return 0
    if args.background:
        with contextlib.suppress(OSError):  # a sandbox may refuse it: adapt all the same
            os.nice(BACKGROUND_NICENESS)
    ring = PhotoRing.in_directory(state)
    start = time.monotonic()
    try:
        current = load_last_layer(state)
    except AdaptedFileError:  # refitted from the shipped layers, and the file replaced
        current = None
    adaptation = adapt_from_ring(ring, current.layers if current is not None else None)
    path = save_last_layer(state, adaptation)
    done = (
        f"adapted the classifier to {adaptation.photos} photos ({adaptation.dice} dice) in "
        f"{time.monotonic() - start:.0f} s"
    )
    if args.background:  # the table that ran it reads with it at once
        print(f"{done}; {checked_line(adaptation.refit) if adaptation.refit else ''}")
        return 0
    print(f"{done}; saved {path}; {RESTART}; `dicekeeper adapt --undo` goes back")
    if adaptation.refit is not None:
        print(checked_line(adaptation.refit))
    if adaptation.layers.judge is not None:
        print("the judge's network was adapted to them too (it decides when a value is sure)")
    return 0
