"""Stage 2a: dice showing one, found among the pips left alone after grouping.

A lone pip is a one only when it is round and strong, sits on bare face, lies wholly inside the
frame, and is in the middle of a die outline: dust specks, printing and keyboard keys fail these.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from vision.face import Face
from vision.outline import face_ends
from vision.params import ReaderParams
from vision.pips import Pip, is_glare_spot
from vision.types import Frame

_ANGLES = np.linspace(0.0, 2.0 * math.pi, 8, endpoint=False)
_RAYS = np.column_stack([np.cos(_ANGLES), np.sin(_ANGLES)])


def _bare_around(pip: Pip, smooth_gray: npt.NDArray[np.float32], params: ReaderParams) -> bool:
    """Whether the face around a lone pip is bare out to ``single_bare_radius`` pip diameters."""
    radius = params.single_bare_radius * pip.diameter
    angles = np.linspace(0.0, 2.0 * math.pi, 16, endpoint=False)
    height, width = smooth_gray.shape
    xs = np.clip(np.rint(pip.x + radius * np.cos(angles)), 0, width - 1).astype(np.intp)
    ys = np.clip(np.rint(pip.y + radius * np.sin(angles)), 0, height - 1).astype(np.intp)
    off = np.abs(smooth_gray[ys, xs] - pip.face_level) > params.single_bare_tolerance * pip.contrast
    return int(np.count_nonzero(off)) <= params.single_bare_misses


def _outlined(
    pip: Pip,
    smooth_gray: npt.NDArray[np.float32],
    smooth_colour: Frame,
    params: ReaderParams,
) -> bool:
    """Whether a lone pip sits in the middle of a die: walking out from it in most directions, the
    face ends (grey level or colour changes) within the reach of a die face showing one, about as
    far one way as the opposite way. A speck of dust on the tray has no such outline; a dot on a
    key of a keyboard is off its key's centre."""
    radii = np.linspace(1.2, params.single_outline_reach, 16) * pip.diameter
    reach = face_ends(
        pip.x,
        pip.y,
        _RAYS,
        radii,
        pip.face_level,
        pip.face_colour,
        params.single_outline_step * pip.contrast,
        params.single_outline_colour,
        smooth_gray,
        smooth_colour,
    )
    if int(np.count_nonzero(reach < len(radii))) < params.single_outline_rays:
        return False
    reach += 1.0
    opposite = np.roll(reach, 4)[:4]
    allowed = params.single_lopsided * 0.5 * (reach[:4] + opposite) + 1.0
    lopsided = np.abs(reach[:4] - opposite) > allowed
    return int(np.count_nonzero(lopsided)) <= params.single_lopsided_pairs


def find_ones(
    pips: tuple[Pip, ...],
    used: set[int],
    centres: npt.NDArray[np.float64],
    compatible: npt.NDArray[np.bool_],
    smooth_planes: npt.NDArray[np.float32],
    smooth_colour: Frame,
    params: ReaderParams,
) -> list[Face]:
    """Faces showing one: strong round pips left alone after grouping, alone on a bare face that
    lies wholly inside the frame. Spots near the pip under ``ghost_pip_contrast`` of its contrast
    do not keep it from being alone: a marbled die's swirls, the pips of a translucent die's six
    seen through it (synthetic seed 6691: a swirl 1.9 pip widths off a blue one's pip). A pip
    holding blobs is a whole die seen as one blob, unless they are one small spot of the pip's
    own polarity off its centre (`vision.pips.is_glare_spot`): the glare on a light pip (on a
    dark pip it is of the other polarity, and gone already). A black die 111 px wide on a light
    tray, its one's red pip holding a glare spot, was missed (synthetic seed 4571)."""
    faces = []
    height, width = smooth_planes.shape[:2]
    for k, pip in enumerate(pips):
        if k in used:
            continue
        if pip.circularity < params.single_min_circularity:
            continue
        if pip.contrast < params.single_min_contrast:
            continue
        if pip.elongation > params.single_max_elongation:
            continue
        near = np.hypot(*(centres - centres[k]).T) < 2.0 * pip.diameter
        near[k] = False
        alike = np.array([abs(p.elongation - pip.elongation) for p in pips])
        strong = np.array([p.contrast >= params.ghost_pip_contrast * pip.contrast for p in pips])
        if (near & compatible[k] & strong & (alike <= params.max_elongation_spread)).any():
            continue
        inside = np.hypot(*(centres - centres[k]).T) < 0.5 * pip.diameter
        inside[k] = False
        spots = [pips[i] for i in np.flatnonzero(inside)]
        if spots and not (
            all(s.is_dark == pip.is_dark for s in spots) and is_glare_spot(pip, spots)
        ):
            continue  # a whole die seen as one blob, not the pip of a one
        half = params.single_frame_margin * pip.diameter
        if not (half <= pip.x < width - half and half <= pip.y < height - half):
            continue
        smooth_gray = smooth_planes[:, :, pip.plane]
        if not _bare_around(pip, smooth_gray, params):
            continue
        if not _outlined(pip, smooth_gray, smooth_colour, params):
            continue
        step = params.die_width_per_single_pip * pip.diameter / params.die_width_per_spacing
        faces.append(
            Face(
                pip.x,
                pip.y,
                (step, 0.0),
                (0.0, step),
                (k,),
                1,
                params.die_width_per_single_pip * pip.diameter,
                min(1.0, pip.contrast / 80.0 + 0.3) * pip.circularity,
            )
        )
    return faces
