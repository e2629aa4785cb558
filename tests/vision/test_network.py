"""Loading the networks that ship inside the package (`vision.network`)."""

from __future__ import annotations

from typing import Any

import cv2
import pytest

from vision import network
from vision.errors import ReaderUnavailable


class _Reads:
    """A stand-in for `cv2.dnn.readNetFromONNX` that records how it was called."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, *args: Any) -> object:
        self.calls.append(args)
        return object()


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> _Reads:
    recorder = _Reads()
    monkeypatch.setattr(cv2.dnn, "readNetFromONNX", recorder)
    network.load_network.cache_clear()
    yield recorder
    network.load_network.cache_clear()


@pytest.mark.skipif(not hasattr(cv2.dnn, "ENGINE_CLASSIC"), reason="OpenCV with one engine")
def test_the_classic_engine_runs_the_networks_from_their_file(reads: _Reads) -> None:
    """OpenCV 5.0 takes the engine asked for only with a file's path (bytes get the new engine,
    which is slower with the detector)."""
    network.load_network("dice_det.onnx")
    ((path, engine),) = reads.calls
    assert isinstance(path, str) and path.endswith("dice_det.onnx")
    assert engine == cv2.dnn.ENGINE_CLASSIC


def test_an_opencv_with_one_engine_is_not_asked_for_one(
    reads: _Reads, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(cv2.dnn, "ENGINE_CLASSIC", raising=False)
    network.load_network("dice_cnn.onnx")
    ((path,),) = reads.calls
    assert path.endswith("dice_cnn.onnx")


def test_a_missing_network_is_a_clear_error_before_opencv_reads_it(reads: _Reads) -> None:
    with pytest.raises(ReaderUnavailable, match=r"'absent\.onnx'.*no such file"):
        network.load_network("absent.onnx")
    assert reads.calls == []
