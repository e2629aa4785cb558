"""Fitting the die classifiers' last layers to a table's own dice, from its labelled photos.

Two networks read the dice: the reader's classifier (`vision.classify`) and the judge's
(`vision.judge.NETWORK`, same architecture). Their features stay as shipped; only each one's
class-score last layer is fitted (softmax regression, numpy alone, no training framework) to the
same crops: cut around the labelled dice as the reader cuts them (turned, off-centre, a little
larger or smaller), where the judge looks at the reader's candidates on them (`judged_crops`: a
die no stage reads, such as an emblem six, is found by the detector alone and looked at where it
places it), beside them and on the empty tray (no die centred there). Each fit is pulled toward
that network's shipped layer (an L2 penalty on the difference) and held to its verdicts on
ordinary rendered dice, so what it knew of other dice stays. Pure: frames and labels in, an
`Adapted` (both layers) out.

`refit` is how a table adapts: the layers are fitted to its older photos and kept only when they
read its newest (`HOLD_BACK`), which they were not fitted to, at least as well as the layers in
use (`Refit.reads_as_well`).
"""

from __future__ import annotations

import functools
import io
import math
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.blob_dice import without_faces_of_dice
from vision.classify import (
    CLASSES,
    MODEL,
    NO_DIE,
    Adapted,
    LastLayer,
    features,
    last_layer,
    shipped_last_layer,
)
from vision.crops import Pyramid, die_crop, pyramid_of
from vision.evaluation import LabelledDie, Score, rendered_labels, score_image
from vision.face import Face
from vision.judge import (
    LOOKS,
    NETWORK,
    judge_classifier,
    judge_network,
    look_crop,
    looks_at,
)
from vision.network import network_digest
from vision.params import ReaderParams
from vision.reader import candidates_of, find_pip_faces, read, working_copy
from vision.render import render_tray, style_from_seed
from vision.types import Frame, Reading
from vision.validate import check_frame
from vision.widths import frame_width

__all__ = [
    "HELD_DICE",
    "HOLD_BACK",
    "REHEARSAL",
    "AdaptParams",
    "Refit",
    "adapt_last_layer",
    "cut_crops",
    "fit_last_layer",
    "fit_network",
    "held_back",
    "judged_crops",
    "refit",
    "rehearsal_computed",
    "rehearsal_features",
    "rehearsal_key",
    "rehearsal_networks",
    "score_with",
    "wrong_values",
]

_CENTRED = 0.2
"""In die widths: a crop centred this close to a die centre is a crop of that die."""
_BESIDE = (0.45, 1.2)
"""In die widths: crops centred this far from a die are of no die centred there."""
_FAR = 1.0
"""In die widths: the empty tray's crops are at least this far from every labelled die."""
_ON_LABEL = 0.4
"""A face lies on a labelled die within this share of the wider's width of its centre, and at
least this share of the label's width wide (as `training/fit_judge.py` labels candidates)."""
_READER = ReaderParams()
_REHEARSAL_SEEDS = 31_000
"""The seeds of the rendered trays of ordinary dice rehearsed (apart from the benchmarks')."""
REHEARSAL = "rehearsal.npz"
"""The package's file of the shipped networks' features of the rehearsal crops under the default
params (`rehearsal_features`), made by ``python -m training.make_rehearsal``."""
HOLD_BACK = 0.25
"""The share of a table's photos, its newest, that a refit is checked on and not fitted to."""
HELD_DICE = 24
"""The dice a refit is checked on at least: more of the newest photos are held back until they
hold this many (up to half of them; a table whose half holds fewer cannot be refitted yet)."""


@dataclass(frozen=True, slots=True)
class AdaptParams:
    """How crops are cut and the layers fitted.

    ``on_die`` crops per die (turned, off-centre by up to 0.2 die widths, scaled by up to
    exp(±``scale``)), ``beside`` crops per die next to it and ``background`` crops per photo on
    the tray (class "no die"); ``pull`` the weight of the penalty on the distance to the shipped
    layer; ``steps`` of gradient descent (Adam) at ``rate``; ``rehearsal`` rendered trays of
    ordinary dice on which the layer is held to the shipped one's verdicts, weighing ``rehearse``
    times as much as the table's photos; ``balance``: each class of the table's crops weighs the
    same; ``judge_pull`` the pull for the judge's network (its layer must move further to read dice
    it did not know as surely as the judge asks); ``at_candidate`` crops per candidate the reader
    finds on a labelled die, cut where the judge looks at it (`judged_crops`).
    """

    on_die: int = 24
    beside: int = 4
    background: int = 8
    scale: float = 0.25
    pull: float = 0.05
    steps: int = 300
    rate: float = 0.02
    rehearsal: int = 24
    rehearse: float = 3.0
    balance: bool = True
    judge_pull: float = 0.003
    at_candidate: int = 24
    seed: int = 0


_DEFAULT = AdaptParams()

Photo = tuple[Frame, Sequence[LabelledDie]]
"""A frame and its labelled dice."""


def cut_crops(
    frame: Frame,
    dice: Sequence[LabelledDie],
    rng: np.random.Generator,
    params: AdaptParams,
    *,
    whole: bool = True,
) -> tuple[list[Frame], list[int]]:
    """The training crops of one labelled photo and their classes (0: no die, 1-6). A label of
    value `NO_DIE` is a box the players struck out (the reader took something there for a die):
    crops of "no die" there. A photo not ``whole`` (dice lie there whose boxes are not known: the
    reader missed them) gives no other crops of "no die", which might lie on a missed one."""
    labelled = [d for d in dice if d.value is not None and 1 <= d.value <= 6]
    if not labelled:
        return [], []
    struck = [d for d in dice if d.value == NO_DIE]
    pyramid = pyramid_of(frame)
    width = die_width(frame, pyramid, labelled)
    crops: list[Frame] = []
    classes: list[int] = []
    for die in [*labelled, *struck]:  # a box struck out: where the reader was fooled
        x, y = die.center
        beside = params.beside if whole and die.value != NO_DIE else 0
        for k in range(params.on_die + beside):
            on = k < params.on_die
            reach = _CENTRED * math.sqrt(rng.random()) if on else float(rng.uniform(*_BESIDE))
            theta = float(rng.uniform(0, 2 * math.pi))
            size = width * math.exp(float(rng.uniform(-params.scale, params.scale)))
            centre = (x + reach * width * math.cos(theta), y + reach * width * math.sin(theta))
            crops.append(die_crop(pyramid, centre, size, float(rng.uniform(0, 360))))
            classes.append(int(die.value) if on and die.value is not None else NO_DIE)
    height, wide = frame.shape[:2]
    made = tries = 0
    background = params.background if whole else 0
    while made < background and tries < 50 * max(background, 1):
        tries += 1
        cx, cy = float(rng.uniform(0, wide)), float(rng.uniform(0, height))
        if any(math.hypot(cx - d.center[0], cy - d.center[1]) < _FAR * width for d in labelled):
            continue
        size = width * math.exp(float(rng.uniform(-params.scale, params.scale)))
        crops.append(die_crop(pyramid, (cx, cy), size, float(rng.uniform(0, 360))))
        classes.append(NO_DIE)
        made += 1
    return crops, classes


def judged_crops(
    frame: Frame,
    dice: Sequence[LabelledDie],
    rng: np.random.Generator,
    params: AdaptParams,
    *,
    unlabelled: bool = False,
) -> tuple[list[Frame], list[int]]:
    """Crops where the judge looks at the labelled dice of one photo, and their classes: each
    candidate the reader finds on a labelled die or a box struck out (`NO_DIE`: "no die" there;
    its pip faces and the detector's proposals,
    `vision.reader.candidates_of`), placed as the judge's network places it, cut at its width
    ``params.at_candidate`` times (as the judge looks, `vision.judge.LOOKS`, then turned at
    random, every other one mirrored). A die the pip stages cannot read (an emblem) is found by
    the detector alone, off its centre or at another width than the labels tell; the judge must
    know it there too. With ``unlabelled`` (a photo whose every die is labelled), a candidate
    on no labelled die is cut too, as "no die". The table's refit leaves those out: with them,
    epanemu-ctu's refit passed its check and then left more of its held-out dice "not sure"
    (training/README.md); a refit of more than the last layer needs them
    (training/refit_depth.py)."""
    with last_layer(None):
        working, factor = working_copy(check_frame(frame))
        pyramid = pyramid_of(working)
        placed, _ = looks_at(pyramid, candidates_of(working, pyramid, _READER), judge_classifier)
    crops: list[Frame] = []
    classes: list[int] = []
    for candidate in placed:
        label = _label_of(candidate.face, factor, dice)
        if label is None and unlabelled:
            value = NO_DIE
        elif label is None or label.value is None or not NO_DIE <= label.value <= 6:
            continue
        else:
            value = int(label.value)
        face = candidate.face
        for k in range(params.at_candidate):
            look = LOOKS[k] if k < len(LOOKS) else (float(rng.uniform(0, 360)), bool(k % 2))
            crops.append(look_crop(pyramid, (face.x, face.y), face.width, look))
            classes.append(value)
    return crops, classes


def die_width(frame: Frame, pyramid: Pyramid, dice: Sequence[LabelledDie]) -> float:
    """The dice's width in ``frame`` as the reader tells it before reading any die
    (`vision.widths.frame_width`), so crops are cut at the widths the reader cuts them; else
    the labelled boxes' median side."""
    found = find_pip_faces(frame, _READER)
    kept = without_faces_of_dice(pyramid, found.pips, found.faces, _READER)
    width = frame_width(found.pips, *kept, _READER)
    if width is None:
        width = float(np.median([min(d.x_max - d.x_min, d.y_max - d.y_min) for d in dice]))
    return width


def fit_last_layer(
    found: npt.NDArray[np.float32],
    targets: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64],
    start: LastLayer,
    params: AdaptParams = _DEFAULT,
) -> LastLayer:
    """The last layer whose class probabilities on the features ``found`` (N × features) come
    nearest the ``targets`` (N × CLASSES, rows summing to 1): softmax regression from
    ``start``, minimising the cross-entropy weighted by ``weights`` (N) plus ``params.pull``/2
    times the squared distance to ``start``."""
    x = np.asarray(found, np.float32)  # float32 throughout: a long game's crops are many
    if len(x) == 0:
        return start
    w0 = np.asarray(start.weights, np.float64)
    b0 = np.asarray(start.bias, np.float64)
    share = np.asarray(weights, np.float64)[:, None] / float(np.sum(weights))
    scale = float(np.sqrt(np.mean(np.einsum("nf,nf->n", x, x, dtype=np.float64)))) or 1.0
    w, b = w0.copy(), b0.copy()
    moments = [np.zeros_like(w), np.zeros_like(b)]
    squares = [np.zeros_like(w), np.zeros_like(b)]
    beta1, beta2 = 0.9, 0.999
    for step in range(1, params.steps + 1):
        error = (_softmax(x, w, b) - targets) * share
        grads = [
            np.einsum("nc,nf->cf", error.astype(np.float32), x) + params.pull * (w - w0),
            error.sum(axis=0) + params.pull * (b - b0),
        ]
        for i, (param, grad) in enumerate(zip((w, b), grads, strict=True)):
            moments[i] = beta1 * moments[i] + (1 - beta1) * grad
            squares[i] = beta2 * squares[i] + (1 - beta2) * grad * grad
            m = moments[i] / (1 - beta1**step)
            v = squares[i] / (1 - beta2**step)
            # Steps in weight units: the features' typical length sets how far one step goes.
            param -= params.rate / (1 if param is b else scale) * m / (np.sqrt(v) + 1e-12)
    return LastLayer(w.astype(np.float32), b.astype(np.float32))


def _softmax(
    x: npt.NDArray[np.float32], w: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    # einsum: no BLAS threads fighting on a busy Pi; in x's float32, never a float64 copy of x.
    logits = np.einsum("nf,cf->nc", x, w.astype(np.float32)).astype(np.float64) + b
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    out: npt.NDArray[np.float64] = p / p.sum(axis=1, keepdims=True)
    return out


def rehearsal_crops(params: AdaptParams) -> Iterator[list[Frame]]:
    """Crops of ordinary dice the shipped classifier knows (rendered trays of random looks, fixed
    seeds), on which the fitted layer is held to the shipped one's verdicts: one tray's at a time,
    so a refit need not hold them all."""
    rng = np.random.default_rng([params.seed, 1])
    for i in range(params.rehearsal):
        seed = _REHEARSAL_SEEDS + i
        values = [int(v) for v in rng.integers(1, 7, int(rng.integers(2, 7)))]
        tray = render_tray(values, seed=seed, style=style_from_seed(seed))
        cut, _ = cut_crops(tray.frame, rendered_labels(tray.dice), rng, params)
        yield cut


def rehearsal_key(params: AdaptParams) -> npt.NDArray[np.float64]:
    """The params the rehearsal crops depend on (`rehearsal_crops`), as numbers."""
    fields = (params.seed, params.rehearsal, params.on_die, params.beside, params.background)
    return np.array([*fields, params.scale], np.float64)


def rehearsal_networks() -> npt.NDArray[np.str_]:
    """The digests of the shipped networks (the reader's and the judge's) the features are of."""
    return np.array([network_digest(MODEL), network_digest(NETWORK)])


def rehearsal_computed(params: AdaptParams) -> tuple[npt.NDArray[np.float32], ...]:
    """The reader's and the judge's networks' features of the rehearsal crops, rendered and
    looked at one tray at a time."""
    nets = (None, judge_network())
    known = tuple([features([], net)] for net in nets)  # no crops: no rows, the net's width
    for cut in rehearsal_crops(params):
        for parts, net in zip(known, nets, strict=True):
            parts.append(features(cut, net))
    return tuple(np.concatenate(parts) for parts in known)


def rehearsal_features(params: AdaptParams) -> tuple[npt.NDArray[np.float32], ...]:
    """The reader's and the judge's networks' features of the rehearsal crops: the package's
    (`REHEARSAL`) when they were made for ``params`` and the shipped networks, else
    `rehearsal_computed` (rendering them costs a refit about 50 MB and 5 s here)."""
    shipped = _shipped_rehearsal()
    if (
        shipped is not None
        and np.array_equal(shipped["params"], rehearsal_key(params))
        and np.array_equal(shipped["networks"], rehearsal_networks())
    ):
        return shipped["reader"], shipped["judge"]
    return rehearsal_computed(params)


@functools.cache
def _shipped_rehearsal() -> dict[str, npt.NDArray[Any]] | None:
    """The package's `REHEARSAL` arrays; None when it is missing or unreadable."""
    try:
        data = resources.files("vision").joinpath(REHEARSAL).read_bytes()
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            found = {key: stored[key] for key in ("params", "networks", "reader", "judge")}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None
    for array in found.values():
        array.flags.writeable = False  # shared by every refit of the process
    return found


def adapt_last_layer(
    photos: Sequence[Photo], params: AdaptParams = _DEFAULT, *, partial: Sequence[Photo] = ()
) -> tuple[Adapted, int]:
    """The last layers of the reader's and the judge's networks fitted to the labelled
    ``photos`` (frame and its dice) and the ``partial`` ones (dice lie there that are not
    labelled: see `cut_crops`), each from its shipped one and held to that one's verdicts on
    ordinary dice (`rehearsal_crops`), and how many dice they were fitted to."""
    rng = np.random.default_rng(params.seed)
    nets = (None, judge_network())
    # Each network's features of the table's crops, in float16 (their values lie far inside its
    # range, to 2e-3): a long game's crops are many.
    found: tuple[list[npt.NDArray[np.float16]], ...] = ([], [])
    classes: list[int] = []
    dice = 0
    for whole, group in ((True, photos), (False, partial)):
        # One frame at a time (``photos`` may read them lazily), its crops kept as features.
        for frame, labelled in group:
            cut, cls = cut_crops(frame, labelled, rng, params, whole=whole)
            judged, judged_classes = judged_crops(frame, labelled, rng, params)
            for parts, net in zip(found, nets, strict=True):
                parts.append(features(cut + judged, net).astype(np.float16))
            classes += cls + judged_classes
            dice += sum(1 for d in labelled if d.value is not None and 1 <= d.value <= 6)
    layers = []
    for parts, rehearsed, net in zip(found, rehearsal_features(params), nets, strict=True):
        fitting = params if net is None else replace(params, pull=params.judge_pull)
        layers.append(fit_network(net, parts, classes, rehearsed, fitting))
        parts.clear()  # let go before the next network's fit
    return Adapted(*layers), dice


def _label_of(face: Face, factor: float, dice: Sequence[LabelledDie]) -> LabelledDie | None:
    """The labelled die the face (in the working copy, shrunk by ``factor``) lies on: the nearest
    whose centre is within `_ON_LABEL` of the wider's width, the face at least that share of
    the label's width wide."""
    x, y, width = face.x / factor, face.y / factor, face.width / factor
    best: tuple[float, LabelledDie] | None = None
    for die in dice:
        side = max(die.x_max - die.x_min, die.y_max - die.y_min, 1.0)
        distance = math.hypot(x - die.center[0], y - die.center[1])
        on = distance <= _ON_LABEL * max(side, width) and width >= _ON_LABEL * side
        if on and (best is None or distance < best[0]):
            best = (distance, die)
    return best[1] if best else None


def fit_network(
    net: cv2.dnn.Net | None,
    table: Sequence[npt.NDArray[np.floating[Any]]],
    classes: Sequence[int],
    known_features: npt.NDArray[np.float32],
    params: AdaptParams = _DEFAULT,
) -> LastLayer:
    """The last layer of ``net`` (None: the reader's shipped network) fitted from its shipped
    one to the features of the table's crops (`features`, in ``table``'s parts, in order) of
    ``classes``, held to the shipped one's verdicts on the features of known crops of ordinary
    dice."""
    found = np.concatenate([*table, known_features], dtype=np.float32)  # one copy of them all
    table_rows = len(found) - len(known_features)
    if table_rows != len(classes):
        raise ValueError(f"{table_rows} crops' features for {len(classes)} classes")
    shipped = shipped_last_layer(net)
    targets = np.zeros((table_rows, CLASSES))
    targets[np.arange(table_rows), np.asarray(classes, np.int64)] = 1.0
    w0 = np.asarray(shipped.weights, np.float64)
    b0 = np.asarray(shipped.bias, np.float64)
    held = _softmax(known_features, w0, b0)
    # Each class of the table's crops weighs the same: the face a table's dice show least (an
    # emblem six the reader mostly missed) is learnt as well as the others.
    kinds = np.asarray(classes, np.int64)
    present = np.unique(kinds)
    per_class = np.bincount(kinds, minlength=CLASSES).astype(np.float64)
    balanced = 1.0 / (len(present) * per_class[kinds]) if params.balance else None
    weights = np.concatenate(
        [
            balanced if balanced is not None else np.full(table_rows, 1.0 / max(table_rows, 1)),
            np.full(len(known_features), params.rehearse / max(len(known_features), 1)),
        ]
    )
    return fit_last_layer(found, np.concatenate([targets, held]), weights, shipped, params)


@dataclass(frozen=True, slots=True)
class Refit:
    """Layers fitted to a table's older photos (``fitted`` photos, ``dice`` dice), and how the
    layers in use (``before``) and they (``after``) read its ``held_back`` newest photos."""

    layers: Adapted
    dice: int
    fitted: int
    held_back: int
    before: Score
    after: Score

    @property
    def reads_as_well(self) -> bool:
        """Whether the refit reads the held-back photos at least as well as the layers in use:
        as many dice right, no more dice not sure, no more given a wrong value, no more throws
        misread silently."""
        return (
            self.after.correct >= self.before.correct
            and self.after.unread <= self.before.unread
            and wrong_values(self.after) <= wrong_values(self.before)
            and self.after.silent <= self.before.silent
        )


def wrong_values(score: Score) -> int:
    """Dice given a value that is not theirs (or given one where no die lies)."""
    return score.reported - score.unread - score.correct


def score_with(
    photos: Sequence[Photo],
    layers: Adapted | None,
    reader: Callable[[Frame], Reading] = read,
) -> Score:
    """How ``reader`` reads ``photos`` with the last ``layers`` (None: the shipped ones); boxes
    struck out (`NO_DIE`) are no dice."""
    total = Score()
    with last_layer(layers):
        for frame, labelled in photos:
            dice = [d for d in labelled if d.value != NO_DIE]
            total += score_image(reader(frame), dice)
    return total


def held_back(dice: Sequence[int]) -> int | None:
    """How many of the newest photos a refit is checked on, given each photo's number of
    ``dice`` (oldest first): their `HOLD_BACK` share, more until they hold `HELD_DICE` dice;
    None when half of them hold fewer."""
    held = max(1, round(len(dice) * HOLD_BACK))
    while sum(dice[-held:]) < HELD_DICE:
        if held >= len(dice) // 2:
            return None
        held += 1
    return held


def refit(
    photos: Sequence[Photo],
    current: Adapted | None,
    params: AdaptParams = _DEFAULT,
    reader: Callable[[Frame], Reading] = read,
    *,
    partial: Sequence[Photo] = (),
    held: int | None = None,
) -> Refit:
    """The last layers fitted to ``photos`` (oldest first) but the ``held`` newest (default:
    `held_back`), which ``reader`` reads with the ``current`` layers (None: the shipped ones)
    and with the refit; and to the ``partial`` photos (`adapt_last_layer`), never held back.
    ValueError when ``photos`` are too few to hold back `HELD_DICE` dice."""
    if held is None:
        held = held_back([sum(d.value != NO_DIE for d in dice) for _, dice in photos])
    if held is None or not 0 < held < len(photos):
        raise ValueError(f"half of {len(photos)} photos hold fewer than {HELD_DICE} dice")
    fitted, checked = photos[:-held], photos[-held:]
    layers, dice = adapt_last_layer(fitted, params, partial=partial)
    return Refit(
        layers,
        dice,
        len(fitted) + len(partial),
        len(checked),
        score_with(checked, current, reader),
        score_with(checked, layers, reader),
    )
