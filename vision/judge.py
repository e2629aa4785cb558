"""The judge: the last stage of the reader, where the evidence on each die's value is weighed and
a value is given only when the chance that it is wrong is small; otherwise the die is "not sure"
(value ``None``), for the players to correct or throw again.

The evidence on one die: the value the stages before read and their confidence, the die's width,
and two looks of the classifier at the die (upright and turned a quarter): how probable they find
that value, the least of the two, its margin over the next value, and how probable they find "no
die" and "a die that cannot be read". A logistic model turns these into the probability that the
value is right. Its weights (`judge.json` in the package) are fitted by `training/fit_judge.py` on
the dice the reader finds in the training part of the labelled photos, and its threshold is chosen
there; the benchmark measures it on the held-out part.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import resources

from vision.classify import NO_DIE, UNREADABLE, Verdict
from vision.crops import Pyramid, die_crop
from vision.errors import ReaderUnavailable
from vision.face import Face
from vision.types import Frame

Classifier = Callable[[Sequence[Frame]], list[Verdict]]
"""Reads crops (as cut by `vision.crops.die_crop`) and gives a verdict on each."""

LOOKS = (0.0, 90.0)
"""The angles (degrees) at which the classifier looks at each die for the judge."""
FEATURES = (
    "confidence",
    "log_width",
    "log_value",
    "log_least_value",
    "margin",
    "log_no_die",
    "log_unreadable",
)
"""The evidence on one die, in the order of the model's weights (`evidence`)."""
_FLOOR = 1e-4
"""Probabilities are floored here before their logarithm is taken."""


@dataclass(frozen=True, slots=True)
class Model:
    """A logistic model of the chance that a die's value is right: the evidence is centred on
    ``mean``, divided by ``scale``, weighed by ``weights`` and ``bias``. A value whose chance is
    under ``least`` is not given."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    least: float

    def __post_init__(self) -> None:
        sizes = {len(self.mean), len(self.scale), len(self.weights)}
        if sizes != {len(FEATURES)} or not 0.0 <= self.least <= 1.0:
            raise ReaderUnavailable(f"the judge's model does not fit its {len(FEATURES)} features")

    def chance_right(self, evidence: Sequence[float]) -> float:
        """The probability that the value the ``evidence`` is on is right."""
        total = self.bias + sum(
            w * (x - m) / s
            for w, x, m, s in zip(self.weights, evidence, self.mean, self.scale, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, total))))

    @classmethod
    def from_json(cls, text: str) -> Model:
        """The model written by `to_json`."""
        try:
            data = json.loads(text)
            return cls(
                tuple(float(x) for x in data["mean"]),
                tuple(float(x) for x in data["scale"]),
                tuple(float(x) for x in data["weights"]),
                float(data["bias"]),
                float(data["least"]),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise ReaderUnavailable(f"the judge's model cannot be read: {error}") from error

    def to_json(self) -> str:
        """The model as JSON text, its features named."""
        data = {
            "features": FEATURES,
            "mean": self.mean,
            "scale": self.scale,
            "weights": self.weights,
            "bias": self.bias,
            "least": self.least,
        }
        return json.dumps(data, indent=1) + "\n"


@functools.cache
def shipped_model() -> Model:
    """The model fitted for the shipped classifier (`judge.json` in the package)."""
    try:
        text = resources.files("vision").joinpath("judge.json").read_text(encoding="utf-8")
    except OSError as error:
        raise ReaderUnavailable(f"cannot load the judge's model: {error}") from error
    return Model.from_json(text)


def evidence(face: Face, value: int, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
    """The evidence (`FEATURES`) that ``face`` shows ``value`` (1-6), from the classifier's
    ``verdicts`` on it (one for each angle of `LOOKS`)."""
    mean = [sum(v.probabilities[c] for v in verdicts) / len(verdicts) for c in range(8)]
    least = min(v.probabilities[value] for v in verdicts)
    others = max(mean[c] for c in range(1, 7) if c != value)
    return (
        face.confidence,
        math.log(max(face.width, 1.0)),
        math.log(max(mean[value], _FLOOR)),
        math.log(max(least, _FLOOR)),
        mean[value] - others,
        math.log(max(mean[NO_DIE], _FLOOR)),
        math.log(max(mean[UNREADABLE], _FLOOR)),
    )


def looks_at(
    pyramid: Pyramid, faces: Sequence[Face], classifier: Classifier
) -> list[list[Verdict]]:
    """The classifier's verdicts on each face, one for each angle of `LOOKS`, in one batch."""
    crops = [
        die_crop(pyramid, (face.x, face.y), face.width, angle) for face in faces for angle in LOOKS
    ]
    verdicts = classifier(crops) if crops else []
    n = len(LOOKS)
    return [verdicts[i * n : (i + 1) * n] for i in range(len(faces))]


def judge(
    pyramid: Pyramid, faces: Sequence[Face], classifier: Classifier, model: Model
) -> list[Face]:
    """Each of ``faces`` with its value kept when ``model`` gives it at least ``model.least``
    chance of being right, else as a die seen but not read (value ``None``), its confidence the
    chance the model gives (dice already unread are kept as they are)."""
    valued = [face for face in faces if face.value is not None]
    looks = iter(looks_at(pyramid, valued, classifier))
    judged = []
    for face in faces:
        if face.value is None:
            judged.append(face)
            continue
        chance = model.chance_right(evidence(face, face.value, next(looks)))
        value = face.value if chance >= model.least else None
        judged.append(replace(face, value=value, confidence=chance))
    return judged
