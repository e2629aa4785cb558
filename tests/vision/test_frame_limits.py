"""The reader's size limits: frames over `MAX_SIDE` or `MAX_PIXELS` are refused before any work.

The huge frames are broadcast views of a single pixel: they have the shape without the memory.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import InvalidFrame, read
from vision.validate import MAX_PIXELS, MAX_SIDE, check_frame


def _shaped(height: int, width: int) -> np.ndarray:
    return np.broadcast_to(np.zeros((1, 1, 3), np.uint8), (height, width, 3))


@pytest.mark.parametrize(
    ("height", "width"),
    [(20_000, 20_000), (40_000, 40_000), (16, MAX_SIDE + 1), (MAX_SIDE + 1, 16), (7_100, 7_100)],
)
def test_a_frame_over_the_limits_is_refused_naming_its_shape(height: int, width: int) -> None:
    assert max(height, width) > MAX_SIDE or height * width > MAX_PIXELS
    with pytest.raises(InvalidFrame, match=r"at most .* pixels") as info:
        read(_shaped(height, width))
    assert repr((height, width, 3)) in str(info.value)


@pytest.mark.parametrize(("height", "width"), [(MAX_SIDE, 16), (7_000, 7_000), (16, 16)])
def test_a_frame_at_the_limits_is_accepted(height: int, width: int) -> None:
    frame = _shaped(height, width)
    assert check_frame(frame) is frame


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((480, 640, 3), np.int8),
        np.zeros((480, 640, 3), np.float64),
        np.zeros((480, 640, 3), bool),
        np.zeros((480, 640, 3, 1), np.uint8),
        np.zeros((3,), np.uint8),
        np.zeros((), np.uint8),
    ],
    ids=["1x1", "int8", "float64", "bool", "4-d", "1-d", "0-d"],
)
def test_wrong_dtypes_and_shapes_are_refused(frame: np.ndarray) -> None:
    with pytest.raises(InvalidFrame, match="a frame must"):
        read(frame)
