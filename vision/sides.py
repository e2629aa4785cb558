"""Stage 2c: of the faces of one die that show in the frame, keep the top one.

A camera that is not straight above the tray sees the sides of dice too, with their pips. Those
faces are seen obliquely, so their pips are more elongated than the top face's, and they lie next to
the top face in the direction the pips are squashed.
"""

from __future__ import annotations

import math

from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip


def keep_top_faces(faces: list[Face], pips: tuple[Pip, ...], params: ReaderParams) -> list[Face]:
    """Of faces too close together to be on different dice, keep the top one: the face whose pips
    are least elongated (the sides of a die are seen obliquely). A face beside a flatter one and
    squashed toward it is the side of that die."""

    def elongation(face: Face) -> float:
        return sum(pips[k].elongation for k in face.pips) / len(face.pips)

    kept: list[Face] = []
    for face in sorted(faces, key=elongation):
        squash = _squash_direction(face, pips)
        is_side = False
        for k in kept:
            dx, dy = k.x - face.x, k.y - face.y
            distance = math.hypot(dx, dy)
            reach = max(face.width, k.width)
            if distance < params.same_die_fraction * reach or (
                distance < params.side_face_reach * reach
                and elongation(face) - elongation(k) >= params.side_face_elongation
                and abs(squash[0] * dx + squash[1] * dy) >= params.side_face_alignment * distance
            ):
                is_side = True
            if is_side:
                break
        if not is_side:
            kept.append(face)
    if _seen_tilted(kept, pips, params):
        kept = _drop_faces_below(kept, pips, params)
    return kept


def _seen_tilted(faces: list[Face], pips: tuple[Pip, ...], params: ReaderParams) -> bool:
    """Whether the camera looks at the tray at a slant from the front: the pips of most faces are
    clearly elongated and squashed up-down in the picture."""
    if not faces:
        return False
    elongations = sorted(pips[k].elongation for f in faces for k in f.pips)
    if elongations[len(elongations) // 2] < params.tilted_elongation:
        return False
    upright = sum(abs(_squash_direction(f, pips)[1]) >= params.side_face_alignment for f in faces)
    return upright >= 0.75 * len(faces)


def _drop_faces_below(faces: list[Face], pips: tuple[Pip, ...], params: ReaderParams) -> list[Face]:
    """A camera tilted forward sees the near sides of dice below their tops in the picture: of two
    faces squashed alike and lying one just below the other along the squash, the lower one is the
    side of the upper one's die."""
    dropped: set[int] = set()
    for a_index, a in enumerate(faces):
        squash = _squash_direction(a, pips)
        for b_index, b in enumerate(faces):
            if a_index == b_index or b_index in dropped:
                continue
            dx, dy = b.x - a.x, b.y - a.y  # from the upper face a to the lower face b
            distance = math.hypot(dx, dy)
            if dy <= 0 or distance >= params.side_face_reach * max(a.width, b.width):
                continue
            along = abs(squash[0] * dx + squash[1] * dy) >= params.side_face_alignment * distance
            if along and abs(squash[1]) >= params.side_face_alignment:
                dropped.add(b_index)
    return [f for index, f in enumerate(faces) if index not in dropped]


def _squash_direction(face: Face, pips: tuple[Pip, ...]) -> tuple[float, float]:
    """The unit direction along which the face's pips are squashed (their outlines' minor axis)."""
    xx = sum(pips[k].shape[0] for k in face.pips)
    xy = sum(pips[k].shape[1] for k in face.pips)
    yy = sum(pips[k].shape[2] for k in face.pips)
    # Eigenvector of the smaller eigenvalue of [[xx, xy], [xy, yy]].
    angle = 0.5 * math.atan2(2.0 * xy, xx - yy) + math.pi / 2.0
    return (math.cos(angle), math.sin(angle))
