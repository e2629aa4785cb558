"""Fitting the reader to one table: the throwing area, the dice's size, and checks of the picture.

Pure functions of frames (numpy/OpenCV, no I/O). `find_area` finds the tray's inside in a frame
of the empty tray: the floor is grown from the middle of the frame as the region whose colour a
smooth light falloff explains (a quadratic surface in log colour, refitted as the region grows),
its outline fitted by a quadrilateral (RANSAC lines) and each side moved onto the first strong
edge near it at full resolution, with the barrel distortion of a cheap lens allowed for (a bowed
outline has points between the corners). `die_width` measures the dice of a test throw from the
reader's reading. `check_tray` and `check_throw` say what to change about the picture (`Check`),
and `calibrate` does it all. `differs_from_empty` is the reader's test of a die against the empty
tray (``ReaderParams.empty_tray``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Box, Frame, Reading

Polygon = tuple[tuple[int, int], ...]
FloatArray = npt.NDArray[np.float64]

__all__ = [
    "Calibration",
    "Check",
    "calibrate",
    "check_throw",
    "check_tray",
    "die_width",
    "differs_from_empty",
    "draw_area",
    "find_area",
]

_SMALL_SIDE = 200
"""The short side (pixels) of the copy the floor is grown in."""
_LEAST_AREA = 0.15
"""A floor covering less of the frame than this is no tray."""
_LEAST_SOLIDITY = 0.8
"""A floor filling less of its convex hull than this is no tray (clutter, not a surface)."""
_DARKEST = 18.0
"""A frame whose median grey level is under this shows nothing (a lens cap, the light off)."""

DARK_LEVEL = 70.0
"""The picture is too dark when the brightest parts of the tray (its 99th percentile of grey, in
the test throw) are under this level."""
GLARE_LEVEL = 250
GLARE_FRACTION = 0.004
"""Glare: more than this fraction of the tray's pixels burnt out (every channel ``GLARE_LEVEL``
or more)."""
BLUR_LIMIT = 0.55
"""Out of focus: the dice's edges lose more than this share of their sharpness to a further blur
(the blur measure of Crete et al., 2007: 0 sharp, 1 nothing left to lose)."""
SKEW_LIMIT = 0.8
"""Not looking down: a four-sided tray whose opposite sides differ in length by more than this
ratio, or whose corners are more than ``ANGLE_LIMIT`` degrees off square."""
ANGLE_LIMIT = 14.0
SMALLEST_DIE = 24.0
LARGEST_DIE = 110.0
"""The die widths (pixels, as `die_width` measures them) the reader reads well: its boxes span
0.75 to 0.9 of a die's edge, up to 1.15 for dice under 30 pixels, so these are dice of about 22
to 140 pixels."""
EMPTY_DIFFERENCE = 24.0
"""A die whose box differs from the empty tray by less than this (grey levels, 90th percentile
of the smoothed difference) is the empty tray, not a die."""


@dataclass(frozen=True, slots=True)
class Check:
    """One check of the picture: its name, whether it passed, and one line saying what was
    measured or what to change."""

    name: str
    ok: bool
    advice: str


@dataclass(frozen=True, slots=True)
class Calibration:
    """What calibration found: the throwing area (image corners), the median die width (pixels;
    None when no die was read) and the checks."""

    roi: Polygon
    die_width_px: float | None
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return all(check.ok for check in self.checks)


def calibrate(
    empty: Frame, throw: Frame, reading: Reading, area: Polygon | None = None
) -> Calibration | None:
    """Calibrate from a frame of the empty tray, a frame of a test throw and the reader's
    reading of it (read with the area as its region of interest); ``area`` is the throwing
    area when `find_area` already found it. None: no tray to be seen."""
    area = area if area is not None else find_area(empty)
    if area is None:
        return None
    width = die_width(throw, reading)
    checks = check_tray(empty, area) + check_throw(throw, empty, area, reading, width)
    return Calibration(area, width, tuple(checks))


# --- the throwing area ------------------------------------------------------------------------


def find_area(frame: Frame) -> Polygon | None:
    """The throwing area (the tray's floor) in a frame of the empty tray, as four image corners
    in order around it; None when no tray is to be seen (a dark frame, or no large even surface
    around the middle of the frame). A tray filling the frame gives the frame's corners."""
    height, width = frame.shape[:2]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if float(np.median(gray)) < _DARKEST:
        return None
    mask, factor = _floor_mask(frame)
    if mask is None:
        return None
    quad = _quadrilateral(mask)
    if quad is None:
        return None
    quad = quad / factor
    outline = _refine(frame, quad)
    outline[:, 0] = np.clip(outline[:, 0], 0, width)
    outline[:, 1] = np.clip(outline[:, 1], 0, height)
    return tuple((round(float(x)), round(float(y))) for x, y in outline)


def _floor_mask(frame: Frame) -> tuple[npt.NDArray[np.uint8] | None, float]:
    """The floor as a mask of a small copy of ``frame``, and the copy's scale factor."""
    height, width = frame.shape[:2]
    factor = _SMALL_SIDE / min(height, width)
    size = (max(8, round(width * factor)), max(8, round(height * factor)))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0.6)
    logs = np.log(small.astype(np.float32) + 8.0)
    h, w = logs.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    xs = xs / w - 0.5
    ys = ys / h - 0.5
    terms = np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)
    seed = np.zeros((h, w), np.uint8)
    seed[h // 4 : h - h // 4, w // 4 : w - w // 4] = 1
    mask = seed.copy()
    previous = -1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    for _ in range(40):
        inside = mask.astype(bool)
        fit_terms = terms[inside]
        fit_values = logs[inside]
        step = max(1, len(fit_terms) // 4000)
        coef, *_ = np.linalg.lstsq(fit_terms[::step], fit_values[::step], rcond=None)
        model = terms @ coef
        residual = np.abs(logs - model).max(axis=-1)
        spread = 1.4826 * float(np.median(residual[inside]))
        limit = float(np.clip(4.0 * spread, 0.05, 0.2))
        near = residual < limit
        near = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_OPEN, kernel).astype(bool)
        grown = cv2.dilate(mask, kernel, iterations=2).astype(bool)
        region = _component(near & grown, seed)
        if region is None:
            return None, factor
        mask = _fill_holes(region)
        count = int(mask.sum())
        if count == previous:
            break
        previous = count
    if mask.sum() < _LEAST_AREA * h * w:
        return None, factor
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    hull_area = cv2.contourArea(cv2.convexHull(contour))
    if hull_area <= 0 or cv2.contourArea(contour) / hull_area < _LEAST_SOLIDITY:
        return None, factor
    return mask, factor


def _component(
    candidate: npt.NDArray[np.bool_], seed: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint8] | None:
    """The connected part of ``candidate`` that covers most of ``seed`` (None: none does)."""
    count, labels = cv2.connectedComponents(candidate.astype(np.uint8), connectivity=4)
    if count <= 1:
        return None
    votes = np.bincount(labels[seed.astype(bool)], minlength=count)
    votes[0] = 0
    best = int(np.argmax(votes))
    if votes[best] == 0:
        return None
    region: npt.NDArray[np.uint8] = (labels == best).astype(np.uint8)
    return region


def _fill_holes(mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``mask`` with every hole inside its outline filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 1, -1)
    return out


def _quadrilateral(mask: npt.NDArray[np.uint8]) -> FloatArray | None:
    """Four corners fitted to the mask's outline: the outline's points are split into four
    sides by the direction the outline runs in there (relative to the outline's own turn), a
    line is fitted to each side's longest straight run (RANSAC, so that a notch such as a hand
    reaching over the edge does not pull it) and neighbouring sides are intersected."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    points = contour.reshape(-1, 2).astype(np.float64) + 0.5
    if len(points) < 40:
        return None
    k = 3
    tangent = np.roll(points, -k, axis=0) - np.roll(points, k, axis=0)
    direction = np.arctan2(tangent[:, 1], tangent[:, 0])
    turn = math.atan2(float(np.sin(4 * direction).sum()), float(np.cos(4 * direction).sum())) / 4
    sides = np.round((direction - turn) / (math.pi / 2)).astype(int) % 4
    rng = np.random.default_rng(0)
    lines = []
    for side in range(4):
        group = points[sides == side]
        if len(group) < 10:
            return None
        lines.append(_ransac_line(group, rng))
    out = np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)])
    if not np.all(np.isfinite(out)):
        return None
    return _clockwise(out)


def _ransac_line(
    points: FloatArray, rng: np.random.Generator, tolerance: float = 1.2
) -> tuple[float, float, float, float]:
    """The line (direction, point) through the most of ``points`` (within ``tolerance``),
    refitted to them by least squares."""
    best = points
    best_count = 0
    for _ in range(150):
        i, j = rng.integers(len(points), size=2)
        d = points[j] - points[i]
        length = float(np.hypot(*d))
        if length < 4:
            continue
        normal = np.array([-d[1], d[0]]) / length
        inliers = np.abs((points - points[i]) @ normal) <= tolerance
        count = int(inliers.sum())
        if count > best_count:
            best_count, best = count, points[inliers]
    vx, vy, x0, y0 = cv2.fitLine(best.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01)
    return (float(vx[0]), float(vy[0]), float(x0[0]), float(y0[0]))


def _clockwise(corners: FloatArray) -> FloatArray:
    """The corners in order around their centre (clockwise on the screen), the top-left first."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ordered = corners[np.argsort(angles)]
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def _line_through(a: FloatArray, b: FloatArray) -> tuple[float, float, float, float]:
    d = b - a
    n = float(np.hypot(*d)) or 1.0
    return (float(d[0] / n), float(d[1] / n), float(a[0]), float(a[1]))


def _intersect(
    first: tuple[float, float, float, float], second: tuple[float, float, float, float]
) -> FloatArray:
    """Where two lines (direction, point) cross (nan when parallel)."""
    vx1, vy1, x1, y1 = first
    vx2, vy2, x2, y2 = second
    det = vx1 * (-vy2) - vy1 * (-vx2)
    if abs(det) < 1e-9:
        return np.array([np.nan, np.nan])
    t = ((x2 - x1) * (-vy2) - (y2 - y1) * (-vx2)) / det
    return np.array([x1 + vx1 * t, y1 + vy1 * t])


def _refine(frame: Frame, quad: FloatArray) -> FloatArray:
    """The floor's outline at full resolution: each side of ``quad`` moved onto the first strong
    edge near it (a side along the frame's border stays there). A lens that bows straight
    sides (barrel distortion) is allowed for: the distortion that makes the sides straightest
    is found, and each side is then followed by points along its bow."""
    height, width = frame.shape[:2]
    scale = min(height, width) / _SMALL_SIDE
    reach = 1.5 * scale + 2.0
    smooth = cv2.GaussianBlur(frame, (0, 0), 1.0).astype(np.float32)
    centre = quad.mean(axis=0)
    found = [
        _side_points(smooth, quad[i], quad[(i + 1) % 4], centre, reach, (width, height))
        for i in range(4)
    ]
    lens = _straightest(found, (width, height)) if all(p is not None for p in found) else 0.0
    lines = []
    for i in range(4):
        points = found[i]
        if points is None:
            lines.append(_line_through(quad[i], quad[(i + 1) % 4]))
            continue
        straight = _undistort(points, (width, height), lens)
        vx, vy, x0, y0 = cv2.fitLine(straight.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)
        lines.append((float(vx[0]), float(vy[0]), float(x0[0]), float(y0[0])))
    corners = np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)])
    if not np.all(np.isfinite(corners)):
        return quad
    if lens == 0.0:
        out = corners
    else:
        steps = np.arange(_BOW_POINTS)[:, None] / _BOW_POINTS
        sides = [corners[i] + (corners[(i + 1) % 4] - corners[i]) * steps for i in range(4)]
        out = _distort(np.concatenate(sides), (width, height), lens)
    if np.abs(out[:: (1 if lens == 0.0 else _BOW_POINTS)] - quad).max() > 3 * reach:
        return quad
    return out


_BOW_POINTS = 6
"""Points per side of an outline bowed by the lens."""


def _straightest(sides: Sequence[FloatArray | None], size: tuple[int, int]) -> float:
    """The barrel distortion (0-0.3, see `_undistort`) under which the sides' edge points lie
    closest to straight lines."""
    best, best_cost = 0.0, math.inf
    for k in np.linspace(0.0, 0.3, 31):
        cost = 0.0
        for points in sides:
            assert points is not None
            straight = _undistort(points, size, float(k))
            vx, vy, x0, y0 = cv2.fitLine(straight.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01)
            normal = np.array([-float(vy[0]), float(vx[0])])
            residual = (straight - np.array([float(x0[0]), float(y0[0])])) @ normal
            cost += float(np.minimum(residual**2, 9.0).sum())
        if cost < best_cost * 0.98:  # a lens only when it straightens the sides clearly
            best, best_cost = float(k), cost
    return best


def _about_centre(points: FloatArray, size: tuple[int, int]) -> tuple[FloatArray, float]:
    w, h = size
    centre = np.array([(w - 1) / 2, (h - 1) / 2])
    return centre, float(np.hypot(*centre))


def _undistort(points: FloatArray, size: tuple[int, int], k: float) -> FloatArray:
    """Where points of a photo taken through a barrel-distorting lens of strength ``k`` lay
    before it bent them: a point at ``r`` half-diagonals from the centre came from
    ``r (1 + k r²) / (1 + k)`` (the corners stay put)."""
    if k == 0:
        return points
    centre, half = _about_centre(points, size)
    rel = (points - centre) / half
    r2 = (rel**2).sum(axis=1, keepdims=True)
    out: FloatArray = centre + rel * (1.0 + k * r2) / (1.0 + k) * half
    return out


def _distort(points: FloatArray, size: tuple[int, int], k: float) -> FloatArray:
    """The inverse of `_undistort` (Newton's method on the radius)."""
    if k == 0:
        return points
    centre, half = _about_centre(points, size)
    rel = (points - centre) / half
    r_u = np.hypot(rel[:, 0], rel[:, 1])
    r_d = r_u.copy()
    for _ in range(8):
        r_d -= (r_d * (1.0 + k * r_d**2) - r_u * (1.0 + k)) / (1.0 + 3.0 * k * r_d**2)
    ratio = np.divide(r_d, r_u, out=np.ones_like(r_u), where=r_u > 1e-9)
    out: FloatArray = centre + rel * ratio[:, None] * half
    return out


def _side_points(
    smooth: npt.NDArray[np.float32],
    a: FloatArray,
    b: FloatArray,
    centre: FloatArray,
    reach: float,
    size: tuple[int, int],
) -> FloatArray | None:
    """Points of the floor's edge along the side ab: at each place along it, the first place
    (from inside out) within ``reach`` where the colour changes by at least half as much as it
    does most there. None when the side lies on the frame's border or shows no edge."""
    width, height = size
    d = b - a
    length = float(np.hypot(*d))
    if length < 8:
        return None
    u = d / length
    n = np.array([-u[1], u[0]])
    if (centre - a) @ n > 0:
        n = -n  # pointing out of the floor
    border = 2.0 + reach / 2
    if (
        (abs(a[0]) < border and abs(b[0]) < border)
        or (abs(a[0] - width) < border and abs(b[0] - width) < border)
        or (abs(a[1]) < border and abs(b[1]) < border)
        or (abs(a[1] - height) < border and abs(b[1] - height) < border)
    ):
        return None
    steps = np.arange(-reach, reach + 0.5, 0.5)
    along = np.arange(0.04 * length, 0.96 * length, 3.0)
    if len(along) < 5:
        return None
    base = a[None, :] + along[:, None] * u[None, :]
    xs = (base[:, None, 0] + steps[None, :] * n[0]).astype(np.float32)
    ys = (base[:, None, 1] + steps[None, :] * n[1]).astype(np.float32)
    profiles = cv2.remap(smooth, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    change = np.linalg.norm(np.diff(profiles, axis=1), axis=-1) * 2.0  # per pixel
    best = change.max(axis=1)
    strong = change >= 0.5 * best[:, None]
    first = np.argmax(strong, axis=1)
    usable = best >= 6.0
    if usable.sum() < 5:
        return None
    offsets = (steps[first] + steps[first + 1]) / 2
    points = base + offsets[:, None] * n[None, :]
    points = points[usable]
    # Places that a hand or clutter covers lie off the line the rest make: drop them.
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)
    normal = np.array([-float(vy[0]), float(vx[0])])
    off = np.abs((points - np.array([float(x0[0]), float(y0[0])])) @ normal)
    kept = points[off <= max(2.0, 3.0 * float(np.median(off)))]
    return kept if len(kept) >= 5 else None


# --- the dice -----------------------------------------------------------------------------------


def die_width(frame: Frame, reading: Reading) -> float | None:
    """The median die width (pixels) of the dice read in ``frame``, as the reader boxes them: each
    die's box divided by how much a square turned as the die's edges are turned widens it. The
    reader's boxes span 0.75 to 0.9 of a die's edge (`SMALLEST_DIE`). None: no die."""
    widths = []
    for die in reading.dice:
        box = die.box
        turn = _turn(frame, box)
        spread = abs(math.cos(turn)) + abs(math.sin(turn))
        widths.append((box.w + box.h) / 2 / spread)
    if not widths:
        return None
    return float(np.median(widths))


def _turn(frame: Frame, box: Box) -> float:
    """The angle (radians, in [0, pi/2)) the edges inside ``box`` are turned by: the mean
    direction of the gradients taken four-fold, so that a square's four edges agree."""
    crop = frame[box.y : box.y + box.h, box.x : box.x + box.w]
    if crop.size == 0 or min(crop.shape[:2]) < 3:
        return 0.0
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    weight = np.hypot(gx, gy) ** 2
    angle = np.arctan2(gy, gx)
    c = float((weight * np.cos(4 * angle)).sum())
    s = float((weight * np.sin(4 * angle)).sum())
    return (math.atan2(s, c) / 4) % (math.pi / 2)


def differs_from_empty(frame: Frame, empty: Frame, box: Box) -> bool:
    """Whether ``frame`` differs from the empty tray ``empty`` (the same size) inside ``box``
    by enough to hold a die: the 90th percentile of their smoothed colour difference there is
    `EMPTY_DIFFERENCE` grey levels or more. A frame of another size always differs."""
    if frame.shape != empty.shape:
        return True
    x0, y0 = max(box.x, 0), max(box.y, 0)
    x1, y1 = min(box.x + box.w, frame.shape[1]), min(box.y + box.h, frame.shape[0])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return True
    a = cv2.GaussianBlur(frame[y0:y1, x0:x1], (5, 5), 1.2)
    b = cv2.GaussianBlur(empty[y0:y1, x0:x1], (5, 5), 1.2)
    difference = cv2.absdiff(a, b).max(axis=-1)
    return float(np.percentile(difference, 90)) >= EMPTY_DIFFERENCE


# --- the checks -----------------------------------------------------------------------------------


def area_mask(shape: Sequence[int], area: Polygon) -> npt.NDArray[np.uint8]:
    """A mask (255 inside) of ``area`` in a frame of ``shape``."""
    mask = np.zeros((int(shape[0]), int(shape[1])), np.uint8)
    cv2.fillPoly(mask, [np.array(area, np.int32)], 255)
    return mask


def check_tray(empty: Frame, area: Polygon) -> list[Check]:
    """Checks of the empty tray: "glare" (burnt-out spots) and "looking-down" (the tray's
    outline far from a rectangle: the camera looks at it from the side)."""
    mask = area_mask(empty.shape, area).astype(bool)
    burnt = (empty.min(axis=-1) >= GLARE_LEVEL) & mask
    share = float(burnt.sum()) / max(int(mask.sum()), 1)
    return [
        Check("glare", True, "no glare spots on the tray")
        if share <= GLARE_FRACTION
        else Check(
            "glare",
            False,
            f"glare spots ({share:.1%} of the tray burnt out): move the lamp to the side, "
            "use diffuse light or lower the exposure",
        ),
        _looking_down(area),
    ]


def _light(throw: Frame, area: Polygon) -> Check:
    """Too dark: even the brightest parts of the throw (the dice, their pips) are dim. A dark
    tray (black felt) is no fault, so the tray's own level is not what counts."""
    mask = area_mask(throw.shape, area).astype(bool)
    gray = cv2.cvtColor(throw, cv2.COLOR_BGR2GRAY)
    level = float(np.percentile(gray[mask], 99)) if mask.any() else 0.0
    if level >= DARK_LEVEL:
        return Check("light", True, f"light enough (the brightest parts at grey {level:.0f})")
    return Check(
        "light",
        False,
        f"too dark (the brightest parts at grey {level:.0f} of 255): add light above the tray "
        "or raise the camera's exposure",
    )


def _looking_down(area: Polygon) -> Check:
    """The outline's four corners (an outline bowed by the lens has points between them)."""
    corners = np.array(area, np.float64)
    if len(corners) % 4 == 0:
        corners = corners[:: len(corners) // 4]
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    ratio = min(
        min(sides[0], sides[2]) / max(sides[0], sides[2], 1e-9),
        min(sides[1], sides[3]) / max(sides[1], sides[3], 1e-9),
    )
    worst = 0.0
    for i in range(len(corners)):
        p, q, r = corners[i - 1], corners[i], corners[(i + 1) % len(corners)]
        u, v = p - q, r - q
        cos = float(u @ v) / max(float(np.linalg.norm(u) * np.linalg.norm(v)), 1e-9)
        worst = max(worst, abs(math.degrees(math.acos(max(-1.0, min(1.0, cos)))) - 90.0))
    if len(corners) == 4 and (ratio < SKEW_LIMIT or worst > ANGLE_LIMIT):
        return Check(
            "looking-down",
            False,
            f"the camera looks at the tray from the side (sides {ratio:.2f} of each other, "
            f"corners up to {worst:.0f}° off square): mount it straight above the tray",
        )
    return Check("looking-down", True, "the camera looks straight down at the tray")


def check_throw(
    throw: Frame, empty: Frame, area: Polygon, reading: Reading, width: float | None
) -> list[Check]:
    """Checks of the test throw: "light" (too dark), "focus" (the dice's edges blurred) and
    "dice-size" (the dice too small or too large for the reader, or none read)."""
    checks = [_light(throw, area), _focus(throw, empty, area, reading)]
    if width is None:
        checks.append(
            Check(
                "dice-size",
                False,
                "no dice were read in the test throw: throw them into the tray and try again",
            )
        )
    elif width < SMALLEST_DIE:
        checks.append(
            Check(
                "dice-size",
                False,
                f"the dice are too small in the picture ({width:.0f} px wide, "
                f"{SMALLEST_DIE:.0f} or more reads well): lower the camera or zoom in",
            )
        )
    elif width > LARGEST_DIE:
        checks.append(
            Check(
                "dice-size",
                False,
                f"the dice are too large in the picture ({width:.0f} px wide, "
                f"{LARGEST_DIE:.0f} or less reads well): raise the camera or zoom out",
            )
        )
    else:
        checks.append(Check("dice-size", True, f"the dice are {width:.0f} px wide"))
    return checks


def _focus(throw: Frame, empty: Frame, area: Polygon, reading: Reading) -> Check:
    blur = blur_measure(throw, _dice_mask(throw, empty, area, reading))
    if blur > BLUR_LIMIT:
        return Check(
            "focus",
            False,
            f"the picture is out of focus (blur {blur:.2f}, {BLUR_LIMIT:.2f} or less is "
            "sharp): focus the lens on the tray's floor",
        )
    return Check("focus", True, f"the dice are in focus (blur {blur:.2f})")


def _dice_mask(
    throw: Frame, empty: Frame, area: Polygon, reading: Reading
) -> npt.NDArray[np.bool_]:
    """Where the dice are: their boxes as read, else where the throw differs from the empty tray
    inside the area, else the whole area."""
    mask = np.zeros(throw.shape[:2], bool)
    for die in reading.dice:
        b = die.box
        mask[b.y : b.y + b.h, b.x : b.x + b.w] = True
    if mask.any():
        return mask
    inside = area_mask(throw.shape, area).astype(bool)
    if throw.shape == empty.shape:
        changed = cv2.absdiff(throw, empty).max(axis=-1) > 40
        changed = cv2.dilate(changed.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
        moved: npt.NDArray[np.bool_] = changed & inside
        if moved.sum() > 100:
            return moved
    return inside


def blur_measure(frame: Frame, mask: npt.NDArray[np.bool_]) -> float:
    """How blurred ``frame`` is inside ``mask`` (Crete et al., 2007): the share of its grey-level
    variation between neighbours that a further 9-pixel box blur does not remove, rising from
    0 (sharp) towards 1 (blurred)."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    results = []
    for axis in (0, 1):
        ksize = (1, 9) if axis == 0 else (9, 1)
        blurred = cv2.blur(gray, ksize)
        d_f = np.abs(np.diff(gray, axis=axis))
        d_b = np.abs(np.diff(blurred, axis=axis))
        m = mask[1:, :] if axis == 0 else mask[:, 1:]
        variation = np.maximum(0.0, d_f - d_b)[m]
        total = float(d_f[m].sum())
        if total <= 0:
            results.append(1.0)
            continue
        results.append((total - float(variation.sum())) / total)
    return max(results)


AREA_COLOUR = (255, 200, 0)


def draw_area(frame: Frame, area: Polygon) -> Frame:
    """A copy of ``frame`` with the throwing area's outline drawn on it."""
    canvas = np.ascontiguousarray(frame.copy())
    thickness = max(2, round(min(frame.shape[:2]) / 240))
    points = np.array(area, np.int32).reshape(-1, 1, 2)
    cv2.polylines(canvas, [points], True, AREA_COLOUR, thickness, cv2.LINE_AA)
    return np.asarray(canvas, np.uint8)
