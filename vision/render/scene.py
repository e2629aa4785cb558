"""Everything in a synthetic tray photo except the dice: tray surface, shadows, light, hand, sensor.

Part of the synthetic tray renderer (``vision.render``). All randomness comes from the
``numpy.random.Generator`` passed in, so a frame is a pure function of its seed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Frame

FloatImage = npt.NDArray[np.float32]
Polygon = list[tuple[float, float]]


def background(
    kind: str, color: tuple[int, int, int], size: tuple[int, int], rng: np.random.Generator
) -> tuple[Frame, list[Polygon]]:
    """A tray surface ``kind`` ("felt", "wood", "plastic", "light") of ``size`` (w, h), BGR,
    and the raised parts (rims) that dice cannot lie on."""
    w, h = size
    amount = {"felt": 0.10, "plastic": 0.05, "wood": 0.08}.get(kind, 0.04)
    shade = _low_freq(w, h, rng, cells=4, amount=amount)
    if kind == "wood":
        shade *= _wood_grain(w, h, rng)
    elif kind == "felt":
        # Fibres: fine noise, slightly blurred.
        fine = noise_bank(w, h, 1.0, rng)[..., 0]
        shade *= 1.0 + cv2.GaussianBlur(fine, (3, 3), 0.8) * np.float32(0.06)
    elif kind == "plastic":
        fine = noise_bank(w, h, 1.0, rng)[..., 0]
        shade *= 1.0 + fine * np.float32(0.008)
    else:
        # Cardboard or matte plastic: a fine grain, a little clumped.
        fine = noise_bank(w, h, 1.0, rng)[..., 1]
        grain = np.float32(rng.uniform(0.015, 0.04))
        shade *= 1.0 + cv2.GaussianBlur(fine, (3, 3), 0.7) * grain
    img: FloatImage = np.asarray(cv2.cvtColor(shade, cv2.COLOR_GRAY2BGR), np.float32)
    scalar = (float(color[0]), float(color[1]), float(color[2]), 0.0)
    # A per-channel scalar (OpenCV's Scalar): several times faster than numpy broadcasting here.
    # OpenCV's stubs accept a tuple as a Scalar in some releases only.
    multiply: Callable[..., object] = cv2.multiply
    multiply(img, scalar, dst=img)
    rims = _tray_rim(img, w, h, rng) if kind == "light" else []
    out: Frame = np.asarray(cv2.convertScaleAbs(img), np.uint8)
    return out, rims


def _wood_grain(w: int, h: int, rng: np.random.Generator) -> FloatImage:
    """A multiplicative wood-grain field: long parallel streaks, gently bent, of varied width."""
    theta = float(rng.uniform(0, np.pi))
    c, s = np.float32(np.cos(theta)), np.float32(np.sin(theta))
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    across = -xs * s + ys * c
    along = xs * c + ys * s
    bend = cv2.resize(
        rng.standard_normal((3, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    across = across + bend * np.float32(rng.uniform(6, 25)) + np.sin(along / np.float32(90)) * 4
    # A 1-D profile across the grain: rings of varied spacing plus fine streaks.
    length = int(np.hypot(w, h)) + 200
    widths = rng.uniform(6, 22, length // 5 + 2)
    edges = np.cumsum(widths)
    pos = np.arange(length, dtype=np.float64)
    ring = np.searchsorted(edges, pos)
    phase = (pos - np.concatenate([[0.0], edges])[ring]) / widths[ring]
    profile = (phase**3) * rng.uniform(0.05, 0.12)
    profile += np.convolve(rng.standard_normal(length), np.ones(3) / 3, "same") * 0.015
    table = (1.0 - profile + profile.mean()).astype(np.float32)[None, :]
    map_x = (across - across.min() + 50).astype(np.float32)
    map_y = np.zeros_like(map_x)
    out: FloatImage = cv2.remap(
        table, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return out


def _tray_rim(img: FloatImage, w: int, h: int, rng: np.random.Generator) -> list[Polygon]:
    """A brighter raised rim along one or two edges of a light plastic tray, with screw heads."""
    rims: list[Polygon] = []
    for _ in range(int(rng.integers(0, 3))):
        side = int(rng.integers(0, 4))
        depth = int(rng.uniform(0.06, 0.13) * min(w, h))
        lighter = float(rng.uniform(1.03, 1.10))
        x0, y0, x1, y1 = (0, 0, w, depth) if side == 0 else (0, h - depth, w, h)
        if side >= 2:
            x0, y0, x1, y1 = (0, 0, depth, h) if side == 2 else (w - depth, 0, w, h)
        rims.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        if side == 0:
            band = img[:depth]
        elif side == 1:
            band = img[h - depth :]
        elif side == 2:
            band = img[:, :depth]
        else:
            band = img[:, w - depth :]
        band *= lighter
        bh, bw = band.shape[:2]
        edge = (
            (slice(bh - 2, bh), slice(None))
            if side == 0
            else (slice(0, 2), slice(None))
            if side == 1
            else (slice(None), slice(bw - 2, bw))
            if side == 2
            else (slice(None), slice(0, 2))
        )
        band[edge] *= 0.85
        horiz = side < 2
        length = bw if horiz else bh
        for t in (0.08, 0.92):
            c = (int(length * t), bh // 2) if horiz else (bw // 2, int(length * t))
            cv2.circle(band, c, max(depth // 6, 2), (110, 110, 110), -1, cv2.LINE_AA)
    return rims


def _low_freq(w: int, h: int, rng: np.random.Generator, *, cells: int, amount: float) -> FloatImage:
    grid = rng.random((cells, cells)).astype(np.float32) * 2 - 1
    out: FloatImage = 1.0 + cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC) * amount
    return out


_SLACK = 128


@lru_cache(maxsize=4)
def _bank(w: int, h: int) -> FloatImage:
    # Computed once per size with a fixed seed; frames take random windows of it (fast, and still
    # deterministic per frame seed).
    gen = np.random.default_rng(20261121)
    bank: FloatImage = gen.standard_normal((h + _SLACK, w + _SLACK, 3), dtype=np.float32)
    bank.flags.writeable = False
    return bank


def noise_bank(w: int, h: int, sigma: float, rng: np.random.Generator) -> FloatImage:
    """Unit-variance Gaussian noise (h×w×3) times ``sigma``: a random window of a fixed bank."""
    dx, dy = (int(v) for v in rng.integers(0, _SLACK, 2))
    window = _bank(w, h)[dy : dy + h, dx : dx + w]
    if sigma == 1.0:
        return window
    out: FloatImage = window * np.float32(sigma)
    return out


def draw_shadows(
    frame: Frame, footprints: list[npt.NDArray[np.float64]], strength: float, softness: float
) -> None:
    """Darken ``frame`` in place under the shadow polygons (image points), blurred by ``softness``
    pixels. Work is done at half resolution (shadows are soft) and only around the shadows."""
    if not footprints or strength <= 0:
        return
    h, w = frame.shape[:2]
    pts_all = np.concatenate(footprints)
    pad = int(softness * 3) + 4
    x0 = max(int(pts_all[:, 0].min()) - pad, 0) // 2 * 2
    y0 = max(int(pts_all[:, 1].min()) - pad, 0) // 2 * 2
    x1 = min(int(pts_all[:, 0].max()) + pad, w)
    y1 = min(int(pts_all[:, 1].max()) + pad, h)
    if x1 <= x0 or y1 <= y0:
        return
    rw, rh = x1 - x0, y1 - y0
    mask = np.zeros(((rh + 1) // 2, (rw + 1) // 2), np.float32)
    for poly in footprints:
        pts = np.round((poly - (x0, y0)) * 8).astype(np.int32)  # half resolution, 4 fraction bits
        cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1.0, cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(softness / 2, 0.5))
    mask = cv2.resize(mask, (rw, rh), interpolation=cv2.INTER_LINEAR)
    gain = 1.0 - np.minimum(mask, 1.0) * np.float32(strength)
    roi = frame[y0:y1, x0:x1]
    gain3 = cv2.cvtColor(gain, cv2.COLOR_GRAY2BGR)
    roi[:] = cv2.multiply(roi, gain3, dtype=cv2.CV_8U)


def lighting_gain(
    size: tuple[int, int],
    gradient: float,
    angle: float,
    vignette: float,
    tint: tuple[float, float, float],
) -> FloatImage:
    """A smooth per-pixel, per-channel gain: a linear light gradient, a vignette, a colour cast."""
    w, h = size
    sw, sh = 64, 48
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx = xx / (sw - 1) - 0.5
    yy = yy / (sh - 1) - 0.5
    lin = 1.0 + gradient * (xx * np.cos(angle) + yy * np.sin(angle)) * 2
    vig = 1.0 - vignette * (xx**2 + yy**2) * 2
    small = (lin * vig)[..., None] * np.array(tint, np.float32)[None, None, :]
    out: FloatImage = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def finish(
    frame: Frame,
    blur: float,
    noise: float,
    jpeg_quality: int | None,
    rng: np.random.Generator,
) -> Frame:
    """Apply lens blur, sensor noise and (optionally) JPEG compression to a lit frame."""
    h, w = frame.shape[:2]
    out: Frame = frame
    if blur > 0.2:
        out = np.asarray(cv2.GaussianBlur(frame, (0, 0), blur), np.uint8)
    if noise > 0:
        grain = noise_bank(w, h, 1.0, rng)
        out = np.asarray(cv2.addWeighted(out, 1.0, grain, noise, 0.0, dtype=cv2.CV_8U), np.uint8)
    elif out is frame:
        out = frame.copy()
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out
