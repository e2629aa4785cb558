"""Where the dice of a synthetic tray lie: random, non-overlapping footprints, some touching.

Part of the synthetic tray renderer (``vision.render``). Footprints are rotated squares on the tray
plane (pixel units); two dice may touch (edge to edge or corner to edge) but never overlap.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Footprint:
    """A die lying on the tray: centre (x, y), side length and rotation about the vertical axis."""

    x: float
    y: float
    side: float
    angle: float  # radians

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """The 4 corners of the square footprint, in order around it."""
        h = self.side / 2
        c, s = math.cos(self.angle) * h, math.sin(self.angle) * h
        x, y = self.x, self.y
        return (
            (x - c + s, y - s - c),
            (x + c + s, y + s - c),
            (x + c - s, y + s + c),
            (x - c - s, y - s + c),
        )

    def overlaps(self, other: Footprint, tolerance: float = 0.0) -> bool:
        """Whether the two footprints overlap by more than ``tolerance`` pixels."""
        d = math.hypot(self.x - other.x, self.y - other.y)
        if d >= (self.side + other.side) * 0.7072 - tolerance:
            return False  # circumscribed circles apart
        if d < (self.side + other.side) / 2 - tolerance:
            return True  # inscribed circles overlap
        # Separating axis test for two squares: the axes are the squares' own edge directions.
        dx, dy = other.x - self.x, other.y - self.y
        delta = other.angle - self.angle
        spread = abs(math.cos(delta)) + abs(math.sin(delta))
        ha, hb = self.side / 2, other.side / 2
        for angle, reach in ((self.angle, ha + hb * spread), (other.angle, hb + ha * spread)):
            c, s = math.cos(angle), math.sin(angle)
            if abs(dx * c + dy * s) - reach >= -tolerance:
                return False
            if abs(-dx * s + dy * c) - reach >= -tolerance:
                return False
        return True


def overlaps(a: Sequence[Point], b: Sequence[Point], tolerance: float = 0.0) -> bool:
    """Whether two convex polygons overlap by more than ``tolerance`` pixels (separating axis
    test; touching is not overlapping)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            x0, y0 = poly[i]
            x1, y1 = poly[(i + 1) % n]
            nx, ny = y0 - y1, x1 - x0
            norm = math.hypot(nx, ny)
            if norm == 0:
                continue
            nx, ny = nx / norm, ny / norm
            pa = [px * nx + py * ny for px, py in a]
            pb = [px * nx + py * ny for px, py in b]
            if min(pb) - max(pa) >= -tolerance or min(pa) - max(pb) >= -tolerance:
                return False
    return True


def place_dice(
    sides: list[float],
    area: tuple[float, float, float, float],
    touching: float | Sequence[float],
    rng: np.random.Generator,
    *,
    obstacles: Sequence[Sequence[Point]] = (),
    clearance: float = 0.0,
    accept: Callable[[Footprint], bool] | None = None,
) -> list[Footprint] | None:
    """Place dice of the given ``sides`` inside ``area`` (x0, y0, x1, y1) without overlap.

    Each die after the first is, with probability ``touching`` (one for all, or one per die),
    pushed against a die already placed
    (touching it, within a twentieth of a pixel). Returns None when the dice do not fit after many
    attempts. No die comes closer than ``clearance`` pixels to an ``obstacles`` polygon, and every
    footprint passes ``accept`` (when given). When random spots keep failing, dice are packed
    against the dice already placed.
    """
    placed: list[Footprint] = []
    x0, y0, x1, y1 = area
    chances = [touching] * len(sides) if isinstance(touching, float | int) else list(touching)
    for side, chance in zip(sides, chances, strict=True):
        spot = None
        for attempt in range(300):
            angle = float(rng.uniform(0, np.pi / 2))
            if placed and (rng.random() < chance or attempt >= 60):
                spot = _touching(side, angle, placed[int(rng.integers(len(placed)))], rng)
            else:
                r = side * 0.72
                if x1 - x0 < 2 * r or y1 - y0 < 2 * r:
                    return None
                x = float(rng.uniform(x0 + r, x1 - r))
                y = float(rng.uniform(y0 + r, y1 - r))
                spot = Footprint(x, y, side, angle)
            if (
                _inside(spot, area)
                and not any(spot.overlaps(o) for o in placed)
                and not any(overlaps(spot.corners(), ob, -clearance) for ob in obstacles)
                and (accept is None or accept(spot))
            ):
                break
            spot = None
        if spot is None:
            return None
        placed.append(spot)
    return placed


def place_in_row(
    sides: list[float],
    area: tuple[float, float, float, float],
    rng: np.random.Generator,
    *,
    obstacles: Sequence[Sequence[Point]] = (),
    clearance: float = 0.0,
    accept: Callable[[Footprint], bool] | None = None,
) -> list[Footprint] | None:
    """Place dice of the given ``sides`` edge to edge in one straight row, square to each other,
    at a random place and angle inside ``area`` (x0, y0, x1, y1), each a twentieth of a pixel
    from the next; the same rules as `place_dice` otherwise. Returns None when no row fits."""
    x0, y0, x1, y1 = area
    reach = 0.72 * max(sides, default=0.0)
    if x1 - x0 < 2 * reach or y1 - y0 < 2 * reach:
        return None
    steps = [0.0]
    for before, after in itertools.pairwise(sides):
        steps.append(steps[-1] + (before + after) / 2 + 0.05)
    middle = steps[-1] / 2
    for _ in range(300):
        angle = float(rng.uniform(0, np.pi / 2))
        c, s = math.cos(angle), math.sin(angle)
        x = float(rng.uniform(x0 + reach, x1 - reach))
        y = float(rng.uniform(y0 + reach, y1 - reach))
        row = [
            Footprint(x + (t - middle) * c, y + (t - middle) * s, side, angle)
            for t, side in zip(steps, sides, strict=True)
        ]
        if all(
            _inside(spot, area)
            and not any(overlaps(spot.corners(), ob, -clearance) for ob in obstacles)
            and (accept is None or accept(spot))
            for spot in row
        ):
            return row
    return None


def _touching(side: float, angle: float, other: Footprint, rng: np.random.Generator) -> Footprint:
    """A footprint pushed along a random direction until it just touches ``other``."""
    if rng.random() < 0.6:
        angle = other.angle + float(rng.normal(0, 0.08))  # dice that bump tend to align
    direction = float(rng.uniform(0, 2 * np.pi))
    dx, dy = math.cos(direction), math.sin(direction)
    lo, hi = (side + other.side) / 2 - 0.01, (side + other.side) * 0.7072 + 0.01
    while hi - lo > 0.05:
        mid = (lo + hi) / 2
        if Footprint(other.x + dx * mid, other.y + dy * mid, side, angle).overlaps(other):
            lo = mid
        else:
            hi = mid
    return Footprint(other.x + dx * hi, other.y + dy * hi, side, angle)


def _inside(spot: Footprint, area: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = area
    return all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in spot.corners())
