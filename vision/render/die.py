"""Draws one six-sided pip die, as a rounded cube in 3D seen by a pinhole camera, onto a frame.

Part of the synthetic tray renderer (``vision.render``). A die is a cube with opposite faces summing
to 7; each visible face is a texture (face colour, pips laid out exactly as on a real die) warped
onto its projected quad and shaded by a Lambert term, over a body silhouette with rounded corners.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.face import DieLook, face_texture
from vision.types import Frame

FloatArray = npt.NDArray[np.float64]

# Die-local outward normal of the face showing each value (opposite faces sum to 7), and the
# direction of that face texture's u axis (its v axis is normal × u).
_FACES: dict[int, tuple[tuple[float, float, float], tuple[float, float, float]]] = {
    1: ((0, 0, 1), (1, 0, 0)),
    6: ((0, 0, -1), (1, 0, 0)),
    2: ((0, -1, 0), (1, 0, 0)),
    5: ((0, 1, 0), (1, 0, 0)),
    3: ((1, 0, 0), (0, 1, 0)),
    4: ((-1, 0, 0), (0, 1, 0)),
}


def face_normal(value: int) -> FloatArray:
    """The die-local outward normal of the face showing ``value``."""
    return np.array(_FACES[value][0], dtype=np.float64)


def rotation_to_top(value: int) -> FloatArray:
    """A rotation matrix that turns the face showing ``value`` to point up (+z)."""
    n = face_normal(value)
    up = np.array([0.0, 0.0, 1.0])
    if np.allclose(n, up):
        return np.eye(3)
    if np.allclose(n, -up):
        return np.diag([1.0, -1.0, -1.0])
    axis = np.cross(n, up)
    axis /= np.linalg.norm(axis)
    return axis_angle(axis, np.pi / 2)


def axis_angle(axis: FloatArray, angle: float) -> FloatArray:
    """The rotation matrix of ``angle`` radians about the unit vector ``axis`` (Rodrigues)."""
    x, y, z = axis
    k = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    out: FloatArray = np.eye(3) + np.sin(angle) * k + (1.0 - np.cos(angle)) * (k @ k)
    return out


def spin_z(angle: float) -> FloatArray:
    """The rotation matrix of ``angle`` radians about the vertical axis."""
    return axis_angle(np.array([0.0, 0.0, 1.0]), angle)


@dataclass(frozen=True, slots=True)
class Camera:
    """A pinhole camera with focal length ``height`` (pixels) whose principal point is
    ``principal``, followed by a projective ``keystone`` (3×3) in image coordinates.

    Without ``view`` it looks straight down from ``height`` above the principal point (the
    keystone mimics a slightly oblique view). With ``view`` (the 3×3 world-to-camera rotation:
    rows are the image's right, down and forward directions in the world) it stands at
    ``position`` and looks along the forward direction: a truly oblique camera.
    """

    height: float
    principal: tuple[float, float]
    keystone: FloatArray
    view: FloatArray | None = None
    position: tuple[float, float, float] | None = None

    def project(self, points: FloatArray) -> FloatArray:
        """Project N×3 world points (x, y in tray pixels, z up) to N×2 image points."""
        px, py = self.principal
        if self.view is None:
            m = self.height / np.maximum(self.height - points[:, 2], 1e-3)
            u = px + (points[:, 0] - px) * m
            v = py + (points[:, 1] - py) * m
        else:
            cam = (points - np.array(self.position)) @ self.view.T
            m = self.height / np.maximum(cam[:, 2], 1e-3)
            u = px + cam[:, 0] * m
            v = py + cam[:, 1] * m
        h = np.stack([u, v, np.ones_like(u)], axis=1) @ self.keystone.T
        out: FloatArray = h[:, :2] / h[:, 2:3]
        return out

    def eye(self) -> FloatArray:
        """The camera position in world coordinates."""
        if self.position is not None:
            return np.array(self.position, dtype=np.float64)
        return np.array([self.principal[0], self.principal[1], self.height])

    def on_screen(self, length: float, point: tuple[float, float, float]) -> float:
        """How long (pixels) a ``length`` at world ``point`` looks, facing the camera."""
        if self.view is None:
            return length * self.height / max(self.height - point[2], 1.0)
        depth = float(self.view[2] @ (np.array(point) - np.array(self.position)))
        return length * self.height / max(depth, 1.0)

    def magnification(self, x: float, y: float) -> float:
        """How many image pixels one square pixel of the tray floor at (x, y) covers."""
        pts = self.project(np.array([[x, y, 0.0], [x + 1.0, y, 0.0], [x, y + 1.0, 0.0]]))
        (ax, ay), (bx, by) = pts[1] - pts[0], pts[2] - pts[0]
        return abs(float(ax * by - ay * bx))

    def ground(self, image_points: FloatArray, far: float) -> FloatArray:
        """The tray points (N×2, z = 0) that N×2 image points show; a point at or beyond the
        horizon, or farther than ``far`` from the point below the image centre, is brought back
        to that distance along its direction."""
        px, py = self.principal
        pts = np.asarray(image_points, np.float64)
        h = np.stack([pts[:, 0], pts[:, 1], np.ones(len(pts))], axis=1)
        h = h @ np.linalg.inv(self.keystone).T
        u, v = h[:, 0] / h[:, 2], h[:, 1] / h[:, 2]
        rays = np.stack([(u - px) / self.height, (v - py) / self.height, np.ones_like(u)], axis=1)
        view = np.eye(3) if self.view is None else self.view
        rays = rays @ view  # camera -> world directions
        eye = self.eye()
        centre = eye + view[2] * (eye[2] / max(-float(view[2][2]), 1e-6))
        out = np.empty((len(pts), 2))
        for i, ray in enumerate(rays):
            flat = np.array([ray[0], ray[1]])
            if ray[2] < -1e-6:
                hit = eye[:2] + flat * (eye[2] / -ray[2])
            else:
                hit = eye[:2] + flat * 1e9
            step = hit - centre[:2]
            reach = float(np.hypot(*step))
            out[i] = centre[:2] + step * min(1.0, far / max(reach, 1e-9))
        return out


@dataclass(frozen=True, slots=True)
class DiePose:
    """Where one die is: centre in world coordinates, side length, orientation."""

    center: tuple[float, float, float]
    side: float
    rotation: FloatArray  # die-local -> world


def cube_corners(pose: DiePose, inset: float = 0.0) -> FloatArray:
    """The 8 world corners of the die's cube shrunk by ``inset`` on every side."""
    h = pose.side / 2 - inset
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
    out: FloatArray = (signs * h) @ pose.rotation.T + np.array(pose.center)
    return out


def silhouette(pose: DiePose, look: DieLook, camera: Camera) -> FloatArray:
    """The convex outline (K×2 image points) of the rounded die."""
    r = look.corner * pose.side
    inner = cube_corners(pose, r)
    ang = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    ring = np.stack([np.cos(ang), np.sin(ang), np.zeros_like(ang)], axis=1) * r
    # A sphere at each inner corner, sampled on horizontal and two vertical great circles.
    rings = np.concatenate([ring, ring[:, [0, 2, 1]], ring[:, [2, 0, 1]]])
    pts = (inner[:, None, :] + rings[None, :, :]).reshape(-1, 3)
    img = camera.project(pts).astype(np.float32)
    hull = cv2.convexHull(img)
    out: FloatArray = hull.reshape(-1, 2).astype(np.float64)
    return out


def visible_faces(pose: DiePose, camera: Camera) -> list[tuple[int, float]]:
    """The faces turned towards the camera: (value, cosine between normal and view direction)."""
    out = []
    eye = camera.eye()
    c = np.array(pose.center)
    for value in range(1, 7):
        n = pose.rotation @ face_normal(value)
        fc = c + n * pose.side / 2
        view = eye - fc
        cos = float(n @ view / np.linalg.norm(view))
        if cos > 0.02:
            out.append((value, cos))
    return out


def top_value(pose: DiePose) -> tuple[int, float]:
    """The value on the face pointing most nearly up and the cosine of its tilt."""
    best = max(range(1, 7), key=lambda v: float((pose.rotation @ face_normal(v))[2]))
    return best, float((pose.rotation @ face_normal(best))[2])


def face_quad(pose: DiePose, value: int, inset: float) -> FloatArray:
    """The 4 world corners of the flat part of a face, in texture order (0,0),(1,0),(1,1),(0,1)."""
    n_local, u_local = _FACES[value]
    n = pose.rotation @ np.array(n_local, float)
    u = pose.rotation @ np.array(u_local, float)
    v = np.cross(n, u)
    h = pose.side / 2 - inset
    c = np.array(pose.center) + n * pose.side / 2
    return np.stack([c - u * h - v * h, c + u * h - v * h, c + u * h + v * h, c - u * h + v * h])


def draw_die(
    frame: Frame,
    pose: DiePose,
    look: DieLook,
    camera: Camera,
    light: FloatArray,
    *,
    motion: tuple[float, float] = (0.0, 0.0),
    ambient: float = 0.35,
    gain: npt.NDArray[np.float32] | None = None,
) -> FloatArray:
    """Draw one die onto ``frame`` in place and return its silhouette (K×2 image points).

    ``light`` is the unit vector towards the light. ``motion`` is the image displacement during
    the exposure: a non-zero one smears the die (motion blur). ``ambient`` is the brightness of a
    face that the light does not reach, relative to a face turned up (diffuse light: high).
    ``gain`` (H×W×3, the frame's size) is the light falling on the frame, applied to the die.
    """
    hull = silhouette(pose, look, camera)
    h_img, w_img = frame.shape[:2]
    mx, my = motion
    pad = 2 + int(abs(mx)) + int(abs(my))
    x0 = max(int(np.floor(hull[:, 0].min())) - pad, 0)
    y0 = max(int(np.floor(hull[:, 1].min())) - pad, 0)
    x1 = min(int(np.ceil(hull[:, 0].max())) + pad + 1, w_img)
    y1 = min(int(np.ceil(hull[:, 1].max())) + pad + 1, h_img)
    if x1 <= x0 or y1 <= y0:
        return hull
    roi = frame[y0:y1, x0:x1]
    layer = roi.copy()
    offset = np.array([x0, y0], float)
    faces = visible_faces(pose, camera)
    shade_of = {v: _lambert(pose, v, light, ambient) for v, _ in faces}
    # Body (rounded edges) in the average shade of the visible faces.
    # The rounded edges catch light from several sides: nearer the brightest face than the mean.
    shades = list(shade_of.values())
    body_shade = 0.6 * max(shades) + 0.4 * float(np.mean(shades)) if shades else 0.6
    body = tuple(float(min(255.0, c * body_shade)) for c in look.body)
    shift = 4
    poly = np.round((hull - offset) * (1 << shift)).astype(np.int32)
    cv2.fillConvexPoly(layer, poly, body, cv2.LINE_AA, shift)
    inset = look.corner * pose.side * 0.55
    screen_side = camera.on_screen(pose.side, pose.center)
    # Texture size: 1.6× the die on screen, in steps of 4 px so that cached parts get reused.
    px = int(np.clip(round(screen_side * 0.4) * 4, 16, 256))
    for value, _cos in faces:
        quad3 = face_quad(pose, value, inset)
        quad = camera.project(quad3) - offset
        if _area(quad) < 2.0:
            continue
        gu, gv, strength = _glare_dir(pose, value, light, camera)
        tex = face_texture(value, px, look, (gu, gv), strength * look.gloss)
        if look.alpha < 1.0:
            tex = _ghost_pips(tex, value, px, look)
        shade = shade_of[value]
        if abs(shade - 1.0) > 0.01:
            tex = np.asarray(cv2.convertScaleAbs(tex, alpha=shade), np.uint8)
        src = np.array([[0, 0], [px, 0], [px, px], [0, px]], np.float32)
        hom = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        cv2.warpPerspective(
            tex, hom, (x1 - x0, y1 - y0), layer, cv2.INTER_LINEAR, cv2.BORDER_TRANSPARENT
        )
    mask = np.zeros(layer.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, poly, 255, cv2.LINE_AA, shift)
    lit = None if gain is None else gain[y0:y1, x0:x1]
    _composite(roi, layer, mask, look.alpha, motion, lit)
    return hull


def _ghost_pips(tex: Frame, value: int, px: int, look: DieLook) -> Frame:
    """A translucent die shows the pips of the opposite face faintly through its body."""
    back = face_texture(7 - value, px, look, (0.0, 0.0), 0.0)[:, ::-1]
    body = np.array(look.body, np.int16)
    far = np.abs(back.astype(np.int16) - body).sum(axis=2) > 60
    weight = cv2.GaussianBlur(far.astype(np.float32), (0, 0), max(px / 60, 0.6)) * 0.22
    pip = np.array(look.pip, np.float32)
    out = tex.astype(np.float32) * (1 - weight[..., None]) + pip * weight[..., None]
    ghosted: Frame = np.clip(out, 0, 255).astype(np.uint8)
    return ghosted


def _composite(
    roi: Frame,
    layer: Frame,
    mask: Frame,
    alpha: float,
    motion: tuple[float, float],
    gain: npt.NDArray[np.float32] | None,
) -> None:
    mx, my = motion
    length = float(np.hypot(mx, my))
    a = mask.astype(np.float32) * (alpha / 255.0)
    lay = layer.astype(np.float32)
    if gain is not None:
        lay *= gain
    if length >= 1.5:
        k = int(np.ceil(length)) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        p0 = (round(c - mx / 2), round(c - my / 2))
        p1 = (round(c + mx / 2), round(c + my / 2))
        cv2.line(kernel, p0, p1, 1.0, 1, cv2.LINE_AA)
        kernel /= max(float(kernel.sum()), 1e-6)
        lay = np.asarray(
            cv2.filter2D(lay * a[..., None], -1, kernel, borderType=cv2.BORDER_CONSTANT), np.float32
        )
        a = np.asarray(cv2.filter2D(a, -1, kernel, borderType=cv2.BORDER_CONSTANT), np.float32)
        out = roi.astype(np.float32) * (1 - a[..., None]) + lay
    else:
        out = roi.astype(np.float32) * (1 - a[..., None]) + lay * a[..., None]
    roi[:] = np.clip(out, 0, 255).astype(np.uint8)


def _lambert(pose: DiePose, value: int, light: FloatArray, ambient: float) -> float:
    n = pose.rotation @ face_normal(value)
    if n[2] >= 0.999:
        return 1.0
    # Normalised so that a face turned straight up is 1.0 (the frame's exposure sets the rest).
    up = max(float(light[2]), 1e-3)
    direct = max(float(n @ light), 0.0) / up
    return float(min(ambient + (1.0 - ambient) * direct, 1.2))


def _glare_dir(
    pose: DiePose, value: int, light: FloatArray, camera: Camera
) -> tuple[float, float, float]:
    """Where a highlight sits on a face (face units) and how strong it is."""
    n_local, u_local = _FACES[value]
    n = pose.rotation @ np.array(n_local, float)
    u = pose.rotation @ np.array(u_local, float)
    v = np.cross(n, u)
    view = camera.eye() - np.array(pose.center)
    view /= np.linalg.norm(view)
    half = light + view
    half /= np.linalg.norm(half)
    strength = max(float(n @ half), 0.0) ** 8
    return float(half @ u), float(half @ v), strength


def _area(quad: FloatArray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))
