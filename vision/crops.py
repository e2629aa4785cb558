"""Square crops of a frame around a die, at one fixed size (`CROP_SIZE` unless asked), for the die
classifier.

A crop is centred on a point, turned by an angle and scaled so that a die ``width`` pixels wide
fills `CROP_SPAN` of it, whatever the camera height. The frame is reduced in a pyramid first so
that no crop is shrunk more than twice by interpolation (a 150 px die is not aliased into noise).
The same function cuts the training crops (training/make_crops.py) and the crops read at the table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Frame

CROP_SIZE = 32
"""Side of a crop in pixels."""
CROP_SPAN = 1.6
"""Side of a crop in die widths: the die and a little of what lies around it."""
_LEVELS = 4

Pyramid = tuple[Frame, ...]


def pyramid_of(frame: Frame) -> Pyramid:
    """The frame and its halvings (each level half the size of the one before)."""
    levels = [frame]
    for _ in range(_LEVELS - 1):
        if min(levels[-1].shape[:2]) < 2 * CROP_SIZE:
            break
        levels.append(np.asarray(cv2.pyrDown(levels[-1]), dtype=np.uint8))
    return tuple(levels)


def die_crop(
    pyramid: Pyramid,
    center: tuple[float, float],
    width: float,
    angle: float = 0.0,
    size: int = CROP_SIZE,
) -> Frame:
    """The ``size``×``size``×3 crop around ``center`` (x, y in frame pixels) for a die ``width``
    pixels wide, turned by ``angle`` degrees; what lies outside the frame is copied from its
    edge."""
    side = CROP_SPAN * max(width, 1.0)
    shrink = side / size
    level = min(len(pyramid) - 1, max(0, math.floor(math.log2(max(shrink, 1.0)))))
    image = pyramid[level]
    factor = 2.0**level
    scale = size / side * factor
    cx, cy = center[0] / factor, center[1] / factor
    # pyrDown keeps pixel centres at (2i + 0.5) of the level above: shift by half a pixel per level.
    offset = 0.5 - 0.5 / factor
    cx -= offset
    cy -= offset
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[0, 2] += size / 2 - cx
    matrix[1, 2] += size / 2 - cy
    crop = cv2.warpAffine(
        image,
        matrix,
        (size, size),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(crop, dtype=np.uint8)


def to_blob(crops: Sequence[Frame]) -> npt.NDArray[np.float32]:
    """Crops as the classifier's input: N×3×S×S float32, each crop centred on its own mean and
    scaled by its own spread (so that lighting and exposure matter little)."""
    batch = np.stack([np.asarray(c, dtype=np.float32) for c in crops])
    mean = batch.mean(axis=(1, 2, 3), keepdims=True)
    spread = batch.std(axis=(1, 2, 3), keepdims=True) + 8.0
    normal = (batch - mean) / spread
    return np.ascontiguousarray(normal.transpose(0, 3, 1, 2), dtype=np.float32)
