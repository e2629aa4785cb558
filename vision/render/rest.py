"""Where and how the dice of a synthetic tray come to rest: sizes, footprints, orientations.

Part of the synthetic tray renderer (``vision.render``). A die showing a value lies flat with that
face up; a cocked die (value None) rests on one edge, propped up against its nearest neighbour.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.render.die import (
    Camera,
    DiePose,
    axis_angle,
    cube_corners,
    rotation_to_top,
    silhouette,
    spin_z,
)
from vision.render.face import DieLook
from vision.render.layout import Footprint, place_dice, place_in_row
from vision.render.lens import distort_points
from vision.render.style import InvalidRenderRequest, TrayStyle


def rest_poses(
    values: Sequence[int | None],
    style: TrayStyle,
    camera: Camera,
    size: tuple[int, int],
    area: tuple[float, float, float, float],
    rng: np.random.Generator,
    obstacles: list[list[tuple[float, float]]],
) -> tuple[DiePose, ...]:
    """The resting pose of each die (``values`` in order): sizes drawn from the style, footprints
    inside ``area`` avoiding ``obstacles``, every die wholly in the frame; smaller dice when they
    do not fit."""
    lo, hi = style.die_size
    sides = [float(rng.uniform(lo, hi)) for _ in values]
    # Cocked dice are placed last, each against a die already there (leaning on it).
    order = sorted(range(len(values)), key=lambda i: values[i] is None)
    chances = [1.0 if values[i] is None else style.touching for i in order]
    nearest = 1.0
    if camera.view is not None:
        w, h = size
        edges = np.array([[w / 2, 0], [w, h / 2], [w / 2, h], [0, h / 2], [0, 0], [w, h]])
        edges = np.concatenate([edges, [[w, 0], [0, h]]]).astype(np.float64)
        nearest = max(
            camera.magnification(float(x), float(y))
            for x, y in camera.ground(edges, 3.0 * max(w, h))
        )

    def in_frame(foot: Footprint) -> bool:
        # Which face is up does not change a flat die's outline (a cube is a cube).
        upright = DiePose((foot.x, foot.y, foot.side / 2), foot.side, spin_z(foot.angle))
        # An oblique camera sees far more tray far away than near: keep spots in proportion to
        # their area in the picture, so that dice spread over it, not crowd the far side.
        if (
            camera.view is not None
            and rng.random() >= camera.magnification(foot.x, foot.y) / nearest
        ):
            return False
        return _fits_frame(upright, camera, style, size)

    for attempt in range(80):
        if attempt and attempt % 5 == 0:
            sides = [max(s * 0.9, 8.0) for s in sides]  # they do not fit: smaller dice
        ordered = [sides[i] for i in order]
        clearance = max(sides, default=0.0) * 0.3
        placed = (
            place_in_row(
                ordered, area, rng, obstacles=obstacles, clearance=clearance, accept=in_frame
            )
            if style.in_a_row
            else place_dice(
                ordered,
                area,
                chances,
                rng,
                obstacles=obstacles,
                clearance=clearance,
                accept=in_frame,
            )
        )
        if placed is None:
            continue
        feet = [placed[order.index(i)] for i in range(len(values))]
        poses = tuple(_pose(f, v, feet, rng) for f, v in zip(feet, values, strict=True))
        if all(_fits_frame(p, camera, style, size) for p in poses):
            return poses
    raise InvalidRenderRequest(
        f"cannot fit {len(values)} dice of {style.die_size!r} px in {size!r}"
    )


def _pose(
    foot: Footprint, value: int | None, feet: Sequence[Footprint], rng: np.random.Generator
) -> DiePose:
    if value is not None:
        rot = spin_z(foot.angle) @ rotation_to_top(value)
        return DiePose((foot.x, foot.y, foot.side / 2), foot.side, rot)
    # A cocked die: on one bottom edge, its side towards the nearest die propped up 18-35 degrees
    # (as if resting on that die), a random face roughly up.
    face = int(rng.integers(1, 7))
    tilt = float(rng.uniform(0.32, 0.6))
    others = [f for f in feet if f is not foot]
    if others:
        near = min(others, key=lambda f: float(np.hypot(f.x - foot.x, f.y - foot.y)))
        toward = float(np.arctan2(near.y - foot.y, near.x - foot.x))
    else:
        toward = float(rng.uniform(-np.pi, np.pi))
    # Rest on an edge: lean along the die's own axis nearest to that direction.
    quarter = np.pi / 2
    lean = foot.angle + round((toward - foot.angle) / quarter) * quarter
    axis = np.array([np.sin(lean), -np.cos(lean), 0.0])  # lifts the side facing `lean`
    rot = axis_angle(axis, tilt) @ spin_z(foot.angle) @ rotation_to_top(face)
    probe = DiePose((foot.x, foot.y, 0.0), foot.side * 0.9, rot)
    lift = -float(cube_corners(probe)[:, 2].min())
    return DiePose((foot.x, foot.y, lift), foot.side * 0.9, rot)


def _fits_frame(pose: DiePose, camera: Camera, style: TrayStyle, size: tuple[int, int]) -> bool:
    probe = DieLook((0, 0, 0), (0, 0, 0), 0.1, 0.25, False, style.corner, 0.0, 1.0, None, 0)
    hull = distort_points(silhouette(pose, probe, camera), size, style.lens)
    w, h = size
    return bool(
        hull[:, 0].min() >= 1
        and hull[:, 1].min() >= 1
        and hull[:, 0].max() <= w - 2
        and hull[:, 1].max() <= h - 2
    )
