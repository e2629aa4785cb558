"""Where a die face ends: walking out from its centre along rays until the face's grey level or
colour changes for good. Shared by the checks on lone pips and on pip grids."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.types import Frame


def face_ends(
    x: float,
    y: float,
    directions: npt.NDArray[np.float64],
    radii: npt.NDArray[np.float64],
    face_level: float,
    face_colour: tuple[float, float, float],
    level_step: float,
    colour_step: float,
    smooth_gray: npt.NDArray[np.float32],
    smooth_colour: Frame,
    run: int = 3,
) -> npt.NDArray[np.float64]:
    """For each unit direction (rows of ``directions``), the index in ``radii`` (times the
    direction's length) where the face ends, or ``len(radii)`` where it does not end. The face
    ends where the grey level differs from ``face_level`` by more than ``level_step`` or the colour
    from ``face_colour`` by more than ``colour_step``, for ``run`` samples running (so that a
    fleck of a marbled face, or a pip, is not taken for its edge)."""
    height, width = smooth_gray.shape
    xs = np.clip(np.rint(x + radii[None, :] * directions[:, 0:1]), 0, width - 1).astype(np.intp)
    ys = np.clip(np.rint(y + radii[None, :] * directions[:, 1:2]), 0, height - 1).astype(np.intp)
    gray_off = np.abs(smooth_gray[ys, xs] - face_level) > level_step
    colour = smooth_colour[ys, xs] - np.array(face_colour, dtype=np.float32)
    colour_off = np.sqrt((colour**2).sum(axis=2)) > colour_step
    off = gray_off | colour_off
    count = off.shape[1] - run + 1
    lasting = off[:, :count].copy()
    for shift in range(1, run):
        lasting &= off[:, shift : shift + count]
    ends = lasting.any(axis=1)
    return np.where(ends, np.argmax(lasting, axis=1), len(radii)).astype(np.float64)
