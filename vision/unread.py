"""Stage 2b: dice that are seen but cannot be read honestly.

Pips left over after grouping that cluster like the pips of one die (same kind, close together,
away from every die already read) are a die whose face could not be fitted: cocked against a wall
or another die, partly covered, or blurred. Reporting it as unread (value None) is better than
leaving it out, which would score the throw with a die missing.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip


def unread_dice(
    pips: tuple[Pip, ...],
    faces: list[Face],
    compatible: npt.NDArray[np.bool_],
    params: ReaderParams,
) -> list[Face]:
    """Clusters of two to six leftover pips, far enough from every read face, as unread dice."""
    used = {k for face in faces for k in face.pips}
    left = [k for k in range(len(pips)) if k not in used]
    if len(left) < 2:
        return []
    cluster = {k: k for k in left}

    def root(k: int) -> int:
        while cluster[k] != k:
            cluster[k] = cluster[cluster[k]]
            k = cluster[k]
        return k

    for a_index, a in enumerate(left):
        for b in left[a_index + 1 :]:
            if not compatible[a, b]:
                continue
            size = 0.5 * (pips[a].diameter + pips[b].diameter)
            if (
                math.hypot(pips[a].x - pips[b].x, pips[a].y - pips[b].y)
                <= params.unread_link * size
            ):
                cluster[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for k in left:
        groups.setdefault(root(k), []).append(k)
    read_sizes = sorted(pips[k].diameter for face in faces for k in face.pips)
    # Dice in one tray are seen at about the same size: pips much smaller than those of the dice
    # read are print or specks, not an unread die.
    least = params.unread_least_size * read_sizes[len(read_sizes) // 2] if read_sizes else 0.0
    found = []
    for members in groups.values():
        if not 2 <= len(members) <= 6:
            continue
        xs = [pips[k].x for k in members]
        ys = [pips[k].y for k in members]
        size = sum(pips[k].diameter for k in members) / len(members)
        if size < least:
            continue
        if sum(pips[k].elongation for k in members) / len(members) > params.unread_max_elongation:
            continue  # the pips of a side face, seen obliquely
        x, y = sum(xs) / len(xs), sum(ys) / len(ys)
        width = max(max(xs) - min(xs), max(ys) - min(ys)) + params.unread_margin * size
        if any(
            math.hypot(x - f.x, y - f.y) < params.unread_clearance * max(width, f.width)
            for f in faces
        ):
            continue
        step = width / params.die_width_per_spacing
        found.append(Face(x, y, (step, 0.0), (0.0, step), tuple(members), None, width, 0.0))
    return found
