"""Rendered trays kept as PNG files, for the tests of a reader weakness found on one exact frame.

The renderer's floating-point stages (``cv2.resize``, ``cv2.remap``) round differently from one
OpenCV version to the next (4.8, 4.11 and 5.0 each give a few hundred pixels that differ by up to
about 20 levels), and a hard case found on one version's frame may read otherwise on another's.
Such tests read the frame as stored here, so they test the reader, not the OpenCV that drew it;
`test_stored_trays_are_what_the_renderer_draws` keeps the files close to the renderer's output.

After a deliberate change to the renderer, write them again (with OpenCV `WRITTEN_WITH`):
``.venv/bin/python -m tests.vision.stored_trays``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.render import render_tray

TRAYS = Path(__file__).resolve().parent / "trays"

STORED: tuple[tuple[int, tuple[int, ...]], ...] = (
    (5, (6, 1, 2)),
    (7236, (6,)),
    (2822, (2, 5)),
    (9435, (1, 4, 5, 2, 2)),
    (1311, (5, 6)),
    (8860, (3, 6, 1, 5)),
    (5358, (3, 2, 1)),
    (4306, (5, 4, 2, 4, 4, 4)),
)
"""(seed, values) of the stored trays, each rendered by ``render_tray(values, seed=seed)``."""

WRITTEN_WITH = "5.0.0"
"""The OpenCV version that rendered the stored trays (`write_all` refuses another)."""


def tray_path(values: Sequence[int], *, seed: int) -> Path:
    """Where the tray of ``values`` rendered with ``seed`` is stored."""
    return TRAYS / f"seed-{seed}-{''.join(map(str, values))}.png"


def stored_tray(values: Sequence[int], *, seed: int) -> npt.NDArray[np.uint8]:
    """The stored frame of ``render_tray(values, seed=seed)`` (BGR uint8)."""
    if (seed, tuple(values)) not in STORED:
        raise KeyError(f"no stored tray for seed {seed} and values {list(values)!r}")
    path = tray_path(values, seed=seed)
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise FileNotFoundError(f"cannot read the stored tray {str(path)!r}")
    return np.asarray(frame, dtype=np.uint8)


def write_all() -> None:
    """Render every tray of `STORED` with the installed OpenCV and store it."""
    if cv2.__version__ != WRITTEN_WITH:
        raise SystemExit(f"render them with OpenCV {WRITTEN_WITH} (or change WRITTEN_WITH)")
    TRAYS.mkdir(exist_ok=True)
    for seed, values in STORED:
        frame = render_tray(list(values), seed=seed).frame
        cv2.imwrite(str(tray_path(values, seed=seed)), frame, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        print(tray_path(values, seed=seed))


if __name__ == "__main__":
    write_all()
