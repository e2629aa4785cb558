"""The die classifier: a small convolutional network run by OpenCV's own `cv2.dnn`.

It reads a crop around a point (`vision.crops`) and tells whether a die is centred there and which
face it shows (0: no die centred here, 1-6: the value, 7: a die that cannot be read), and how far
the die centre lies from the crop centre. The weights (`vision/dice_cnn.onnx`, about 2 MB) ship
inside the package; training/train_dice_cnn.py makes them from synthetic trays and the training
half of the labelled photos.

The last layer's class scores can be replaced by a `LastLayer` fitted to a table's own dice
(`vision.adapt`): ``classify(crops, layer=...)``, or every classification inside
``with last_layer(adapted):`` (the appliance reads whole frames so), where `Adapted` carries the
fitted layers of both the reader's network and the judge's (`vision.judge`), which
`adapted_layers` gives. The machinery (`features`, `shipped_last_layer`, `classify_with`) works on
any network of the classifier's shape. The die-centre offsets stay each network's own.
"""

from __future__ import annotations

import functools
import itertools
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import DicekeeperError
from vision.crops import to_blob
from vision.network import load_network
from vision.types import Frame

CLASSES = 8
NO_DIE = 0
UNREADABLE = 7
MODEL = "dice_cnn.onnx"
SCORES = "scores"
"""The network's output of class scores and die-centre offsets, N × (CLASSES + 2)."""
FEATURES = "features"
"""The network's output of what its last layer takes (`training/onnx_features.py`)."""
BATCH = 16
"""The most crops a network is given at once: its working memory grows with the batch (the
reader's resident memory about 40 MB more with the judge's network at 64 crops than at 16)."""
REMEMBERED = 256
"""Verdicts kept by the crop they were given on, the latest used last (`classify`)."""

_remembered: OrderedDict[tuple[tuple[int, ...], str, bytes, int], Verdict] = OrderedDict()


class InvalidLastLayer(DicekeeperError, ValueError):
    """Weights that do not fit the classifier's last layer (wrong shape, not finite)."""


@dataclass(frozen=True, slots=True, eq=False)
class LastLayer:
    """The classifier's last layer for the class scores: ``weights`` (CLASSES × features) and
    ``bias`` (CLASSES), scores = features · weightsᵀ + bias. Compared by identity."""

    weights: npt.NDArray[np.float32]
    bias: npt.NDArray[np.float32]
    tag: int = field(init=False, repr=False)
    """A number no other layer made in this process has (what `classify` remembers it by)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tag", next(_tags))
        w, b = np.asarray(self.weights), np.asarray(self.bias)
        if w.ndim != 2 or w.shape[0] != CLASSES or b.shape != (CLASSES,):
            raise InvalidLastLayer(
                f"a last layer is {CLASSES}×features weights and {CLASSES} biases, "
                f"got {w.shape} and {b.shape}"
            )
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise InvalidLastLayer("the last layer's weights are not all finite numbers")


_tags = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Adapted:
    """The last layers fitted to a table's dice: ``reader`` for the shipped network (`classify`),
    ``judge`` for the judge's network (`vision.judge.judge_classifier`; None: its shipped one)."""

    reader: LastLayer
    judge: LastLayer | None = None


_adapted: ContextVar[Adapted | None] = ContextVar("classifier_adapted", default=None)


@contextmanager
def last_layer(layers: Adapted | LastLayer | None) -> Iterator[None]:
    """Within the block, `classify` scores the classes with the reader's layer of ``layers`` and
    the judge's classifier with its judge's layer (`adapted_layers`); a lone `LastLayer` is the
    reader's, None the shipped ones."""
    token = _adapted.set(Adapted(layers) if isinstance(layers, LastLayer) else layers)
    try:
        yield
    finally:
        _adapted.reset(token)


def adapted_layers() -> Adapted | None:
    """The layers `last_layer` set for the current block, or None (the shipped ones)."""
    return _adapted.get()


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


def classify(crops: Sequence[Frame], *, layer: LastLayer | None = None) -> list[Verdict]:
    """The classifier's verdict on each crop (as cut by `vision.crops.die_crop`), its classes
    scored by ``layer`` (default: the one `last_layer` set, else the shipped one). A crop seen
    among the last `REMEMBERED` gets the verdict it got then, the same to the bit (each crop's
    scores do not depend on the others run with it): the reader cuts some crops twice in a
    frame, a die looked at still where its first crop was cut already (about 1.5 of 27 crops a
    rendered frame of six dice)."""
    if layer is None:
        adapted = _adapted.get()
        layer = adapted.reader if adapted is not None else None
    tag = 0 if layer is None else layer.tag
    keys = [
        (crop.shape, crop.dtype.str, np.ascontiguousarray(crop).tobytes(), tag) for crop in crops
    ]
    verdicts = {key: _remembered[key] for key in keys if key in _remembered}
    fresh = {key: crop for key, crop in zip(keys, crops, strict=True) if key not in verdicts}
    if fresh:
        scores = _scores(list(fresh.values()), layer)
        verdicts.update(zip(fresh, (_verdict(row) for row in scores), strict=True))
    for key in keys:
        _remembered[key] = verdicts[key]
        _remembered.move_to_end(key)
    while len(_remembered) > REMEMBERED:
        _remembered.popitem(last=False)
    return [verdicts[key] for key in keys]


def classify_with(
    net: cv2.dnn.Net, crops: Sequence[Frame], layer: LastLayer | None = None
) -> list[Verdict]:
    """The verdict of ``net`` (a network of the classifier's shape, such as a candidate from
    training/train_dice_cnn.py read by `vision.network.read_onnx`) on each crop, its classes
    scored by ``layer`` (None: its own last layer); nothing is remembered."""
    return [_verdict(row) for row in _scores(crops, layer, net)] if crops else []


def _scores(
    crops: Sequence[Frame], layer: LastLayer | None, net: cv2.dnn.Net | None = None
) -> npt.NDArray[np.float64]:
    """The N×(CLASSES + 2) outputs of ``net`` (default: the shipped network), the class scores
    from ``layer`` when given; `BATCH` crops at a time."""
    net = net if net is not None else _network()
    if len(crops) > BATCH:
        return np.concatenate([_scores(batch, layer, net) for batch in _batches(crops)])
    net.setInput(to_blob(crops))
    if layer is None:
        return np.asarray(net.forward(SCORES), dtype=np.float64).reshape(len(crops), CLASSES + 2)
    scores, found = _outputs(net, len(crops))
    if found.shape[1] != layer.weights.shape[1]:
        raise InvalidLastLayer(
            f"the last layer takes {layer.weights.shape[1]} features; the network gives "
            f"{found.shape[1]}"
        )
    scores[:, :CLASSES] = found @ np.asarray(layer.weights, np.float64).T + layer.bias
    return scores


def features(crops: Sequence[Frame], net: cv2.dnn.Net | None = None) -> npt.NDArray[np.float32]:
    """What the last layer of ``net`` (default: the shipped network) sees of each crop:
    N × `feature_count` float32, `BATCH` crops at a time."""
    net = net if net is not None else _network()
    if not crops:
        return np.zeros((0, feature_count(net)), np.float32)
    if len(crops) > BATCH:
        return np.concatenate([features(batch, net) for batch in _batches(crops)])
    net.setInput(to_blob(crops))
    return _outputs(net, len(crops))[1].astype(np.float32)


def _batches(crops: Sequence[Frame]) -> list[Sequence[Frame]]:
    """``crops`` cut into runs of at most `BATCH`, in order."""
    return [crops[i : i + BATCH] for i in range(0, len(crops), BATCH)]


def feature_count(net: cv2.dnn.Net | None = None) -> int:
    """How many features the last layer of ``net`` (default: the shipped network) takes."""
    return int(_head(net if net is not None else _network())[0].shape[1])


def shipped_last_layer(net: cv2.dnn.Net | None = None) -> LastLayer:
    """The class rows of the last layer of ``net`` as it was loaded (default: the shipped
    network)."""
    weights, bias = _head(net if net is not None else _network())
    return LastLayer(weights[:CLASSES].copy(), bias[:CLASSES].copy())


def _outputs(
    net: cv2.dnn.Net, count: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The `SCORES` (N × (CLASSES + 2)) and `FEATURES` (N × features) outputs of ``net`` for
    its input of ``count`` crops."""
    if FEATURES not in net.getUnconnectedOutLayersNames():
        raise InvalidLastLayer(
            f"the network has no {FEATURES!r} output: add it with training/onnx_features.py"
        )
    scores, found = net.forward([SCORES, FEATURES])
    return (
        np.asarray(scores, np.float64).reshape(count, CLASSES + 2),
        np.asarray(found, np.float64).reshape(count, -1),
    )


@functools.lru_cache(maxsize=8)
def _head(net: cv2.dnn.Net) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The last layer of ``net``: weights ((CLASSES + 2) × features) and biases, found as the
    one fully connected layer with CLASSES + 2 outputs (whatever an engine fused into it)."""
    found = []
    for name in net.getLayerNames():
        blobs = net.getLayer(net.getLayerId(name)).blobs
        if len(blobs) == 2 and blobs[0].ndim == 2 and blobs[0].shape[0] == CLASSES + 2:
            found.append(blobs)
    if len(found) != 1:
        raise InvalidLastLayer(f"the network has {len(found)} layers of {CLASSES + 2} outputs")
    weights, bias = found[0]
    return np.asarray(weights, np.float32), np.asarray(bias, np.float32).reshape(-1)


def _verdict(row: npt.NDArray[np.float64]) -> Verdict:
    logits = row[:CLASSES]
    weights = np.exp(logits - logits.max())
    probabilities = weights / weights.sum()
    return Verdict(
        tuple(float(p) for p in probabilities), (float(row[CLASSES]), float(row[CLASSES + 1]))
    )
