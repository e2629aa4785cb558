"""Where the dice of a synthetic tray lie: random, non-overlapping footprints, some touching.

Part of the synthetic tray renderer (``vision.render``). Footprints are rotated squares on the tray
plane (pixel units); two dice may touch (edge to edge or corner to edge) but never overlap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Footprint:
    """A die lying on the tray: centre (x, y), side length and rotation about the vertical axis."""

    x: float
    y: float
    side: float
    angle: float  # radians

    def corners(self, grow: float = 0.0) -> FloatArray:
        """The 4 corners (4×2) of the square footprint, grown by ``grow`` on every side."""
        h = self.side / 2 + grow
        c, s = np.cos(self.angle), np.sin(self.angle)
        local = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
        rot = np.array([[c, -s], [s, c]])
        out: FloatArray = local @ rot.T + np.array([self.x, self.y])
        return out


def overlaps(a: FloatArray, b: FloatArray, tolerance: float = 0.0) -> bool:
    """Whether two convex polygons (N×2) overlap by more than ``tolerance`` pixels (separating
    axis test; touching is not overlapping)."""
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        pa = a @ normals.T
        pb = b @ normals.T
        sep = np.maximum(pb.min(axis=0) - pa.max(axis=0), pa.min(axis=0) - pb.max(axis=0))
        if np.any(sep >= -tolerance):
            return False
    return True


def place_dice(
    sides: list[float],
    area: tuple[float, float, float, float],
    touching: float,
    rng: np.random.Generator,
    *,
    fixed: tuple[Footprint, ...] = (),
) -> list[Footprint] | None:
    """Place dice of the given ``sides`` inside ``area`` (x0, y0, x1, y1) without overlap.

    Each die after the first is, with probability ``touching``, pushed against a die already placed
    (touching it, within a quarter pixel). ``fixed`` footprints are obstacles. Returns None when
    the dice do not fit after many attempts.
    """
    placed: list[Footprint] = []
    x0, y0, x1, y1 = area
    for side in sides:
        spot = None
        for _attempt in range(300):
            angle = float(rng.uniform(0, np.pi / 2))
            others = list(fixed) + placed
            if placed and rng.random() < touching:
                spot = _touching(side, angle, placed[int(rng.integers(len(placed)))], rng)
            else:
                r = side * 0.72
                if x1 - x0 < 2 * r or y1 - y0 < 2 * r:
                    return None
                spot = Footprint(
                    float(rng.uniform(x0 + r, x1 - r)),
                    float(rng.uniform(y0 + r, y1 - r)),
                    side,
                    angle,
                )
            if (
                spot is not None
                and _inside(spot, area)
                and not any(overlaps(spot.corners(), o.corners()) for o in others)
            ):
                break
            spot = None
        if spot is None:
            return None
        placed.append(spot)
    return placed


def _touching(
    side: float, angle: float, other: Footprint, rng: np.random.Generator
) -> Footprint | None:
    """A footprint pushed along a random direction until it just touches ``other``."""
    if rng.random() < 0.6:
        angle = other.angle + float(rng.normal(0, 0.08))  # dice that bump tend to align
    direction = float(rng.uniform(0, 2 * np.pi))
    dx, dy = np.cos(direction), np.sin(direction)
    lo, hi = 0.0, (side + other.side) * 1.5
    corners_other = other.corners()
    for _ in range(24):
        mid = (lo + hi) / 2
        probe = Footprint(other.x + dx * mid, other.y + dy * mid, side, angle)
        if overlaps(probe.corners(), corners_other):
            lo = mid
        else:
            hi = mid
    return Footprint(other.x + dx * hi, other.y + dy * hi, side, angle)


def _inside(spot: Footprint, area: tuple[float, float, float, float]) -> bool:
    c = spot.corners()
    x0, y0, x1, y1 = area
    return bool(
        c[:, 0].min() >= x0 and c[:, 1].min() >= y0 and c[:, 0].max() <= x1 and c[:, 1].max() <= y1
    )
