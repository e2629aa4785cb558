"""Stage 0: check that a frame is something the reader can work on."""

from __future__ import annotations

from typing import cast

import numpy as np

from vision.errors import InvalidFrame
from vision.types import Frame

MIN_SIDE = 16
"""Frames smaller than this on either side cannot hold a readable die."""
MAX_SIDE = 16_384
"""Frames longer than this on either side are refused (the same limit as image files)."""
MAX_PIXELS = 50_000_000
"""Frames with more pixels are refused: the reader's working copies would not fit a Pi's memory."""


def check_frame(frame: object) -> Frame:
    """Return ``frame`` if it is an H×W×3 uint8 BGR image of 16×16 to `MAX_SIDE` pixels a side
    and at most `MAX_PIXELS` in all.

    Raises `InvalidFrame` naming the shape or dtype otherwise.
    """
    if not isinstance(frame, np.ndarray):
        raise InvalidFrame(f"a frame must be a numpy array, not {type(frame).__name__!r}")
    if frame.dtype != np.uint8:
        raise InvalidFrame(f"a frame must have dtype uint8, not {str(frame.dtype)!r}")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise InvalidFrame(f"a frame must be H×W×3 (BGR), not shape {tuple(frame.shape)!r}")
    height, width = frame.shape[:2]
    if height < MIN_SIDE or width < MIN_SIDE:
        raise InvalidFrame(
            f"a frame must be at least {MIN_SIDE}×{MIN_SIDE} pixels, not shape "
            f"{tuple(frame.shape)!r}"
        )
    if max(height, width) > MAX_SIDE or height * width > MAX_PIXELS:
        raise InvalidFrame(
            f"a frame must be at most {MAX_SIDE} pixels a side and {MAX_PIXELS:,} in all, not "
            f"shape {tuple(frame.shape)!r}"
        )
    return cast(Frame, frame)
