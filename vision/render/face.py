"""The face of a synthetic die: its colours and surface (``DieLook``) and the texture of one face.

Part of the synthetic tray renderer (``vision.render``): face colour or marble, pips laid out
exactly as on real dice, drilled-pip shading, glare on glossy pips and faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Frame

# Pip centres in face units (-1..1 spans the face), per value. The 2 and 3 run along the same
# diagonal and the 6 is two columns of three, as on real dice; they rotate with the die.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((1.0, -1.0), (-1.0, 1.0)),
    3: ((1.0, -1.0), (0.0, 0.0), (-1.0, 1.0)),
    4: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)),
    5: ((-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
    6: ((-1.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)),
}


@dataclass(frozen=True, slots=True)
class DieLook:
    """How one die looks: colours (BGR), pips, surface."""

    body: tuple[int, int, int]
    pip: tuple[int, int, int]
    pip_radius: float  # fraction of the face side
    pip_spread: float  # pip-centre offset from the face centre, fraction of the face side
    big_one: bool  # the 1 pip is drawn larger, as on many dice
    corner: float  # rounding radius, fraction of the side
    gloss: float  # 0 matte .. 1 glossy (glare spots)
    alpha: float  # 1 opaque, < 1 translucent-ish
    marble: tuple[int, int, int] | None  # second colour of a marbled die
    marble_seed: int
    swirl: float = 0.35  # how much of the second colour comes in broad clouds (not just veins)
    sheen: float = 0.0  # brightness ramp across each face (glossy plastic mirrors the room)
    emblem: bool = False  # the six shows an emblem (a star in a ring) instead of its pips


def face_texture(
    value: int,
    px: int,
    look: DieLook,
    glare_uv: tuple[float, float],
    glare: float,
) -> Frame:
    """A px×px BGR texture of one face: face colour (or marble), pips, pip and face glare.

    ``glare_uv`` is the direction (in face units) towards which highlights sit; ``glare`` their
    strength 0..1.
    """
    tex = np.empty((px, px, 3), np.uint8)
    tex[:] = look.body
    if look.marble is not None:
        _marble(tex, look, value)
    if look.sheen > 0:
        _sheen(tex, look, value)
    shift = 4
    scale = 1 << shift
    half = px / 2
    r = look.pip_radius * px
    if value == 1 and look.big_one:
        r *= 1.5
    gx, gy = glare_uv
    norm = float(np.hypot(gx, gy))
    if norm > 1e-3:
        gx, gy = gx / norm, gy / norm
    else:
        gx, gy = 0.6, -0.8
    dark = tuple(int(c * 0.55) for c in look.pip)
    if value == 6 and look.emblem:
        _emblem(tex, look.pip, dark, scale, shift)
        if glare > 0.05:
            _face_glare(tex, glare_uv, glare)
        return tex
    for x, y in PIP_LAYOUT[value]:
        cx = half + x * look.pip_spread * px
        cy = half + y * look.pip_spread * px
        # A drilled pip: a darker rim on the side away from the light, then the paint.
        cv2.circle(
            tex,
            (int((cx - gx * r * 0.15) * scale), int((cy - gy * r * 0.15) * scale)),
            int(r * 1.08 * scale),
            dark,
            -1,
            cv2.LINE_AA,
            shift,
        )
        cv2.circle(
            tex,
            (int(cx * scale), int(cy * scale)),
            int(r * scale),
            look.pip,
            -1,
            cv2.LINE_AA,
            shift,
        )
        if glare > 0.05 and r > 2.5:
            gr = max(r * 0.28, 0.8)
            spot = (int((cx + gx * r * 0.45) * scale), int((cy + gy * r * 0.45) * scale))
            bright = tuple(int(min(255, c + (255 - c) * glare)) for c in look.pip)
            cv2.circle(tex, spot, int(gr * scale), bright, -1, cv2.LINE_AA, shift)
    if glare > 0.05:
        _face_glare(tex, glare_uv, glare)
    return tex


def _emblem(
    tex: Frame, colour: tuple[int, int, int], dark: tuple[int, ...], scale: int, shift: int
) -> None:
    """An emblem across the face, as some dice carry in place of the six's pips: a five-pointed
    star inside a ring, in the pip colour with a darker engraved edge."""
    px = tex.shape[0]
    half = px / 2
    outer, inner = 0.3 * px, 0.12 * px
    angles = np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, outer, inner)
    star = np.stack([half + radii * np.cos(angles), half - radii * np.sin(angles)], axis=1)
    points = np.round(star * scale).astype(np.int32)
    centre = (int(half * scale), int(half * scale))
    ring = max(1, round(0.04 * px))
    cv2.circle(tex, centre, int(0.37 * px * scale), dark, ring + 1, cv2.LINE_AA, shift)
    cv2.circle(tex, centre, int(0.37 * px * scale), colour, ring, cv2.LINE_AA, shift)
    cv2.fillPoly(tex, [points], colour, cv2.LINE_AA, shift)
    cv2.polylines(tex, [points], True, dark, 1, cv2.LINE_AA, shift)


def _marble(tex: Frame, look: DieLook, value: int) -> None:
    """Swirled veins of the second colour: thin where a warped smooth field crosses a level, and
    a soft cloud of it elsewhere (as in pearl and marble dice)."""
    if look.marble is None:
        return
    weight = _marble_weight(look.marble_seed * 7 + value, tex.shape[0], look.swirl)
    other = np.array(look.marble, np.float32)
    mixed = tex.astype(np.float32) * (1 - weight) + other * weight
    tex[:] = np.clip(mixed, 0, 255).astype(np.uint8)


@lru_cache(maxsize=256)
def _marble_weight(seed: int, px: int, swirl: float) -> npt.NDArray[np.float32]:
    # Cached: the same face of the same die comes back frame after frame in a throw.
    rng = np.random.default_rng(seed)

    def smooth(cells: int) -> npt.NDArray[np.float32]:
        grid = rng.random((cells, cells)).astype(np.float32)
        big = cv2.resize(grid, (px, px), interpolation=cv2.INTER_CUBIC)
        return np.asarray(big, np.float32)

    field = smooth(3) * 2.0 + smooth(6) * 0.8
    veins = np.abs(np.sin(field * np.float32(rng.uniform(4, 8)))) ** 6
    cloud = np.clip((smooth(3) - 0.5) * 3.0 * swirl + swirl * 0.5, 0, 1)
    weight = np.asarray(np.clip(veins * 0.8 + cloud, 0, 1)[..., None], np.float32)
    weight.flags.writeable = False
    return weight


def _sheen(tex: Frame, look: DieLook, value: int) -> None:
    """A brightness ramp across the face, its direction fixed per face of the die."""
    gain = _sheen_gain(look.marble_seed * 13 + value, tex.shape[0], look.sheen)
    out = tex.astype(np.float32) * gain
    tex[:] = np.clip(out, 0, 255).astype(np.uint8)


@lru_cache(maxsize=256)
def _sheen_gain(seed: int, px: int, sheen: float) -> npt.NDArray[np.float32]:
    angle = float(np.random.default_rng(seed).uniform(0, 2 * np.pi))
    ramp = np.linspace(-1.0, 1.0, px, dtype=np.float32)
    plane = ramp[None, :] * np.float32(np.cos(angle)) + ramp[:, None] * np.float32(np.sin(angle))
    gain = np.asarray((1.0 + plane * np.float32(sheen))[..., None], np.float32)
    gain.flags.writeable = False
    return gain


def _face_glare(tex: Frame, glare_uv: tuple[float, float], glare: float) -> None:
    px = tex.shape[0]
    small = 24
    yy, xx = np.mgrid[0:small, 0:small].astype(np.float32) / small - 0.5
    gx, gy = glare_uv
    d2 = (xx - gx * 0.3) ** 2 + (yy - gy * 0.3) ** 2
    spot = np.exp(-d2 / (2 * 0.12**2)) * glare * 0.5
    spot = cv2.resize(spot, (px, px), interpolation=cv2.INTER_LINEAR)[..., None]
    out = tex.astype(np.float32) * (1 - spot) + 255.0 * spot
    tex[:] = out.astype(np.uint8)
