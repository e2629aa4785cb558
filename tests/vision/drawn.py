"""Simple drawn dice with known values, for the reader's stage tests (not the full renderer)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.types import Frame

PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}

SCHEMES: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "white": ((235, 235, 235), (20, 20, 20)),
    "black": ((25, 25, 25), (240, 240, 240)),
    "red": ((40, 40, 200), (245, 245, 245)),
    "green": ((60, 160, 40), (60, 230, 250)),
    "blue": ((170, 60, 20), (250, 250, 250)),
    "ivory": ((200, 235, 245), (30, 30, 120)),
    # Red pips with about the grey level of the blue face: only colour tells them apart.
    "blue-red": ((170, 60, 20), (30, 30, 160)),
}
"""Face colour and pip colour (BGR) of each colour scheme."""

HIDDEN_PIPS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "dark": ((45, 40, 35), (30, 28, 25)),
}
"""Schemes whose pips hardly differ from the face (dark pips on a dark die): the die shows, its
value hardly does."""

COLOUR_ONLY: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "slate-red": ((90, 70, 60), (40, 40, 150)),
}
"""Schemes whose pips have the grey level of a face that is hardly coloured itself: the pips
are the only colour on the die."""

_ALL_SCHEMES = {**SCHEMES, **HIDDEN_PIPS, **COLOUR_ONLY}


@dataclass(frozen=True)
class DrawnDie:
    """Where and how to draw one die: centre, width in pixels, value, angle in degrees, scheme."""

    x: float
    y: float
    width: float
    value: int
    angle: float = 0.0
    scheme: str = "white"
    layout: tuple[tuple[int, int], ...] | None = None
    """Pip grid points to draw instead of the value's (a face no die has)."""
    glare: bool = False
    """A bright spot on each pip, off its centre, as on glossy pips under a lamp."""
    glare_reach: float = 0.45
    """How far the glare spot lies up and left of each pip's centre, in pip radii each way."""
    pip_scale: float = 1.0
    """Pip size relative to the usual (many dice have a larger one pip)."""


def blank(
    width: int = 640, height: int = 480, colour: tuple[int, int, int] = (120, 130, 125)
) -> Frame:
    """A plain tray with a gentle light gradient."""
    frame = np.zeros((height, width, 3), dtype=np.float32)
    frame[:] = colour
    ramp = np.linspace(0.85, 1.1, width, dtype=np.float32)[None, :, None]
    return np.asarray(np.clip(frame * ramp, 0, 255), dtype=np.uint8)


def draw_die(frame: Frame, die: DrawnDie) -> None:
    """Draw a die top face (a rounded square with its pips) onto ``frame`` in place."""
    face, pip = _ALL_SCHEMES[die.scheme]
    angle = math.radians(die.angle)
    u = np.array([math.cos(angle), math.sin(angle)])
    v = np.array([-math.sin(angle), math.cos(angle)])
    centre = np.array([die.x, die.y])
    half = die.width / 2
    corners = [centre + half * (a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    shadow = np.array([c + die.width * 0.05 for c in corners], dtype=np.int32)
    cv2.fillConvexPoly(frame, shadow, (60, 60, 60), cv2.LINE_AA)
    outline = np.array(corners, dtype=np.int32)
    cv2.fillConvexPoly(frame, outline, face, cv2.LINE_AA)
    # The rounded edges of a real die shade its outline, so touching dice show a seam.
    edge = tuple(round(0.6 * c) for c in face)
    cv2.polylines(frame, [outline], True, edge, max(1, round(die.width * 0.04)), cv2.LINE_AA)
    spacing = die.width * 0.27
    radius = die.width * 0.09 * die.pip_scale
    for gx, gy in die.layout or PIP_LAYOUT[die.value]:
        at = centre + spacing * (gx * u + gy * v)
        shift = 4
        point = (round(at[0] * (1 << shift)), round(at[1] * (1 << shift)))
        cv2.circle(frame, point, round(radius * (1 << shift)), pip, -1, cv2.LINE_AA, shift)
        if die.glare:
            spot = (
                point[0] - round(radius * die.glare_reach * (1 << shift)),
                point[1] - round(radius * die.glare_reach * (1 << shift)),
            )
            cv2.circle(
                frame,
                spot,
                round(radius * 0.28 * (1 << shift)),
                (250, 250, 250),
                -1,
                cv2.LINE_AA,
                shift,
            )


def draw(
    dice: list[DrawnDie], *, width: int = 640, height: int = 480, noise: float = 3.0, seed: int = 0
) -> Frame:
    """A frame holding the given dice, with a little sensor noise."""
    frame = blank(width, height)
    for die in dice:
        draw_die(frame, die)
    rng = np.random.default_rng(seed)
    noisy = frame.astype(np.float32) + rng.normal(0.0, noise, frame.shape).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(np.clip(noisy, 0, 255), (3, 3), 0), dtype=np.uint8)
