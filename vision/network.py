"""The networks that ship inside the package, each loaded once and run by OpenCV's own `cv2.dnn`.

The engine is chosen, never left to OpenCV's default (`engine`): the classic one where OpenCV has
it (the only engine of 4.x, and 5.0's `ENGINE_CLASSIC`: it reads a frame with the die detector in
about 1.8 ms on one core here against 3.1 ms for the new one), else the new engine of OpenCV's own
(5.1's `ENGINE_OPENCV`), whose scores equal the classic engine's to 1e-4
(tests/vision/test_network.py checks each OpenCV against scores recorded on the classic engine).
Never the ONNX Runtime engine: it is not in the OpenCV wheels the Pi installs. OpenCV 5.0 honours
the engine asked for only when the network is read from a file, not from bytes. The new engine
fuses layers (each ReLU into its convolution), so nothing here or in `vision.classify` finds a
layer by its kind: the classifier's features are a named output of its graph.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from importlib import resources

import cv2

from vision.errors import ReaderUnavailable


@functools.cache
def load_network(name: str) -> cv2.dnn.Net:
    """The network in the package's file ``name`` (ONNX), loaded once."""
    try:
        with resources.as_file(resources.files("vision").joinpath(name)) as path:
            if not path.is_file():
                raise OSError(f"no such file: {path}")
            return read_onnx(str(path))
    except (OSError, cv2.error) as error:
        raise ReaderUnavailable(f"cannot load the network {name!r}: {error}") from error


@functools.cache
def network_digest(name: str) -> str:
    """The SHA-256 of the package's file ``name`` (hex): which network it holds."""
    try:
        data = resources.files("vision").joinpath(name).read_bytes()
    except OSError as error:
        raise ReaderUnavailable(f"cannot load the network {name!r}: {error}") from error
    return hashlib.sha256(data).hexdigest()


def engine() -> int | None:
    """The `cv2.dnn` engine the networks run on: ``ENGINE_CLASSIC`` where OpenCV has it, else
    ``ENGINE_OPENCV``; None for an OpenCV with one engine (4.x), which is not asked for one."""
    for name in ("ENGINE_CLASSIC", "ENGINE_OPENCV"):
        if hasattr(cv2.dnn, name):
            return int(getattr(cv2.dnn, name))
    return None


def read_onnx(path: str) -> cv2.dnn.Net:
    """The ONNX network in the file ``path``, on `engine` (training runs a network as the
    reader will)."""
    chosen = engine()
    # OpenCV's stubs declare the engine argument in some releases only.
    read: Callable[..., cv2.dnn.Net] = cv2.dnn.readNetFromONNX
    return read(path) if chosen is None else read(path, chosen)
