"""Real camera backends (OpenCV, Picamera2, file replay) and the registry of all camera names."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from hardware.backends import Closing, Registry
from hardware.camera import Camera, Frame
from hardware.errors import BackendMissing, CameraUnavailable, InvalidOption, ReplayEnded
from hardware.image_files import ImageUnreadable, read_image
from hardware.simulated_camera import SIMULATED_HINT, SimulatedCamera, UnpluggedCamera

if TYPE_CHECKING:
    from collections.abc import Sequence

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


def as_bgr(image: np.ndarray, *, source: str) -> Frame:
    """``image`` as an H×W×3 uint8 BGR frame (grey and BGRA frames are converted)."""
    if image.dtype != np.uint8:
        raise CameraUnavailable(f"{source} delivered {image.dtype} pixels, expected uint8")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR).astype(np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR).astype(np.uint8)
    if image.ndim == 3 and image.shape[2] == 3:
        return image.astype(np.uint8, copy=False)
    raise CameraUnavailable(f"{source} delivered an image of shape {image.shape!r}")


class OpenCvCamera(Closing):
    """A camera read with ``cv2.VideoCapture``: a device index (USB/V4L2) or a path/URL."""

    def __init__(
        self,
        source: int | str = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
    ) -> None:
        self.source = source
        self._where = f"index {source}" if isinstance(source, int) else f"{source!r}"
        self._capture: cv2.VideoCapture | None = cv2.VideoCapture(source)
        if not self._capture.isOpened():
            self._capture.release()
            self._capture = None
            raise CameraUnavailable(
                f"no camera at {self._where}: is it plugged in? {SIMULATED_HINT}"
            )
        for prop, value in (
            (cv2.CAP_PROP_FRAME_WIDTH, width),
            (cv2.CAP_PROP_FRAME_HEIGHT, height),
            (cv2.CAP_PROP_FPS, fps),
        ):
            if value is not None:
                self._capture.set(prop, float(value))

    def read(self) -> Frame:
        """The next frame; `CameraUnavailable` when the camera stopped sending."""
        if self._capture is None:
            raise CameraUnavailable(f"the camera at {self._where} is closed")
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraUnavailable(
                f"the camera at {self._where} stopped sending frames: was it unplugged? "
                f"{SIMULATED_HINT}"
            )
        return as_bgr(image, source=f"the camera at {self._where}")

    def expect_throw(self, n: int) -> None:
        """Nothing to do: real dice are thrown by a person."""

    def close(self) -> None:
        """Release the capture device (idempotent)."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


PICAMERA2_INSTALL_HINT = (
    "install Raspberry Pi OS's package (sudo apt install python3-picamera2) and create the "
    "virtualenv with `python3 -m venv --system-site-packages`"
)
PICAMERA2_NUMPY_HINT = (
    "apt's picamera2 is built against apt's numpy and the virtualenv has another numpy over it: "
    "reinstall with systemd/install.sh (on Bookworm it applies systemd/constraints-bookworm.txt)"
)


def one_line(error: BaseException) -> str:
    """``error`` as ``Type: first line of its message``, for a one-line report."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


def import_picamera2() -> type:
    """The ``Picamera2`` class; `BackendMissing` with a hint for any failure to import it.

    picamera2 imports numpy, libcamera and simplejpeg when it loads, so besides `ImportError` a
    numpy of another build raises ``ValueError: numpy.dtype size changed`` (or anything else).
    """
    try:
        from picamera2 import Picamera2
    except ImportError as error:
        raise BackendMissing(
            f"the picamera2 camera needs the picamera2 library ({one_line(error)}): "
            f"{PICAMERA2_INSTALL_HINT}; or {SIMULATED_HINT}"
        ) from error
    except Exception as error:
        hint = (
            PICAMERA2_NUMPY_HINT
            if "numpy" in str(error) or "dtype" in str(error)
            else PICAMERA2_INSTALL_HINT
        )
        raise BackendMissing(
            f"the picamera2 library does not load ({one_line(error)}): {hint}; or {SIMULATED_HINT}"
        ) from error
    camera_class: type = Picamera2
    return camera_class


class Picamera2Camera(Closing):
    """The Raspberry Pi camera through Picamera2 (imported only when this backend is chosen)."""

    def __init__(self, *, width: int = 1280, height: int = 960) -> None:
        self._camera: object | None = None
        camera_class = import_picamera2()
        try:
            camera = camera_class()
        except Exception as error:
            raise CameraUnavailable(
                f"no Raspberry Pi camera found ({one_line(error)}): is the ribbon cable seated "
                f"and the camera enabled (rpicam-hello --list-cameras)? {SIMULATED_HINT}"
            ) from error
        try:
            # "RGB888" is laid out B, G, R in memory: the order OpenCV expects.
            config = camera.create_preview_configuration(
                main={"format": "RGB888", "size": (width, height)}
            )
            camera.configure(config)
            camera.start()
        except Exception as error:
            with contextlib.suppress(Exception):
                camera.close()
            raise CameraUnavailable(
                f"the Raspberry Pi camera does not start at {width}x{height} "
                f"({one_line(error)}): is another program using it? {SIMULATED_HINT}"
            ) from error
        self._camera = camera

    def read(self) -> Frame:
        """The next frame from the sensor."""
        if self._camera is None:
            raise CameraUnavailable("the Raspberry Pi camera is closed")
        try:
            image = self._camera.capture_array("main")  # type: ignore[attr-defined]
        except (RuntimeError, OSError) as error:
            raise CameraUnavailable(f"the Raspberry Pi camera failed: {error}") from error
        return as_bgr(np.asarray(image), source="the Raspberry Pi camera")

    def expect_throw(self, n: int) -> None:
        """Nothing to do: real dice are thrown by a person."""

    def close(self) -> None:
        """Stop and release the camera (idempotent)."""
        if self._camera is not None:
            camera, self._camera = self._camera, None
            camera.stop()  # type: ignore[attr-defined]
            camera.close()  # type: ignore[attr-defined]


class ReplayCamera(Closing):
    """Frames from a folder of images (sorted by name) or a video file.

    Each frame is returned ``repeat`` times (so a settle tracker sees a still tray); at the end it
    starts again when ``loop`` is true, else `read()` raises `ReplayEnded`.
    """

    def __init__(self, path: str | Path, *, loop: bool = False, repeat: int = 1) -> None:
        self.path = Path(path)
        if repeat < 1:
            raise InvalidOption(f"repeat must be at least 1, not {repeat!r}")
        self.loop = loop
        self.repeat = repeat
        self._images: Sequence[Path] = ()
        self._video: cv2.VideoCapture | None = None
        self._index = 0
        self._shown = 0
        self._current: Frame | None = None
        if self.path.is_dir():
            self._images = sorted(
                p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._images:
                raise CameraUnavailable(
                    f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in {str(path)!r}"
                )
        elif self.path.is_file():
            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                raise CameraUnavailable(f"cannot open {str(path)!r} as a video")
        else:
            raise CameraUnavailable(f"nothing to replay at {str(path)!r}: no such file or folder")

    def read(self) -> Frame:
        """The next frame of the replay."""
        if self._current is not None and self._shown < self.repeat:
            self._shown += 1
            return self._current.copy()
        self._current = self._next()
        self._shown = 1
        return self._current.copy()

    def _next(self) -> Frame:
        if self._video is not None:
            ok, image = self._video.read()
            if not ok and self.loop and self._index > 0:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, image = self._video.read()
            if not ok:
                raise ReplayEnded(self._ended())
            self._index += 1
            return as_bgr(image, source=repr(str(self.path)))
        if self._index >= len(self._images):
            if not self.loop:
                raise ReplayEnded(self._ended())
            self._index = 0
        image_path = self._images[self._index]
        self._index += 1
        try:
            still = read_image(image_path)
        except ImageUnreadable as exc:
            raise CameraUnavailable(f"the replay's frame cannot be read: {exc}") from None
        return as_bgr(still, source=repr(str(image_path)))

    def _ended(self) -> str:
        return f"the replay of {str(self.path)!r} ended (set loop = true to start again)"

    def expect_throw(self, n: int) -> None:
        """Nothing to do: the recording decides what was thrown."""

    def close(self) -> None:
        """Release the video file, if any (idempotent)."""
        if self._video is not None:
            self._video.release()
            self._video = None


CAMERAS: Registry[Camera] = Registry(
    "camera",
    {
        "opencv": OpenCvCamera,
        "picamera2": Picamera2Camera,
        "replay": ReplayCamera,
        "simulated": SimulatedCamera,
        "unplugged": UnpluggedCamera,
    },
)
