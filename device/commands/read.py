"""`dicekeeper read [--json] [--annotate DIR] [--expect N] IMAGE ...`: read the dice in still
images (``--expect``: the number of dice in each, `vision.read`'s ``expected``).

With ``--json`` one line per image: ``{"image": PATH, "dice": [{"value", "x", "y", "w", "h",
"confidence"}, ...]}``; a die read as null (not sure) also has ``"likely"``, the value the reader
found likeliest, when it has a guess. A file that is not an image, or whose header declares an
image too large to read (checked before decoding), gets a one-line error on stderr naming it; the
other images are still read, and the exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from device.commands.outputs import output_directory
from hardware.image_files import ImageUnreadable, read_image
from vision import InvalidFrame, Reading, read
from vision.annotate import annotate
from vision.reader import MOST_DICE
from vision.types import DieReading

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``read`` command."""
    parser = subparsers.add_parser(
        "read",
        help="read the dice in still images",
        description="Read the dice in still images (one line per image).",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--annotate",
        metavar="DIR",
        type=Path,
        help="write each image with the dice boxed and their values drawn into DIR "
        "(created if missing; a file of that name is refused)",
    )
    parser.add_argument(
        "--expect",
        metavar="N",
        type=_dice_count,
        help=f"the number of dice thrown (1-{MOST_DICE}): the reader takes that many dice, and "
        "gives no die a value because of it",
    )
    parser.add_argument("images", metavar="IMAGE", nargs="+", help="image files to read")
    parser.set_defaults(func=run)


def reading_to_json(image: str, reading: Reading) -> str:
    """The one-line JSON form of an image's reading."""
    return json.dumps({"image": image, "dice": [_die_json(die) for die in reading.dice]})


def _die_json(die: DieReading) -> dict[str, object]:
    """One die as JSON; ``likely`` only for a die not read that has a likeliest value."""
    data: dict[str, object] = {
        "value": die.value,
        "x": round(die.center[0], 1),
        "y": round(die.center[1], 1),
        "w": die.box.w,
        "h": die.box.h,
        "confidence": round(die.confidence, 3),
    }
    if die.value is None and die.likely is not None:
        data["likely"] = die.likely
    return data


def reading_to_text(image: str, reading: Reading) -> str:
    """The one-line human form of an image's reading: the values in reading order, ? if unread."""
    values = " ".join("?" if v is None else str(v) for v in reading.values) or "no dice"
    return f"{image}: {values}"


def run(args: argparse.Namespace) -> int:
    """Read every image named; report the ones that are not images and exit 2 if there were any."""
    failed = False
    annotate_dir: Path | None = args.annotate
    if annotate_dir is not None:
        output_directory("--annotate", annotate_dir)
    for image in args.images:
        problem = _unreadable(image)
        if problem is not None:
            print(f"dicekeeper read: {image!r} {problem}", file=sys.stderr)
            failed = True
            continue
        try:
            frame = read_image(image)
        except ImageUnreadable as exc:
            print(f"dicekeeper read: {exc}", file=sys.stderr)
            failed = True
            continue
        try:
            reading = read(frame, expected=args.expect)
        except InvalidFrame as exc:
            print(f"dicekeeper read: {image!r}: {exc}", file=sys.stderr)
            failed = True
            continue
        print(reading_to_json(image, reading) if args.json else reading_to_text(image, reading))
        if annotate_dir is not None:
            target = annotate_dir / f"{Path(image).stem}.annotated.png"
            if not cv2.imwrite(str(target), annotate(frame, reading)):
                print(f"dicekeeper read: cannot write {str(target)!r}", file=sys.stderr)
                failed = True
        sys.stdout.flush()
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _dice_count(text: str) -> int:
    """A ``--expect`` count: a whole number of dice from 1 to `MOST_DICE`."""
    try:
        count = int(text)
    except ValueError:
        count = 0
    if not 1 <= count <= MOST_DICE:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of dice from 1 to {MOST_DICE}")
    return count


def _unreadable(image: str) -> str | None:
    """Why a path named on the command line is no file to read (None: it is a file)."""
    path = Path(image)
    if not path.exists():
        return "does not exist"
    if not path.is_file():
        return "is not a file"
    return None
