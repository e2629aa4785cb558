"""A dice box: the tray floor sunk between four walls under a dark printed rim, on a light table.

Part of the synthetic tray renderer (``vision.render``). The walls are drawn in perspective with the
scene's camera (inner walls show more on the side away from the camera), so the floor is a
quadrilateral in the image: the throwing area that a reader's region of interest would cover.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.die import Camera
from vision.types import Frame

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class BoxGeometry:
    """Where the floor of the box is: in tray coordinates (x0, y0, x1, y1) and in the image."""

    floor: tuple[float, float, float, float]
    floor_image: tuple[tuple[float, float], ...]


def draw_box(
    floor_texture: Frame, camera: Camera, light: FloatArray, rng: np.random.Generator
) -> tuple[Frame, BoxGeometry]:
    """Turn a floor texture (the whole frame) into a box photo: table, rim, walls, then the floor
    showing through the floor quadrilateral. Returns the new image and the floor geometry."""
    h, w = floor_texture.shape[:2]
    mx0, mx1 = (float(v) for v in rng.uniform(0.03, 0.18, 2) * w)
    my0, my1 = (float(v) for v in rng.uniform(0.03, 0.18, 2) * h)
    floor = (mx0, my0, w - mx1, h - my1)
    wall = float(rng.uniform(0.05, 0.11)) * min(w, h)
    rim = float(rng.uniform(0.012, 0.035)) * min(w, h)

    def rect(x0: float, y0: float, x1: float, y1: float, z: float) -> FloatArray:
        pts = np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]])
        return camera.project(pts)

    floor_img = rect(*floor, 0.0)
    inner = rect(*floor, wall)
    outer = rect(floor[0] - rim, floor[1] - rim, floor[2] + rim, floor[3] + rim, wall)
    # The table around the box: light and nearly flat.
    table = np.array([float(v) for v in rng.uniform(205, 240) + rng.uniform(-6, 6, 3)])
    out = np.empty_like(floor_texture)
    out[:] = np.clip(table, 0, 255).astype(np.uint8)
    shift = 3
    one = 1 << shift

    def fill(poly: FloatArray, color: tuple[float, ...]) -> None:
        pts = np.round(poly * one).astype(np.int32)
        cv2.fillPoly(out, [pts], color, cv2.LINE_AA, shift)

    # A soft shadow of the box on the table, then the rim with colourful print on it.
    fill(outer + np.array([rim * 0.6, rim * 0.8]), tuple(float(c) * 0.9 for c in table))
    dark = float(rng.uniform(20, 55))
    under = out.copy()
    fill(outer, (dark, dark, dark + 4))
    for _ in range(int(rng.integers(10, 40))):
        t = float(rng.uniform(0, 4))
        i = int(t)
        mid = (outer + inner) / 2
        a, b = mid[i], mid[(i + 1) % 4]
        p = a + (b - a) * (t - i)
        color = tuple(float(c) for c in rng.integers(40, 230, 3))
        size = (max(int(rim * rng.uniform(0.3, 1.2)), 1), max(int(rim * rng.uniform(0.2, 0.6)), 1))
        center = (int(p[0]), int(p[1]))
        cv2.ellipse(out, center, size, float(rng.uniform(0, 180)), 0, 360, color, -1, cv2.LINE_AA)
    # The print stays on the rim.
    outside = np.full((h, w), 255, np.uint8)
    cv2.fillPoly(outside, [np.round(outer * one).astype(np.int32)], 0, cv2.LINE_8, shift)
    cv2.copyTo(under, outside, out)
    # Re-cut the inside of the rim (the print must not spill inwards).
    wall_grey = float(rng.uniform(150, 215))
    normals = [np.array([0.0, 1.0, 0.0]), np.array([-1.0, 0.0, 0.0])]
    normals += [np.array([0.0, -1.0, 0.0]), np.array([1.0, 0.0, 0.0])]
    for i in range(4):
        j = (i + 1) % 4
        quad = np.array([inner[i], inner[j], floor_img[j], floor_img[i]])
        shade = 0.75 + 0.35 * max(float(normals[i] @ light), 0.0)
        g = min(wall_grey * shade, 255.0)
        fill(quad, (g, g, g))
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(floor_img * one).astype(np.int32)], 255, cv2.LINE_8, shift)
    cv2.copyTo(floor_texture, mask, out)
    geometry = BoxGeometry(floor, tuple((float(x), float(y)) for x, y in floor_img))
    return out, geometry
