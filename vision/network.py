"""The networks that ship inside the package, each loaded once and run by OpenCV's own `cv2.dnn`."""

from __future__ import annotations

import functools
from importlib import resources

import cv2
import numpy as np

from vision.errors import ReaderUnavailable


@functools.cache
def load_network(name: str) -> cv2.dnn.Net:
    """The network in the package's file ``name`` (ONNX), loaded once."""
    try:
        data = resources.files("vision").joinpath(name).read_bytes()
        return cv2.dnn.readNetFromONNX(np.frombuffer(data, dtype=np.uint8))
    except (OSError, cv2.error) as error:
        raise ReaderUnavailable(f"cannot load the network {name!r}: {error}") from error
