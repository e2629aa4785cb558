"""The judge: the last stage of the reader, the one place where the evidence on each die is weighed.
A die is kept only when it is likely a die, and its value given only when the chance that it is
wrong is small; otherwise the die is "not sure" (value ``None``), for the players to correct or
throw again.

The evidence on one die: what the stages before read (its value, confidence and width), and two
looks (upright and turned a quarter) of the judge's own classifier network (`NETWORK`: the die
classifier's architecture, trained further on crops cut where the multi-scale detector proposes
dice in photos of many tables, `training/README.md`), set beside the other dice of the frame (its
width against theirs, the nearest die the looks find surer). Two logistic models weigh it: the
chance that a die is there (`Model.die`), and for each value in question (the one read and the
one the looks find most probable) the chance that it is the die's value (`Model.value`). Their
weights and thresholds (`judge.json` in the package) are fitted by `training/fit_judge.py` on the
dice the reader finds in the training part of the labelled photos and in rendered trays; the
value threshold is the lowest at which every kind of scene's training photos are misread silently
at most 1 % of the time. The benchmark measures it on the held-out part.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import resources

import cv2
import numpy as np
import numpy.typing as npt

from vision.classify import NO_DIE, UNREADABLE, Verdict, adapted_layers, classify_with
from vision.crops import Pyramid, die_crop
from vision.errors import ReaderUnavailable
from vision.face import Face
from vision.network import load_network
from vision.types import Frame

Classifier = Callable[[Sequence[Frame]], list[Verdict]]
"""Reads crops (as cut by `vision.crops.die_crop`) and gives a verdict on each."""

NETWORK = "judge_cnn.onnx"
"""The judge's classifier network, in the package."""
LOOKS = (0.0, 90.0)
"""The angles (degrees) at which the judge's classifier looks at each die."""
DIE_FEATURES = (
    "log_die",
    "log_least_die",
    "log_unreadable",
    "relative_width",
    "relative_width_off",
    "relative_width_squared",
    "width_far_off",
    "no_frame_width",
    "log_die_times_width_off",
    "neighbour_distance",
    "neighbour_near",
    "neighbour_surer_by",
    "neighbour_near_distance",
    "neighbour_near_log_die",
    "confidence",
    "valued",
)
"""The evidence that a die is there (`die_evidence`), in the order of the die model's weights."""
VALUE_FEATURES = (
    "log_share",
    "log_least",
    "margin",
    "most_probable",
    "log_die",
    "log_unreadable",
    "relative_width_off",
    "log_width",
    "read_so",
    "read_otherwise",
    "confidence_read_so",
    "frame_disagreement",
    "frame_log_die",
    "frame_log_dice",
)
"""The evidence that a die shows a value (`value_evidence`), in the order of the value model's."""
NEAR = 1.2
"""In die widths: a surer die this close may be the same die seen again (a side face)."""
FAR_OFF = 0.47
"""Natural logarithm of 1.6: a die 1.6 times wider or narrower than the frame's dice is far off."""
_FLOOR = 1e-4
"""Probabilities are floored here before their logarithm is taken."""


def _log(p: float) -> float:
    return math.log(max(float(p), _FLOOR))


@dataclass(frozen=True, slots=True)
class Logistic:
    """A logistic model: the evidence is centred on ``mean``, divided by ``scale``, weighed by
    ``weights`` and ``bias``."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def chance(self, evidence: Sequence[float]) -> float:
        """The probability the model gives for ``evidence``."""
        total = self.bias + sum(
            w * (x - m) / s
            for w, x, m, s in zip(self.weights, evidence, self.mean, self.scale, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, total))))


@dataclass(frozen=True, slots=True)
class Model:
    """The judge's two models and their thresholds: a die whose chance (``die``) is under
    ``least_die`` is no die; a value whose chance (``value``) is under ``least_value`` is not
    given."""

    die: Logistic
    value: Logistic
    least_die: float
    least_value: float

    def __post_init__(self) -> None:
        for logistic, names in ((self.die, DIE_FEATURES), (self.value, VALUE_FEATURES)):
            sizes = {len(logistic.mean), len(logistic.scale), len(logistic.weights)}
            if sizes != {len(names)}:
                raise ReaderUnavailable(f"the judge's model does not fit its {len(names)} features")
        if not (0.0 <= self.least_die <= 1.0 and 0.0 <= self.least_value <= 1.0):
            raise ReaderUnavailable("the judge's thresholds are not probabilities")

    @classmethod
    def from_json(cls, text: str) -> Model:
        """The model written by `to_json`."""
        try:
            data = json.loads(text)
            die, value = (
                Logistic(
                    tuple(float(x) for x in part["mean"]),
                    tuple(float(x) for x in part["scale"]),
                    tuple(float(x) for x in part["weights"]),
                    float(part["bias"]),
                )
                for part in (data["die"], data["value"])
            )
            return cls(die, value, float(data["least_die"]), float(data["least_value"]))
        except (ValueError, KeyError, TypeError) as error:
            raise ReaderUnavailable(f"the judge's model cannot be read: {error}") from error

    def to_json(self) -> str:
        """The model as JSON text, its features named."""

        def part(logistic: Logistic, names: tuple[str, ...]) -> dict[str, object]:
            return {
                "features": names,
                "mean": logistic.mean,
                "scale": logistic.scale,
                "weights": logistic.weights,
                "bias": logistic.bias,
            }

        data = {
            "die": part(self.die, DIE_FEATURES),
            "value": part(self.value, VALUE_FEATURES),
            "least_die": self.least_die,
            "least_value": self.least_value,
        }
        return json.dumps(data, indent=1) + "\n"


@functools.cache
def shipped_model() -> Model:
    """The model fitted for the shipped networks (`judge.json` in the package)."""
    try:
        text = resources.files("vision").joinpath("judge.json").read_text(encoding="utf-8")
    except OSError as error:
        raise ReaderUnavailable(f"cannot load the judge's model: {error}") from error
    return Model.from_json(text)


def judge_network() -> cv2.dnn.Net:
    """The judge's own classifier network (`NETWORK`), loaded once."""
    return load_network(NETWORK)


def judge_classifier(crops: Sequence[Frame]) -> list[Verdict]:
    """The judge's own classifier network (`NETWORK`) on ``crops``, its classes scored by the
    judge's layer adapted to the table's dice when `vision.classify.last_layer` set one."""
    adapted = adapted_layers()
    return classify_with(judge_network(), crops, adapted.judge if adapted is not None else None)


@dataclass(frozen=True, slots=True)
class Looks:
    """The judge's looks at one die: their class probabilities, averaged (``mean``), the least
    and the most of them (``least``, ``most``), each indexed by class."""

    mean: npt.NDArray[np.float64]
    least: npt.NDArray[np.float64]
    most: npt.NDArray[np.float64]

    @property
    def die(self) -> float:
        """How probable the looks find a die (readable or not) centred there."""
        return 1.0 - float(self.mean[NO_DIE])

    @property
    def least_die(self) -> float:
        """How probable the least sure of the looks finds a die centred there."""
        return 1.0 - float(self.most[NO_DIE])

    @property
    def most_probable(self) -> int:
        """The value (1-6) the looks find most probable."""
        return 1 + int(np.argmax(self.mean[1:7]))


def looks_at(pyramid: Pyramid, faces: Sequence[Face], classifier: Classifier) -> list[Looks]:
    """The classifier's looks at each face, one for each angle of `LOOKS`, in one batch."""
    crops = [
        die_crop(pyramid, (face.x, face.y), face.width, angle) for face in faces for angle in LOOKS
    ]
    verdicts = classifier(crops) if crops else []
    n = len(LOOKS)
    found = []
    for i in range(len(faces)):
        p = np.array([v.probabilities for v in verdicts[i * n : (i + 1) * n]], dtype=np.float64)
        found.append(Looks(p.mean(axis=0), p.min(axis=0), p.max(axis=0)))
    return found


@dataclass(frozen=True, slots=True)
class Context:
    """What the judge's looks tell of a frame's faces together: the median width of those more
    likely dice than not (None: none), the share of the faces read with a value that the looks
    favour another value for, the mean log of the looks' die probability, and how many faces."""

    width: float | None
    disagreement: float
    log_die: float
    count: int


def context_of(faces: Sequence[Face], looks: Sequence[Looks]) -> Context:
    """The `Context` of a frame's faces, given the judge's looks at each."""
    pairs = list(zip(faces, looks, strict=True))
    widths = sorted(f.width for f, look in pairs if look.die >= 0.5)
    valued = [(f, look) for f, look in pairs if f.value is not None]
    disagree = sum(f.value != look.most_probable for f, look in valued)
    return Context(
        float(np.median(widths)) if widths else None,
        disagree / len(valued) if valued else 0.0,
        sum(_log(look.die) for look in looks) / len(looks) if looks else 0.0,
        len(faces),
    )


def _neighbour(index: int, faces: Sequence[Face], looks: Sequence[Looks]) -> tuple[float, float]:
    """How far (in the wider's widths, at most 3) the nearest face whose looks find a die more
    probable lies, and by how much more (log)."""
    face, mine = faces[index], looks[index].die
    best = (3.0, 0.0)
    for other, look in zip(faces, looks, strict=True):
        if other is face or look.die <= mine:
            continue
        distance = math.hypot(other.x - face.x, other.y - face.y) / max(face.width, other.width)
        if distance < best[0]:
            best = (distance, _log(look.die) - _log(mine))
    return best


def die_evidence(
    index: int, faces: Sequence[Face], looks: Sequence[Looks], context: Context
) -> tuple[float, ...]:
    """The evidence (`DIE_FEATURES`) that ``faces[index]`` is a die, given the judge's ``looks``
    at every face of the frame and their `Context`."""
    face, look, width = faces[index], looks[index], context.width
    relative = math.log(face.width / width) if width else 0.0
    distance, surer_by = _neighbour(index, faces, looks)
    near = float(distance < NEAR)
    log_die = _log(look.die)
    return (
        log_die,
        _log(look.least_die),
        _log(look.mean[UNREADABLE]),
        relative,
        abs(relative),
        relative * relative,
        float(abs(relative) > FAR_OFF),
        float(width is None),
        log_die * abs(relative),
        distance,
        near,
        near * surer_by,
        near * distance,
        near * log_die,
        face.confidence,
        float(face.value is not None),
    )


def value_evidence(face: Face, look: Looks, value: int, context: Context) -> tuple[float, ...]:
    """The evidence (`VALUE_FEATURES`) that ``face`` shows ``value`` (1-6), given the judge's
    ``looks`` at it and the `Context` of its frame."""
    die, width = look.die, context.width
    others = max(float(look.mean[c]) for c in range(1, 7) if c != value)
    relative = math.log(face.width / width) if width else 0.0
    read_so = float(face.value == value)
    return (
        _log(float(look.mean[value]) / max(die, _FLOOR)),
        _log(look.least[value]),
        float(look.mean[value]) - others,
        float(value == look.most_probable),
        _log(die),
        _log(look.mean[UNREADABLE]),
        abs(relative),
        math.log(max(face.width, 1.0)),
        read_so,
        float(face.value is not None and face.value != value),
        face.confidence * read_so,
        context.disagreement,
        context.log_die,
        math.log(context.count),
    )


def values_in_question(face: Face, look: Looks) -> list[int]:
    """The values weighed for a face: the one read (if any) and the one the looks favour."""
    return sorted({look.most_probable} | ({face.value} if face.value is not None else set()))


def judge(
    pyramid: Pyramid, faces: Sequence[Face], classifier: Classifier, model: Model
) -> list[Face]:
    """``faces`` as the judge decides them (`decide`), ``classifier`` looking at each."""
    if not faces:
        return []
    return decide(faces, looks_at(pyramid, faces, classifier), model)


def decide(faces: Sequence[Face], looks: Sequence[Looks], model: Model) -> list[Face]:
    """``faces`` as ``model`` weighs them with the judge's ``looks`` at each: a face whose chance
    of being a die is under ``model.least_die`` is left out; each other is given the value in
    question (`values_in_question`) with the best chance when that chance reaches
    ``model.least_value``, else no value (None), and that chance as its confidence. Of two faces
    kept closer than half the narrower's width, the likelier die stays."""
    context = context_of(faces, looks)
    weighed = []
    for index, (face, look) in enumerate(zip(faces, looks, strict=True)):
        die = model.die.chance(die_evidence(index, faces, looks, context))
        if die < model.least_die:
            continue
        chance, value = max(
            (model.value.chance(value_evidence(face, look, v, context)), v)
            for v in values_in_question(face, look)
        )
        given = value if chance >= model.least_value else None
        weighed.append((die, replace(face, value=given, confidence=round(chance, 4))))
    kept: list[Face] = []
    for _, face in sorted(weighed, key=lambda pair: -pair[0]):
        if all(
            math.hypot(face.x - k.x, face.y - k.y) >= 0.5 * min(face.width, k.width) for k in kept
        ):
            kept.append(face)
    return kept
