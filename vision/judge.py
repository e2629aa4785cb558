"""The judge: the last stage of the reader, the one place where the evidence on each die is weighed.
A die is kept only when it is likely a die, and its value given only when the chance that it is
wrong is small; otherwise the die is "not sure" (value ``None``), for the players to correct or
throw again.

The candidates (`vision.candidates`) are the faces the pip stages or the fast path found and the
die detector's proposals. The evidence on one: what found it (its pips, the value and confidence
they were read with, the detector's strength there), the pip candidates on it and how elongated
they are (a die's side face, seen obliquely, has elongated pips), and the looks of the judge's own
classifier network (`NETWORK`: EfficientNet-Lite0's first stages, started from its ImageNet
weights and trained on crops cut where the multi-scale detector proposes dice in photos of many
tables and in rendered trays, `training/README.md`): one upright, which also tells where the die
centre lies (the candidate is moved there when it lies off), one turned a quarter, and, where
those two do not agree surely, six more (turned by the other quarters, and mirrored); at a die
the fast path read, centred and looked at upright by its own classifier already, the
quarter-turned look first and the seven others only where it does not surely find the fast
path's value; set beside the other candidates of the frame (its width against theirs, the
nearest candidate the looks find surer, and whether its pips are the more elongated).
Two logistic models weigh it: the chance that a die is there (`Model.die`), and for each value in
question (the one read and the one the looks find most probable) the chance that it is the die's
value (`Model.value`). Their weights and thresholds (`judge.json` in the package) are fitted by
`training/fit_judge.py` on the candidates in the training part of the labelled photos and in
rendered trays; the value threshold is the lowest at which every kind of scene's training photos
are misread silently at most 1 % of the time. The benchmark measures it on the held-out part.
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

from vision.candidates import Candidate
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
Look = tuple[float, bool]
"""A look at a die: turned by an angle (degrees), and mirrored left to right or not."""
LOOKS: tuple[Look, ...] = tuple(
    (angle, mirrored) for mirrored in (False, True) for angle in (0.0, 90.0, 180.0, 270.0)
)
"""How the judge's classifier looks at each die: turned by each quarter, as it lies and mirrored
(angle in degrees, mirrored). A die shows its value however it lies; the classifier's mistakes
mostly depend on how it lies, and its looks averaged are right more often and more surely."""
SETTLING = 2
"""The first this many of `LOOKS` are taken at every candidate; the others only where those leave
the candidate in doubt (`settled`)."""
AGREE = 0.9
"""Looks that each find the same class (a value, or no die) this probable settle a candidate."""
DIE_FEATURES = (
    "log_die",
    "log_no_die",
    "log_least_die",
    "log_unreadable",
    "offset",
    "has_pips",
    "pips_valued",
    "quick",
    "confidence",
    "pips",
    "strength",
    "log_strength",
    "proposed",
    "relative_width",
    "relative_width_off",
    "relative_width_squared",
    "width_far_off",
    "no_frame_width",
    "width_off_times_log_strength",
    "log_die_times_width_off",
    "log_die_times_strength",
    "neighbour_distance",
    "neighbour_near",
    "neighbour_surer_by",
    "neighbour_near_distance",
    "neighbour_near_has_pips",
    "neighbour_near_log_die",
    "pips_on",
    "elongation",
    "elongation_over_frame",
    "neighbour_near_elongation_over",
)
"""The evidence that a die is there (`die_evidence`), in the order of the die model's weights."""
VALUE_FEATURES = (
    "log_share",
    "log_least",
    "margin",
    "most_probable",
    "read_so",
    "read_otherwise",
    "pips_unread",
    "confidence_read_so",
    "quick_read_so",
    "pips_read_so",
    "log_die",
    "log_unreadable",
    "strength",
    "relative_width_off",
    "log_width",
    "elongation_over_frame",
    "frame_disagreement",
    "frame_log_die",
    "frame_log_dice",
)
"""The evidence that a die shows a value (`value_evidence`), in the order of the value model's."""
NEAR = 1.2
"""In die widths: a surer die this close may be the same die seen again (a side face)."""
FAR_OFF = 0.47
"""Natural logarithm of 1.6: a die 1.6 times wider or narrower than the frame's dice is far off."""
MOVED = (0.15, 0.7)
"""A candidate is moved to where the upright look places the die centre when that lies this far
from the crop's centre (in die widths): nearer, it is centred; farther, the look saw another die
or none."""
APART = 0.7
"""Dice lying flat show top faces at least a die width apart (edge to edge): of two candidates
closer than this many of the wider's widths (the widths are measured within about a third), only
the likelier is a die, the other its side face or the same die found again."""
SUPPORT = 0.1
"""When candidates are compared for which is surer, pips found and the detector's strength each
count this much beside the looks' die probability."""
WIDTH_EVIDENCE = 0.3
"""The frame's die width is the median of the candidates the looks find likelier a die than not
that have pips or a proposal at least this strong."""
COUNTED = 0.1
"""With the number of dice thrown known, a candidate whose chance of being a die (`Model.die`)
reaches this may make up the count when fewer likelier candidates are there; under it the die
model found it unlike the dice of the training photos, and the players are asked instead."""
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
    and the most of them (``least``, ``most``), each indexed by class, and how far from the
    candidate's first place (in die widths) the upright look at it placed the die centre."""

    mean: npt.NDArray[np.float64]
    least: npt.NDArray[np.float64]
    most: npt.NDArray[np.float64]
    offset: float = 0.0

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


def look_crop(pyramid: Pyramid, center: tuple[float, float], width: float, look: Look) -> Frame:
    """The crop of a die for one of the judge's `LOOKS`: turned, and mirrored left to right."""
    angle, mirrored = look
    crop = die_crop(pyramid, center, width, angle)
    return np.ascontiguousarray(crop[:, ::-1]) if mirrored else crop


def looks_at(
    pyramid: Pyramid, found: Sequence[Candidate], classifier: Classifier
) -> tuple[list[Candidate], list[Looks]]:
    """The candidates, each moved to where the classifier's upright look at it places the die
    centre when that lies `MOVED` off, and the classifier's looks at each where it then lies: the
    first `SETTLING` of `LOOKS` at every candidate (the upright one looked again only at a
    candidate moved), and the others at the candidates those leave in doubt (`settled`). A die
    the fast path read was centred and looked at upright by the fast path's own classifier: it is
    looked at turned a quarter first, and the others are taken when that look does not surely
    find the value the fast path read."""
    placed = list(found)
    taken: list[dict[Look, Verdict]] = [{} for _ in found]
    offsets = [0.0] * len(found)
    placing = [(i, LOOKS[0]) for i, c in enumerate(found) if not c.is_quick]
    for i, look, verdict in _taking(pyramid, found, placing, classifier):
        offsets[i] = math.hypot(*verdict.offset)
        if MOVED[0] < offsets[i] < MOVED[1]:
            face, (dx, dy) = found[i].face, verdict.offset
            moved = replace(face, x=face.x + dx * face.width, y=face.y + dy * face.width)
            placed[i] = replace(found[i], face=moved)
        else:
            taken[i][look] = verdict
    settling = [
        (i, look)
        for i, c in enumerate(placed)
        for look in (LOOKS[1:SETTLING] if c.is_quick else LOOKS[:SETTLING])
        if look not in taken[i]
    ]
    for i, look, verdict in _taking(pyramid, placed, settling, classifier):
        taken[i][look] = verdict
        if placed[i].is_quick:
            offsets[i] = math.hypot(*verdict.offset)
    rows = [np.array([v.probabilities for v in t.values()], dtype=np.float64) for t in taken]
    doubted = [
        (i, look)
        for i, c in enumerate(placed)
        if not settled(rows[i], c.face.value if c.is_quick else None)
        for look in LOOKS
        if look not in taken[i]
    ]
    for i, _, verdict in _taking(pyramid, placed, doubted, classifier):
        rows[i] = np.vstack([rows[i], np.array([verdict.probabilities], dtype=np.float64)])
    return placed, [
        Looks(p.mean(axis=0), p.min(axis=0), p.max(axis=0), offset)
        for p, offset in zip(rows, offsets, strict=True)
    ]


def _taking(
    pyramid: Pyramid,
    found: Sequence[Candidate],
    wanted: Sequence[tuple[int, Look]],
    classifier: Classifier,
) -> list[tuple[int, Look, Verdict]]:
    """The looks ``wanted`` (a candidate's index in ``found``, a look), each with the
    classifier's verdict, all in one batch."""
    crops = [
        look_crop(pyramid, (found[i].face.x, found[i].face.y), found[i].face.width, look)
        for i, look in wanted
    ]
    verdicts = classifier(crops) if crops else []
    return [(i, look, v) for (i, look), v in zip(wanted, verdicts, strict=True)]


def settled(probabilities: npt.NDArray[np.float64], read: int | None = None) -> bool:
    """Whether looks (one row of class probabilities each) settle a candidate: each of them
    finds the same value, or no die, at least `AGREE` probable; given the value ``read`` by the
    fast path, each finds that value so."""
    least = probabilities.min(axis=0)
    if read is not None:
        return bool(least[read] >= AGREE)
    value = 1 + int(np.argmax(probabilities.mean(axis=0)[1:7]))
    return bool(least[value] >= AGREE or least[NO_DIE] >= AGREE)


@dataclass(frozen=True, slots=True)
class Context:
    """What the judge's looks tell of a frame's candidates together: the median width of those
    more likely dice than not that have pips or a proposal (`WIDTH_EVIDENCE`; None: none), the
    share of those read with a value that the looks favour another value for, the mean log of the
    looks' die probability, how many candidates, and the median elongation of the pips on those
    more likely dice than not that have pips on them (1: none)."""

    width: float | None
    disagreement: float
    log_die: float
    count: int
    elongation: float = 1.0


def context_of(found: Sequence[Candidate], looks: Sequence[Looks]) -> Context:
    """The `Context` of a frame's candidates, given the judge's looks at each."""
    pairs = list(zip(found, looks, strict=True))
    widths = sorted(
        c.face.width
        for c, look in pairs
        if look.die >= 0.5 and (c.has_pips or c.strength >= WIDTH_EVIDENCE)
    )
    valued = [(c.face, look) for c, look in pairs if c.face.value is not None]
    disagree = sum(f.value != look.most_probable for f, look in valued)
    elongations = [c.elongation for c, look in pairs if look.die >= 0.5 and c.pips_on]
    return Context(
        float(np.median(widths)) if widths else None,
        disagree / len(valued) if valued else 0.0,
        sum(_log(look.die) for look in looks) / len(looks) if looks else 0.0,
        len(found),
        float(np.median(elongations)) if elongations else 1.0,
    )


def _support(candidate: Candidate, look: Looks) -> float:
    """How sure the evidence is of a die there, for comparing candidates (`SUPPORT`)."""
    return look.die + SUPPORT * (candidate.has_pips + candidate.strength)


def _neighbour(
    index: int, found: Sequence[Candidate], looks: Sequence[Looks]
) -> tuple[float, float, float]:
    """How far (in the wider's widths, at most 3) the nearest candidate with more support
    (`_support`) lies, how much more probable (log) its looks find a die, and how much more
    elongated the pips on this candidate are than on it (0: either has none)."""
    candidate, mine = found[index], looks[index]
    face, support = candidate.face, _support(candidate, mine)
    best = (3.0, 0.0, 0.0)
    for other, look in zip(found, looks, strict=True):
        if other is candidate or _support(other, look) <= support:
            continue
        distance = math.hypot(other.face.x - face.x, other.face.y - face.y) / max(
            face.width, other.face.width
        )
        if distance < best[0]:
            both = candidate.pips_on and other.pips_on
            over = candidate.elongation - other.elongation if both else 0.0
            best = (distance, _log(look.die) - _log(mine.die), over)
    return best


def _relative_width(face: Face, context: Context) -> float:
    """The log of the face's width over the frame's (0: the frame's is not known)."""
    return math.log(face.width / context.width) if context.width else 0.0


def die_evidence(
    index: int, found: Sequence[Candidate], looks: Sequence[Looks], context: Context
) -> tuple[float, ...]:
    """The evidence (`DIE_FEATURES`) that a die lies at ``found[index]``, given the judge's
    ``looks`` at every candidate of the frame and their `Context`."""
    candidate, look = found[index], looks[index]
    face, strength = candidate.face, candidate.strength
    relative = _relative_width(face, context)
    distance, surer_by, elongated_by = _neighbour(index, found, looks)
    near = float(distance < NEAR)
    log_die, log_strength = _log(look.die), _log(strength)
    return (
        log_die,
        _log(look.mean[NO_DIE]),
        _log(look.least_die),
        _log(look.mean[UNREADABLE]),
        look.offset,
        float(candidate.has_pips),
        float(candidate.has_pips and face.value is not None),
        float(candidate.is_quick),
        face.confidence,
        len(face.pips) / 6.0,
        strength,
        log_strength,
        float(strength > 0.0),
        relative,
        abs(relative),
        relative * relative,
        float(abs(relative) > FAR_OFF),
        float(context.width is None),
        abs(relative) * log_strength,
        log_die * abs(relative),
        log_die * strength,
        distance,
        near,
        near * surer_by,
        near * distance,
        near * candidate.has_pips,
        near * log_die,
        candidate.pips_on / 6.0,
        candidate.elongation,
        _elongation_over(candidate, context),
        near * elongated_by,
    )


def _elongation_over(candidate: Candidate, context: Context) -> float:
    """How much more elongated the pips on the candidate are than the frame's (0: none on it)."""
    return candidate.elongation - context.elongation if candidate.pips_on else 0.0


def value_evidence(
    candidate: Candidate, look: Looks, value: int, context: Context
) -> tuple[float, ...]:
    """The evidence (`VALUE_FEATURES`) that ``candidate`` shows ``value`` (1-6), given the
    judge's ``looks`` at it and the `Context` of its frame."""
    face, die = candidate.face, look.die
    others = max(float(look.mean[c]) for c in range(1, 7) if c != value)
    read_so = float(face.value == value)
    return (
        _log(float(look.mean[value]) / max(die, _FLOOR)),
        _log(look.least[value]),
        float(look.mean[value]) - others,
        float(value == look.most_probable),
        read_so,
        float(face.value is not None and face.value != value),
        float(candidate.has_pips and face.value is None),
        face.confidence * read_so,
        float(candidate.is_quick) * read_so,
        len(face.pips) / 6.0 * read_so,
        _log(die),
        _log(look.mean[UNREADABLE]),
        candidate.strength,
        abs(_relative_width(face, context)),
        math.log(max(face.width, 1.0)),
        _elongation_over(candidate, context),
        context.disagreement,
        context.log_die,
        math.log(context.count),
    )


def values_in_question(face: Face, look: Looks) -> list[int]:
    """The values weighed for a face: the one read (if any) and the one the looks favour."""
    return sorted({look.most_probable} | ({face.value} if face.value is not None else set()))


def judge(
    pyramid: Pyramid,
    found: Sequence[Candidate],
    classifier: Classifier,
    model: Model,
    *,
    expected: int | None = None,
    admits: Callable[[Face], bool] | None = None,
) -> list[Face]:
    """The dice among the candidates as the judge decides them (`decide`, with ``expected`` and
    ``admits``), ``classifier`` looking at each (`looks_at`)."""
    placed, looks = looks_at(pyramid, found, classifier)
    return decide(placed, looks, model, expected=expected, admits=admits)


def decide(
    found: Sequence[Candidate],
    looks: Sequence[Looks],
    model: Model,
    *,
    expected: int | None = None,
    admits: Callable[[Face], bool] | None = None,
) -> list[Face]:
    """The dice among the candidates as ``model`` weighs them with the judge's ``looks`` at each:
    a candidate whose chance of being a die is under ``model.least_die`` is left out; each other
    is given the value in question (`values_in_question`) with the best chance when that chance
    reaches ``model.least_value`` (else no value, None, and that value as ``likely``), and that
    chance as its confidence. Of two kept closer than `APART` of the wider's width, the likelier
    die stays. Candidates ``admits`` refuses (outside the throwing area) are left out first.

    With ``expected``, the number of dice thrown, the dice are the ``expected`` likeliest: a die
    kept beyond that count is left out (the likeliest stay), and when fewer are kept, the
    likeliest candidates under ``model.least_die`` make up the count as long as their chance
    reaches `COUNTED`. The count never gives a die a value: each die's value is weighed as
    without it, and a die the count added is most often "not sure"."""
    context = context_of(found, looks)
    least = model.least_die if expected is None else min(model.least_die, COUNTED)
    weighed = []
    for index, (candidate, look) in enumerate(zip(found, looks, strict=True)):
        die = model.die.chance(die_evidence(index, found, looks, context))
        if die < least or (admits is not None and not admits(candidate.face)):
            continue
        face = candidate.face
        chance, value = max(
            (model.value.chance(value_evidence(candidate, look, v, context)), v)
            for v in values_in_question(face, look)
        )
        given = value if chance >= model.least_value else None
        likely = value if given is None else None
        weighed.append(
            (die, replace(face, value=given, confidence=round(chance, 4), likely=likely))
        )
    kept: list[tuple[float, Face]] = []
    for die, face in sorted(weighed, key=lambda pair: -pair[0]):
        if all(
            math.hypot(face.x - k.x, face.y - k.y) >= APART * max(face.width, k.width)
            for _, k in kept
        ):
            kept.append((die, face))
    if expected is None:
        return [face for _, face in kept]
    # Likeliest first: those over least_die, then those the count may add.
    return [face for _, face in kept[:expected]]
