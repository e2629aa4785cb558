"""Camera backends: replay of files written here, OpenCV without a camera, the simulated one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware import CameraUnavailable, ReplayEnded, open_camera
from hardware.camera import Camera, Frame
from hardware.errors import InvalidOption
from hardware.simulated_camera import SimulatedCamera


def solid(value: int, *, size: tuple[int, int] = (24, 32)) -> Frame:
    return np.full((*size, 3), value, dtype=np.uint8)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    # written out of order: the replay must sort them by name
    for name, value in (("frame_2.png", 20), ("frame_0.png", 0), ("frame_1.png", 10)):
        assert cv2.imwrite(str(tmp_path / name), solid(value))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_replay_folder_plays_images_in_name_order_then_ends(folder: Path) -> None:
    with open_camera("replay", path=folder) as camera:
        assert isinstance(camera, Camera)
        seen = [int(camera.read()[0, 0, 0]) for _ in range(3)]
        assert seen == [0, 10, 20]
        with pytest.raises(ReplayEnded, match="loop"):
            camera.read()


def test_replay_loops_and_repeats(folder: Path) -> None:
    with open_camera("replay", path=folder, loop=True, repeat=2) as camera:
        seen = [int(camera.read()[0, 0, 0]) for _ in range(8)]
    assert seen == [0, 0, 10, 10, 20, 20, 0, 0]


def test_replay_frames_are_bgr_uint8(tmp_path: Path) -> None:
    grey = np.arange(24 * 32, dtype=np.uint8).reshape(24, 32)
    cv2.imwrite(str(tmp_path / "grey.png"), grey)
    frame = open_camera("replay", path=tmp_path).read()
    assert frame.shape == (24, 32, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame[:, :, 0], grey)


def test_replay_video(tmp_path: Path) -> None:
    path = tmp_path / "throw.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (32, 24))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for value in (40, 200, 120):
        writer.write(solid(value))
    writer.release()
    with open_camera("replay", path=path) as camera:
        means = [float(camera.read().mean()) for _ in range(3)]
        with pytest.raises(ReplayEnded):
            camera.read()
    assert means == pytest.approx([40, 200, 120], abs=8)


def test_replay_of_nothing_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraUnavailable, match="no images"):
        open_camera("replay", path=tmp_path)
    with pytest.raises(CameraUnavailable, match="no such file"):
        open_camera("replay", path=tmp_path / "missing")
    with pytest.raises(InvalidOption, match="repeat"):
        open_camera("replay", path=tmp_path, repeat=0)


def test_opencv_without_a_camera_says_what_to_do() -> None:
    with pytest.raises(CameraUnavailable) as raised:
        open_camera("opencv", source=97)
    message = str(raised.value)
    assert "no camera at index 97" in message
    assert 'backend = "simulated" under [camera]' in message
    assert isinstance(raised.value, OSError)


class FakeRenderer:
    """Three tumbling frames and a settled one; the pixel value encodes the throw."""

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[int, ...], int]] = []

    def __call__(self, values: Sequence[int], seed: int) -> list[Frame]:
        self.calls.append((tuple(values), seed))
        code = sum(values) + 10 * len(values)
        return [solid(1), solid(2), solid(3), solid(code)]


def test_simulated_camera_tumbles_then_settles() -> None:
    render = FakeRenderer()
    camera = open_camera("simulated", render_throw=render, script=[(1, 5, 5)])
    empty = camera.read()
    assert int(empty[0, 0, 0]) == 0 and render.calls == [((), 0)]
    camera.expect_throw(3)
    seen = [int(camera.read()[0, 0, 0]) for _ in range(6)]
    assert seen == [1, 2, 3, 41, 41, 41]
    assert isinstance(camera, SimulatedCamera) and camera.last_values == (1, 5, 5)


def test_simulated_camera_script_first_then_seeded_random() -> None:
    script = [(2, 2, 2, 2)]  # the wrong number of dice on purpose
    first = SimulatedCamera(FakeRenderer(), script=script, seed=7)
    first.expect_throw(3)
    assert first.last_values == (2, 2, 2, 2)
    values = []
    for n in (6, 5, 1):
        first.expect_throw(n)
        assert len(first.last_values) == n
        assert all(1 <= v <= 6 for v in first.last_values)
        values.append(first.last_values)
    again = SimulatedCamera(FakeRenderer(), script=script, seed=7)
    again.expect_throw(3)
    repeated = []
    for n in (6, 5, 1):
        again.expect_throw(n)
        repeated.append(again.last_values)
    assert repeated == values
    injected = SimulatedCamera(FakeRenderer(), rng=random.Random(7))
    injected.expect_throw(6)
    assert injected.last_values == values[0]


def test_simulated_camera_unplugged() -> None:
    camera = SimulatedCamera(FakeRenderer())
    camera.read()
    camera.unplug()
    with pytest.raises(CameraUnavailable, match="plugged in"):
        camera.read()
    camera.replug()
    camera.read()
    with pytest.raises(CameraUnavailable, match="no camera at index 0"):
        open_camera("unplugged").read()


def test_simulated_camera_returns_copies() -> None:
    camera = SimulatedCamera(FakeRenderer())
    frame = camera.read()
    frame[:] = 99
    assert int(camera.read()[0, 0, 0]) == 0
