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
from cv2.typing import MatLike

from vision.params import ReaderParams
from vision.types import Frame

Debug = Callable[[str, Frame], None]

_GLARE_OFFSET = 0.25  # in outer diameters: a die's only pip (a one) sits at its centre
_GLARE_SIZE = 0.4
_RING_SAMPLES = 16
_RING_RADIUS = 1.7  # in pip radii: outside the blurred pip edge, inside the die face
_ANGLES = np.linspace(0.0, 2.0 * math.pi, _RING_SAMPLES, endpoint=False)
_COS = np.cos(_ANGLES)
_SIN = np.sin(_ANGLES)


Shape = tuple[float, float, float]
"""A blob's second moments (xx, xy, yy) scaled to determinant 1: its outline's shape, not size."""

_ROUND: Shape = (1.0, 0.0, 1.0)


@dataclass(frozen=True, slots=True)
class Pip:
    """One pip candidate: centre (x, y), diameter in pixels, whether it is darker than its face,
    its contrast against the face (grey levels), roundness in [0, 1], elongation (>= 1), outline
    shape (tells how the face is tilted), the colour (B, G, R) and level of the face, and the
    plane it was found in (0: grey, 1: red channel; levels and contrast are in that plane).
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
    face_level: float
    plane: int = 0


def to_gray(frame: Frame) -> npt.NDArray[np.uint8]:
    """The frame in grey levels."""
    return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


# A blob found at one pyramid level, in full-resolution pixels:
# (x, y, diameter, circularity, elongation, shape).
_Blob = tuple[float, float, float, float, float, Shape]


def _blob_of(contour: MatLike, scale: float, params: ReaderParams) -> _Blob | None:
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
        shape, elongation = _ROUND, 1.0
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


def _level_blobs(
    gray: npt.NDArray[np.uint8],
    scale: float,
    full: npt.NDArray[np.uint8],
    colour: Frame,
    params: ReaderParams,
) -> tuple[list[_Blob], list[_Blob]]:
    """Dark and light pip-like blobs of one pyramid level (``gray`` is ``scale`` times smaller than
    the full-resolution ``full`` and ``colour``, where blobs that are not pips alone are split)."""
    block = params.block_size | 1
    mean = cv2.boxFilter(gray, -1, (block, block), borderType=cv2.BORDER_REPLICATE)
    offset = round(params.threshold_offset)
    shift = np.full_like(gray, offset)
    dark = np.asarray(cv2.compare(gray, cv2.subtract(mean, shift), cv2.CMP_LT), dtype=np.uint8)
    light = np.asarray(cv2.compare(gray, cv2.add(mean, shift), cv2.CMP_GT), dtype=np.uint8)
    max_area = params.max_pip_area_fraction * gray.shape[0] * gray.shape[1] * scale * scale
    found: tuple[list[_Blob], list[_Blob]] = ([], [])
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
) -> tuple[list[_Blob], list[_Blob]]:
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
    darker: list[_Blob] = []
    lighter: list[_Blob] = []
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


def find_pips(
    frame: Frame,
    gray: npt.NDArray[np.uint8],
    params: ReaderParams,
    debug: Debug | None = None,
    *,
    smooth: Frame | None = None,
    smooth_planes: npt.NDArray[np.float32] | None = None,
) -> tuple[Pip, ...]:
    """Every pip candidate in the frame, the strongest first, without duplicates across scales.

    Pips are looked for in grey levels and then, where none was found, in the red channel (red,
    yellow or white pips on blue, green or black dice can have the grey level of their face).
    ``smooth`` is the frame lightly blurred and ``smooth_planes`` its planes (see `planes_of`);
    both are made here when not given.
    """
    if smooth is None:
        smooth = np.asarray(cv2.GaussianBlur(frame, (3, 3), 0), dtype=np.uint8)
    if smooth_planes is None:
        smooth_planes = planes_of(smooth)
    raw_planes = (gray, np.ascontiguousarray(frame[:, :, 2]))
    candidates: list[Pip] = []
    for plane in range(min(params.planes, len(raw_planes))):
        if plane > 0 and not _is_colourful(raw_planes[plane], gray, params):
            continue  # the red channel tells nothing the grey levels did not
        found = _candidates(
            raw_planes[plane], smooth_planes[:, :, plane], smooth, plane, params, candidates
        )
        found.sort(key=lambda p: p.contrast * p.circularity, reverse=True)
        candidates.extend(found)
    kept: list[Pip] = []
    for pip in candidates:  # grey first: a pip found there is not looked at again
        if all(
            math.hypot(pip.x - k.x, pip.y - k.y) > 0.6 * max(pip.diameter, k.diameter)
            or max(pip.diameter, k.diameter) > 2.0 * min(pip.diameter, k.diameter)
            for k in kept
        ):
            kept.append(pip)
    kept = _drop_faces_seen_as_pips(kept)
    kept.sort(key=lambda p: p.contrast * p.circularity, reverse=True)
    if debug is not None:
        debug("pips", draw_pips(frame, kept))
    return tuple(kept)


def _is_colourful(
    plane: npt.NDArray[np.uint8], gray: npt.NDArray[np.uint8], params: ReaderParams
) -> bool:
    """Whether enough of the frame differs between this plane and grey for pips to show there
    that grey misses (a white die on a wooden table hardly does)."""
    step = 4  # every 4th pixel each way is plenty to tell
    differs = cv2.absdiff(plane[::step, ::step], gray[::step, ::step]) > params.colour_difference
    return float(np.count_nonzero(differs)) >= params.colourful_fraction * differs.size


def planes_of(smooth: Frame) -> npt.NDArray[np.float32]:
    """The planes pips are looked for in, stacked H×W×2: grey level and red channel."""
    return np.dstack([to_gray(smooth), smooth[:, :, 2]]).astype(np.float32)


def _distinct(
    chosen: npt.NDArray[np.intp],
    cx: npt.NDArray[np.float64],
    cy: npt.NDArray[np.float64],
    diameter: npt.NDArray[np.float64],
    contrast: npt.NDArray[np.float64],
    blobs: list[tuple[bool, _Blob]],
    taken: list[Pip],
) -> npt.NDArray[np.intp]:
    """Of the chosen blobs, the strongest of each group found at the same place (by several
    pyramid levels, or already found in another plane), before the costlier measures."""
    if chosen.size == 0:
        return chosen
    score = contrast[chosen] * np.array([blobs[k][1][3] for k in chosen])
    order = chosen[np.argsort(-score)]
    kept_x = [p.x for p in taken]
    kept_y = [p.y for p in taken]
    kept_d = [p.diameter for p in taken]
    result = []
    for k in order:
        if kept_x:
            dx = np.asarray(kept_x) - cx[k]
            dy = np.asarray(kept_y) - cy[k]
            reach = 0.6 * np.maximum(np.asarray(kept_d), diameter[k])
            alike = np.maximum(np.asarray(kept_d), diameter[k]) <= 2.0 * np.minimum(
                np.asarray(kept_d), diameter[k]
            )
            if bool(((dx * dx + dy * dy <= reach * reach) & alike).any()):
                continue
        result.append(k)
        kept_x.append(float(cx[k]))
        kept_y.append(float(cy[k]))
        kept_d.append(float(diameter[k]))
    return np.array(result, dtype=np.intp)


def _candidates(
    raw: npt.NDArray[np.uint8],
    smooth_plane: npt.NDArray[np.float32],
    smooth: Frame,
    plane: int,
    params: ReaderParams,
    taken: list[Pip],
) -> list[Pip]:
    """Pip candidates in one plane (``raw``, and ``smooth_plane`` lightly blurred), leaving out
    those already ``taken`` in an earlier plane."""
    integral = cv2.integral(raw)
    height, width = raw.shape
    blobs: list[tuple[bool, _Blob]] = []
    # Sensor noise would make thousands of specks for the threshold; a light blur keeps pips.
    level = np.asarray(smooth_plane, dtype=np.uint8)
    scale = 1.0
    for _ in range(params.pyramid_levels):
        if min(level.shape) < params.block_size:
            break
        dark, light = _level_blobs(level, scale, raw, smooth, params)
        blobs.extend((True, b) for b in dark)
        blobs.extend((False, b) for b in light)
        level = np.asarray(cv2.pyrDown(level), dtype=np.uint8)
        scale *= 2.0
    if not blobs:
        return []
    table = np.array([b[:3] for _, b in blobs], dtype=np.float64)
    is_dark = np.array([d for d, _ in blobs])
    cx, cy, diameter = table[:, 0], table[:, 1], table[:, 2]
    # Inner level: mean over the central square of the pip, from the integral image.
    half = np.maximum(0.25 * diameter, 0.5)
    x0 = np.clip(np.rint(cx - half), 0, width - 1).astype(np.intp)
    x1 = np.clip(np.rint(cx + half) + 1, 1, width).astype(np.intp)
    y0 = np.clip(np.rint(cy - half), 0, height - 1).astype(np.intp)
    y1 = np.clip(np.rint(cy + half) + 1, 1, height).astype(np.intp)
    x1 = np.maximum(x1, x0 + 1)
    y1 = np.maximum(y1, y0 + 1)
    total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    inner = total / ((x1 - x0) * (y1 - y0))
    # Ring just outside the pip: the face it sits on.
    radius = (_RING_RADIUS * diameter / 2.0 + 1.0)[:, None]
    xs = np.clip(np.rint(cx[:, None] + radius * _COS), 0, width - 1).astype(np.intp)
    ys = np.clip(np.rint(cy[:, None] + radius * _SIN), 0, height - 1).astype(np.intp)
    ring = smooth_plane[ys, xs]
    ring_level = np.median(ring, axis=1)
    contrast = np.where(is_dark, ring_level - inner, inner - ring_level)
    q25, q75 = np.percentile(ring, [25.0, 75.0], axis=1)
    spread = (q75 - q25) / np.maximum(contrast, 1.0)
    relative = contrast / np.maximum(np.maximum(ring_level, inner), 1.0)
    keep = (
        (contrast >= params.min_pip_contrast)
        & (relative >= params.min_relative_contrast)
        & (spread <= params.max_ring_spread)
    )
    candidates: list[Pip] = []
    chosen = _distinct(np.flatnonzero(keep), cx, cy, diameter, contrast, blobs, taken)
    colours = np.median(smooth[ys[chosen], xs[chosen]].astype(np.float32), axis=1)
    for k, colour in zip(chosen, colours, strict=True):
        _, blob = blobs[k]
        size, elongation, shape = _measure(
            raw, blob[0], blob[1], blob[2], bool(is_dark[k]), 0.5 * (inner[k] + ring_level[k])
        )
        if elongation > params.max_aspect:
            continue
        candidates.append(
            Pip(
                blob[0],
                blob[1],
                size,
                bool(is_dark[k]),
                float(contrast[k]),
                blob[3],
                elongation,
                shape,
                (float(colour[0]), float(colour[1]), float(colour[2])),
                float(ring_level[k]),
                plane,
            )
        )
    return candidates


def _measure(
    gray: npt.NDArray[np.uint8], x: float, y: float, diameter: float, is_dark: bool, middle: float
) -> tuple[float, float, Shape]:
    """The pip's diameter, elongation and shape, measured on the pixels beyond the level half way
    between pip and face: this does not depend on the threshold or pyramid level that found it."""
    reach = 0.65 * diameter + 1.0
    height, width = gray.shape
    x0, x1 = max(0, int(x - reach)), min(width, int(x + reach) + 2)
    y0, y1 = max(0, int(y - reach)), min(height, int(y + reach) + 2)
    patch = gray[y0:y1, x0:x1]
    yy, xx = np.ogrid[y0:y1, x0:x1]
    near = (xx - x) ** 2 + (yy - y) ** 2 <= reach * reach
    inside = (patch < middle) if is_dark else (patch > middle)
    mask = (inside & near).view(np.uint8)
    m = cv2.moments(mask, binaryImage=True)
    area = float(m["m00"])
    size = max(1.0, 2.0 * math.sqrt(area / math.pi))
    if area < 5:
        return size, 1.0, _ROUND
    mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
    # A pixel is a unit square, not a point: add its own second moment so tiny pips look round.
    mu20 += 1.0 / 12.0
    mu02 += 1.0 / 12.0
    spread = math.sqrt(max(0.0, (mu20 - mu02) ** 2 + 4.0 * mu11**2))
    major = mu20 + mu02 + spread
    minor = max(mu20 + mu02 - spread, 1e-6)
    det = math.sqrt(max(mu20 * mu02 - mu11**2, 1e-6))
    return size, math.sqrt(major / minor), (mu20 / det, mu11 / det, mu02 / det)


def _drop_faces_seen_as_pips(pips: list[Pip]) -> list[Pip]:
    """Drop a candidate that contains candidates of the other polarity: that is a die face (a
    white die on a dark table looks like one big light blob), not a pip. One small spot off the
    centre is rather a glare on a glossy pip, and the glare is dropped instead."""
    dropped: set[int] = set()
    for index, pip in enumerate(pips):
        radius = pip.diameter / 2.0
        inner = [
            other_index
            for other_index, other in enumerate(pips)
            if other.is_dark != pip.is_dark
            and other.diameter < pip.diameter
            and math.hypot(other.x - pip.x, other.y - pip.y) < radius
        ]
        if not inner:
            continue
        spot = pips[inner[0]]
        off_centre = math.hypot(spot.x - pip.x, spot.y - pip.y) > _GLARE_OFFSET * pip.diameter
        one_spot = all(  # the same glare may have been found twice, at two scales
            math.hypot(pips[k].x - spot.x, pips[k].y - spot.y) < _GLARE_SIZE * pip.diameter
            for k in inner
        )
        small = max(pips[k].diameter for k in inner) < _GLARE_SIZE * pip.diameter
        if one_spot and off_centre and small:
            dropped.update(inner)
        else:
            dropped.add(index)
    return [pip for index, pip in enumerate(pips) if index not in dropped]


def draw_pips(frame: Frame, pips: tuple[Pip, ...] | list[Pip]) -> Frame:
    """A copy of the frame with each pip candidate circled (red: dark pips, blue: light pips)."""
    canvas = frame.copy()
    for pip in pips:
        colour = (0, 0, 255) if pip.is_dark else (255, 128, 0)
        centre = (round(pip.x), round(pip.y))
        cv2.circle(canvas, centre, max(2, round(pip.diameter / 2)), colour, 1)
    return canvas
