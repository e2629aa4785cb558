"""The die classifier: a small convolutional network run by OpenCV's own `cv2.dnn`.

It reads a crop around a point (`vision.crops`) and tells whether a die is centred there and which
face it shows (0: no die centred here, 1-6: the value, 7: a die that cannot be read), and how far
the die centre lies from the crop centre. The weights (`vision/dice_cnn.onnx`, about 2 MB) ship
inside the package; training/train_dice_cnn.py makes them from synthetic trays and the training
half of the labelled photos.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import to_blob
from vision.network import load_network
from vision.types import Frame

CLASSES = 8
NO_DIE = 0
UNREADABLE = 7
MODEL = "dice_cnn.onnx"
REMEMBERED = 256
"""Verdicts kept by the crop they were given on, the latest used last (`classify`)."""

_remembered: OrderedDict[tuple[tuple[int, ...], str, bytes], Verdict] = OrderedDict()


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the classifier made of one crop: the probability of each class (0: no die, 1-6,
    7: unreadable die) and the die centre's offset from the crop centre, in die widths."""

    probabilities: tuple[float, ...]
    offset: tuple[float, float]

    @property
    def best(self) -> int:
        """The most probable class."""
        return int(np.argmax(self.probabilities))

    @property
    def die_probability(self) -> float:
        """The probability that a die (readable or not) is centred in the crop."""
        return 1.0 - self.probabilities[NO_DIE]

    @property
    def value(self) -> int:
        """The most probable face value, 1-6, whatever the other classes say."""
        return 1 + int(np.argmax(self.probabilities[1:7]))


def _network() -> cv2.dnn.Net:
    """The network, loaded once from the package's weights."""
    return load_network(MODEL)


def classify(crops: Sequence[Frame]) -> list[Verdict]:
    """The classifier's verdict on each crop (as cut by `vision.crops.die_crop`). A crop seen
    among the last `REMEMBERED` gets the verdict it got then, the same to the bit (each crop's
    scores do not depend on the others run with it): the reader cuts some crops twice in a
    frame, a die looked at still where its first crop was cut already (about 1.5 of 27 crops a
    rendered frame of six dice)."""
    keys = [(crop.shape, crop.dtype.str, np.ascontiguousarray(crop).tobytes()) for crop in crops]
    verdicts = {key: _remembered[key] for key in keys if key in _remembered}
    fresh = {key: crop for key, crop in zip(keys, crops, strict=True) if key not in verdicts}
    if fresh:
        net = _network()
        net.setInput(to_blob(list(fresh.values())))
        scores = np.asarray(net.forward(), dtype=np.float64).reshape(len(fresh), CLASSES + 2)
        verdicts.update(zip(fresh, (_verdict(row) for row in scores), strict=True))
    for key in keys:
        _remembered[key] = verdicts[key]
        _remembered.move_to_end(key)
    while len(_remembered) > REMEMBERED:
        _remembered.popitem(last=False)
    return [verdicts[key] for key in keys]


def _verdict(row: npt.NDArray[np.float64]) -> Verdict:
    logits = row[:CLASSES]
    weights = np.exp(logits - logits.max())
    probabilities = weights / weights.sum()
    return Verdict(
        tuple(float(p) for p in probabilities), (float(row[CLASSES]), float(row[CLASSES + 1]))
    )
