"""Dice reader at the table: what a wrong reading costs there, on synthetic throws drawn like real
photos (`vision.render.style.style_like`: "phone-box", "webcam-desk").

A table keeps one tray, light and set of dice, so each style is drawn once and thrown ``--throws``
times. A throw is refused (thrown again) when the reader reports another number of dice than were
thrown, or a die it cannot read; it is accepted otherwise. Printed per look: dice recall and
precision, throw accuracy, and the throws accepted with a wrong value (a wrong score in front of
everyone) and refused.

Usage: .venv/bin/python benchmarks/vision_table.py [--styles N] [--throws N] [--look NAME]
"""

from __future__ import annotations

import argparse
import random
import sys

import cv2

from vision import ReaderParams, read
from vision.evaluation import Score, rendered_labels, score_image
from vision.render import render_tray
from vision.render.style import PRESETS, style_like


def evaluate_look(look: str, styles: int, throws: int, params: ReaderParams) -> None:
    """Print the figures of ``styles`` trays of one look, ``throws`` throws each."""
    total = Score()
    misread = refused = 0
    for style_seed in range(styles):
        style = style_like(look, style_seed)
        rng = random.Random(style_seed)
        for throw in range(throws):
            values = [rng.randint(1, 6) for _ in range(rng.randint(1, 6))]
            tray = render_tray(values, seed=1000 * style_seed + throw, style=style)
            reading = read(tray.frame, params)
            total += score_image(reading, rendered_labels(tray.dice))
            if len(reading.dice) != len(values) or None in reading.values:
                refused += 1
            elif sorted(v for v in reading.values if v is not None) != sorted(values):
                misread += 1
    count = styles * throws
    print(
        f"{look} ({styles} trays x {throws} throws): recall {total.recall:.4f}, "
        f"precision {total.precision:.4f}, throw accuracy {total.throw_accuracy:.4f}; "
        f"accepted but misread {misread} ({misread / count:.2%}), "
        f"refused {refused} ({refused / count:.2%})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--styles", type=int, default=30, help="trays per look (default 30)")
    parser.add_argument("--throws", type=int, default=20, help="throws per tray (default 20)")
    parser.add_argument("--look", choices=PRESETS, help="only this look")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    params = ReaderParams()
    for look in PRESETS:
        if args.look in (None, look):
            evaluate_look(look, args.styles, args.throws, params)
    return 0


if __name__ == "__main__":
    sys.exit(main())
