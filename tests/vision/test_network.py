"""Loading the networks that ship inside the package (`vision.network`)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision import network_reference
from vision import classify, network
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


@pytest.mark.skipif(not hasattr(cv2.dnn, "ENGINE_CLASSIC"), reason="OpenCV without it")
def test_the_classic_engine_runs_the_networks_from_their_file(reads: _Reads) -> None:
    """OpenCV 5.0 takes the engine asked for only with a file's path (bytes get the new engine,
    which is slower with the detector)."""
    network.load_network("dice_det.onnx")
    ((path, engine),) = reads.calls
    assert isinstance(path, str) and path.endswith("dice_det.onnx")
    assert engine == cv2.dnn.ENGINE_CLASSIC


def test_without_a_classic_engine_opencvs_own_new_engine_is_asked_for(
    reads: _Reads, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(cv2.dnn, "ENGINE_CLASSIC", raising=False)
    monkeypatch.setattr(cv2.dnn, "ENGINE_OPENCV", 1, raising=False)
    monkeypatch.setattr(cv2.dnn, "ENGINE_ORT", 2, raising=False)
    network.load_network("dice_cnn.onnx")
    ((path, engine),) = reads.calls
    assert path.endswith("dice_cnn.onnx") and engine == 1


def test_an_opencv_with_one_engine_is_not_asked_for_one(
    reads: _Reads, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("ENGINE_CLASSIC", "ENGINE_OPENCV", "ENGINE_ORT", "ENGINE_AUTO"):
        monkeypatch.delattr(cv2.dnn, name, raising=False)
    network.load_network("dice_cnn.onnx")
    ((path,),) = reads.calls
    assert path.endswith("dice_cnn.onnx")


@pytest.mark.parametrize("name", network_reference.names())
def test_this_opencv_gives_the_scores_recorded_on_the_classic_engine(name: str) -> None:
    """Each shipped network's outputs on fixed inputs, on this OpenCV's chosen engine, equal
    those recorded on the classic engine (tests/vision/network_reference.py)."""
    recorded = np.load(network_reference.RECORD)[name]
    found = _outputs()[name]
    assert found.shape == recorded.shape
    assert np.abs(found - recorded).max() <= 1e-3 * max(1.0, float(np.abs(recorded).max()))


@pytest.mark.parametrize("name", network_reference.CLASSIFIERS)
def test_a_classifiers_last_layer_turns_its_features_into_its_scores(name: str) -> None:
    """What `vision.classify` takes for a network's last layer, applied to its features output,
    gives its scores output on this OpenCV (whatever the engine fused)."""
    net = network.load_network(name)
    crops, _ = network_reference.inputs()
    net.setInput(crops)
    scores, found = net.forward([classify.SCORES, classify.FEATURES])
    weights, bias = classify._head(net)
    assert classify.feature_count(net) == found.shape[1] == weights.shape[1]
    assert np.allclose(found @ weights.T + bias, scores, atol=1e-3)


def test_a_network_without_a_features_output_is_a_clear_error() -> None:
    """A network exported without the features output (an older training run) is refused by
    name, not read from whichever layer happens to come last."""
    net = network.read_onnx(str(Path(network.__file__).parent / "dice_det.onnx"))
    crops = [np.zeros((32, 32, 3), np.uint8)]
    with pytest.raises(classify.InvalidLastLayer, match="no 'features' output"):
        classify.features(crops, net)


@functools.cache
def _outputs() -> dict[str, np.ndarray]:
    return network_reference.outputs()


def test_a_missing_network_is_a_clear_error_before_opencv_reads_it(reads: _Reads) -> None:
    with pytest.raises(ReaderUnavailable, match=r"'absent\.onnx'.*no such file"):
        network.load_network("absent.onnx")
    assert reads.calls == []
