"""Image files are sized from their header before decoding; bad ones are `ImageUnreadable`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.bad_images import claimed_png, damaged_header_png, empty_file, truncated_jpeg
from hardware.camera_backends import ReplayCamera
from hardware.errors import CameraUnavailable
from hardware.image_files import MAX_IMAGE_PIXELS, ImageUnreadable, image_size, read_image


def test_a_good_image_is_read_as_bgr(tmp_path: Path) -> None:
    image = np.zeros((48, 64, 3), np.uint8)
    image[:, :, 2] = 200  # red in BGR
    path = tmp_path / "red.png"
    cv2.imwrite(str(path), image)
    assert image_size(path) == (64, 48)
    assert np.array_equal(read_image(path), image)


@pytest.mark.parametrize(
    ("width", "height", "words"),
    [
        (40_000, 40_000, "far over 50,000,000 pixels"),
        (20_000, 20_000, "far over"),
        (17_000, 100, "17000×100 pixels: too large"),
        (8_000, 7_000, "8000×7000 pixels: too large"),
    ],
)
def test_a_header_declaring_a_huge_image_is_refused_before_decoding(
    tmp_path: Path, width: int, height: int, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = claimed_png(tmp_path / "huge.png", width, height)
    decoded: list[str] = []
    monkeypatch.setattr(cv2, "imread", lambda *args: decoded.append("decoded"))
    with pytest.raises(ImageUnreadable, match="too large") as info:
        read_image(path)
    assert words in str(info.value) and str(path) in str(info.value)
    assert decoded == []
    assert width * height > MAX_IMAGE_PIXELS or max(width, height) > 16_384


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (damaged_header_png, "is not an image"),
        (truncated_jpeg, "is not an image we can read"),
        (empty_file, "is not an image"),
    ],
)
def test_a_damaged_or_empty_file_is_a_clear_error(
    tmp_path: Path, make: Callable[[Path], Path], words: str
) -> None:
    path = make(tmp_path / "bad.png")
    with pytest.raises(ImageUnreadable, match=words):
        read_image(path)


def test_the_replay_camera_turns_a_bad_frame_into_camera_unavailable(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.full((48, 64, 3), 90, np.uint8))
    damaged_header_png(tmp_path / "b.png")
    claimed_png(tmp_path / "c.png", 40_000, 40_000)
    cv2.imwrite(str(tmp_path / "d.png"), np.full((48, 64, 3), 30, np.uint8))
    camera = ReplayCamera(tmp_path)
    assert camera.read().shape == (48, 64, 3)
    with pytest.raises(CameraUnavailable, match=r"b\.png.*is not an image"):
        camera.read()
    with pytest.raises(CameraUnavailable, match=r"c\.png.*too large"):
        camera.read()
    assert int(camera.read()[0, 0, 0]) == 30  # the next good frame
