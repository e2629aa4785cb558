"""The synthetic tray renderer: photos of dice in a tray, from above or obliquely
(`TrayStyle.camera_tilt`), with known ground truth.

``render_tray`` draws dice at rest; ``render_throw`` a sequence of dice tumbling then coming to
rest; ``render_hand_pass`` a hand sweeping over dice at rest; ``render_empty_tray`` the tray alone;
``render_edge_die`` a die half out of the picture.
Every frame is a pure function of its seed. The dice are rounded cubes in 3D (opposite faces sum to
7, pips laid out as on real dice) seen by a pinhole camera, on a felt, wood or plastic tray, with
soft shadows, glare, a light gradient, blur, sensor noise, optional JPEG compression (TrayStyle).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.render.core import DieState, RenderedDie, RenderedTray, build_scene, draw_frame
from vision.render.die import DiePose
from vision.render.style import (
    BACKGROUNDS,
    PRESETS,
    SCHEMES,
    UNUSUAL_SCHEMES,
    InvalidRenderRequest,
    TrayStyle,
    style_from_seed,
    style_like,
)
from vision.render.throw import render_hand_pass, render_throw

__all__ = [
    "BACKGROUNDS",
    "PRESETS",
    "SCHEMES",
    "UNUSUAL_SCHEMES",
    "InvalidRenderRequest",
    "RenderedDie",
    "RenderedTray",
    "TrayStyle",
    "render_edge_die",
    "render_empty_tray",
    "render_hand_pass",
    "render_throw",
    "render_tray",
    "style_from_seed",
    "style_like",
]


def render_tray(
    values: Sequence[int | None],
    *,
    seed: int,
    size: tuple[int, int] = (640, 480),
    style: TrayStyle | None = None,
) -> RenderedTray:
    """Render dice at rest showing ``values`` (1-6; None = a cocked die that cannot be read).

    ``size`` is (width, height). The style is drawn from ``seed`` when None (die sizes scaled to
    the frame). Dice that do not fit the frame at the style's size are drawn smaller. The same
    arguments always give the same image.
    """
    scene = build_scene(values, seed=seed, size=size, style=style)
    states = [
        DieState(p, (0.0, 0.0), v, False) for p, v in zip(scene.rest, scene.values, strict=True)
    ]
    return draw_frame(scene, states, np.random.default_rng([seed, 3]))


def render_empty_tray(
    *, seed: int, size: tuple[int, int] = (640, 480), style: TrayStyle | None = None
) -> RenderedTray:
    """Render the tray with no dice in it."""
    return render_tray((), seed=seed, size=size, style=style)


def render_edge_die(
    value: int,
    *,
    seed: int,
    size: tuple[int, int] = (640, 480),
    style: TrayStyle | None = None,
) -> RenderedTray:
    """Render one die showing ``value`` lying across the border of the frame, 50-80 % in view.

    Its ground-truth value is None: a die half out of view cannot be read honestly. (Box walls
    and lens distortion are left out: this die lies at the edge of the picture, not of the tray.)
    """
    style = style if style is not None else style_from_seed(seed, size=size)
    scene = build_scene([value], seed=seed, size=size, style=replace(style, walls=False, lens=0.0))
    rng = np.random.default_rng([seed, 9])
    pose = scene.rest[0]
    w, h = size
    inside = float(rng.uniform(0.0, 0.3)) * pose.side  # centre this far inside the border
    x, y, z = pose.center
    side = int(rng.integers(4))
    if side == 0:
        x = inside
    elif side == 1:
        x = w - inside
    elif side == 2:
        y = inside
    else:
        y = h - inside
    if scene.camera.view is not None:  # an oblique camera: the tray point that image point shows
        x, y = (float(c) for c in scene.camera.ground(np.array([[x, y]]), 3.0 * max(w, h))[0])
    moved = DiePose((x, y, z), pose.side, pose.rotation)
    scene = replace(scene, rest=(moved,), values=(None,))
    state = DieState(moved, (0.0, 0.0), None, False)
    return draw_frame(scene, [state], np.random.default_rng([seed, 3]))
