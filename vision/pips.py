"""Stage 1: find pip candidates, dark pips on light faces and light pips on dark faces.

A pip is a small round blob that stands out from the die face around it. Candidates come from an
adaptive threshold at several block sizes (so pips from about 3 px to 30 px are found without
knowing the camera height), then are kept only when they are round, compact and clearly contrasted
against a ring sampled just outside them, which also gives the colour of the face they sit on.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.params import ReaderParams
from vision.types import Frame

Debug = Callable[[str, Frame], None]

_RING_SAMPLES = 16
_RING_RADIUS = 1.7  # in pip radii: outside the blurred pip edge, inside the die face
_ANGLES = np.linspace(0.0, 2.0 * math.pi, _RING_SAMPLES, endpoint=False)
_COS = np.cos(_ANGLES)
_SIN = np.sin(_ANGLES)


@dataclass(frozen=True, slots=True)
class Pip:
    """One pip candidate: centre (x, y), diameter in pixels, whether it is darker than its face,
    its contrast against the face (grey levels), roundness in [0, 1], elongation (>= 1), outline
    shape (tells how the face is tilted), and the face colour (B, G, R).
    """

    x: float
    y: float
    diameter: float
    is_dark: bool
    contrast: float
    circularity: float
    elongation: float
    shape: Shape
    face_colour: tuple[float, float, float]


def to_gray(frame: Frame) -> npt.NDArray[np.uint8]:
    """The frame in grey levels."""
    return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


Shape = tuple[float, float, float]
"""A blob's second moments (xx, xy, yy) scaled to determinant 1: its outline's shape, not size."""

_ROUND: Shape = (1.0, 0.0, 1.0)


def _shape_of(mask: npt.NDArray[np.uint8]) -> tuple[float, float, Shape]:
    """Circularity (4πA/P²), elongation (major/minor axis) and shape of the blob in ``mask``."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0, math.inf, _ROUND
    contour = max(contours, key=cv2.contourArea)
    area = float(cv2.contourArea(contour)) + 0.5 * len(contour)  # pixel area, not polygon area
    perimeter = float(cv2.arcLength(contour, True)) + 1e-6
    circularity = min(1.0, 4.0 * math.pi * area / (perimeter + math.pi) ** 2)
    m = cv2.moments(mask, binaryImage=True)
    if m["m00"] <= 0:
        return circularity, math.inf, _ROUND
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    spread = math.sqrt(max(0.0, (mu20 - mu02) ** 2 + 4.0 * mu11**2))
    major = mu20 + mu02 + spread
    minor = max(mu20 + mu02 - spread, 1e-6)
    det = math.sqrt(max(mu20 * mu02 - mu11**2, 1e-6))
    return circularity, math.sqrt(major / minor), (mu20 / det, mu11 / det, mu02 / det)


def _blobs(
    source: npt.NDArray[np.uint8], block: int, params: ReaderParams
) -> list[tuple[float, float, float, float, float, Shape, float]]:
    """Round compact blobs darker than their neighbourhood: (x, y, diameter, circularity, inner)."""
    binary = cv2.adaptiveThreshold(
        source,
        255,
        cv2.ADAPTIVE_THRESH_MEAN_C,
        cv2.THRESH_BINARY_INV,
        block,
        params.threshold_offset,
    )
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if count <= 1:
        return []
    max_area = params.max_pip_area_fraction * source.shape[0] * source.shape[1]
    x, y, w, h, area = (stats[:, i] for i in range(5))
    fill = area / np.maximum(w * h, 1)
    aspect = np.maximum(w, h) / np.maximum(np.minimum(w, h), 1)
    keep = (
        (area >= params.min_pip_area)
        & (area <= max_area)
        & (fill >= params.min_fill)
        & (fill <= params.max_fill)
        & (aspect <= params.max_aspect * 1.2)
        & (w < block)
        & (h < block)
    )
    keep[0] = False
    found = []
    for i in np.flatnonzero(keep):
        x0, y0, x1, y1 = int(x[i]), int(y[i]), int(x[i] + w[i]), int(y[i] + h[i])
        mask = np.where(labels[y0:y1, x0:x1] == i, 255, 0).astype(np.uint8)
        mask = np.pad(mask, 1)
        circularity, elongation, shape = _shape_of(mask)
        if circularity < params.min_circularity or elongation > params.max_aspect:
            continue
        inner = float(source[y0:y1, x0:x1][mask[1:-1, 1:-1] > 0].mean())
        diameter = 2.0 * math.sqrt(float(area[i]) / math.pi)
        cx, cy = (float(v) for v in centroids[i])
        found.append((cx, cy, diameter, circularity, elongation, shape, inner))
    return found


def find_pips(
    frame: Frame, gray: npt.NDArray[np.uint8], params: ReaderParams, debug: Debug | None = None
) -> tuple[Pip, ...]:
    """Every pip candidate in the frame, the strongest first, without duplicates across scales."""
    smooth = np.asarray(cv2.GaussianBlur(frame, (5, 5), 0), dtype=np.uint8)
    smooth_gray = to_gray(smooth).astype(np.float32)
    height, width = gray.shape
    candidates: list[Pip] = []
    for is_dark in (True, False):
        source = gray if is_dark else np.asarray(255 - gray, dtype=np.uint8)
        for block in params.block_sizes:
            for cx, cy, diameter, circularity, elongation, shape, inner in _blobs(
                source, block, params
            ):
                radius = _RING_RADIUS * diameter / 2.0 + 1.0
                xs = np.clip(np.rint(cx + radius * _COS), 0, width - 1).astype(np.intp)
                ys = np.clip(np.rint(cy + radius * _SIN), 0, height - 1).astype(np.intp)
                ring = smooth_gray[ys, xs]
                ring_level = float(np.median(ring))
                inner_level = inner if is_dark else 255.0 - inner
                contrast = ring_level - inner_level if is_dark else inner_level - ring_level
                quartiles = np.percentile(ring, [25.0, 75.0])
                spread = float(quartiles[1] - quartiles[0]) / max(contrast, 1.0)
                relative = contrast / max(ring_level, inner_level, 1.0)
                if (
                    contrast < params.min_pip_contrast
                    or relative < params.min_relative_contrast
                    or spread > params.max_ring_spread
                ):
                    continue
                colour = np.median(smooth[ys, xs].astype(np.float32), axis=0)
                candidates.append(
                    Pip(
                        cx,
                        cy,
                        diameter,
                        is_dark,
                        contrast,
                        circularity,
                        elongation,
                        shape,
                        (float(colour[0]), float(colour[1]), float(colour[2])),
                    )
                )
    candidates.sort(key=lambda p: p.contrast * p.circularity, reverse=True)
    kept: list[Pip] = []
    for pip in candidates:
        if all(
            math.hypot(pip.x - k.x, pip.y - k.y) > 0.6 * max(pip.diameter, k.diameter) for k in kept
        ):
            kept.append(pip)
    kept = _drop_faces_seen_as_pips(kept)
    if debug is not None:
        debug("pips", draw_pips(frame, kept))
    return tuple(kept)


def _drop_faces_seen_as_pips(pips: list[Pip]) -> list[Pip]:
    """Drop a candidate that contains a candidate of the other polarity: that is a die face
    (a white die on a dark table looks like one big light blob), not a pip."""
    kept = []
    for pip in pips:
        radius = pip.diameter / 2.0
        if any(
            other.is_dark != pip.is_dark
            and other.diameter < pip.diameter
            and math.hypot(other.x - pip.x, other.y - pip.y) < radius
            for other in pips
        ):
            continue
        kept.append(pip)
    return kept


def draw_pips(frame: Frame, pips: tuple[Pip, ...] | list[Pip]) -> Frame:
    """A copy of the frame with each pip candidate circled (red: dark pips, blue: light pips)."""
    canvas = frame.copy()
    for pip in pips:
        colour = (0, 0, 255) if pip.is_dark else (255, 128, 0)
        centre = (round(pip.x), round(pip.y))
        cv2.circle(canvas, centre, max(2, round(pip.diameter / 2)), colour, 1)
    return canvas
