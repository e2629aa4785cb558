"""`dicekeeper adapt [--undo] [--config FILE]`: fit the dice classifier to the table's own dice.

The classifier's last layer, and the judge's network's (`vision.judge`), are fitted (numpy, on
the Pi itself) to the labelled photos kept of the table's throws (`device.photos`) and saved
beside the shipped weights, in the state directory (`device.adaptation`); the table reads with
them from its next start. ``--undo`` removes them: back to the shipped classifier. Too few photos
kept: a message and exit status 2.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from device.adaptation import adapt_from_ring, adapted_path, remove_last_layer, save_last_layer
from device.config import load_config
from device.photos import PhotoRing
from device.store import state_directory

__all__ = ["register"]

RESTART = "restart dicekeeper to read with it (sudo systemctl restart dicekeeper)"


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
    ring = PhotoRing.in_directory(state)
    start = time.monotonic()
    adaptation = adapt_from_ring(ring)
    path = save_last_layer(state, adaptation)
    print(
        f"adapted the classifier to {adaptation.photos} photos ({adaptation.dice} dice) in "
        f"{time.monotonic() - start:.0f} s; saved {path}; {RESTART}; "
        "`dicekeeper adapt --undo` goes back"
    )
    if adaptation.layers.judge is not None:
        print("the judge's network was adapted to them too (it decides when a value is sure)")
    return 0
