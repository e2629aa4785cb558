"""Write the shipped networks' features of the rehearsal crops into the package.

A table's refit (`vision.adapt.adapt_last_layer`) holds each network's last layer to its shipped
verdicts on rendered trays of ordinary dice (`vision.adapt.rehearsal_crops`). Those crops, and
what the shipped networks see of them, are the same for every refit under the default params, so
they ship as `vision/rehearsal.npz` (`vision.adapt.REHEARSAL`) and the refit renders nothing:
about 50 MB and 5 s less a refit here. The file names the networks it was made for (their
SHA-256); a refit whose networks or params differ renders the crops itself. Run this after either
network changes (tests/vision/test_adapt.py fails until it is run).

Usage: .venv/bin/python -m training.make_rehearsal [--out vision/rehearsal.npz]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.adapt import (
    REHEARSAL,
    AdaptParams,
    rehearsal_computed,
    rehearsal_key,
    rehearsal_networks,
)

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / REHEARSAL)
    args = parser.parse_args()
    params = AdaptParams()
    reader, judge = rehearsal_computed(params)
    np.savez_compressed(
        args.out,
        params=rehearsal_key(params),
        networks=rehearsal_networks(),
        reader=reader,
        judge=judge,
    )
    print(f"{args.out}: {len(reader)} crops, {reader.shape[1]} + {judge.shape[1]} features")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
