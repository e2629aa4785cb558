"""The synthetic tray renderer: photos of dice in a tray, from above, with known ground truth.

``render_tray`` draws dice at rest; ``render_throw`` a sequence of dice tumbling then coming to
rest; ``render_hand_pass`` a hand sweeping over dice at rest; ``render_empty_tray`` the tray alone.
Every frame is a pure function of its seed. The dice are rounded cubes in 3D (opposite faces sum to
7, pips laid out as on real dice) seen by a pinhole camera, on a felt, wood or plastic tray, with
soft shadows, glare, a light gradient, blur, sensor noise, optional JPEG compression (TrayStyle).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.render_core import DieState, RenderedDie, RenderedTray, build_scene, draw_frame
from vision.render_style import (
    BACKGROUNDS,
    PRESETS,
    SCHEMES,
    InvalidRenderRequest,
    TrayStyle,
    style_from_seed,
    style_like,
)
from vision.render_throw import render_hand_pass, render_throw

__all__ = [
    "BACKGROUNDS",
    "PRESETS",
    "SCHEMES",
    "InvalidRenderRequest",
    "RenderedDie",
    "RenderedTray",
    "TrayStyle",
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
