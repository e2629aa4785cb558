"""Stage 1: find pip candidates, dark pips on light faces and light pips on dark faces.

A pip is a small round blob that stands out from the die face around it. Candidates come from an
adaptive threshold on each level of an image pyramid (`vision.blobs`; pips from about 3 px to 30 px
are found without knowing the camera height), in grey and, in colourful frames, in the red channel.
They are kept when they are round, compact and clearly contrasted against a ring sampled just
outside them, which also gives the level and colour of the face they sit on.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.blobs import (
    ROUND,
    Blob,
    Shape,
    box_sum,
    level_blobs,
    region_elongation,
    region_shape,
)
from vision.params import ReaderParams
from vision.types import Frame

Debug = Callable[[str, Frame], None]

_COLOUR_CHANGE = 20  # grey levels: the red channel tells something here that grey does not
_GLARE_OFFSET = 0.25  # in outer diameters: a die's only pip (a one) sits at its centre
_GLARE_SIZE = 0.4
_GLARE_LEAST_OFFSET = 0.1  # a spot between this and _GLARE_OFFSET off the centre may be either
_GLARE_ALIGNMENT = math.radians(25.0)  # glare spots leaning within this of each other: one light
_GLARE_REACH = 3.0  # in pip diameters: pips of one die whose glare spots are compared
_SIBLING_SIZE = 1.3
_RING_SAMPLES = 16
_RING_RADIUS = 1.7  # in pip radii: outside the blurred pip edge, inside the die face
_ANGLES = np.linspace(0.0, 2.0 * math.pi, _RING_SAMPLES, endpoint=False)
_COS = np.cos(_ANGLES)
_SIN = np.sin(_ANGLES)


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
        where = None
        if plane > 0:
            if not _is_colourful(raw_planes[plane], gray, params):
                continue  # the red channel tells nothing the grey levels did not
            where = _colour_changes(raw_planes[plane], gray, params)
        found = _candidates(
            raw_planes[plane], smooth_planes[:, :, plane], smooth, plane, params, candidates, where
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


def _colour_changes(
    plane: npt.NDArray[np.uint8], gray: npt.NDArray[np.uint8], params: ReaderParams
) -> npt.NDArray[np.int32]:
    """The integral image of where the difference between this plane and grey changes from its
    surroundings: a red pip on a black die, a white pip on a blue one. Elsewhere (a white die, or
    a tray of one colour) the plane shows the same edges as grey, and finds the same pips."""
    gap = plane.astype(np.int16) - gray.astype(np.int16)
    block = params.block_size | 1
    around = cv2.boxFilter(gap, -1, (block, block), borderType=cv2.BORDER_REPLICATE)
    changes = np.asarray(cv2.absdiff(gap, around)) > _COLOUR_CHANGE
    return np.asarray(cv2.integral(changes.view(np.uint8)), dtype=np.int32)


def planes_of(smooth: Frame) -> npt.NDArray[np.float32]:
    """The planes pips are looked for in, stacked H×W×2: grey level and red channel."""
    return np.dstack([_plane_of(smooth, 0), _plane_of(smooth, 1)]).astype(np.float32)


def _plane_of(smooth: Frame, plane: int) -> npt.NDArray[np.uint8]:
    """One of the planes of `planes_of` in grey levels (0: grey, 1: red channel)."""
    return to_gray(smooth) if plane == 0 else smooth[:, :, 2]


def _distinct(
    chosen: npt.NDArray[np.intp],
    cx: npt.NDArray[np.float64],
    cy: npt.NDArray[np.float64],
    diameter: npt.NDArray[np.float64],
    contrast: npt.NDArray[np.float64],
    blobs: list[tuple[bool, Blob]],
    taken: list[Pip],
) -> npt.NDArray[np.intp]:
    """Of the chosen blobs, the strongest of each group found at the same place (by several
    pyramid levels, or already found in another plane), before the costlier measures."""
    if chosen.size == 0:
        return chosen
    score = contrast[chosen] * np.array([blobs[k][1][3] for k in chosen])
    order = chosen[np.argsort(-score)]
    x = np.concatenate([[p.x for p in taken], cx[order]])
    y = np.concatenate([[p.y for p in taken], cy[order]])
    d = np.concatenate([[p.diameter for p in taken], diameter[order]])
    larger = np.maximum(d[:, None], d[None, :])
    # Same place: centres within 0.6 of the larger diameter, of sizes within twice each other.
    same = (
        (x[:, None] - x[None, :]) ** 2 + (y[:, None] - y[None, :]) ** 2 <= (0.6 * larger) ** 2
    ) & (larger <= 2.0 * np.minimum(d[:, None], d[None, :]))
    blocked = same[: len(taken)].any(axis=0)
    result = []
    for k in range(len(taken), len(d)):
        if not blocked[k]:
            result.append(order[k - len(taken)])
            blocked |= same[k]
    return np.array(result, dtype=np.intp)


def _candidates(
    raw: npt.NDArray[np.uint8],
    smooth_plane: npt.NDArray[np.float32],
    smooth: Frame,
    plane: int,
    params: ReaderParams,
    taken: list[Pip],
    where: npt.NDArray[np.int32] | None = None,
) -> list[Pip]:
    """Pip candidates in one plane (``raw``, and ``smooth_plane`` lightly blurred), leaving out
    those already ``taken`` in an earlier plane, and, ``where`` given (`_colour_changes`), those
    away from where the plane tells more than grey."""
    integral = cv2.integral(raw)
    height, width = raw.shape
    blobs: list[tuple[bool, Blob]] = []
    # Sensor noise would make thousands of specks for the threshold; a light blur keeps pips.
    # (Taken from ``smooth`` again: converting ``smooth_plane`` back to uint8 costs more.)
    level = np.ascontiguousarray(_plane_of(smooth, plane))
    scale = 1.0
    for _ in range(params.pyramid_levels):
        if min(level.shape) < params.block_size:
            break
        dark, light = level_blobs(level, scale, raw, smooth, params, where)
        blobs.extend((True, b) for b in dark)
        blobs.extend((False, b) for b in light)
        level = np.asarray(cv2.pyrDown(level), dtype=np.uint8)
        scale *= 2.0
    if not blobs:
        return []
    table = np.array([b[:3] for _, b in blobs], dtype=np.float64)
    is_dark = np.array([d for d, _ in blobs])
    whole = np.array([b[6] for _, b in blobs])
    cx, cy, diameter = table[:, 0], table[:, 1], table[:, 2]
    # Inner level: mean over the central square of the pip, from the integral image.
    half = np.maximum(0.25 * diameter, 0.5)
    x0 = np.clip(np.rint(cx - half), 0, width - 1).astype(np.intp)
    x1 = np.clip(np.rint(cx + half) + 1, 1, width).astype(np.intp)
    y0 = np.clip(np.rint(cy - half), 0, height - 1).astype(np.intp)
    y1 = np.clip(np.rint(cy + half) + 1, 1, height).astype(np.intp)
    x1 = np.maximum(x1, x0 + 1)
    y1 = np.maximum(y1, y0 + 1)
    inner = box_sum(integral, x0, y0, x1, y1) / ((x1 - x0) * (y1 - y0))
    # Ring just outside the pip: the face it sits on.
    radius = (_RING_RADIUS * diameter / 2.0 + 1.0)[:, None]
    xs = np.clip(np.rint(cx[:, None] + radius * _COS), 0, width - 1).astype(np.intp)
    ys = np.clip(np.rint(cy[:, None] + radius * _SIN), 0, height - 1).astype(np.intp)
    ring = np.sort(smooth_plane[ys, xs], axis=1)
    ring_level, q25, q75 = _ring_levels(ring)
    contrast = np.where(is_dark, ring_level - inner, inner - ring_level)
    spread = (q75 - q25) / np.maximum(contrast, 1.0)
    relative = contrast / np.maximum(np.maximum(ring_level, inner), 1.0)
    keep = (
        (contrast >= params.min_pip_contrast)
        & (relative >= params.min_relative_contrast)
        # A pip cut out of a column of touching pips has its neighbours in its ring.
        & ((spread <= params.max_ring_spread) | ~whole)
    )
    candidates: list[Pip] = []
    chosen = _distinct(np.flatnonzero(keep), cx, cy, diameter, contrast, blobs, taken)
    colours = np.median(smooth[ys[chosen], xs[chosen]].astype(np.float32), axis=1)
    for k, colour in zip(chosen, colours, strict=True):
        _, blob = blobs[k]
        size, elongation, shape = blob[2], blob[4], blob[5]
        if blob[6]:
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


def _ring_levels(
    ring: npt.NDArray[np.float32],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The median and the quartiles of each row of ``ring`` (sorted along its rows, of
    `_RING_SAMPLES`), as `np.median` and `np.percentile` (linear) give them, from the one sort:
    the samples are whole grey levels, so the interpolation between two of them is exact."""
    median = np.mean(ring[:, _RING_SAMPLES // 2 - 1 : _RING_SAMPLES // 2 + 1], axis=1)
    quartiles = []
    for position in (0.25 * (_RING_SAMPLES - 1), 0.75 * (_RING_SAMPLES - 1)):
        low = int(position)
        part = position - low
        a, b = ring[:, low].astype(np.float64), ring[:, low + 1].astype(np.float64)
        quartiles.append(a + (b - a) * part)
    return median, quartiles[0], quartiles[1]


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
    xx, yy = np.arange(x0, x1), np.arange(y0, y1)[:, None]
    near = (xx - x) ** 2 + (yy - y) ** 2 <= reach * reach
    inside = (patch < middle) if is_dark else (patch > middle)
    mask = (inside & near).view(np.uint8)
    m = cv2.moments(mask, binaryImage=True)
    area = float(m["m00"])
    size = max(1.0, 2.0 * math.sqrt(area / math.pi))
    if area < 5:
        return size, 1.0, ROUND
    mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
    # A pixel is a unit square, not a point: add its own second moment so tiny pips look round.
    mu20 += 1.0 / 12.0
    mu02 += 1.0 / 12.0
    elongation = region_elongation({"m00": 1.0, "mu20": mu20, "mu02": mu02, "mu11": mu11})
    return size, elongation, region_shape(mu20, mu11, mu02)


def _drop_faces_seen_as_pips(pips: list[Pip]) -> list[Pip]:
    """Drop a candidate that contains candidates of the other polarity: that is a die face (a
    white die on a dark table looks like one big light blob), not a pip. One small spot off the
    centre is rather a glare on a glossy pip (`is_glare_spot`), and the glare is dropped
    instead; spots apart from each other are pips (a die 25 px wide run together with its
    shadow into one dark blob 40 px across: its five light pips were dropped as one glare,
    synthetic seed 4255). A spot only a little off the centre may be either a die's one pip or
    a glare; it is a glare when a spot off a pip of the same die (alike and close by) leans the
    same way (one light makes every glare lean alike), else it stays a one. Whole dice seen as
    blobs lean alike too (their shadows), but lie farther apart. Returned: the candidates kept."""
    dropped: set[int] = set()
    leaning: list[tuple[int, list[int], float, bool]] = []
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
        offset = math.hypot(spot.x - pip.x, spot.y - pip.y)
        if is_glare_spot(pip, [pips[k] for k in inner]):
            direction = math.atan2(spot.y - pip.y, spot.x - pip.x)
            leaning.append((index, inner, direction, offset > _GLARE_OFFSET * pip.diameter))
        else:
            dropped.add(index)
    for index, inner, direction, is_glare in leaning:
        if is_glare or any(
            other != index
            and _angle_between(direction, other_direction) < _GLARE_ALIGNMENT
            and _are_siblings(pips[index], pips[other])
            for other, _, other_direction, _ in leaning
        ):
            dropped.update(inner)
        else:
            dropped.add(index)
    return [pip for index, pip in enumerate(pips) if index not in dropped]


def is_glare_spot(pip: Pip, spots: list[Pip]) -> bool:
    """Whether the blobs found inside a pip (``spots``, one at least) are one glare spot on it:
    one small spot (under ``_GLARE_SIZE`` of the pip), found once or at two scales (within a
    spot's width of itself: spots farther apart are pips, a small die run together with its
    shadow into one blob), off the pip's centre (a die's one pip lies at its centre)."""
    spot = spots[0]
    size = max(s.diameter for s in spots)
    return (
        all(math.hypot(s.x - spot.x, s.y - spot.y) < size for s in spots)
        and size < _GLARE_SIZE * pip.diameter
        and math.hypot(spot.x - pip.x, spot.y - pip.y) > _GLARE_LEAST_OFFSET * pip.diameter
    )


def _are_siblings(a: Pip, b: Pip) -> bool:
    """Whether two candidates could be pips of one die: alike in size and close together."""
    reach = _GLARE_REACH * a.diameter
    return math.hypot(a.x - b.x, a.y - b.y) < reach and max(
        a.diameter, b.diameter
    ) < _SIBLING_SIZE * min(a.diameter, b.diameter)


def _angle_between(a: float, b: float) -> float:
    """The angle between two directions (radians), in [0, pi]."""
    return abs((a - b + math.pi) % (2.0 * math.pi) - math.pi)


def draw_pips(frame: Frame, pips: tuple[Pip, ...] | list[Pip]) -> Frame:
    """A copy of the frame with each pip candidate circled (red: dark pips, blue: light pips)."""
    canvas = frame.copy()
    for pip in pips:
        colour = (0, 0, 255) if pip.is_dark else (255, 128, 0)
        centre = (round(pip.x), round(pip.y))
        cv2.circle(canvas, centre, max(2, round(pip.diameter / 2)), colour, 1)
    return canvas
