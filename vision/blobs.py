"""Stage 1a: blobs that may be pips, from an adaptive threshold of one pyramid level.

Blobs that the threshold ran together (close pips of a small die, or a whole die darker or
lighter than the tray, pips and all) are thresholded again inside (`_split`); lines are not
(`_is_a_line`). A column of three pips that touch (a six with large pips, or a small six) is cut
at its narrow places (`_touching`), whether the threshold or the split found it.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
from cv2.typing import MatLike

from vision.params import ReaderParams
from vision.types import Frame

Shape = tuple[float, float, float]
"""A blob's second moments (xx, xy, yy) scaled to determinant 1: its outline's shape, not size."""

ROUND: Shape = (1.0, 0.0, 1.0)

Index = int | npt.NDArray[np.intp]
"""A pixel coordinate, or an array of them."""


Blob = tuple[float, float, float, float, float, Shape, bool]
"""A blob found at one pyramid level, in full-resolution pixels:
(x, y, diameter, circularity, elongation, shape, whole). ``whole`` is False for a pip cut out of
a column of touching pips: its size and shape come from that cut, as the pixels around it belong
to its neighbours too."""

_PEAK_LEVEL = 0.6  # of the deepest point: shallower peaks of the distance to the edge are not pips
_PEAK_SIZES = 1.4  # the pips of one column are alike in size
_TOUCH_SPACING = (1.3, 2.8)  # neighbouring pips' centres apart, in pip radii: touching pips
_EVEN_SPACING = 0.25  # the middle pip of a column lies half way, give or take this
_STRAIGHT = 0.95  # the end pips lie this far apart at least, of the way through the middle one
_COVER = 0.7  # the circles must cover this much of the union of circles and blob
_ROW = 3
_LONG = (2.0, 5.0)  # the elongation of three touching pips in a row (about 3.4)
_ROW_AREA = (0.8, 1.5)  # their area, relative to three discs as wide as the row
_KERNEL = np.ones((3, 3), np.uint8)
_THINNEST = 2.0
"""A blob that is no pip, thinner than this many full-resolution pixels on average, is a line
(wood grain, a scratch, a tray's seam), not a patch holding pips: it is not split (`_is_a_line`),
..."""
_LONGEST = 6.0
"""... nor one more than this many times as long as wide. Of 54,227 blobs split in 600 rendered
trays and 170 photos, such lines were 15,413 and gave one pip of a face read; on grained trays
they were most of the splits (378 in a frame of wooden dice on a wooden tray)."""
_ROUND_PIP = 0.9
"""A blob this round or rounder (a disc, not a die seen whole: a square is 0.79) ..."""
_ROUND_PIP_AREA = 1.5
"""... may be this many times ``max_pip_area_fraction`` of the frame: the one's pip of a die
150 px wide in a 640×480 frame is 40-45 px across (synthetic seeds 8193, 9480: black ones 164
and 139 px wide, their red pips 42 and 41 px, were missed)."""


def _blob_of(contour: MatLike, scale: float, params: ReaderParams) -> Blob | None:
    """The blob outlined by ``contour`` (at a level ``scale`` times smaller) if it is pip-like."""
    x, y, w, h = cv2.boundingRect(contour)
    if max(w, h) > params.max_aspect * 1.2 * max(min(w, h), 1):
        return None
    area, perimeter = _pixel_area(contour)
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
        elongation = region_elongation(m)
        shape = region_shape(mu20, mu11, mu02)
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
        True,
    )


def _pixel_area(contour: MatLike) -> tuple[float, float]:
    """The area of the pixels a contour outlines (its polygon runs through their centres, so
    half a pixel beyond it all round counts too) and its perimeter."""
    perimeter = float(cv2.arcLength(contour, True))
    return float(cv2.contourArea(contour)) + 0.5 * perimeter + 1.0, perimeter


def region_elongation(m: dict[str, float]) -> float:
    """How much longer than wide a region is, from its moments (1: as round as a disc); the
    central moments may be normalised by the area, with ``m00`` 1."""
    if m["m00"] <= 1e-6:
        return 1.0
    total, spread = m["mu20"] + m["mu02"], _spread(m)
    return math.sqrt((total + spread) / max(total - spread, 1e-6 * m["m00"]))


def region_shape(mu20: float, mu11: float, mu02: float) -> Shape:
    """A region's outline shape from its central moments normalised by its area: the moments
    divided by the square root of their determinant, which tells how a round pip is tilted
    whatever its size."""
    det = math.sqrt(max(mu20 * mu02 - mu11**2, 1e-6))
    return (mu20 / det, mu11 / det, mu02 / det)


def _spread(m: dict[str, float]) -> float:
    """The difference between a region's largest and smallest second moments (along and across
    its main axis), unnormalised like the moments given."""
    return math.sqrt(max(0.0, (m["mu20"] - m["mu02"]) ** 2 + 4.0 * m["mu11"] ** 2))


def _touching(contour: MatLike, scale: float, params: ReaderParams) -> list[Blob]:
    """The pips of a column of three that the threshold ran together, because they touch (a six
    with large pips, blurred): the three peaks of the distance to the blob's edge, when they lie
    evenly on a line, a pip's width apart, and circles of their depth cover the blob. Two touching
    blobs are not cut: they are as often two dice as two pips. The circularity given is that
    cover."""
    m = cv2.moments(contour)
    if m["m00"] <= 1e-6 or not _LONG[0] <= region_elongation(m) <= _LONG[1]:
        return []
    # Three discs of radius r in a row spread r * r / 4 across it and cover 3 pi r * r.
    across = 0.5 * (m["mu20"] + m["mu02"] - _spread(m)) / m["m00"]
    if not _ROW_AREA[0] <= m["m00"] / (12.0 * math.pi * max(across, 1e-6)) <= _ROW_AREA[1]:
        return []
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, -1, offset=(1 - x, 1 - y))
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    _, deepest, _, _ = cv2.minMaxLoc(depth)
    if deepest < 1.5:
        return []
    peaks = (depth >= cv2.dilate(depth, _KERNEL)) & (depth >= _PEAK_LEVEL * deepest)
    count, _, _, centres = cv2.connectedComponentsWithStats(peaks.view(np.uint8))
    if count - 1 != _ROW:
        return []
    points = np.asarray(centres[1:], dtype=np.float64)
    rows = np.clip(np.rint(points[:, 1]).astype(np.intp), 0, h + 1)
    columns = np.clip(np.rint(points[:, 0]).astype(np.intp), 0, w + 1)
    radii = depth[rows, columns].astype(np.float64) + 0.5
    if radii.max() > _PEAK_SIZES * radii.min():
        return []
    radius = float(np.sort(radii)[1])  # the median of three, without np.median's overhead
    apart = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    first, last = np.unravel_index(int(np.argmax(apart)), apart.shape)
    middle = _ROW - int(first) - int(last)
    near, far = sorted((float(apart[first, middle]), float(apart[last, middle])))
    lowest, highest = _TOUCH_SPACING
    if near < lowest * radius or far > highest * radius or far - near > _EVEN_SPACING * far:
        return []
    if float(apart[first, last]) < _STRAIGHT * (near + far):
        return []
    circles = np.zeros_like(mask)
    for (px, py), r in zip(points, radii, strict=True):
        cv2.circle(circles, (round(px * 16), round(py * 16)), round(r * 16), 255, -1, cv2.LINE_8, 4)
    blob, disc = mask > 0, circles > 0
    cover = int(np.count_nonzero(blob & disc)) / max(1, int(np.count_nonzero(blob | disc)))
    if cover < _COVER:
        return []
    return [
        (
            (px + x - 0.5) * scale - 0.5,
            (py + y - 0.5) * scale - 0.5,
            2.0 * r * scale,
            cover,
            1.0,
            ROUND,
            False,
        )
        for (px, py), r in zip(points, radii, strict=True)
    ]


def level_blobs(
    gray: npt.NDArray[np.uint8],
    scale: float,
    full: npt.NDArray[np.uint8],
    colour: Frame,
    params: ReaderParams,
    where: npt.NDArray[np.int32] | None = None,
) -> tuple[list[Blob], list[Blob]]:
    """Dark and light pip-like blobs of one pyramid level (``gray`` is ``scale`` times smaller than
    the full-resolution ``full`` and ``colour``, where blobs that are not pips alone are split).
    ``where``, when given, is the integral image of a full-resolution mask: only blobs with a
    pixel of it in or about their box (a box three times as wide) are kept."""
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
        for index in np.flatnonzero(hierarchy[0][:, 3] < 0).tolist():
            contour = contours[index]
            if len(contour) < 4 or len(contour) > 4 * block:
                continue  # far too long an outline for a pip
            if where is not None and not _touches(where, contour, scale):
                continue
            blob = _blob_of(contour, scale, params)
            split = False
            if blob is None:
                split = len(contour) >= 6
            elif blob[2] ** 2 * 0.785 <= max_area * (
                _ROUND_PIP_AREA if blob[3] >= _ROUND_PIP else 1.0
            ):
                out.append(blob)
                # Perhaps a whole die, darker (or lighter) than the tray, pips and all.
                split = blob[2] >= params.split_min_diameter * scale
            if not (split and _splittable(contour, params)):
                continue
            if blob is None:
                out.extend(_touching(contour, scale, params))
                if _is_a_line(contour, scale):
                    continue
            darker, lighter = _split(full, colour, contour, scale, params)
            found[0].extend(darker)
            found[1].extend(lighter)
    return found


def _is_a_line(contour: MatLike, scale: float) -> bool:
    """Whether a blob (found ``scale`` times smaller) is a line rather than a patch that may
    hold pips: thinner on average (twice its pixel area over its outline) than `_THINNEST`
    full-resolution pixels, or more than `_LONGEST` times as long as wide."""
    area, perimeter = _pixel_area(contour)
    if 2.0 * area / max(perimeter, 1.0) * scale < _THINNEST:
        return True
    m = cv2.moments(contour)
    return m["m00"] > 1e-6 and region_elongation(m) > _LONGEST


def _touches(where: npt.NDArray[np.int32], contour: MatLike, scale: float) -> bool:
    """Whether the mask whose integral image is ``where`` has a pixel in the box three times as
    wide as the contour's (found ``scale`` times smaller), about the same centre."""
    x, y, w, h = cv2.boundingRect(contour)
    height, width = where.shape[0] - 1, where.shape[1] - 1
    x0, x1 = max(0, int((x - w) * scale)), min(width, int((x + 2 * w) * scale))
    y0, y1 = max(0, int((y - h) * scale)), min(height, int((y + 2 * h) * scale))
    if x1 <= x0 or y1 <= y0:
        return False
    return bool(box_sum(where, x0, y0, x1, y1) > 0)


def box_sum(integral: npt.NDArray[Any], x0: Index, y0: Index, x1: Index, y1: Index) -> Any:
    """The sum of the image whose ``integral`` image (`cv2.integral`) this is over the box
    [x0, x1) × [y0, y1): of one box, or of many at once when the corners are arrays."""
    return integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]


def _splittable(contour: MatLike, params: ReaderParams) -> bool:
    """Whether a blob's box is of a size worth looking into again (`_touching`, `_split`): not
    thinner than the smallest pip, nor wider than two threshold blocks."""
    _, _, w, h = cv2.boundingRect(contour)
    return min(w, h) >= params.split_min_side and max(w, h) <= 2 * params.block_size


def _split(
    gray: npt.NDArray[np.uint8], colour: Frame, contour: MatLike, scale: float, params: ReaderParams
) -> tuple[list[Blob], list[Blob]]:
    """Pips that the threshold ran together with each other (close pips of a small die) or with
    their die (a dark die on a light tray is darker than its surroundings, pips and all): threshold
    the blob's own pixels again, half way between its darker and lighter parts (Otsu), and keep
    the round parts, darker and lighter ones. The threshold is taken on whichever of grey, blue,
    green and red varies most inside the blob, so red pips on a black die part too. A part that
    is a column of three touching pips is cut at its narrow places (`_touching`: a six 22 px wide
    seen whole as one blob, synthetic seed 4449). ``contour`` was found ``scale`` times smaller;
    the split is done at full resolution, where small pips are still whole."""
    if cv2.contourArea(contour) < 2 * params.min_pip_area / (scale * scale):
        return [], []
    outline = (
        np.rint((contour.astype(np.float64) + 0.5) * scale - 0.5).astype(np.int32)
        if scale != 1.0
        else contour
    )
    x, y, w, h = cv2.boundingRect(outline)
    x0, y0 = max(0, x - 2), max(0, y - 2)
    patch = np.ascontiguousarray(gray[y0 : y + h + 2, x0 : x + w + 2])
    mask = np.zeros(patch.shape, np.uint8)
    cv2.drawContours(mask, [outline], -1, 255, -1, offset=(-x0, -y0))
    if scale > 1:
        # Keep off the blurred outline of a coarse level: it may be tray, not die.
        size = 2 * round(scale) - 1
        mask = np.asarray(cv2.erode(mask, np.ones((size, size), np.uint8)), dtype=np.uint8)
    if cv2.countNonZero(mask) < 10:
        return [], []
    colour_patch = np.ascontiguousarray(colour[y0 : y + h + 2, x0 : x + w + 2])
    _, gray_spread = cv2.meanStdDev(patch, mask=mask)
    _, colour_spread = cv2.meanStdDev(colour_patch, mask=mask)
    spreads = [gray_spread[0, 0], *colour_spread[:, 0]]
    best = max(range(len(spreads)), key=spreads.__getitem__)
    channel = patch if best == 0 else np.ascontiguousarray(colour_patch[:, :, best - 1])
    least, most, _, _ = cv2.minMaxLoc(channel, mask)
    if most - least < params.min_pip_contrast:
        return [], []
    inside = channel[mask > 0]
    level, _ = cv2.threshold(inside.reshape(1, -1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    high = cv2.bitwise_and(cv2.threshold(channel, level, 255, cv2.THRESH_BINARY)[1], mask)
    low = cv2.bitwise_xor(high, mask)  # the rest of the blob
    # Which side is darker is told by the grey levels, whatever channel parted them.
    low_is_darker = (
        _mean_of(patch, low) <= _mean_of(patch, high) if cv2.countNonZero(high) else True
    )
    darker: list[Blob] = []
    lighter: list[Blob] = []
    for binary, is_low in ((low, True), (high, False)):
        contours, _ = cv2.findContours(
            binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0)
        )
        out = darker if is_low == low_is_darker else lighter
        for part in contours:
            if len(part) < 4:
                continue
            blob = _blob_of(part, 1.0, params)
            if blob is not None:
                out.append(blob)
            elif len(part) >= 6:
                out.extend(_touching(part, 1.0, params))
    return darker, lighter


def _mean_of(image: MatLike, mask: MatLike) -> float:
    """The mean of ``image``'s first channel under ``mask`` (OpenCV's stubs type `cv2.mean`'s
    result differently from release to release)."""
    return float(np.asarray(cv2.mean(image, mask), np.float64).reshape(-1)[0])
