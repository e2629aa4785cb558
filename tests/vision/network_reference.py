"""The shipped networks' outputs on fixed inputs, as recorded on OpenCV's classic engine
(tests/vision/data/network_reference.npz), for checking every other OpenCV against.

Rewrite the record (on an OpenCV that has the classic engine, after a network changes):
    .venv/bin/python -m tests.vision.network_reference
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision import network
from vision.classify import FEATURES, SCORES
from vision.crops import CROP_SIZE, to_blob
from vision.detect import MODEL, SCALES_MODEL, to_input

RECORD = Path(__file__).parent / "data" / "network_reference.npz"
CLASSIFIERS = ("dice_cnn.onnx", "judge_cnn.onnx")
DETECTORS = (MODEL, SCALES_MODEL)
_TRAY = Path(__file__).parent / "trays" / "seed-5-612.png"


def names() -> list[str]:
    """The names of the outputs `outputs` gives."""
    return [f"{c}:{o}" for c in CLASSIFIERS for o in (SCORES, FEATURES)] + list(DETECTORS)


def inputs() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The classifiers' input (crops cut from a stored tray on a grid, some on dice) and the
    detectors' (the tray halved by averaging), made with numpy alone from a lossless file."""
    tray = cv2.imread(str(_TRAY), cv2.IMREAD_COLOR)
    if tray is None:
        raise FileNotFoundError(_TRAY)
    step = CROP_SIZE * 3
    crops = [
        tray[y : y + CROP_SIZE, x : x + CROP_SIZE]
        for y in range(0, tray.shape[0] - CROP_SIZE, step)
        for x in range(0, tray.shape[1] - CROP_SIZE, step)
    ]
    height, width = (tray.shape[0] // 2) * 2, (tray.shape[1] // 2) * 2
    quarters = tray[:height, :width].astype(np.float32).reshape(height // 2, 2, width // 2, 2, 3)
    half = np.round(quarters.mean(axis=(1, 3))).astype(np.uint8)
    return to_blob(crops), to_input(half)


def outputs() -> dict[str, npt.NDArray[np.float32]]:
    """Every shipped network's outputs on `inputs`, read as the reader reads them
    (`vision.network.read_onnx`): each classifier's `SCORES` and `FEATURES`, each detector's
    one output."""
    crops, half = inputs()
    found: dict[str, npt.NDArray[np.float32]] = {}
    for name in CLASSIFIERS:
        net = network.read_onnx(_path(name))
        net.setInput(crops)
        scores, features = net.forward([SCORES, FEATURES])
        found[f"{name}:{SCORES}"] = np.asarray(scores, np.float32)
        found[f"{name}:{FEATURES}"] = np.asarray(features, np.float32)
    for name in DETECTORS:
        net = network.read_onnx(_path(name))
        net.setInput(half)
        found[name] = np.asarray(net.forward(), np.float32)
    return found


def _path(name: str) -> str:
    return str(Path(network.__file__).parent / name)


def main() -> int:
    if not hasattr(cv2.dnn, "ENGINE_CLASSIC") and cv2.__version__.startswith("5."):
        raise SystemExit(f"OpenCV {cv2.__version__} has no classic engine: record on 4.x or 5.0")
    RECORD.parent.mkdir(exist_ok=True)
    np.savez_compressed(RECORD, **outputs())
    print(f"{RECORD}: recorded on OpenCV {cv2.__version__}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
