"""Everything in a synthetic tray photo except the dice: tray surface, shadows, light, hand, sensor.

Part of the synthetic tray renderer (``vision.render``). All randomness comes from the
``numpy.random.Generator`` passed in, so a frame is a pure function of its seed.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Frame

FloatImage = npt.NDArray[np.float32]


def background(
    kind: str, color: tuple[int, int, int], size: tuple[int, int], rng: np.random.Generator
) -> Frame:
    """A tray surface ``kind`` ("felt", "wood", "plastic", "light") of ``size`` (w, h), BGR."""
    w, h = size
    base = np.array(color, np.float32)
    if kind == "wood":
        img = _wood(base, w, h, rng)
    else:
        low = _low_freq(w, h, rng, cells=4, amount={"felt": 0.10, "plastic": 0.05}.get(kind, 0.04))
        img = low[..., None] * base
        grain = {"felt": 9.0, "plastic": 2.0}.get(kind, 1.5)
        if kind == "felt":
            fine = cv2.GaussianBlur(noise_bank(w, h, 1, rng), (3, 3), 0.8)
            img = img * (1.0 + fine[..., :1] * (grain / 255.0 / 6.0) * 6.0)
        if kind == "light":
            _tray_rim(img, w, h, rng)
    return np.clip(img, 0, 255).astype(np.uint8)


def _wood(base: FloatImage, w: int, h: int, rng: np.random.Generator) -> FloatImage:
    # Growth rings: stripes along one direction, bent by a smooth random warp.
    sw, sh = max(w // 4, 8), max(h // 4, 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    theta = rng.uniform(0, np.pi)
    along = xx * np.cos(theta) + yy * np.sin(theta)
    across = -xx * np.sin(theta) + yy * np.cos(theta)
    warp = cv2.resize(
        rng.random((4, 6)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_CUBIC
    )
    period = rng.uniform(5, 12)
    rings = np.sin(
        (across + warp * rng.uniform(10, 30) + np.sin(along / 40.0) * 3) / period * 2 * np.pi
    )
    rings = np.sign(rings) * np.abs(rings) ** 0.5
    field = cv2.resize(rings, (w, h), interpolation=cv2.INTER_LINEAR)
    low = _low_freq(w, h, rng, cells=3, amount=0.08)
    shade = low * (1.0 + field * rng.uniform(0.04, 0.10))
    img = shade[..., None] * base
    img[..., 0] *= 1.0 - 0.05 * field  # darker rings are also a little more saturated
    out: FloatImage = img.astype(np.float32)
    return out


def _tray_rim(img: FloatImage, w: int, h: int, rng: np.random.Generator) -> None:
    """A brighter raised rim along one or two edges of a light plastic tray, with screw heads."""
    for _ in range(int(rng.integers(0, 3))):
        side = int(rng.integers(0, 4))
        depth = int(rng.uniform(0.06, 0.13) * min(w, h))
        lighter = float(rng.uniform(1.03, 1.10))
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


def _low_freq(w: int, h: int, rng: np.random.Generator, *, cells: int, amount: float) -> FloatImage:
    grid = rng.random((cells, cells)).astype(np.float32) * 2 - 1
    out: FloatImage = 1.0 + cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC) * amount
    return out


@lru_cache(maxsize=4)
def _bank(w: int, h: int) -> FloatImage:
    # Computed once per size with a fixed seed; frames take random windows of it (fast and still
    # deterministic per frame seed).
    gen = np.random.default_rng(20261121)
    bank: FloatImage = gen.standard_normal((h + 64, w + 64, 3), dtype=np.float32)
    bank.flags.writeable = False
    return bank


def noise_bank(w: int, h: int, sigma: float, rng: np.random.Generator) -> FloatImage:
    """Unit-variance Gaussian noise (h×w×3) times ``sigma``: a random window of a fixed bank."""
    bank = _bank(w, h)
    dx, dy = (int(v) for v in rng.integers(0, 64, 2))
    window = bank[dy : dy + h, dx : dx + w]
    flip = int(rng.integers(0, 4))
    if flip & 1:
        window = window[::-1]
    if flip & 2:
        window = window[:, ::-1]
    if rng.random() < 0.5:
        window = window[..., ::-1]
    out: FloatImage = window * np.float32(sigma)
    return out


def draw_shadows(
    frame: Frame, footprints: list[npt.NDArray[np.float64]], strength: float, softness: float
) -> None:
    """Darken ``frame`` in place under the shadow polygons (image points), blurred by ``softness``
    pixels. Work is done at half resolution: shadows are soft anyway."""
    if not footprints or strength <= 0:
        return
    h, w = frame.shape[:2]
    sh, sw = (h + 1) // 2, (w + 1) // 2
    mask = np.zeros((sh, sw), np.float32)
    for poly in footprints:
        pts = np.round(poly * 8).astype(np.int32)  # half resolution, 4 fractional bits
        cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1.0, cv2.LINE_AA, 4)
    sigma = max(softness / 2, 0.5)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    gain = 1.0 - np.clip(mask, 0, 1) * strength
    frame[:] = np.clip(frame.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


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
    g = cv2.resize((lin * vig).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    out: FloatImage = g[..., None] * np.array(tint, np.float32)
    return out


def draw_hand(
    frame: Frame,
    anchor: tuple[float, float],
    direction: float,
    scale: float,
    skin: tuple[int, int, int],
) -> npt.NDArray[np.uint8]:
    """Draw an arm reaching in along ``direction`` (radians) with the palm at ``anchor``, and its
    shadow; return the hand's mask (uint8, 255 = covered)."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    ax, ay = anchor
    dx, dy = np.cos(direction), np.sin(direction)
    px_, py_ = -dy, dx
    far = (ax - dx * 2000, ay - dy * 2000)
    arm_w = int(scale * 0.55)
    cv2.line(mask, (int(far[0]), int(far[1])), (int(ax), int(ay)), 255, arm_w, cv2.LINE_AA)
    cv2.ellipse(
        mask,
        (int(ax), int(ay)),
        (int(scale * 0.45), int(scale * 0.38)),
        float(np.degrees(direction)),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    for i, spread in enumerate((-0.3, -0.1, 0.1, 0.3)):
        length = scale * (0.55 + 0.1 * (1.5 - abs(i - 1.5)))
        base = (
            ax + dx * scale * 0.3 + px_ * spread * scale,
            ay + dy * scale * 0.3 + py_ * spread * scale,
        )
        tip = (base[0] + dx * length, base[1] + dy * length)
        cv2.line(
            mask,
            (int(base[0]), int(base[1])),
            (int(tip[0]), int(tip[1])),
            255,
            max(int(scale * 0.13), 2),
            cv2.LINE_AA,
        )
    thumb = (ax + px_ * scale * 0.55 + dx * scale * 0.2, ay + py_ * scale * 0.55 + dy * scale * 0.2)
    cv2.line(
        mask,
        (int(ax), int(ay)),
        (int(thumb[0]), int(thumb[1])),
        255,
        max(int(scale * 0.16), 2),
        cv2.LINE_AA,
    )
    shadow = cv2.GaussianBlur(
        np.roll(mask, (int(scale * 0.25), int(scale * 0.2)), (0, 1)), (0, 0), scale * 0.2
    )
    f = frame.astype(np.float32) * (1 - shadow.astype(np.float32)[..., None] / 255.0 * 0.45)
    # Skin: shaded across the arm's width so it reads as rounded.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = ((xx - ax) * px_ + (yy - ay) * py_) / max(scale, 1.0)
    shade = np.clip(1.0 - 0.35 * across**2, 0.55, 1.05)
    skin_img = shade[..., None] * np.array(skin, np.float32)
    a = cv2.GaussianBlur(mask, (0, 0), 1.0).astype(np.float32)[..., None] / 255.0
    f = f * (1 - a) + skin_img * a
    frame[:] = np.clip(f, 0, 255).astype(np.uint8)
    return mask


def finish(
    frame: Frame,
    gain: FloatImage,
    blur: float,
    noise: float,
    jpeg_quality: int | None,
    rng: np.random.Generator,
) -> Frame:
    """Apply the lighting gain, lens blur, sensor noise and (optionally) JPEG compression."""
    h, w = frame.shape[:2]
    f = frame.astype(np.float32) * gain
    if blur > 0.2:
        f = np.asarray(cv2.GaussianBlur(f, (0, 0), blur), np.float32)
    if noise > 0:
        f += noise_bank(w, h, noise, rng)
    out: Frame = np.clip(f, 0, 255).astype(np.uint8)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out
