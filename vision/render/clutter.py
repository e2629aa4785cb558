"""Things on a synthetic tray that are not dice: dust specks, a cable, an object at the edge.

Part of the synthetic tray renderer (``vision.render``). Real photos have them and a dice reader
must not count them as pips; the dice are placed so that they never lie on a cable or an object.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Frame

Polygon = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Clutter:
    """What lies in the tray besides dice: obstacle polygons (dice avoid them) and how to draw."""

    specks: tuple[tuple[float, float, float, int], ...]  # x, y, radius, grey level
    cable: Polygon | None  # K×2 centre line
    cable_width: float
    cable_grey: int
    thing: Polygon | None  # 4×2 corners of an object reaching in from the edge
    thing_color: tuple[int, int, int]
    keys: float = 0.0  # key pitch in px when the object is a laptop with its keyboard showing

    def obstacles(self) -> list[Polygon]:
        """Convex polygons that no die may overlap."""
        out: list[Polygon] = []
        if self.thing is not None:
            out.append(self.thing)
        if self.cable is not None:
            half = self.cable_width / 2 + 1
            for p, q in zip(self.cable[:-1], self.cable[1:], strict=True):
                d = q - p
                n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-6) * half
                out.append(np.array([p - n, q - n, q + n, p + n]))
        return out


def make_clutter(
    amount: float, size: tuple[int, int], die: float, rng: np.random.Generator
) -> Clutter:
    """Random clutter for a frame of ``size`` with dice about ``die`` px wide; ``amount`` 0..1."""
    w, h = size
    n = int(rng.poisson(amount * 6))
    specks = tuple(
        (
            float(rng.uniform(0, w)),
            float(rng.uniform(0, h)),
            float(rng.uniform(0.4, 1.6)),
            int(rng.choice([int(rng.integers(20, 90)), int(rng.integers(160, 240))])),
        )
        for _ in range(n)
    )
    cable = None
    width = 0.0
    if rng.random() < amount * 0.5:
        cable = _cable_path(w, h, rng)
        width = float(np.clip(die * rng.uniform(0.25, 0.45), 4, 40))
    thing = None
    if rng.random() < amount * 0.5:
        thing = _edge_object(w, h, rng)
    grey = int(rng.integers(15, 60))
    color = tuple(int(c) for c in rng.integers(60, 200) + rng.integers(-8, 9, 3))
    keys = float(np.clip(die * rng.uniform(0.5, 0.9), 8, 60)) if rng.random() < 0.5 else 0.0
    return Clutter(specks, cable, width, grey, thing, color, keys)  # type: ignore[arg-type]


def _cable_path(w: int, h: int, rng: np.random.Generator) -> Polygon:
    # A gentle curve entering at one edge and leaving near an adjacent one, kept near the border.
    side = int(rng.integers(4))
    t = np.linspace(0, 1, 12)
    depth = float(rng.uniform(0.05, 0.2))
    bend = depth + 0.1 * np.sin(np.pi * t) * float(rng.uniform(-1, 1))
    if side == 0:
        pts = np.stack([t * w, bend * h], axis=1)
    elif side == 1:
        pts = np.stack([t * w, (1 - bend) * h], axis=1)
    elif side == 2:
        pts = np.stack([bend * w, t * h], axis=1)
    else:
        pts = np.stack([(1 - bend) * w, t * h], axis=1)
    start = int(rng.integers(0, 4))
    out: Polygon = pts[start:].astype(np.float64)
    return out


def _edge_object(w: int, h: int, rng: np.random.Generator) -> Polygon:
    # A big rectangle (laptop, box, book) whose corner reaches into the frame from one corner.
    cx = float(rng.choice([0.0, float(w)]))
    cy = float(rng.choice([0.0, float(h)]))
    angle = float(rng.uniform(-0.5, 0.5))
    reach = float(rng.uniform(0.12, 0.45)) * min(w, h)
    big = 3.0 * max(w, h)
    c, s = np.cos(angle), np.sin(angle)
    inward = np.array([w / 2 - cx, h / 2 - cy])
    inward /= np.linalg.norm(inward)
    corner = np.array([cx, cy]) + inward * reach
    u = np.array([c, s]) * np.sign(cx - w / 2 or 1.0) * big
    v = np.array([-s, c]) * np.sign(cy - h / 2 or 1.0) * big
    return np.array([corner, corner + u, corner + u + v, corner + v])


def draw_clutter(frame: Frame, clutter: Clutter) -> None:
    """Draw the clutter onto the tray surface in place (before the dice and their shadows)."""
    shift = 4
    one = 1 << shift
    for x, y, r, grey in clutter.specks:
        center = (round(x * one), round(y * one))
        cv2.circle(
            frame, center, max(round(r * one), 1), (grey, grey, grey), -1, cv2.LINE_AA, shift
        )
    if clutter.cable is not None:
        pts = np.round(clutter.cable * one).astype(np.int32)
        width = max(round(clutter.cable_width), 2)
        shadow = np.round((clutter.cable + width * 0.25) * one).astype(np.int32)
        overlay = frame.copy()
        cv2.polylines(overlay, [shadow], False, (0, 0, 0), width + 2, cv2.LINE_AA, shift)
        cv2.addWeighted(overlay, 0.35, frame, 0.65, 0, frame)
        g = clutter.cable_grey
        cv2.polylines(frame, [pts], False, (g, g, g), width, cv2.LINE_AA, shift)
        hi = min(g + 70, 255)
        shine = np.round((clutter.cable - width * 0.15) * one).astype(np.int32)
        cv2.polylines(frame, [shine], False, (hi, hi, hi), max(width // 6, 1), cv2.LINE_AA, shift)
    if clutter.thing is not None:
        pts = np.round(clutter.thing * one).astype(np.int32)
        cv2.fillConvexPoly(frame, pts, clutter.thing_color, cv2.LINE_AA, shift)
        if clutter.keys > 0:
            _keyboard(frame, clutter.thing, clutter.keys)
        edge = tuple(max(c - 40, 0) for c in clutter.thing_color)
        cv2.polylines(frame, [pts], True, edge, 2, cv2.LINE_AA, shift)


def _keyboard(frame: Frame, thing: Polygon, pitch: float) -> None:
    """Dark keys with light letters on a laptop: dark squares with marks, distractors for a reader
    that takes any dark square with light blobs for a die."""
    h, w = frame.shape[:2]
    corner = thing[0]
    u = (thing[1] - thing[0]) / np.linalg.norm(thing[1] - thing[0])
    v = (thing[3] - thing[0]) / np.linalg.norm(thing[3] - thing[0])
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(thing).astype(np.int32), 255)
    keys = frame.copy()
    size = pitch * 0.82
    rng = np.random.default_rng(int(pitch * 1000) % (2**31))
    n = int(max(w, h) / pitch) + 2
    for i in range(n):
        for j in range(n):
            c = corner + u * (i + 0.7 + 0.5 * (j % 2)) * pitch + v * (j + 0.7) * pitch
            if not (-pitch < c[0] < w + pitch and -pitch < c[1] < h + pitch):
                continue
            quad = np.array(
                [c + (u * a + v * b) * size / 2 for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            )
            cv2.fillConvexPoly(
                keys, np.round(quad * 8).astype(np.int32), (38, 38, 40), cv2.LINE_AA, 3
            )
            # A letter printed near the key's top left corner, as on laptop keys.
            letter = "QWERTYUIOPASDFGHJKLZXCVBNM1234567890"[int(rng.integers(36))]
            mark = c - (u + v) * size * 0.3
            scale = size / 70.0
            origin = (round(float(mark[0])), round(float(mark[1]) + size * 0.25))
            cv2.putText(
                keys,
                letter,
                origin,
                cv2.FONT_HERSHEY_SIMPLEX,
                scale,
                (200, 200, 200),
                max(round(scale * 1.5), 1),
                cv2.LINE_AA,
            )
    cv2.copyTo(keys, mask, frame)
