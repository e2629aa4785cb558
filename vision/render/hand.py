"""A hand and forearm reaching over a synthetic tray (the throwing hand, or a player's hand).

Part of the synthetic tray renderer (``vision.render``): a flat, shaded silhouette (forearm, palm,
four fingers, thumb) with a soft shadow. It is there so that settle tracking and the reader meet
large skin-coloured occluders; it is not a model of a hand.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Frame

Mask = npt.NDArray[np.uint8]


def draw_hand(
    frame: Frame,
    anchor: tuple[float, float],
    direction: float,
    scale: float,
    skin: tuple[int, int, int],
    gain: npt.NDArray[np.float32] | None = None,
) -> Mask:
    """Draw an arm reaching in along ``direction`` (radians) with the palm centre at ``anchor`` and
    a palm about ``scale`` × 0.75 wide, with its shadow, onto ``frame`` in place; return the hand's
    mask (uint8, 255 = covered). ``gain`` (H×W×3) is the light falling on the frame."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    shift = 3
    one = 1 << shift
    a = np.array(anchor, float)
    d = np.array([np.cos(direction), np.sin(direction)])
    p = np.array([-d[1], d[0]])

    def pt(v: npt.NDArray[np.float64]) -> tuple[int, int]:
        return (round(float(v[0]) * one), round(float(v[1]) * one))

    # Forearm: a tapered band from far outside the frame to the wrist.
    wrist = a - d * scale * 0.45
    far = wrist - d * (w + h) * 1.5
    arm = np.array(
        [
            wrist + p * scale * 0.3,
            far + p * scale * 0.42,
            far - p * scale * 0.42,
            wrist - p * scale * 0.3,
        ]
    )
    cv2.fillConvexPoly(mask, np.round(arm * one).astype(np.int32), 255, cv2.LINE_AA, shift)
    # Palm: a rounded box.
    palm = [a + d * sx * scale * 0.4 + p * sy * scale * 0.36 for sx in (-1, 1) for sy in (-1, 1)]
    hull = cv2.convexHull(np.round(np.array(palm) * one).astype(np.int32))
    cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_AA, shift)
    cv2.ellipse(
        mask,
        pt(a),
        (round(scale * 0.42 * one), round(scale * 0.38 * one)),
        float(np.degrees(direction)),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
        shift,
    )
    # Fingers: capsules, the middle ones longest, slightly spread.
    finger_w = max(round(scale * 0.16), 2)
    for i, across in enumerate((-0.27, -0.09, 0.09, 0.27)):
        length = scale * (0.5 + 0.12 * (1.5 - abs(i - 1.5)))
        spread = across * 0.35
        fd = d * np.cos(spread) + p * np.sin(spread)
        base = a + d * scale * 0.35 + p * across * scale
        tip = base + fd * length
        cv2.line(mask, pt(base), pt(tip), 255, finger_w, cv2.LINE_AA, shift)
    thumb_base = a - d * scale * 0.1 + p * scale * 0.3
    thumb_tip = thumb_base + (d * 0.6 + p * 0.8) * scale * 0.4
    cv2.line(
        mask, pt(thumb_base), pt(thumb_tip), 255, max(round(scale * 0.18), 2), cv2.LINE_AA, shift
    )

    # Soft shadow, offset and blurred at 1/8 resolution.
    small = cv2.resize(mask, ((w + 7) // 8, (h + 7) // 8), interpolation=cv2.INTER_AREA)
    sx, sy = d * scale * 0.05 + np.array([scale * 0.15, scale * 0.12])
    small = np.roll(small, (int(sy / 8), int(sx / 8)), (0, 1))
    sigma = max(scale * 0.12 / 8, 0.5)
    small_f = cv2.GaussianBlur(small.astype(np.float32) / 255.0, (0, 0), sigma)
    # Work only where the hand or its shadow is.
    rows, cols = np.nonzero((small_f > 0.004) | (small > 0))
    if rows.size == 0 and not mask.any():
        return mask
    y0, y1 = max(int(rows.min()) * 8 - 8, 0), min(int(rows.max()) * 8 + 16, h)
    x0, x1 = max(int(cols.min()) * 8 - 8, 0), min(int(cols.max()) * 8 + 16, w)
    ys_m, xs_m = np.nonzero(mask)
    if ys_m.size:
        y0, y1 = min(y0, int(ys_m.min())), max(y1, int(ys_m.max()) + 1)
        x0, x1 = min(x0, int(xs_m.min())), max(x1, int(xs_m.max()) + 1)
    shadow = cv2.resize(small_f, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    roi = frame[y0:y1, x0:x1]
    f = roi.astype(np.float32) * (1.0 - shadow[..., None] * 0.45)
    # Skin: a rounded shading across the arm, blotchy at a low frequency.
    xs = np.arange(x0, x1, dtype=np.float32)[None, :] - np.float32(a[0])
    ys = np.arange(y0, y1, dtype=np.float32)[:, None] - np.float32(a[1])
    lateral = (xs * np.float32(p[0]) + ys * np.float32(p[1])) / np.float32(max(scale, 1.0))
    shade = np.clip(1.08 - 0.45 * lateral**2, 0.6, 1.1)
    seed = int(abs(anchor[0] * 7 + anchor[1] * 13)) % (2**31)
    blotch = np.random.default_rng(seed).random((6, 8)).astype(np.float32)
    blotches = cv2.resize(blotch, (w, h), interpolation=cv2.INTER_CUBIC)[y0:y1, x0:x1]
    shade *= 1.0 + (blotches - 0.5) * 0.12
    alpha = cv2.GaussianBlur(mask, (0, 0), 0.8)[y0:y1, x0:x1].astype(np.float32)[..., None] / 255.0
    skin_img = shade[..., None] * np.array(skin, np.float32)
    if gain is not None:
        skin_img *= gain[y0:y1, x0:x1]
    f = f * (1 - alpha) + skin_img * alpha
    roi[:] = np.clip(f, 0, 255).astype(np.uint8)
    return mask
