"""The networks that ship inside the package, each loaded once and run by OpenCV's own `cv2.dnn`.

Where OpenCV has two engines (5.x), the classic one runs them: it reads a frame with the die
detector in about 1.8 ms on one core here against 3.1 ms for the new one (the classifier is as fast
on either), and it is the only engine of OpenCV 4.x, so every OpenCV gives the same scores. OpenCV
5.0 honours the engine asked for only when the network is read from a file, not from bytes.
"""

from __future__ import annotations

import functools
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


def read_onnx(path: str) -> cv2.dnn.Net:
    """The ONNX network in the file ``path``, on the classic engine where OpenCV has two (training
    runs a network as the reader will)."""
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is None:
        return cv2.dnn.readNetFromONNX(path)
    return cv2.dnn.readNetFromONNX(path, engine)
