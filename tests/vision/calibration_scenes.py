"""Rendered trays for calibration: an empty tray and a test throw of the same scene, with the
floor's true outline, in every style the renderer draws; optionally set on a table among clutter
(a cable, a phone, a card, a mug) with a hand reaching over the tray's edge."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.render import PRESETS, TrayStyle, render_tray, style_from_seed, style_like
from vision.render.core import build_scene, draw_frame
from vision.render.hand import draw_hand
from vision.render.lens import distort_points, undistort_points
from vision.types import Frame

FloatArray = npt.NDArray[np.float64]
SIZE = (640, 480)
VALUES = (1, 2, 3, 4, 5, 6)

STYLES = ("table", "random", *PRESETS, "felt-box", "wood-box", "plastic-box", "light-box")
"""The simulated camera's looks, and a box with walls on each tray surface."""


@dataclass(frozen=True)
class CalibrationScene:
    """An empty tray and a test throw of one scene; ``floor``: the throwing area's true outline
    (dense points in the image); ``die_px``: the dice's true median width."""

    empty: Frame
    throw: Frame
    floor: FloatArray
    die_px: float
    style: TrayStyle


def style_named(name: str, seed: int) -> TrayStyle:
    """The style ``name`` (one of `STYLES`) drawn from ``seed``."""
    if name == "table":
        return TrayStyle()
    if name == "random":
        return style_from_seed(seed, size=SIZE)
    if name in PRESETS:
        return style_like(name, seed)
    surface = name.removesuffix("-box")
    base = style_from_seed(seed, size=SIZE)
    from vision.render.style import BACKGROUNDS

    colours = BACKGROUNDS[surface]
    colour = colours[seed % len(colours)]
    return replace(base, background=surface, background_color=colour, walls=True)


def rendered(style: TrayStyle, seed: int, *, hand: bool = False) -> CalibrationScene:
    """The renderer's own frames (the tray, or a box on a table, filling the frame)."""
    scene = build_scene((), seed=seed, size=SIZE, style=style)
    rng = np.random.default_rng([seed, 77])
    grip = None
    if hand:
        grip = _hand_pose(rng)
    empty = draw_frame(scene, [], np.random.default_rng([seed, 3]), hand=grip)
    throw = render_tray(VALUES, seed=seed, size=SIZE, style=style)
    floor = _dense_floor(np.array(empty.floor), style.lens if style.walls else 0.0)
    die_px = float(np.median([d.size_px for d in throw.dice]))
    return CalibrationScene(empty.frame, throw.frame, floor, die_px, style)


def _hand_pose(rng: np.random.Generator) -> tuple[tuple[float, float], float, float]:
    """A hand reaching in from one edge, its palm over the tray's edge."""
    w, h = SIZE
    side = int(rng.integers(4))
    depth = float(rng.uniform(0.12, 0.22))
    along = float(rng.uniform(0.3, 0.7))
    if side == 0:
        anchor, direction = (along * w, depth * h), np.pi / 2
    elif side == 1:
        anchor, direction = (along * w, (1 - depth) * h), -np.pi / 2
    elif side == 2:
        anchor, direction = (depth * w, along * h), 0.0
    else:
        anchor, direction = ((1 - depth) * w, along * h), np.pi
    direction += float(rng.uniform(-0.3, 0.3))
    return anchor, direction, float(rng.uniform(70, 100))


def _dense_floor(corners: FloatArray, lens: float) -> FloatArray:
    """The floor's outline as the lens shows it: the straight sides between the undistorted
    corners, bent by the lens (0: the tray fills the frame, whose sides stay straight)."""
    straight = undistort_points(corners, SIZE, lens)
    points = []
    for i in range(len(straight)):
        a, b = straight[i], straight[(i + 1) % len(straight)]
        t = np.linspace(0, 1, 60, endpoint=False)[:, None]
        points.append(a + (b - a) * t)
    return distort_points(np.concatenate(points), SIZE, lens)


def on_table(style: TrayStyle, seed: int, *, hand: bool = True) -> CalibrationScene:
    """The rendered tray (its whole frame: a tray mat, or a box with its rim) set on a table,
    shrunk and seen a little obliquely, among clutter, with a hand reaching over its edge."""
    inner = rendered(replace(style, clutter=0.0), seed)
    rng = np.random.default_rng([seed, 55])
    w, h = SIZE
    scale = float(rng.uniform(0.62, 0.8))
    cx = w / 2 + float(rng.uniform(-0.06, 0.06)) * w
    cy = h / 2 + float(rng.uniform(-0.06, 0.06)) * h
    half = np.array([w * scale / 2, h * scale / 2])
    target = np.array(
        [
            [cx - half[0], cy - half[1]],
            [cx + half[0], cy - half[1]],
            [cx + half[0], cy + half[1]],
            [cx - half[0], cy + half[1]],
        ]
    ) + rng.uniform(-0.015, 0.015, (4, 2)) * np.array([w, h])
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    warp = cv2.getPerspectiveTransform(source.astype(np.float32), target.astype(np.float32))
    table = _table(rng, inner.empty)
    empty = _paste(table, inner.empty, warp)
    throw = _paste(table, inner.throw, warp)
    if hand:
        grip = _hand_over(target, rng)
        skin = tuple(int(c) for c in np.array([140, 160, 215]) + rng.integers(-25, 10, 3))
        draw_hand(empty, grip[0], grip[1], grip[2], skin)  # type: ignore[arg-type]
    empty = _noisy(empty, rng)
    throw = _noisy(throw, rng)
    floor = cv2.perspectiveTransform(inner.floor.reshape(-1, 1, 2), warp).reshape(-1, 2)
    return CalibrationScene(empty, throw, floor, inner.die_px * scale, style)


_TABLES = ((70, 95, 130), (40, 40, 45), (200, 200, 195), (120, 140, 160), (90, 60, 40))
"""Table colours (BGR): oak, black, white, walnut, blue."""


def _table(rng: np.random.Generator, tray: Frame) -> Frame:
    """A table top with a light falloff and clutter (a cable, a phone, a card, a mug), of one
    of two table colours that differ most from the tray (a tray as light as its table has no
    edge to be seen, for a camera or a person)."""
    w, h = SIZE
    mean = tray.reshape(-1, 3).mean(axis=0)
    apart = sorted(_TABLES, key=lambda c: -float(np.linalg.norm(np.array(c) - mean)))
    colour = np.array(apart[int(rng.integers(2))], np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = 1.0 + 0.15 * ((xs / w - 0.5) * float(rng.uniform(-1, 1)) + (ys / h - 0.5))
    table = np.clip(shade[..., None] * colour, 0, 255).astype(np.uint8)
    # A phone and a card lying in two corners, a mug in another, a cable along one side.
    corners = [(0.08, 0.1), (0.92, 0.12), (0.9, 0.9), (0.1, 0.88)]
    order = rng.permutation(4)
    for kind, index in zip(("phone", "card", "mug"), order[:3], strict=True):
        x, y = corners[int(index)]
        centre = (x * w, y * h)
        angle = float(rng.uniform(0, 180))
        if kind == "phone":
            box = cv2.boxPoints((centre, (70.0, 140.0), angle))
            cv2.fillConvexPoly(table, np.round(box).astype(np.int32), (25, 25, 30), cv2.LINE_AA)
        elif kind == "card":
            box = cv2.boxPoints((centre, (90.0, 60.0), angle))
            cv2.fillConvexPoly(table, np.round(box).astype(np.int32), (235, 240, 240), cv2.LINE_AA)
            cv2.putText(
                table, "GREED", (int(centre[0]) - 25, int(centre[1])), 0, 0.5, (30, 30, 200), 2
            )
        else:
            c = (int(centre[0]), int(centre[1]))
            cv2.circle(table, c, 42, (40, 70, 160), -1, cv2.LINE_AA)
            cv2.circle(table, c, 32, (20, 35, 60), -1, cv2.LINE_AA)
    side = int(order[3])
    t = np.linspace(0, 1, 30)
    x, y = corners[side]
    pts = np.stack([x * w + 40 * np.sin(t * 7) + (t - 0.5) * 200, y * h + t * 60 - 30], axis=1)
    cv2.polylines(table, [np.round(pts).astype(np.int32)], False, (15, 15, 15), 6, cv2.LINE_AA)
    return table


def _paste(table: Frame, tray: Frame, warp: FloatArray) -> Frame:
    w, h = SIZE
    out = table.copy()
    warped = cv2.warpPerspective(tray, warp, SIZE, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), warp, SIZE, flags=cv2.INTER_LINEAR)
    alpha = mask.astype(np.float32)[..., None] / 255.0
    out = (warped * alpha + out * (1 - alpha)).astype(np.uint8)
    return out


def _hand_over(
    target: FloatArray, rng: np.random.Generator
) -> tuple[tuple[float, float], float, float]:
    """A hand whose palm lies just inside one side of the tray, its arm reaching in from
    outside the frame."""
    side = int(rng.integers(4))
    a, b = target[side], target[(side + 1) % 4]
    edge = a + (b - a) * float(rng.uniform(0.35, 0.65))
    centre = target.mean(axis=0)
    inward = (centre - edge) / np.linalg.norm(centre - edge)
    palm = edge + inward * 25.0
    direction = float(np.arctan2(inward[1], inward[0]))
    return (float(palm[0]), float(palm[1])), direction, float(rng.uniform(60, 85))


def _noisy(frame: Frame, rng: np.random.Generator) -> Frame:
    noise = rng.normal(0, 2.0, frame.shape).astype(np.float32)
    return np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def boundary_distance(found: tuple[tuple[int, int], ...], floor: FloatArray) -> float:
    """The largest distance between the found area's outline and the true one (both ways)."""
    poly = np.array(found, np.float32).reshape(-1, 1, 2)
    there = max(abs(cv2.pointPolygonTest(poly, (float(x), float(y)), True)) for x, y in floor)
    truth = floor.astype(np.float32).reshape(-1, 1, 2)
    found_points = []
    for i in range(len(found)):
        a = np.array(found[i], np.float64)
        b = np.array(found[(i + 1) % len(found)], np.float64)
        t = np.linspace(0, 1, 40, endpoint=False)[:, None]
        found_points.append(a + (b - a) * t)
    back = max(
        abs(cv2.pointPolygonTest(truth, (float(x), float(y)), True))
        for x, y in np.concatenate(found_points)
    )
    return float(max(there, back))
