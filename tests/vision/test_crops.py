"""Crops around dice for the classifier: size, centring, scale and turn, far edges."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.crops import CROP_SIZE, CROP_SPAN, die_crop, pyramid_of, to_blob


def _square_frame(centre: tuple[int, int], side: int, size: tuple[int, int] = (640, 480)):
    """A grey frame with one white square (a blank die face) of ``side`` px at ``centre``."""
    frame = np.full((size[1], size[0], 3), 60, dtype=np.uint8)
    x, y = centre
    half = side // 2
    frame[y - half : y + half, x - half : x + half] = 230
    return frame


@pytest.mark.parametrize("side", [20, 45, 90, 150])
def test_a_die_fills_the_same_part_of_its_crop_at_any_size(side: int) -> None:
    frame = _square_frame((320, 240), side)
    crop = die_crop(pyramid_of(frame), (320.0, 240.0), float(side))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and crop.dtype == np.uint8
    bright = (crop[:, :, 0] > 145).mean(axis=0)
    width = float(bright[CROP_SIZE // 2]) * CROP_SIZE  # the white square's height at the middle
    assert width == pytest.approx(CROP_SIZE / CROP_SPAN, abs=2.0)
    assert crop[0, 0, 0] < 100 and crop[CROP_SIZE // 2, CROP_SIZE // 2, 0] > 200


@pytest.mark.parametrize("side", [24, 140])
def test_the_crop_is_centred_on_the_point_asked_for(side: int) -> None:
    frame = _square_frame((300, 200), side)
    off = die_crop(pyramid_of(frame), (300.0 + side / 2, 200.0), float(side))
    # The square's right edge now runs down the middle: its left half is white, right half grey.
    middle = CROP_SIZE // 2
    assert off[middle, middle - 4, 0] > 200
    assert off[middle, middle + 4, 0] < 100


def test_a_turned_crop_turns_the_picture() -> None:
    frame = np.full((200, 200, 3), 60, dtype=np.uint8)
    frame[90:110, 100:140] = 230  # a bar to the right of the centre
    upright = die_crop(pyramid_of(frame), (100.0, 100.0), 50.0)
    turned = die_crop(pyramid_of(frame), (100.0, 100.0), 50.0, angle=90.0)
    assert upright[16, 26, 0] > 200 and upright[6, 16, 0] < 100
    rotated = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)
    assert np.abs(turned.astype(int) - rotated.astype(int)).mean() < 12


def test_a_crop_past_the_frame_edge_repeats_the_edge() -> None:
    frame = _square_frame((320, 240), 40)
    crop = die_crop(pyramid_of(frame), (-30.0, -30.0), 40.0)
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert int(crop.min()) == int(crop.max()) == 60


def test_the_blob_is_channels_first_and_normalised_per_crop() -> None:
    rng = np.random.default_rng(3)
    crops = [rng.integers(0, 256, (CROP_SIZE, CROP_SIZE, 3), dtype=np.uint8) for _ in range(3)]
    dim = (crops[0] // 4).astype(np.uint8)
    blob = to_blob([*crops, dim])
    assert blob.shape == (4, 3, CROP_SIZE, CROP_SIZE) and blob.dtype == np.float32
    assert np.allclose(blob.mean(axis=(1, 2, 3)), 0.0, atol=1e-4)
    assert np.allclose(
        blob[0, 0], (crops[0][:, :, 0] - crops[0].mean()) / (crops[0].std() + 8.0), atol=1e-4
    )
