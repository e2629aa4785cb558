"""Stage 2: group pips into die faces by fitting the 3×3 pip grid of a die.

Every face but the one holds two opposite corner pips of its 3×3 grid, so each pair of compatible
pips (same polarity, size and face colour) at a plausible distance proposes a face: centre between
them, grid spacing and rotation from their offset. A proposal stands when the pips near it sit on
its grid points in one of the six face patterns, no other pip of the kind lies inside the face, and
the empty grid points look like bare face (not a missed pip, nor the seam of two touching dice;
a blob there far larger than the pips is the soft glare of a glossy face, not a pip).
Pips far fainter than the others of their face (seen through a translucent die) are left out of it,
and so is a faint spot (glare on a glossy face) that keeps the pips around it from fitting any face.
Proposals are taken greedily, most pips first, so touching dice are separated by their grids rather
than by their outlines. Pips left over become ones (`vision.ones`); of a top face and the side
faces of the same die, only the top is kept (`vision.sides`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from vision.blobs import Shape
from vision.face import Face
from vision.ones import find_ones
from vision.params import ReaderParams
from vision.pips import Pip
from vision.sides import keep_top_faces
from vision.types import Frame

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
_GLARE_REACH = 0.3
"""A blob of the pips' kind, far larger than they are, lying within this many grid steps of an
empty grid point, is a glare on the face there (`_is_glare_at`)."""


def compatible_pips(pips: tuple[Pip, ...], params: ReaderParams) -> npt.NDArray[np.bool_]:
    """Which pips could belong to the same die: same polarity, similar size and face colour."""
    if not pips:
        return np.zeros((0, 0), dtype=np.bool_)
    dark = np.array([p.is_dark for p in pips])
    plane = np.array([p.plane for p in pips])
    size = np.array([p.diameter for p in pips])
    colour = np.array([p.face_colour for p in pips], dtype=np.float64)
    ratio = np.maximum(size[:, None], size[None, :]) / np.minimum(size[:, None], size[None, :])
    colour_distance = np.linalg.norm(colour[:, None, :] - colour[None, :, :], axis=2)
    return np.asarray(
        (dark[:, None] == dark[None, :])
        & (plane[:, None] == plane[None, :])
        & (ratio <= params.max_size_ratio)
        & (colour_distance <= params.max_face_colour_distance)
    )


def find_faces(
    pips: tuple[Pip, ...],
    smooth_planes: npt.NDArray[np.float32],
    smooth_colour: Frame,
    params: ReaderParams,
) -> list[Face]:
    """The die faces that the pips form, touching dice separated, each pip used at most once.
    ``smooth_planes`` are the planes of the lightly blurred frame (`vision.pips.planes_of`) and
    ``smooth_colour`` that frame itself (BGR)."""
    if not pips:
        return []
    centres = [(p.x, p.y) for p in pips]
    sizes = [p.diameter for p in pips]
    compatible = compatible_pips(pips, params)
    proposals: list[tuple[int, float, Face]] = []
    count = len(pips)
    for i in range(count):
        for j in range(i + 1, count):
            if not compatible[i, j]:
                continue
            spacing = math.dist(centres[i], centres[j]) / (2.0 * _SQRT2)
            pip_size = 0.5 * (sizes[i] + sizes[j])
            if not params.min_spacing * pip_size <= spacing <= params.max_spacing * pip_size:
                continue
            plane = smooth_planes[:, :, pips[i].plane]
            face = _fit(i, j, centres, pips, compatible, plane, smooth_colour, params)
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
    faces.extend(
        find_ones(pips, used, np.array(centres), compatible, smooth_planes, smooth_colour, params)
    )
    faces = _no_giant_ones(faces, pips, params)
    faces = _alike_in_size(keep_top_faces(faces, pips, params), pips, params)
    return [_without_ghosts(face, pips, params) for face in faces]


def _without_ghosts(face: Face, pips: tuple[Pip, ...], params: ReaderParams) -> Face:
    """The face less its faint pips (under ``ghost_pip_contrast`` of its strongest pip's
    contrast), when the pips left make a face of their own on its grid: a translucent die shows
    the pips of its opposite face faintly through its body (a two over its five reads as a five,
    a four over its three as a five, a one over its six as a three, its pip and the two faint
    ones in line with it), and a marbled die's swirls make faint spots. The pips of one face
    seldom differ so much: glare and shade change a pip's contrast less than that."""
    if face.value is None or len(face.pips) < 3:
        return face
    strongest = max(pips[k].contrast for k in face.pips)
    strong = [k for k in face.pips if pips[k].contrast >= params.ghost_pip_contrast * strongest]
    if len(strong) == len(face.pips):
        return face
    coords = _in_basis([(pips[k].x - face.x, pips[k].y - face.y) for k in strong], face.u, face.v)
    if coords is None:
        return face
    value = _PATTERNS.get(frozenset((round(a), round(b)) for a, b in coords))
    if value is None:
        return face
    return replace(face, pips=tuple(strong), value=value)


def _pip_size(face: Face, pips: tuple[Pip, ...]) -> float:
    """The mean diameter of a face's pips."""
    return sum(pips[k].diameter for k in face.pips) / len(face.pips)


def _reference_pip_size(
    faces: list[Face], pips: tuple[Pip, ...], params: ReaderParams
) -> float | None:
    """The median pip size of the faces of two pips or more, when there are enough of them to
    tell the size of the dice in the tray (None: there are not)."""
    sizes = sorted(_pip_size(face, pips) for face in faces if len(face.pips) >= 2)
    if len(sizes) < params.size_reference_faces:
        return None
    return sizes[len(sizes) // 2]


def _no_giant_ones(faces: list[Face], pips: tuple[Pip, ...], params: ReaderParams) -> list[Face]:
    """Drop lone pips read as ones that are far larger than the pips of the dice read: a whole
    die seen as one blob, read as a one several dice wide. Left in, it would pass for the top of
    the dice around it and have their faces dropped as its sides (`keep_top_faces`)."""
    reference = _reference_pip_size(faces, pips, params)
    if reference is None:
        return faces
    most = params.largest_relative_one_size * reference
    return [f for f in faces if len(f.pips) != 1 or pips[f.pips[0]].diameter <= most]


def _alike_in_size(faces: list[Face], pips: tuple[Pip, ...], params: ReaderParams) -> list[Face]:
    """Drop faces whose pips are far smaller than those of the other dice read: the dice in a tray
    are seen at about the same size, so these are dots on a keyboard or printing, not a die."""
    reference = _reference_pip_size(faces, pips, params)
    if reference is None:
        return faces
    least = params.least_relative_pip_size * reference
    return [f for f in faces if _pip_size(f, pips) >= least]


Vector = tuple[float, float]


def _perpendicular(vector: Vector, shape: Shape) -> Vector:
    """``vector`` turned a quarter in the plane of the face, whose tilt shows in the pips' outline
    ``shape`` (second moments): a round pip seen as an ellipse shows how the face is foreshortened.
    """
    a, b, c = shape
    # Square root of the 2×2 positive definite matrix [[a, b], [b, c]] in closed form.
    s = math.sqrt(max(a * c - b * b, 1e-12))
    t = math.sqrt(max(a + c + 2.0 * s, 1e-12))
    ra, rb, rc = (a + s) / t, b / t, (c + s) / t
    det = ra * rc - rb * rb
    x, y = vector
    fx, fy = (rc * x - rb * y) / det, (-rb * x + ra * y) / det  # inverse root @ vector
    px, py = -fy, fx  # a quarter turn on the flattened face
    return (ra * px + rb * py, rb * px + rc * py)


def _in_basis(points: list[Vector], a: Vector, b: Vector) -> list[Vector] | None:
    """The coordinates (α, β) of each point p = α·a + β·b, or None when a and b are parallel."""
    det = a[0] * b[1] - a[1] * b[0]
    if abs(det) < 1e-6:
        return None
    return [((x * b[1] - y * b[0]) / det, (y * a[0] - x * a[1]) / det) for x, y in points]


def _fit(
    i: int,
    j: int,
    centres: list[Vector],
    pips: tuple[Pip, ...],
    compatible: npt.NDArray[np.bool_],
    smooth_gray: npt.NDArray[np.float32],
    smooth_colour: Frame,
    params: ReaderParams,
) -> Face | None:
    """The face with opposite corner pips ``i`` and ``j``, or None when no face grid fits. The
    few pips near a face are worked out in plain numbers: arrays of a few elements cost more."""
    (xi, yi), (xj, yj) = centres[i], centres[j]
    centre = (0.5 * (xi + xj), 0.5 * (yi + yj))
    diagonal = (0.5 * (xj - xi), 0.5 * (yj - yi))
    half_span = math.hypot(*diagonal)
    reach = 2.0 * half_span
    kin = [
        k
        for k in np.flatnonzero(compatible[i] & compatible[j]).tolist()
        if max(abs(centres[k][0] - centre[0]), abs(centres[k][1] - centre[1])) <= reach
    ]
    first, second = pips[i].shape, pips[j].shape
    shape = ((first[0] + second[0]) / 2, (first[1] + second[1]) / 2, (first[2] + second[2]) / 2)
    other = _perpendicular(diagonal, shape)
    # Faces with four corners (4, 5, 6) fix the other diagonal themselves, which also fits dice
    # whose six is laid out on a rectangle rather than a square.
    relative = [(centres[k][0] - centre[0], centres[k][1] - centre[1]) for k in kin]
    coords = _in_basis(relative, diagonal, other)
    if coords is None:
        return None
    tol = params.grid_tolerance
    for k, (along, across) in zip(kin, coords, strict=True):
        if abs(along) > 0.45 or abs(abs(across) - 1.0) > 0.35:
            continue
        mx, my = 2.0 * centre[0] - centres[k][0], 2.0 * centre[1] - centres[k][1]
        gaps = [math.hypot(centres[m][0] - mx, centres[m][1] - my) for m in kin]
        nearest = min(range(len(gaps)), key=gaps.__getitem__)
        if gaps[nearest] <= tol * half_span:
            ox = 0.5 * (centres[k][0] - centres[kin[nearest]][0])
            oy = 0.5 * (centres[k][1] - centres[kin[nearest]][1])
            if ox * other[0] + oy * other[1] < 0:
                ox, oy = -ox, -oy
            other = (ox, oy)
            break
    u = (0.5 * (diagonal[0] + other[0]), 0.5 * (diagonal[1] + other[1]))
    v = (0.5 * (diagonal[0] - other[0]), 0.5 * (diagonal[1] - other[1]))
    q = _in_basis(relative, u, v)
    if q is None:
        return None
    extent = params.foreign_extent
    held = [(k, a, b) for k, (a, b) in zip(kin, q, strict=True) if max(abs(a), abs(b)) <= extent]
    if not held:
        return None
    found = _pattern(held, tol)
    if found is None:
        # A glare spot on a glossy face, or a speck, is a pip of the kind to the pip stages: a
        # six with a glare spot at its centre holds seven. Such a spot is far fainter than the
        # pips (``ghost_pip_contrast``); without it, the empty grid points must still look bare.
        # The two corner pips the face is fitted on must not be such spots themselves.
        least = params.ghost_pip_contrast * max(pips[k].contrast for k, _, _ in held)
        strong = [(k, a, b) for k, a, b in held if pips[k].contrast >= least]
        if len(strong) < len(held) and min(pips[i].contrast, pips[j].contrast) >= least:
            found = _pattern(strong, tol)
        if found is None:
            return None
        held = strong
    value, points, errors = found
    members = [k for k, _, _ in held]
    elongation = [pips[k].elongation for k in members]
    # Elongation is measured less surely on small pips (a few pixels across).
    smallest = min(pips[k].diameter for k in members)
    if (
        max(elongation) - min(elongation)
        > params.max_elongation_spread + params.elongation_noise / smallest
    ):
        return None
    if not _empty_points_bare(
        centre, u, v, points, members, pips, smooth_gray, smooth_colour, params
    ):
        return None
    contrast = sum(pips[k].contrast for k in members) / len(members)
    fit = 1.0 - sum(errors) / len(errors) / tol
    confidence = max(0.0, min(1.0, 0.5 + 0.5 * fit)) * min(1.0, contrast / 60.0 + 0.5)
    spacing = 0.5 * (math.hypot(*u) + math.hypot(*v))
    return Face(
        centre[0],
        centre[1],
        u,
        v,
        tuple(members),
        value,
        params.die_width_per_spacing * spacing,
        confidence,
    )


def _pattern(
    held: list[tuple[int, float, float]], tol: float
) -> tuple[int, set[tuple[int, int]], list[float]] | None:
    """The value whose pattern the pips ``held`` (each with its grid coordinates) make, their grid
    points and their distances from them; None when a pip lies off the grid (``tol``), two on
    one point, or the points make no face."""
    errors = [math.hypot(a - round(a), b - round(b)) for _, a, b in held]
    if max(errors) > tol:
        return None  # a pip of the kind inside the face but off its grid
    points = {(round(a), round(b)) for _, a, b in held}
    if len(points) != len(held):
        return None
    value = _PATTERNS.get(frozenset(points))
    return None if value is None else (value, points, errors)


def _empty_points_bare(
    centre: Vector,
    u: Vector,
    v: Vector,
    points: set[tuple[int, int]],
    kin: list[int],
    pips: tuple[Pip, ...],
    smooth_gray: npt.NDArray[np.float32],
    smooth_colour: Frame,
    params: ReaderParams,
) -> bool:
    """Whether the face around the pips is bare die face: every empty grid point (not a missed pip,
    not the seam between two touching dice) and, past each empty corner, the face's corner (not the
    tray beside two dice whose pips happen to line up like one face)."""
    face_level = sorted(pips[k].face_level for k in kin)[len(kin) // 2]
    contrast = sorted(pips[k].contrast for k in kin)[len(kin) // 2]
    # The colour of the pip whose face level is the median one: a pip near the die's shaded edge
    # sees a darker ring.
    by_level = sorted(kin, key=lambda k: pips[k].face_level)
    face_colour = pips[int(by_level[len(by_level) // 2])].face_colour
    is_dark = pips[int(kin[0])].is_dark
    height, width = smooth_gray.shape
    reach = max(1, round(0.15 * min(math.hypot(*u), math.hypot(*v))))
    checks: list[tuple[float, float, bool]] = [
        (gx, gy, True) for gx, gy in _GRID if (gx, gy) not in points
    ]
    corner = params.corner_extent
    checks += [
        (corner * gx, corner * gy, False)
        for gx, gy in ((-1, -1), (1, -1), (-1, 1), (1, 1))
        if (gx, gy) not in points
    ]
    (cx, cy), (ux, uy), (vx, vy) = centre, u, v
    for gx, gy, is_grid_point in checks:
        xi, yi = round(cx + gx * ux + gy * vx), round(cy + gx * uy + gy * vy)
        if not (reach <= xi < width - reach and reach <= yi < height - reach):
            return False
        # The darkest (or lightest) of a small cross, so that a thin seam is not missed. A few
        # values: plain numbers are quicker than array reductions.
        cross = (
            smooth_gray[yi, xi - reach : xi + reach + 1].tolist()
            + smooth_gray[yi - reach : yi + reach + 1, xi].tolist()
        )
        extreme = min(cross) if is_dark else max(cross)
        toward_pip = face_level - extreme if is_dark else extreme - face_level
        if toward_pip > params.empty_point_tolerance * contrast and not (
            is_grid_point and _is_glare_at(xi, yi, u, v, kin, pips, params)
        ):
            return False
        if not is_grid_point:
            level = float(smooth_gray[yi, xi])
            if abs(level - face_level) > params.corner_tolerance * contrast:
                return False
            if _colour_distance(smooth_colour[yi, xi], face_colour) > params.face_colour_tolerance:
                return False
    return True


def _is_glare_at(
    x: float,
    y: float,
    u: Vector,
    v: Vector,
    kin: list[int],
    pips: tuple[Pip, ...],
    params: ReaderParams,
) -> bool:
    """Whether an empty grid point at (x, y) that looks like a pip holds a blob of the pips' kind
    far larger than they are (past ``max_size_ratio``): a glossy die's glare, a soft light spot
    at its centre as bright as its pips, not a pip missed (a black four 118 px wide with red
    pips was missed: its centre was not bare, synthetic seed 6336)."""
    members = sorted(pips[k].diameter for k in kin)
    pip_size = members[len(members) // 2]
    reach = _GLARE_REACH * min(math.hypot(*u), math.hypot(*v))
    is_dark = pips[kin[0]].is_dark
    return any(
        p.is_dark == is_dark
        and p.diameter > params.max_size_ratio * pip_size
        and math.hypot(p.x - x, p.y - y) <= reach
        for p in pips
    )


def _colour_distance(colour: npt.NDArray[np.uint8], reference: tuple[float, float, float]) -> float:
    """Euclidean distance between two BGR colours."""
    return math.sqrt(sum((float(c) - r) ** 2 for c, r in zip(colour, reference, strict=True)))
