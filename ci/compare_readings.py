"""Compares two `dicekeeper read --json` outputs die by die; exit 1 when they differ.

Usage: python3 ci/compare_readings.py EXPECTED.jsonl ACTUAL.jsonl [--tolerance PIXELS]

The same images must be read, with the same number of dice, each die (matched in order of
position) with the same value and a centre within the tolerance (default 1.5 pixels). Confidences
are not compared: they are printed as the largest difference seen.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def load(path: Path) -> dict[str, list[dict[str, float]]]:
    """The readings of ``path``: image name -> its dice sorted by position."""
    readings: dict[str, list[dict[str, float]]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            readings[record["image"]] = sorted(record["dice"], key=lambda d: (d["y"], d["x"]))
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"compare_readings: {str(path)!r} line {number}: {error}") from None
    return readings


def differences(
    expected: dict[str, list[dict[str, float]]],
    actual: dict[str, list[dict[str, float]]],
    tolerance: float,
) -> list[str]:
    """One line for each image whose dice differ."""
    found = []
    for image in sorted(expected.keys() | actual.keys()):
        if image not in actual or image not in expected:
            found.append(f"{image}: read only in {'expected' if image in expected else 'actual'}")
            continue
        want, got = expected[image], actual[image]
        if [d["value"] for d in want] != [d["value"] for d in got]:
            found.append(
                f"{image}: values {[d['value'] for d in want]} != {[d['value'] for d in got]}"
            )
            continue
        for a, b in zip(want, got, strict=True):
            if abs(a["x"] - b["x"]) > tolerance or abs(a["y"] - b["y"]) > tolerance:
                found.append(
                    f"{image}: die {a['value']} at ({a['x']}, {a['y']}) vs ({b['x']}, {b['y']})"
                )
    return found


def main() -> int:
    """Compare the two files named on the command line; print the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("expected", type=Path)
    parser.add_argument("actual", type=Path)
    parser.add_argument("--tolerance", type=float, default=1.5)
    args = parser.parse_args()
    expected, actual = load(args.expected), load(args.actual)
    found = differences(expected, actual, args.tolerance)
    dice = sum(len(v) for v in expected.values())
    confidence = max(
        (
            abs(a.get("confidence", 0) - b.get("confidence", 0))
            for image in expected.keys() & actual.keys()
            if len(expected[image]) == len(actual[image])
            for a, b in zip(expected[image], actual[image], strict=True)
        ),
        default=0.0,
    )
    if found:
        print(f"  {len(found)} of {len(expected)} images differ:")
        print("\n".join(f"    {line}" for line in found))
        return 1
    print(
        f"  the same {dice} dice in {len(expected)} images"
        f" (confidences differ by at most {confidence:.3f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
