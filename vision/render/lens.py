"""Barrel distortion of a cheap wide lens, for synthetic tray photos and their ground truth.

Part of the synthetic tray renderer (``vision.render``). With strength ``k`` a pixel at distance
``r_d`` from the centre (in half-diagonals) of the distorted photo shows what lay at
``r_u = r_d (1 + k r_d²) / (1 + k)`` in the undistorted one: the corners stay put, the middle
bulges (straight tray edges bow outwards, dice near the border are squeezed).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Frame

FloatArray = npt.NDArray[np.float64]


@lru_cache(maxsize=8)
def _maps(w: int, h: int, k: float) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    cx, cy = (w - 1) / 2, (h - 1) / 2
    half = float(np.hypot(cx, cy))
    xs = (np.arange(w, dtype=np.float32) - np.float32(cx))[None, :]
    ys = (np.arange(h, dtype=np.float32) - np.float32(cy))[:, None]
    r2 = (xs**2 + ys**2) / np.float32(half * half)
    scale = (1.0 + np.float32(k) * r2) / np.float32(1.0 + k)
    map_x = np.asarray(xs * scale + np.float32(cx), np.float32)
    map_y = np.asarray(ys * scale + np.float32(cy), np.float32)
    map_x.flags.writeable = False
    map_y.flags.writeable = False
    return map_x, map_y


def distort_image(frame: Frame, k: float) -> Frame:
    """The photo as the distorting lens shows it (``k`` = 0: unchanged)."""
    if k == 0:
        return frame
    h, w = frame.shape[:2]
    map_x, map_y = _maps(w, h, float(k))
    out = cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.uint8)


def _about_centre(
    points: FloatArray, size: tuple[int, int]
) -> tuple[FloatArray, float, FloatArray]:
    """The centre of a photo ``size`` (w, h) wide, half its diagonal, and the points (N×2)
    from that centre in half-diagonals."""
    w, h = size
    c = np.array([(w - 1) / 2, (h - 1) / 2])
    half = float(np.hypot(*c))
    return c, half, (points - c) / half


def distort_points(points: FloatArray, size: tuple[int, int], k: float) -> FloatArray:
    """Where undistorted image points (N×2) appear in the distorted photo."""
    if k == 0 or len(points) == 0:
        return points
    c, half, rel = _about_centre(points, size)
    r_u = np.hypot(rel[:, 0], rel[:, 1])
    r_d = r_u.copy()
    for _ in range(6):  # Newton's method on r_d (1 + k r_d²) = r_u (1 + k)
        r_d -= (r_d * (1.0 + k * r_d**2) - r_u * (1.0 + k)) / (1.0 + 3.0 * k * r_d**2)
    ratio = np.divide(r_d, r_u, out=np.ones_like(r_u), where=r_u > 1e-9)
    out: FloatArray = c + rel * ratio[:, None] * half
    return out


def undistort_points(points: FloatArray, size: tuple[int, int], k: float) -> FloatArray:
    """Where points of the distorted photo (N×2) lay before the lens bent them: the inverse of
    `distort_points` (the same map `distort_image` samples by)."""
    if k == 0 or len(points) == 0:
        return points
    c, half, rel = _about_centre(points, size)
    r_d2 = rel[:, 0] ** 2 + rel[:, 1] ** 2
    out: FloatArray = c + rel * ((1.0 + k * r_d2) / (1.0 + k))[:, None] * half
    return out
