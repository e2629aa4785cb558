"""The picamera2 backend with a fake picamera2 module: every failure is one line with a hint."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence

import numpy as np
import pytest

from engine.errors import DicekeeperError
from hardware import open_camera
from hardware.camera_backends import Picamera2Camera
from hardware.errors import BackendMissing, CameraUnavailable

DTYPE_SIZE_CHANGED = (
    "numpy.dtype size changed, may indicate binary incompatibility. "
    "Expected 96 from C header, got 88 from PyObject"
)


class FailingImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes ``import picamera2`` raise ``error`` as the module runs, as a broken build does."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(name, self) if name == "picamera2" else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        raise self.error


class FakePicamera2:
    """Records what the backend asks of the camera; ``fail`` names a method that raises."""

    fail: str = ""
    instances: list[FakePicamera2] = []  # noqa: RUF012 (reset by the fixture)

    def __init__(self) -> None:
        if self.fail == "__init__":
            raise IndexError("list index out of range")
        self.calls: list[str] = []
        FakePicamera2.instances.append(self)

    def _call(self, name: str) -> None:
        self.calls.append(name)
        if self.fail == name:
            raise RuntimeError(f"Failed to {name}\nsecond line of the library's message")

    def create_preview_configuration(self, main: dict[str, object]) -> dict[str, object]:
        self._call("create_preview_configuration")
        return {"main": main}

    def configure(self, config: dict[str, object]) -> None:
        self._call("configure")

    def start(self) -> None:
        self._call("start")

    def capture_array(self, stream: str) -> np.ndarray:
        self._call("capture_array")
        return np.full((4, 6, 3), 7, dtype=np.uint8)

    def stop(self) -> None:
        self._call("stop")

    def close(self) -> None:
        self._call("close")


@pytest.fixture
def no_picamera2(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """A clean slate: no picamera2 module loaded, the finders as they were after the test."""
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    return monkeypatch


@pytest.fixture
def fake_picamera2(no_picamera2: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    no_picamera2.setitem(sys.modules, "picamera2", module)
    no_picamera2.setattr(FakePicamera2, "fail", "")
    no_picamera2.setattr(FakePicamera2, "instances", [])
    return FakePicamera2


def test_picamera2_not_installed_says_how_to_install(no_picamera2: pytest.MonkeyPatch) -> None:
    no_picamera2.setitem(sys.modules, "picamera2", None)  # `import picamera2` raises ImportError
    with pytest.raises(BackendMissing) as raised:
        open_camera("picamera2")
    message = str(raised.value)
    assert "\n" not in message
    assert "apt install python3-picamera2" in message
    assert "--system-site-packages" in message
    assert 'backend = "simulated" under [camera]' in message


def test_picamera2_against_another_numpy_is_one_line_with_the_numpy_hint(
    no_picamera2: pytest.MonkeyPatch,
) -> None:
    no_picamera2.setattr(sys, "meta_path", [FailingImport(ValueError(DTYPE_SIZE_CHANGED))])
    with pytest.raises(BackendMissing) as raised:
        open_camera("picamera2")
    message = str(raised.value)
    assert isinstance(raised.value, DicekeeperError)
    assert "\n" not in message
    assert "ValueError: numpy.dtype size changed" in message
    assert "constraints-bookworm.txt" in message
    assert isinstance(raised.value.__cause__, ValueError)


@pytest.mark.parametrize(
    "error",
    [RuntimeError("libcamera failed\nat line 2"), OSError(5, "Input/output error"), KeyError("x")],
)
def test_any_other_failure_to_import_picamera2_is_one_line(
    no_picamera2: pytest.MonkeyPatch, error: Exception
) -> None:
    no_picamera2.setattr(sys, "meta_path", [FailingImport(error)])
    with pytest.raises(BackendMissing) as raised:
        Picamera2Camera()
    message = str(raised.value)
    assert "\n" not in message
    assert type(error).__name__ in message
    assert "picamera2" in message


def test_no_camera_on_the_ribbon_says_where_to_look(fake_picamera2: type[FakePicamera2]) -> None:
    fake_picamera2.fail = "__init__"
    with pytest.raises(CameraUnavailable, match=r"no Raspberry Pi camera found \(IndexError"):
        open_camera("picamera2")


@pytest.mark.parametrize("step", ["create_preview_configuration", "configure", "start"])
def test_a_camera_that_does_not_start_is_released(
    fake_picamera2: type[FakePicamera2], step: str
) -> None:
    fake_picamera2.fail = step
    with pytest.raises(CameraUnavailable) as raised:
        Picamera2Camera(width=640, height=480)
    assert "\n" not in str(raised.value)
    assert f"RuntimeError: Failed to {step}" in str(raised.value)
    assert "640x480" in str(raised.value)
    (camera,) = fake_picamera2.instances
    assert camera.calls[-1] == "close"


def test_a_working_camera_gives_bgr_frames_and_closes_once(
    fake_picamera2: type[FakePicamera2],
) -> None:
    with Picamera2Camera(width=6, height=4) as camera:
        frame = camera.read()
        assert frame.shape == (4, 6, 3)
        assert frame.dtype == np.uint8
        assert int(frame[0, 0, 0]) == 7
    camera.close()
    (fake,) = fake_picamera2.instances
    assert fake.calls == [
        "create_preview_configuration",
        "configure",
        "start",
        "capture_array",
        "stop",
        "close",
    ]
    with pytest.raises(CameraUnavailable, match="closed"):
        camera.read()
