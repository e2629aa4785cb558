"""Still images from files, their size checked from the header before any pixel is decoded.

A small file can claim a huge image (a PNG header saying 40000×40000 is a few hundred bytes);
decoding it would take gigabytes. `read_image` reads the header with Pillow (which decodes
nothing until asked), refuses images over `MAX_IMAGE_PIXELS` or `MAX_IMAGE_SIDE`, and only then
decodes with OpenCV. Every failure is an `ImageUnreadable` naming the file.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from engine.errors import DicekeeperError
from hardware.camera import Frame

__all__ = ["MAX_IMAGE_PIXELS", "MAX_IMAGE_SIDE", "ImageUnreadable", "image_size", "read_image"]

MAX_IMAGE_PIXELS = 50_000_000
"""The largest image read (about 150 MB as BGR): a 12 MP Pi camera still is well under it."""
MAX_IMAGE_SIDE = 16_384
"""The longest side read, in pixels."""


class ImageUnreadable(DicekeeperError, ValueError):
    """A file that is no image we read: unknown format, damaged header, too large, no pixels."""


def image_size(path: str | Path) -> tuple[int, int]:
    """The (width, height) an image file's header declares; nothing is decoded.

    Raises `ImageUnreadable` when the header cannot be read or the size is over the limits.
    """
    where = repr(str(path))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
    except Image.DecompressionBombError as exc:
        raise ImageUnreadable(
            f"{where} is too large to read: its header declares an image of far over "
            f"{MAX_IMAGE_PIXELS:,} pixels ({exc})"
        ) from None
    except UnidentifiedImageError:
        raise ImageUnreadable(f"{where} is not an image (its header is not one we read)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageUnreadable(f"{where} is not an image we can read ({exc})") from None
    if width < 1 or height < 1:
        raise ImageUnreadable(f"{where} declares an empty image ({width}×{height})")
    if max(width, height) > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
        raise ImageUnreadable(
            f"{where} is {width}×{height} pixels: too large to read (at most "
            f"{MAX_IMAGE_SIDE} pixels a side and {MAX_IMAGE_PIXELS:,} in all)"
        )
    return width, height


def read_image(path: str | Path) -> Frame:
    """The image at ``path`` as an H×W×3 uint8 BGR frame, its size checked first (`image_size`)."""
    width, height = image_size(path)
    try:
        decoded = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise ImageUnreadable(f"{str(path)!r} cannot be decoded: {exc}") from None
    if decoded is None:
        raise ImageUnreadable(f"{str(path)!r} cannot be decoded (damaged image data?)")
    frame = np.asarray(decoded, dtype=np.uint8)
    if frame.shape[:2] != (height, width) and frame.shape[:2] != (width, height):
        # An EXIF rotation may swap the sides; any other size is not what the header said.
        raise ImageUnreadable(
            f"{str(path)!r} decoded to {frame.shape[1]}×{frame.shape[0]} pixels, "
            f"not the {width}×{height} its header declares"
        )
    return frame
