"""Sequences of synthetic tray frames: a throw (dice tumbling, then at rest), a hand passing over.

Part of the synthetic tray renderer; the entry points are re-exported by ``vision.render``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.render.core import (
    DieState,
    RenderedTray,
    Scene,
    build_scene,
    draw_frame,
    draw_frames,
)
from vision.render.die import DiePose, axis_angle, cube_corners, spin_z, top_value
from vision.render.style import InvalidRenderRequest, TrayStyle


def render_throw(
    values: Sequence[int | None],
    *,
    seed: int,
    size: tuple[int, int] = (640, 480),
    moving_frames: int = 8,
    still_frames: int = 12,
    style: TrayStyle | None = None,
    hand: bool | None = None,
    room_seed: int | None = None,
) -> list[RenderedTray]:
    """Frames of one throw: ``moving_frames`` of dice tumbling in (motion-blurred, showing random
    faces, the throwing hand withdrawing when ``hand``, drawn from the seed when None), then
    ``still_frames`` of the dice at rest on ``values``. Throws given the same ``room_seed`` land
    in the same room (camera, tray, surroundings and light; `build_scene`).

    The dice at rest have exactly the geometry of ``render_tray(values, seed=seed, ...)``; between
    still frames only the sensor noise changes.
    """
    if moving_frames < 0 or still_frames < 0:
        raise InvalidRenderRequest(
            "frame counts must be >= 0, got "
            f"moving_frames={moving_frames!r}, still_frames={still_frames!r}"
        )
    scene = build_scene(values, seed=seed, size=size, style=style, room_seed=room_seed)
    rng = np.random.default_rng([seed, 4])
    with_hand = bool(rng.random() < 0.35) if hand is None else hand
    w, h = size
    throw_dir = float(rng.uniform(-np.pi, np.pi))
    reach = float(rng.uniform(0.3, 0.7)) * float(np.hypot(w, h))
    paths = [_Path.draw(pose, throw_dir, reach, rng) for pose in scene.rest]
    frames: list[RenderedTray] = []
    previous = [p.pose_at(-1.0 / max(moving_frames, 1), scene) for p in paths]
    exposure = float(rng.uniform(0.4, 0.9))
    palm = max(scene.style.die_size) * 5.5
    for k in range(moving_frames):
        t = k / moving_frames
        poses = [p.pose_at(t, scene) for p in paths]
        states = []
        for pose, before in zip(poses, previous, strict=True):
            a = scene.camera.project(np.array([pose.center]))[0]
            b = scene.camera.project(np.array([before.center]))[0]
            motion = (float(a[0] - b[0]) * exposure, float(a[1] - b[1]) * exposure)
            states.append(DieState(pose, motion, top_value(pose)[0], True))
        previous = poses
        hand_at = None
        if with_hand and t < 0.5:
            out = t / 0.5  # the hand withdraws the way the dice came from
            d = reach * (0.35 + out)
            anchor = (w / 2 + np.cos(throw_dir) * d, h / 2 + np.sin(throw_dir) * d)
            hand_at = (
                (float(anchor[0]), float(anchor[1])),
                throw_dir + np.pi,
                min(palm, 1.2 * min(w, h)),
            )
        frames.append(draw_frame(scene, states, np.random.default_rng([seed, 5, k]), hand=hand_at))
    rest = [
        DieState(p, (0.0, 0.0), v, False) for p, v in zip(scene.rest, scene.values, strict=True)
    ]
    rngs = [
        np.random.default_rng([seed, 3]) if k == 0 else np.random.default_rng([seed, 6, k])
        for k in range(still_frames)
    ]
    if rngs:
        frames.extend(draw_frames(scene, rest, rngs))
    return frames


def render_hand_pass(
    values: Sequence[int | None],
    *,
    seed: int,
    size: tuple[int, int] = (640, 480),
    frames: int = 8,
    style: TrayStyle | None = None,
) -> list[RenderedTray]:
    """Frames of a hand reaching in over dice at rest (the layout of ``render_tray`` with the same
    arguments) and withdrawing again; the first and last frames may show no hand."""
    if frames < 1:
        raise InvalidRenderRequest(f"frames must be >= 1, got {frames!r}")
    scene = build_scene(values, seed=seed, size=size, style=style)
    rng = np.random.default_rng([seed, 7])
    w, h = size
    direction = float(rng.uniform(-np.pi, np.pi))
    diag = float(np.hypot(w, h))
    palm = min(max(scene.style.die_size) * 5.5, 1.2 * min(w, h))
    rest = [
        DieState(p, (0.0, 0.0), v, False) for p, v in zip(scene.rest, scene.values, strict=True)
    ]
    out = []
    for k in range(frames):
        s = float(np.sin(np.pi * (k + 0.5) / frames))  # 0 -> 1 -> 0: in, then out
        d = diag * (0.75 - 0.8 * s)
        anchor = (w / 2 - np.cos(direction) * d, h / 2 - np.sin(direction) * d)
        hand_at = ((float(anchor[0]), float(anchor[1])), direction, palm)
        out.append(draw_frame(scene, rest, np.random.default_rng([seed, 8, k]), hand=hand_at))
    return out


class _Path:
    """How one die moves from where it was thrown to where it comes to rest."""

    def __init__(
        self,
        rest: DiePose,
        start: tuple[float, float],
        axis: np.ndarray,
        tumble: float,
        spin: float,
        bounce: float,
    ) -> None:
        self.rest = rest
        self.start = start
        self.axis = axis
        self.tumble = tumble
        self.spin = spin
        self.bounce = bounce

    @classmethod
    def draw(cls, rest: DiePose, direction: float, reach: float, rng: np.random.Generator) -> _Path:
        d = reach * float(rng.uniform(0.7, 1.2))
        jitter = rng.normal(0, 0.15 * reach, 2)
        start = (
            rest.center[0] + np.cos(direction) * d + float(jitter[0]),
            rest.center[1] + np.sin(direction) * d + float(jitter[1]),
        )
        phi = float(rng.uniform(0, 2 * np.pi))
        axis = np.array([np.cos(phi), np.sin(phi), 0.0])
        tumble = float(rng.uniform(3, 6) * np.pi) * (1 if rng.random() < 0.5 else -1)
        spin = float(rng.uniform(0.6, 3.0)) * (1 if rng.random() < 0.5 else -1)
        return cls(
            rest,
            (float(start[0]), float(start[1])),
            axis,
            tumble,
            spin,
            float(rng.uniform(0.5, 1.5)),
        )

    def pose_at(self, t: float, scene: Scene) -> DiePose:
        """The pose at time ``t`` (0 = thrown, 1 = at rest)."""
        del scene
        left = max(1.0 - t, 0.0)
        ease = left**2
        x = self.rest.center[0] + (self.start[0] - self.rest.center[0]) * ease
        y = self.rest.center[1] + (self.start[1] - self.rest.center[1]) * ease
        rot = (
            spin_z(self.spin * ease)
            @ axis_angle(self.axis, self.tumble * left**1.5)
            @ self.rest.rotation
        )
        probe = DiePose((x, y, 0.0), self.rest.side, rot)
        lift = -float(cube_corners(probe)[:, 2].min())
        hop = self.bounce * self.rest.side * abs(np.sin(np.pi * 3 * t)) * ease
        return DiePose((x, y, lift + hop), self.rest.side, rot)
