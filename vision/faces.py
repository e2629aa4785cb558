"""Stage 2: group pips into die faces by fitting the 3×3 pip grid of a die.

Every face but the one holds two opposite corner pips of its 3×3 grid, so each pair of compatible
pips (same polarity, size and face colour) at a plausible distance proposes a face: centre between
them, grid spacing and rotation from their offset. A proposal stands when the pips near it sit on
its grid points in one of the six face patterns, no other pip of the kind lies inside the face, and
the empty grid points look like bare face (not a missed pip, nor the seam of two touching dice).
Proposals are taken greedily, most pips first, so touching dice are separated by their grids rather
than by their outlines. Pips left over become ones when they are round and strong enough.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.params import ReaderParams
from vision.pips import Pip

_SQRT2 = math.sqrt(2.0)

_PATTERNS: dict[frozenset[tuple[int, int]], int] = {}


def _add(value: int, *points: tuple[int, int]) -> None:
    _PATTERNS[frozenset(points)] = value


_add(1, (0, 0))
_add(2, (-1, -1), (1, 1))
_add(2, (-1, 1), (1, -1))
_add(3, (-1, -1), (0, 0), (1, 1))
_add(3, (-1, 1), (0, 0), (1, -1))
_add(4, (-1, -1), (1, 1), (-1, 1), (1, -1))
_add(5, (-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0))
_add(6, (-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1))
_add(6, (-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1))

_GRID = [(gx, gy) for gy in (-1, 0, 1) for gx in (-1, 0, 1)]


@dataclass(frozen=True, slots=True)
class Face:
    """A die face found from its pips: centre (x, y), grid spacing and rotation (radians), the
    indices of its pips, its value, the die width in pixels, and a confidence in [0, 1]."""

    x: float
    y: float
    spacing: float
    angle: float
    pips: tuple[int, ...]
    value: int
    width: float
    confidence: float


def _compatible(pips: tuple[Pip, ...], params: ReaderParams) -> npt.NDArray[np.bool_]:
    """Which pips could belong to the same die: same polarity, similar size and face colour."""
    dark = np.array([p.is_dark for p in pips])
    size = np.array([p.diameter for p in pips])
    colour = np.array([p.face_colour for p in pips], dtype=np.float64)
    ratio = np.maximum(size[:, None], size[None, :]) / np.minimum(size[:, None], size[None, :])
    colour_distance = np.linalg.norm(colour[:, None, :] - colour[None, :, :], axis=2)
    return np.asarray(
        (dark[:, None] == dark[None, :])
        & (ratio <= params.max_size_ratio)
        & (colour_distance <= params.max_face_colour_distance)
    )


def find_faces(
    pips: tuple[Pip, ...], smooth_gray: npt.NDArray[np.float32], params: ReaderParams
) -> list[Face]:
    """The die faces that the pips form, touching dice separated, each pip used at most once."""
    if not pips:
        return []
    centres = np.array([(p.x, p.y) for p in pips], dtype=np.float64)
    sizes = np.array([p.diameter for p in pips])
    compatible = _compatible(pips, params)
    proposals: list[tuple[int, float, Face]] = []
    count = len(pips)
    for i in range(count):
        for j in range(i + 1, count):
            if not compatible[i, j]:
                continue
            offset = centres[j] - centres[i]
            distance = float(math.hypot(offset[0], offset[1]))
            spacing = distance / (2.0 * _SQRT2)
            pip_size = 0.5 * (sizes[i] + sizes[j])
            if not params.min_spacing * pip_size <= spacing <= params.max_spacing * pip_size:
                continue
            angle = math.atan2(offset[1], offset[0]) - math.pi / 4.0
            face = _fit(i, j, angle, spacing, centres, pips, compatible, smooth_gray, params)
            if face is not None:
                proposals.append((len(face.pips), -face.confidence, face))
    proposals.sort(key=lambda item: (-item[0], item[1]))
    used: set[int] = set()
    faces: list[Face] = []
    for _, _, face in proposals:
        if used.intersection(face.pips):
            continue
        if any(
            math.hypot(face.x - f.x, face.y - f.y) < 0.6 * max(face.width, f.width) for f in faces
        ):
            continue
        used.update(face.pips)
        faces.append(face)
    faces.extend(_ones(pips, used, centres, compatible, smooth_gray, params))
    return faces


def _fit(
    i: int,
    j: int,
    angle: float,
    spacing: float,
    centres: npt.NDArray[np.float64],
    pips: tuple[Pip, ...],
    compatible: npt.NDArray[np.bool_],
    smooth_gray: npt.NDArray[np.float32],
    params: ReaderParams,
) -> Face | None:
    """The face with opposite corner pips ``i`` and ``j``, or None when the grid does not fit."""
    centre = 0.5 * (centres[i] + centres[j])
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    kin = np.flatnonzero(compatible[i] & compatible[j])
    relative = centres[kin] - centre
    gx = (relative[:, 0] * cos_a + relative[:, 1] * sin_a) / spacing
    gy = (-relative[:, 0] * sin_a + relative[:, 1] * cos_a) / spacing
    inside = np.maximum(np.abs(gx), np.abs(gy)) <= params.foreign_extent
    if not inside.any():
        return None
    gx, gy, kin = gx[inside], gy[inside], kin[inside]
    rx, ry = np.rint(gx), np.rint(gy)
    error = np.hypot(gx - rx, gy - ry)
    if float(error.max()) > params.grid_tolerance:
        return None  # a pip of the kind inside the face but off its grid
    points = {(int(a), int(b)) for a, b in zip(rx, ry, strict=True)}
    if len(points) != len(kin):
        return None
    value = _PATTERNS.get(frozenset(points))
    if value is None:
        return None
    if not _empty_points_bare(
        centre, cos_a, sin_a, spacing, points, kin, pips, smooth_gray, params
    ):
        return None
    contrast = float(np.mean([pips[k].contrast for k in kin]))
    fit = 1.0 - float(error.mean()) / params.grid_tolerance
    confidence = max(0.0, min(1.0, 0.5 + 0.5 * fit)) * min(1.0, contrast / 60.0 + 0.5)
    return Face(
        float(centre[0]),
        float(centre[1]),
        spacing,
        angle,
        tuple(int(k) for k in kin),
        value,
        params.die_width_per_spacing * spacing,
        confidence,
    )


def _empty_points_bare(
    centre: npt.NDArray[np.float64],
    cos_a: float,
    sin_a: float,
    spacing: float,
    points: set[tuple[int, int]],
    kin: npt.NDArray[np.intp],
    pips: tuple[Pip, ...],
    smooth_gray: npt.NDArray[np.float32],
    params: ReaderParams,
) -> bool:
    """Whether every empty grid point of the face looks like bare face rather than pip or seam."""
    face_level = float(np.median([np.mean(pips[k].face_colour) for k in kin]))
    contrast = float(np.median([pips[k].contrast for k in kin]))
    is_dark = pips[int(kin[0])].is_dark
    height, width = smooth_gray.shape
    for gx, gy in _GRID:
        if (gx, gy) in points:
            continue
        x = centre[0] + spacing * (gx * cos_a - gy * sin_a)
        y = centre[1] + spacing * (gx * sin_a + gy * cos_a)
        xi, yi = round(x), round(y)
        if not (0 <= xi < width and 0 <= yi < height):
            return False
        level = float(smooth_gray[yi, xi])
        toward_pip = face_level - level if is_dark else level - face_level
        if toward_pip > params.empty_point_tolerance * contrast:
            return False
    return True


def _ones(
    pips: tuple[Pip, ...],
    used: set[int],
    centres: npt.NDArray[np.float64],
    compatible: npt.NDArray[np.bool_],
    smooth_gray: npt.NDArray[np.float32],
    params: ReaderParams,
) -> list[Face]:
    """Faces showing one: strong round pips left alone after grouping."""
    faces = []
    for k, pip in enumerate(pips):
        if k in used:
            continue
        if pip.circularity < params.single_min_circularity:
            continue
        if pip.contrast < params.single_min_contrast:
            continue
        near = np.hypot(*(centres - centres[k]).T) < 2.0 * pip.diameter
        near[k] = False
        if (near & compatible[k]).any():
            continue
        faces.append(
            Face(
                pip.x,
                pip.y,
                pip.diameter,
                0.0,
                (k,),
                1,
                params.die_width_per_single_pip * pip.diameter,
                min(1.0, pip.contrast / 80.0 + 0.3) * pip.circularity,
            )
        )
    return faces
