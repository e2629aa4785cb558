"""The core of the synthetic tray renderer: a scene (camera, light, tray, dice at rest) and the
drawing of one frame of it with its ground truth. Public entry points are in ``vision.render``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.render.box import draw_box
from vision.render.clutter import draw_clutter, make_clutter
from vision.render.die import (
    Camera,
    DiePose,
    axis_angle,
    cube_corners,
    draw_die,
    face_quad,
    top_value,
)
from vision.render.face import DieLook
from vision.render.hand import draw_hand
from vision.render.lens import distort_image, distort_points
from vision.render.rest import rest_poses
from vision.render.scene import background, draw_shadows, finish, lighting_gain
from vision.render.style import InvalidRenderRequest, TrayStyle, scheme_named, style_from_seed
from vision.types import Box, Frame

_SKIN_TONES = ((160, 180, 230), (125, 150, 210), (95, 125, 180), (70, 95, 140), (45, 60, 95))
"""Hand colours (BGR), light to dark."""


@dataclass(frozen=True, slots=True)
class RenderedDie:
    """The ground truth of one rendered die.

    ``value`` is the face showing up, or None for a die that cannot be read honestly (cocked
    against another die or the tray wall, or tumbling with no face up). ``center`` is the centre of
    the top face in the image, ``box`` the axis-aligned bounds of the whole visible die (top and
    side faces), ``angle`` the rotation of the top face in degrees [0, 90), ``size_px`` the side
    length of the top face in the image, ``top_corners`` its 4 image corners (sharp-cornered, in
    order around the face), ``scheme`` the name of its colour scheme. ``is_moving``: the die was
    moving during the exposure; ``is_covered``: a hand hides a good part of it. ``face_bounds``
    (x_min, y_min, x_max, y_max), given for an oblique camera only (`TrayStyle.camera_tilt`): the
    extent of the top face as it looks, centred on ``center``: the spread of its corners along
    each image axis (a square face seen head-on gives a square ``size_px`` wide, at any angle).
    """

    value: int | None
    center: tuple[float, float]
    box: Box
    angle: float
    size_px: float
    scheme: str
    top_corners: tuple[tuple[float, float], ...] = ()
    is_moving: bool = False
    is_covered: bool = False
    face_bounds: tuple[float, float, float, float] | None = None

    @property
    def readable_value(self) -> int | None:
        """The value a reader may give this die: its value, or None when it cannot be read
        honestly or its scheme shows an emblem in place of the six's pips (a reader that never
        learnt the emblem must not guess it)."""
        if self.value == 6 and scheme_named(self.scheme).emblem:
            return None
        return self.value


@dataclass(frozen=True, slots=True)
class RenderedTray:
    """One rendered frame (BGR uint8, H×W×3) and the ground truth of every die in it.

    ``floor`` is the throwing area in the image (a polygon: the box floor when the style has walls,
    else the whole frame); ``hand_visible`` whether a hand shows in the frame.
    """

    frame: Frame
    dice: tuple[RenderedDie, ...]
    style: TrayStyle
    hand_visible: bool = False
    floor: tuple[tuple[float, float], ...] = ()

    @property
    def values(self) -> tuple[int | None, ...]:
        """The ground-truth values, in the order the dice were asked for."""
        return tuple(d.value for d in self.dice)


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything about a tray that stays the same during a throw."""

    size: tuple[int, int]
    style: TrayStyle
    camera: Camera
    light: np.ndarray
    surface: Frame
    gain: np.ndarray
    looks: tuple[DieLook, ...]
    schemes: tuple[str, ...]
    rest: tuple[DiePose, ...]
    values: tuple[int | None, ...]
    skin: tuple[int, int, int]
    floor: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class DieState:
    """One die in one frame: its pose, the image motion during exposure, its true value."""

    pose: DiePose
    motion: tuple[float, float]
    value: int | None
    is_moving: bool


def build_scene(
    values: Sequence[int | None],
    *,
    seed: int,
    size: tuple[int, int],
    style: TrayStyle | None,
    room_seed: int | None = None,
) -> Scene:
    """Lay out the tray, the camera, the light and the dice at rest (used by every render_*).

    The room (camera, surface, clutter, box, light, the hand's skin) is drawn from ``room_seed``
    and the dice from ``seed``; without ``room_seed`` both come from ``seed``, so a table's
    throws share one room only when they are given the same ``room_seed``.
    """
    w, h = size
    if w < 64 or h < 64:
        raise InvalidRenderRequest(f"size must be at least 64×64, got {size!r}")
    for v in values:
        if v is not None and (isinstance(v, bool) or v not in range(1, 7)):
            raise InvalidRenderRequest(f"die values must be 1-6 or None, got {tuple(values)!r}")
    style = style if style is not None else style_from_seed(seed, size=size)
    rng = np.random.default_rng([seed if room_seed is None else room_seed, 1])
    height = w * float(np.interp(style.perspective, [0.0, 1.0], [8.0, 1.3]))
    # The principal point off the frame centre: a camera looking a little from one side (side faces
    # show on that side of every die, and the far side of the tray looks smaller).
    off = (rng.uniform(-0.35, 0.35, 2) * style.perspective) * np.array([w, h])
    principal = (w / 2 + float(off[0]), h / 2 + float(off[1]))
    a, b = (-off / np.array([w, h]) * 0.4 + rng.uniform(-0.05, 0.05, 2)) / np.array([w, h])
    c = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1.0]])
    keystone = c @ np.array([[1, 0, 0], [0, 1, 0], [a, b, 1.0]]) @ np.linalg.inv(c)
    camera = Camera(height, principal, keystone)
    if style.camera_tilt:
        camera = tilted_camera(height, size, style.camera_tilt, style.camera_azimuth)
    tilt, az = style.light_tilt, style.light_azimuth
    light = np.array([np.sin(tilt) * np.cos(az), np.sin(tilt) * np.sin(az), np.cos(tilt)])
    surface, rims = background(style.background, style.background_color, size, rng)
    margin = 4.0
    area = (margin, margin, w - margin, h - margin)
    floor: tuple[tuple[float, float], ...] = ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
    clutter = make_clutter(style.clutter, size, float(np.mean(style.die_size)), rng)
    if style.walls:
        clutter = replace(clutter, cable=None, thing=None)
        rims = []
    draw_clutter(surface, clutter)
    if style.walls:
        surface, box = draw_box(surface, camera, light, rng)
        x0, y0, x1, y1 = box.floor
        area = (x0 + 1, y0 + 1, x1 - 1, y1 - 1)
        floor = box.floor_image
    obstacles = [[(float(x), float(y)) for x, y in poly] for poly in clutter.obstacles()]
    obstacles += rims
    if camera.view is not None:  # the tray seen by an oblique camera: image -> tray coordinates
        far = 1.5 * max(w, h)
        corners = np.array([[margin, margin], [w - margin, margin], [w - margin, h - margin]])
        seen = camera.ground(np.concatenate([corners, [[margin, h - margin]]]), far)
        area = (*seen.min(axis=0), *seen.max(axis=0))
        obstacles = [
            [(float(x), float(y)) for x, y in camera.ground(np.array(poly), far)]
            for poly in obstacles
        ]
    tone = _SKIN_TONES[int(rng.integers(len(_SKIN_TONES)))]
    skin = tuple(int(np.clip(c + rng.integers(-10, 11), 0, 255)) for c in tone)
    gain = lighting_gain(
        size, style.gradient, float(rng.uniform(-np.pi, np.pi)), style.vignette, style.tint
    )
    # The light on the tray is applied once here; dice and hands get it as they are drawn.
    surface = np.asarray(cv2.multiply(surface, gain, dtype=cv2.CV_8U), np.uint8)
    if room_seed is not None:
        rng = np.random.default_rng([seed, 1])
    schemes = tuple(style.schemes[int(rng.integers(len(style.schemes)))] for _ in values)
    looks = tuple(_look(name, style, rng) for name in schemes)
    rest = rest_poses(values, style, camera, size, area, rng, obstacles)
    return Scene(
        size,
        style,
        camera,
        light,
        surface,
        gain,
        looks,
        schemes,
        rest,
        tuple(values),
        skin,  # type: ignore[arg-type]
        floor,
    )


def tilted_camera(focal: float, size: tuple[int, int], tilt: float, azimuth: float) -> Camera:
    """A camera ``tilt`` degrees from straight down, standing towards ``azimuth`` (degrees, in
    the image: 0 right, 90 bottom) and aimed at the tray point under the frame centre, ``focal``
    away from it: one tray pixel there is one image pixel across the line of sight."""
    w, h = size
    t, a = np.radians(tilt), np.radians(azimuth)
    turn = axis_angle(np.array([-np.sin(a), np.cos(a), 0.0]), float(t))
    # The overhead camera's right, down and forward directions, turned with it.
    view = (turn @ np.diag([1.0, 1.0, -1.0])).T
    eye = np.array([w / 2, h / 2, 0.0]) + turn @ np.array([0.0, 0.0, focal])
    return Camera(
        focal,
        (w / 2, h / 2),
        np.eye(3),
        view=view,
        position=(float(eye[0]), float(eye[1]), float(eye[2])),
    )


def _look(name: str, style: TrayStyle, rng: np.random.Generator) -> DieLook:
    scheme = scheme_named(name)
    jitter = rng.integers(-8, 9, 3)
    body = tuple(int(np.clip(c + j, 0, 255)) for c, j in zip(scheme.body, jitter, strict=True))
    return DieLook(
        body=body,  # type: ignore[arg-type]
        pip=scheme.pip,
        pip_radius=float(rng.uniform(0.075, 0.11)),
        pip_spread=float(rng.uniform(0.24, 0.29)),
        big_one=bool(rng.random() < 0.3),
        corner=style.corner,
        gloss=style.gloss * (0.6 if scheme.marble else 1.0),
        alpha=scheme.alpha,
        marble=scheme.marble,
        marble_seed=int(rng.integers(1 << 30)),
        swirl=scheme.swirl,
        sheen=style.gloss * float(rng.uniform(0.0, 0.3)),
        emblem=scheme.emblem,
    )


def draw_frame(
    scene: Scene,
    states: Sequence[DieState],
    rng: np.random.Generator,
    *,
    hand: tuple[tuple[float, float], float, float] | None = None,
) -> RenderedTray:
    """Draw one frame of ``scene`` with the dice in ``states`` (and optionally a hand given as
    (palm anchor, direction radians, scale px))."""
    return draw_frames(scene, states, [rng], hand=hand)[0]


def draw_frames(
    scene: Scene,
    states: Sequence[DieState],
    rngs: Sequence[np.random.Generator],
    *,
    hand: tuple[tuple[float, float], float, float] | None = None,
) -> list[RenderedTray]:
    """Frames of the same unmoving content, one per sensor-noise generator in ``rngs``."""
    frame = scene.surface.copy()
    shadows = [shadow_polygon(s.pose, scene.camera, scene.light) for s in states]
    softness = float(np.mean([s.pose.side for s in states])) * 0.18 if states else 1.0
    draw_shadows(frame, shadows, scene.style.shadow, softness)
    eye = scene.camera.eye()
    # Soft light makes both soft shadows and bright side faces.
    ambient = float(np.clip(1.0 - scene.style.shadow, 0.3, 0.9))
    order = sorted(
        range(len(states)),
        key=lambda i: (
            -float(np.hypot(states[i].pose.center[0] - eye[0], states[i].pose.center[1] - eye[1]))
        ),
    )
    hulls: dict[int, np.ndarray] = {}
    for i in order:
        st = states[i]
        hulls[i] = draw_die(
            frame,
            st.pose,
            scene.looks[i],
            scene.camera,
            scene.light,
            motion=st.motion,
            ambient=ambient,
            gain=scene.gain,
        )
    mask = None
    if hand is not None:
        mask = draw_hand(frame, hand[0], hand[1], hand[2], scene.skin, scene.gain)
    style = scene.style
    lens = style.lens
    dice = tuple(
        die_truth(st, hulls[i], scene.camera, scene.schemes[i], scene.size, mask, lens)
        for i, st in enumerate(states)
    )
    frame = distort_image(frame, lens)
    floor_points = distort_points(np.array(scene.floor, np.float64), scene.size, lens)
    floor = tuple((float(x), float(y)) for x, y in floor_points)
    hand_visible = mask is not None and bool(mask.any())
    return [
        RenderedTray(
            finish(frame, style.blur, style.noise, style.jpeg_quality, rng),
            dice,
            style,
            hand_visible=hand_visible,
            floor=floor,
        )
        for rng in rngs
    ]


def shadow_polygon(pose: DiePose, camera: Camera, light: np.ndarray) -> np.ndarray:
    """The image outline of a die's shadow on the tray: its footprint swept away from the light."""
    corners = cube_corners(pose)
    lz = max(float(light[2]), 0.05)
    ground = corners.copy()
    ground[:, 0] -= corners[:, 2] * light[0] / lz
    ground[:, 1] -= corners[:, 2] * light[1] / lz
    ground[:, 2] = 0.0
    base = corners.copy()
    base[:, 2] = 0.0
    pts = np.concatenate([ground, base])
    out: np.ndarray = camera.project(pts)
    return out


def die_truth(
    state: DieState,
    hull: np.ndarray,
    camera: Camera,
    scheme: str,
    size: tuple[int, int],
    hand: np.ndarray | None,
    lens: float = 0.0,
) -> RenderedDie:
    """The ground truth of one drawn die (its top face, bounds, value, coverage), as the lens
    with distortion ``lens`` shows it."""
    pose = state.pose
    up, cos = top_value(pose)
    w, h = size
    covered = False
    if hand is not None:  # the hand mask is drawn before the lens: compare undistorted
        x0 = int(np.clip(np.floor(hull[:, 0].min()), 0, w - 1))
        y0 = int(np.clip(np.floor(hull[:, 1].min()), 0, h - 1))
        x1 = int(np.clip(np.ceil(hull[:, 0].max()), x0 + 1, w))
        y1 = int(np.clip(np.ceil(hull[:, 1].max()), y0 + 1, h))
        covered = float(hand[y0:y1, x0:x1].mean()) / 255.0 > 0.25
    top_quad = distort_points(camera.project(cube_face_corners(pose, up)), size, lens)
    hull = distort_points(hull, size, lens)
    center = (float(top_quad[:, 0].mean()), float(top_quad[:, 1].mean()))
    edge = top_quad[1] - top_quad[0]
    angle = float(np.degrees(np.arctan2(edge[1], edge[0]))) % 90.0
    side = float(np.mean(np.linalg.norm(top_quad - np.roll(top_quad, 1, axis=0), axis=1)))
    x0 = int(np.clip(np.floor(hull[:, 0].min()), 0, w - 1))
    y0 = int(np.clip(np.floor(hull[:, 1].min()), 0, h - 1))
    x1 = int(np.clip(np.ceil(hull[:, 0].max()), x0 + 1, w))
    y1 = int(np.clip(np.ceil(hull[:, 1].max()), y0 + 1, h))
    value = state.value if cos > 0.97 else None
    bounds = None
    if camera.view is not None:
        hx, hy = (float(s) for s in np.sqrt(np.mean((top_quad - center) ** 2, axis=0)))
        bounds = (center[0] - hx, center[1] - hy, center[0] + hx, center[1] + hy)
    return RenderedDie(
        value=value,
        center=center,
        box=Box(x0, y0, x1 - x0, y1 - y0),
        angle=angle,
        size_px=side,
        scheme=scheme,
        top_corners=tuple((float(x), float(y)) for x, y in top_quad),
        is_moving=state.is_moving,
        is_covered=covered,
        face_bounds=bounds,
    )


def cube_face_corners(pose: DiePose, value: int) -> np.ndarray:
    """The 4 world corners of the face showing ``value`` (sharp cube, no rounding)."""
    return face_quad(pose, value, 0.0)
