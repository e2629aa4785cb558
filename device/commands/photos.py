"""`dicekeeper photos [export DIR] [--config FILE]`: the labelled photos kept of the table's throws.

Alone it says how many photos the ring holds and their size (`device.photos`); ``export DIR``
writes them in the datasets' layout (``images/``, ``labels.csv`` with
``image,x_min,y_min,x_max,y_max,value``), which the benchmarks and training scripts read as they
read ``../shared/datasets``. DIR must be new or empty: an existing folder with anything in it is
refused (exit status 2) rather than mixed with other labels.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from device.adaptation import load_last_layer
from device.commands.outputs import BadOutput
from device.config import load_config
from device.photos import PhotoRing
from device.store import state_directory

__all__ = ["export_photos", "new_export_folder", "register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``photos`` command."""
    parser = subparsers.add_parser(
        "photos",
        help="the labelled photos kept of the table's throws: count, or export them",
        description=(
            "Every throw that counted at the table (confirmed or corrected by the players) is "
            "kept as a labelled photo in the state directory, at most 200 MB. Alone: how many "
            "and how large. `export DIR`: write them as a dataset (images/, labels.csv)."
        ),
    )
    parser.add_argument("action", nargs="?", choices=("export",), help="export the photos")
    parser.add_argument("dir", nargs="?", type=Path, metavar="DIR", help="a new or empty folder")
    parser.add_argument("--config", metavar="FILE", type=Path, help="the TOML configuration")
    parser.set_defaults(func=handle, photos_parser=parser)


def handle(args: argparse.Namespace) -> int:
    """Print the ring's size, or export it into DIR."""
    config = load_config(args.config)
    state = state_directory(config.state.directory)
    ring = PhotoRing.in_directory(state)
    if args.action is None:
        if args.dir is not None:
            args.photos_parser.error(f"unexpected {str(args.dir)!r}: did you mean `export DIR`?")
        count, size = ring.usage()
        print(
            f"{count} labelled photos, {size / 1e6:.1f} MB of at most "
            f"{ring.max_bytes / 1e6:.0f} MB, in {ring.folder}"
        )
        marked = [p.corrected for p in ring.photos() if p.corrected is not None]
        if marked:
            fixed = [n for n in marked if n]
            confirmed = len(marked) - len(fixed)
            print(
                f"{confirmed} {'throw' if confirmed == 1 else 'throws'} kept as read, "
                f"{len(fixed)} with {sum(fixed)} {'die' if sum(fixed) == 1 else 'dice'} "
                "corrected by the players"
            )
        adapted = load_last_layer(state)
        if adapted is None:
            print("the reader uses the shipped classifier (`dicekeeper adapt` fits it to them)")
        else:
            print(
                f"the reader uses the classifier adapted to {adapted.photos} photos "
                f"({adapted.dice} dice); `dicekeeper adapt --undo` goes back"
            )
        return 0
    if args.dir is None:
        args.photos_parser.error("export needs a folder: dicekeeper photos export DIR")
    out = new_export_folder("photos export", args.dir)
    count, dice = export_photos(ring, out)
    print(f"exported {count} photos ({dice} dice) to {out}")
    return 0


def new_export_folder(option: str, path: Path) -> Path:
    """``path`` as a folder to export into: new, or empty; `BadOutput` otherwise."""
    text = str(path)
    if path.exists() and not path.is_dir():
        raise BadOutput(f"{option} {text!r} is a file, not a folder")
    if path.is_dir() and any(path.iterdir()):
        raise BadOutput(f"{option} {text!r} is not empty: give a new or empty folder")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise BadOutput(f"{option} {text!r}: {str(parent)!r} is a file, not a folder")
    return path


def export_photos(ring: PhotoRing, out: Path) -> tuple[int, int]:
    """Export ``ring`` into ``out`` (checked by `new_export_folder`): photos and dice written."""
    count = ring.export(out)
    dice = sum(1 for _ in (out / "labels.csv").open()) - 1
    return count, dice
