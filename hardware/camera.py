"""The camera seam: the `Camera` Protocol, and `open_camera` choosing a backend by name.

Backends: ``opencv`` (a USB/V4L2 camera or a video path through cv2.VideoCapture), ``picamera2``
(the Raspberry Pi camera), ``replay`` (a folder of images or a video file), ``simulated`` (frames
rendered by an injected callable, e.g. vision's tray renderer) and ``unplugged`` (always fails,
for tests of the missing-camera path).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from hardware.backends import Resource

Frame = npt.NDArray[np.uint8]
"""An H×W×3 BGR image, dtype uint8 (the same layout as ``vision.types.Frame``)."""


@runtime_checkable
class Camera(Resource, Protocol):
    """A source of frames.

    ``read()`` returns the newest frame (BGR uint8) or raises `CameraUnavailable`.
    ``expect_throw(n)`` tells the camera that the controller now waits for a throw of ``n`` dice:
    real cameras ignore it, the simulated camera starts rendering a throw.
    """

    def read(self) -> Frame:
        """The next frame."""
        ...

    def expect_throw(self, n: int) -> None:
        """The controller now expects ``n`` dice to be thrown into the tray."""
        ...


def open_camera(name: str, /, **options: object) -> Camera:
    """Open camera backend ``name`` with its keyword options.

    ``opencv``: source=0 (index or path), width, height, fps.
    ``picamera2``: width=1280, height=960.
    ``replay``: path (folder of images or video), loop=False, repeat=1.
    ``simulated``: render_throw (required), script (throws used first), seed, rng.
    ``unplugged``: source=0 (only used in the message).
    Raises `UnknownBackend` listing the valid names.
    """
    from hardware.camera_backends import CAMERAS

    return CAMERAS.open(name, options)


def camera_names() -> tuple[str, ...]:
    """The valid camera backend names."""
    from hardware.camera_backends import CAMERAS

    return CAMERAS.names
