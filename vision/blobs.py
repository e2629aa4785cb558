"""Stage 1a: blobs that may be pips, from an adaptive threshold of one pyramid level.

Blobs that the threshold ran together (close pips of a small die, or a whole die darker or
lighter than the tray, pips and all) are thresholded again inside (`_split`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt
from cv2.typing import MatLike

from vision.params import ReaderParams
from vision.types import Frame

Shape = tuple[float, float, float]
"""A blob's second moments (xx, xy, yy) scaled to determinant 1: its outline's shape, not size."""

ROUND: Shape = (1.0, 0.0, 1.0)


Blob = tuple[float, float, float, float, float, Shape]
"""A blob found at one pyramid level, in full-resolution pixels:
(x, y, diameter, circularity, elongation, shape)."""


def _blob_of(contour: MatLike, scale: float, params: ReaderParams) -> Blob | None:
    """The blob outlined by ``contour`` (at a level ``scale`` times smaller) if it is pip-like."""
    x, y, w, h = cv2.boundingRect(contour)
    if max(w, h) > params.max_aspect * 1.2 * max(min(w, h), 1):
        return None
    perimeter = float(cv2.arcLength(contour, True))
    area = float(cv2.contourArea(contour)) + 0.5 * perimeter + 1.0  # pixels, not polygon area
    if area < params.min_pip_area:
        return None
    fill = area / (w * h)
    # A pip a few pixels across fills its box (a 4×4 square is a fine small pip).
    max_fill = params.max_fill if min(w, h) > 5 else 1.0
    if not params.min_fill <= fill <= max_fill:
        return None
    circularity = min(1.0, 4.0 * math.pi * area / (perimeter + math.pi) ** 2)
    if circularity < params.min_circularity:
        return None
    m = cv2.moments(contour)
    if m["m00"] <= 1e-6:
        cx, cy = x + (w - 1) / 2.0, y + (h - 1) / 2.0
        shape, elongation = ROUND, 1.0
    else:
        cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
        spread = math.sqrt(max(0.0, (mu20 - mu02) ** 2 + 4.0 * mu11**2))
        major = mu20 + mu02 + spread
        minor = max(mu20 + mu02 - spread, 1e-6)
        elongation = math.sqrt(major / minor)
        det = math.sqrt(max(mu20 * mu02 - mu11**2, 1e-6))
        shape = (mu20 / det, mu11 / det, mu02 / det)
    if elongation > params.max_aspect:
        return None
    diameter = 2.0 * math.sqrt(area / math.pi) * scale
    return (
        (cx + 0.5) * scale - 0.5,
        (cy + 0.5) * scale - 0.5,
        diameter,
        circularity,
        elongation,
        shape,
    )


def level_blobs(
    gray: npt.NDArray[np.uint8],
    scale: float,
    full: npt.NDArray[np.uint8],
    colour: Frame,
    params: ReaderParams,
) -> tuple[list[Blob], list[Blob]]:
    """Dark and light pip-like blobs of one pyramid level (``gray`` is ``scale`` times smaller than
    the full-resolution ``full`` and ``colour``, where blobs that are not pips alone are split)."""
    block = params.block_size | 1
    mean = cv2.boxFilter(gray, -1, (block, block), borderType=cv2.BORDER_REPLICATE)
    offset = round(params.threshold_offset)
    shift = np.full_like(gray, offset)
    dark = np.asarray(cv2.compare(gray, cv2.subtract(mean, shift), cv2.CMP_LT), dtype=np.uint8)
    light = np.asarray(cv2.compare(gray, cv2.add(mean, shift), cv2.CMP_GT), dtype=np.uint8)
    max_area = params.max_pip_area_fraction * gray.shape[0] * gray.shape[1] * scale * scale
    found: tuple[list[Blob], list[Blob]] = ([], [])
    for binary, out in ((dark, found[0]), (light, found[1])):
        # Outer boundaries only, but also those nested in holes: a pip lies inside the hole that a
        # die makes in the bright or dark ring of tray around it.
        contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is None:
            continue
        for contour, links in zip(contours, hierarchy[0], strict=True):
            if links[3] >= 0 or len(contour) < 4 or len(contour) > 4 * block:
                continue  # far too long an outline for a pip
            blob = _blob_of(contour, scale, params)
            split = False
            if blob is None:
                split = len(contour) >= 6
            elif blob[2] ** 2 * 0.785 <= max_area:
                out.append(blob)
                # Perhaps a whole die, darker (or lighter) than the tray, pips and all.
                split = blob[2] >= params.split_min_diameter * scale
            if split:
                darker, lighter = _split(full, colour, contour, scale, params)
                found[0].extend(darker)
                found[1].extend(lighter)
    return found


def _split(
    gray: npt.NDArray[np.uint8], colour: Frame, contour: MatLike, scale: float, params: ReaderParams
) -> tuple[list[Blob], list[Blob]]:
    """Pips that the threshold ran together with each other (close pips of a small die) or with
    their die (a dark die on a light tray is darker than its surroundings, pips and all): threshold
    the blob's own pixels again, half way between its darker and lighter parts (Otsu), and keep
    the round parts, darker and lighter ones. The threshold is taken on whichever of grey, blue,
    green and red varies most inside the blob, so red pips on a black die part too. ``contour``
    was found ``scale`` times smaller; the split is done at full resolution, where small pips are
    still whole."""
    x, y, w, h = cv2.boundingRect(contour)
    if max(w, h) > 2 * params.block_size or min(w, h) < params.split_min_side:
        return [], []
    if cv2.contourArea(contour) < 2 * params.min_pip_area / (scale * scale):
        return [], []
    outline = np.rint((contour.astype(np.float64) + 0.5) * scale - 0.5).astype(np.int32)
    x, y, w, h = cv2.boundingRect(outline)
    x0, y0 = max(0, x - 2), max(0, y - 2)
    patch = np.ascontiguousarray(gray[y0 : y + h + 2, x0 : x + w + 2])
    mask = np.zeros_like(patch)
    cv2.drawContours(mask, [outline - np.array([x0, y0], dtype=np.int32)], -1, 255, -1)
    if scale > 1:
        # Keep off the blurred outline of a coarse level: it may be tray, not die.
        size = 2 * round(scale) - 1
        mask = np.asarray(cv2.erode(mask, np.ones((size, size), np.uint8)), dtype=np.uint8)
    inside_mask = mask > 0
    if np.count_nonzero(inside_mask) < 10:
        return [], []
    colour_patch = np.ascontiguousarray(colour[y0 : y + h + 2, x0 : x + w + 2])
    _, gray_spread = cv2.meanStdDev(patch, mask=mask)
    _, colour_spread = cv2.meanStdDev(colour_patch, mask=mask)
    spreads = [float(gray_spread[0, 0]), *(float(s) for s in colour_spread[:, 0])]
    best = int(np.argmax(spreads))
    channel = patch if best == 0 else np.ascontiguousarray(colour_patch[:, :, best - 1])
    inside = channel[inside_mask]
    if int(inside.max()) - int(inside.min()) < params.min_pip_contrast:
        return [], []
    level, _ = cv2.threshold(inside.reshape(1, -1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    low = (channel <= level) & inside_mask
    high = (channel > level) & inside_mask
    # Which side is darker is told by the grey levels, whatever channel parted them.
    low_is_darker = float(patch[low].mean()) <= float(patch[high].mean()) if high.any() else True
    darker: list[Blob] = []
    lighter: list[Blob] = []
    for parts, is_low in ((low, True), (high, False)):
        binary = np.where(parts, 255, 0).astype(np.uint8)
        contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = darker if is_low == low_is_darker else lighter
        for part in contours:
            if len(part) < 4:
                continue
            blob = _blob_of(part + np.array([x0, y0], dtype=part.dtype), 1.0, params)
            if blob is not None:
                out.append(blob)
    return darker, lighter
