"""Stage 4: every die candidate read again by the die classifier (`vision.classify`).

The pip stages find most dice, but miss those whose pips contrast only in colour (red pips on a
black die, dark pips on a marbled one) and miscount some. Here each face found is a candidate: a
first crop around it says where the die centre lies from there, a second crop cut on that centre
says whether a die is there and which face it shows. Then the pips that no die kept explains are
candidates too, each at the die widths it suggests (the frame's, or a die of its own size: it may
be a pip, or a whole die seen as one blob); the surest die wins where several land on one, and
its value is told again from looks at other widths (a one the classifier is unsure of is found
when its pip lies at its centre on a die that stands out). A face whose count the classifier finds
unlikely on a die it doubts, or which it cannot read and whose grid is unlike the frame's die
width, is seen but not read; one it doubts is a die where nothing stands out is dropped (specks).
Die widths are edge to edge (`vision.widths`); the frame's comes from the faces the classifier
kept (all dice in a tray are the same size), else from the pip sizes; when the search reads dice
surely at another width, what it missed is looked for again at theirs. A face whose pips are each
a whole die to the classifier (dark dice lying apart on a light tray) is dropped first, and its
pips looked at as dice.
Last, a die read far narrower than the sure dice, read unsurely at another width than theirs, or
found by the search as a narrower one, is looked at again at their width, and a dark blob the
pip stages took for a die holding its one (`vision.pips.PipsFound`) is looked at as the pip of a
one, with a glare spot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.classify import UNREADABLE, Verdict, classify
from vision.crops import Pyramid, die_crop
from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip
from vision.standout import standing_out
from vision.types import Frame
from vision.widths import are_alike, die_width, frame_width, square_grid, true_width, width_of

_STILL = 0.08
"""Offsets below this many die widths are noise: the crop stays where it was."""
_AGREED = 0.9
"""A face whose unturned look gives its pip count this probability is not looked at turned, nor
a die looked for around a pip more than ``classifier_turns`` times when it reads any value so,
nor read again at other widths (``search_value_widths``) when its looks read a value so."""
_BIG_ONE = 0.7
"""Many dice have a larger one pip: a one rejected is looked at again this much narrower."""
_SURE_WIDTH = 0.5
"""Faces read with at least this confidence tell the frame's die width when there are any."""
_NO_DIE = 0.1
"""A search whose first crop gives a die less than this does not keep the candidates after it
away: a pip of the die beside it, looked around first, hid the one pip of a large die."""
_CENTRED = 0.1
"""A pip this many die widths from a die's centre or less is at its centre."""
_ONE_PIP = (0.12, 0.4)
"""The diameters of a one's pip, in die widths (a one's pip is often drawn large)."""
_SMALLEST_PIP = 0.04
"""A stray pip this many frame die widths across or more is looked for at the frame's width: as
small as the glare spot left of a glossy pip of a large die when the pip was taken for a dark die
holding its one (`vision.pips`)."""
_BLOB_SHADOW = 0.7
"""A blob taken for a die is also looked at this much narrower: the die may have run together
with its shadow."""
_ONE_SIZE_LOOKS = (1.0, 0.75)
"""The widths, in the other dice's, at which a die read at another width than them is looked at
again (`_one_size`): their median may itself be a little wide (smoke-red dice 57-70 px wide found
at 66-83 px; a four among them, read at 35 px, is a die to the classifier at 57 px, not at 75)."""
_ONE_PER_PIP = 4.5
"""A one's pip is about 0.22 of its die's width: a dark blob holding a glare spot, with no die
read there, is looked at as a one this many times as wide (`_glossy_ones`)."""


@dataclass(frozen=True, slots=True)
class _Candidate:
    """Where a die may be: its centre, its width, and the face the pip stages read there (None
    for a die looked for around an unexplained pip)."""

    x: float
    y: float
    width: float
    face: Face | None


def verify(
    pyramid: Pyramid,
    pips: tuple[Pip, ...],
    faces: list[Face],
    params: ReaderParams,
    *,
    spotted: tuple[Pip, ...] = (),
) -> list[Face]:
    """The faces re-read by the classifier (their values checked, those it rejects dropped) and
    the dice it finds around the pips that no face explains, and around the ``spotted`` blobs
    (`_glossy_ones`)."""
    faces, blob_dice = without_faces_of_dice(pyramid, pips, faces, params)
    width = frame_width(pips, faces, blob_dice, params)
    if width is None:
        return faces
    starts = [_Candidate(f.x, f.y, width_of(f, width, params), f) for f in faces]
    starts += [_Candidate(p.x, p.y, width, None) for p in blob_dice]
    decided = _decided(pyramid, starts, params, ())
    dice = _apart([die for _, die in decided if die is not None], params)
    # A one rejected at the width its pip suggests may be a die whose one pip is drawn large.
    big_ones = [
        replace(candidate, width=_BIG_ONE * candidate.width)
        for candidate, die in decided
        if die is None and candidate.face is not None and len(candidate.face.pips) == 1
    ]
    dice += [die for _, die in _decided(pyramid, big_ones, params, dice) if die is not None]
    # The faces the classifier read surely tell the die width better than all the faces found.
    # With none of them, the pip sizes tell it (the doubtful and unread faces count only when
    # there are no pips either).
    width = die_width(pips, _sure(dice), params) or die_width(pips, dice, params) or width
    found = _search(pyramid, pips, dice, width, params)
    # Dice in one tray are one size: dice the search read surely at another width than the one
    # it looked at (dark dice seen whole as blobs, when the width came from the pips or from a
    # face read unsurely) tell the width better, and what is still unexplained is looked for
    # again at theirs.
    sure_found = _sure(found)
    if sure_found:
        again = float(np.median([true_width(d, params) for d in sure_found]))
        if not are_alike(again, width):
            found += _search(pyramid, pips, dice + found, again, params)
    dice = _one_size(pyramid, dice + found, params)
    return dice + _glossy_ones(pyramid, spotted, dice, params)


def _glossy_ones(
    pyramid: Pyramid, spotted: tuple[Pip, ...], dice: list[Face], params: ReaderParams
) -> list[Face]:
    """The ones found at the dark blobs that the pip stages took for dice holding their one pip
    (`vision.pips.PipsFound`) and that no die read holds: each is looked at as a one's pip with a
    glare spot (the die `_ONE_PER_PIP` times as wide), and kept when the classifier reads a one
    centred on it there (`_decided` drops a look landing on a die read). (A dark die holding its
    one is mostly read from that pip.)"""
    found: list[Face] = []
    for blob in spotted:
        width = _ONE_PER_PIP * blob.diameter
        read = dice + found
        if width < params.min_die_width or _is_held(blob, read, params):
            continue
        start = _Candidate(blob.x, blob.y, width, None)
        for _, die in _decided(pyramid, [start], params, read):
            if (
                die is not None
                and die.value == 1
                and math.hypot(die.x - blob.x, die.y - blob.y) < _CENTRED * width
            ):
                found.append(die)
    return found


def _one_size(pyramid: Pyramid, dice: list[Face], params: ReaderParams) -> list[Face]:
    """The dice, those read at another width than the median of the sure dice looked at again
    where they lie, at their width and a little narrower (`_ONE_SIZE_LOOKS`), as a die looked
    for around a pip. Dice in one tray are one size.
    A die far narrower (under ``search_narrowest`` times) is replaced by the surest die found
    there; with none, it is dropped when two sure dice or more say so (one may be the misread
    die). A speck read as a one 14 px wide, while the frame's width was still told by it and
    another speck, stayed beside five dice 110 px wide (synthetic seed 715); a pip of a two
    118 px wide, looked around at its own size, was read surely as a one 53 px wide beside a
    six read at 119 px (2097).
    A one the search found around a pip (no pips of its own), narrower than the sure dice, is
    dropped too when no die is found at their width, be there one sure die only: a speck on a
    plain tray is read surely as a one at the small width its size suggests, 16 px wide beside
    a three of 156 px, 27 px beside a four of 41 px (synthetic seeds 669, 2192).
    A die read unsurely or not read, at a width unlike theirs (be there one sure die only), is
    replaced by the surest die read there with a value, or stays: a three looked at 127 px wide,
    as the pips of the dice not read told, was not read; the search then read the others surely
    at 91 px (synthetic seed 2367)."""
    sure = _sure(dice)
    again: dict[int, tuple[float, bool]] = {}
    for i, die in enumerate(dice):
        others = [true_width(d, params) for d in sure if d is not die]
        if not others:
            continue
        width = float(np.median(others))
        own = true_width(die, params)
        if die.value == 1 and not die.pips and not are_alike(own, width) and own < width:
            again[i] = (width, True)  # a speck, read as a one at the width its size suggests
        elif own < params.search_narrowest * width:
            again[i] = (width, len(others) >= 2)
        elif die not in sure and not are_alike(own, width):
            again[i] = (width, False)
    kept = [die for i, die in enumerate(dice) if i not in again]
    for i, (width, droppable) in again.items():
        looks = [_Candidate(dice[i].x, dice[i].y, s * width, None) for s in _ONE_SIZE_LOOKS]
        seen = [
            die
            for _, die in _decided(pyramid, looks, params, kept)
            if die is not None and (droppable or die.value is not None)
        ]
        if seen:
            kept.append(max(seen, key=lambda die: die.confidence))
        elif not droppable:
            kept.append(dice[i])
    return kept


def _apart(dice: list[Face], params: ReaderParams) -> list[Face]:
    """The dice, less those that lie on a surer one (``search_clearance``), in their order: the
    first crops of two blobs of one die, each looked around at a width the classifier sees no
    die at, may both point to its centre, and neither keeps the other away (`_NO_DIE`)."""
    kept: list[int] = []
    for i in sorted(range(len(dice)), key=lambda i: -dice[i].confidence):
        die = dice[i]
        if not _is_taken(die.x, die.y, true_width(die, params), [dice[k] for k in kept], params):
            kept.append(i)
    return [dice[i] for i in sorted(kept)]


def _sure(dice: list[Face]) -> list[Face]:
    """The dice read with a value and at least ``_SURE_WIDTH`` confidence: they tell the die
    width."""
    return [d for d in dice if d.value is not None and d.confidence >= _SURE_WIDTH]


def _search(
    pyramid: Pyramid, pips: tuple[Pip, ...], dice: list[Face], width: float, params: ReaderParams
) -> list[Face]:
    """The dice found around the pips that no die explains, each looked for at the frame's die
    width and at the widths the pip itself suggests (it may be a pip, or a whole die seen as one
    dark or bright blob), and where the frame stands out from the tray with no die read there
    (`vision.standout`); the surest die wins where several land on one."""
    around_pips = _unexplained(pips, dice, width, params)
    standouts = standing_out(
        pyramid,
        width,
        lambda x, y: _is_near_start(x, y, width, dice, around_pips, params),
        params,
        [(d.x, d.y, true_width(d, params)) for d in dice],
    )
    starts = around_pips + [_Candidate(x, y, width, None) for x, y in standouts]
    ranked = sorted(_look(pyramid, starts, params, dice), key=lambda cv: -cv[1].die_probability)
    found: list[Face] = []
    for candidate, verdict in ranked:
        if _is_taken(candidate.x, candidate.y, candidate.width, found, params):
            continue
        accept = params.accept_probability
        if params.one_accept_probability <= verdict.die_probability < accept and _is_plain_one(
            pyramid[0], pips, candidate, verdict, params
        ):
            accept = params.one_accept_probability
        die = _decide(candidate, verdict, params, accept)
        if die is not None and _shows_its_pips(pyramid[0], die, params):
            found.append(die)
    return found


def _shows_its_pips(frame: Frame, die: Face, params: ReaderParams) -> bool:
    """Whether a die the search found (around a stray pip, or where the frame stands out) shows
    as many pips as it is read to have: at least ``search_pip_fraction`` of its box per pip
    differs from the box's median grey by a pip's contrast. Ones and twos cover too little of a
    die to be told from a speck this way."""
    if die.value is None or die.value < 3:
        return True
    half = max(2, int(die.width / 2))
    x, y = int(die.x), int(die.y)
    box = frame[max(0, y - half) : y + half, max(0, x - half) : x + half]
    if box.size == 0:
        return True
    grey = cv2.cvtColor(np.ascontiguousarray(box), cv2.COLOR_BGR2GRAY).astype(np.float32)
    differs = np.abs(grey - float(np.median(grey))) > params.min_pip_contrast
    return float(differs.mean()) >= params.search_pip_fraction * die.value


def _is_plain_one(
    frame: Frame,
    pips: tuple[Pip, ...],
    candidate: _Candidate,
    verdict: Verdict,
    params: ReaderParams,
) -> bool:
    """Whether a die looked for around a pip is read as a one whose pip lies at its centre and
    is a one's size (`_ONE_PIP`), on a die that stands out from what lies around it
    (`_stands_out`). A speck on a plain tray, which the classifier may take for the pip of a
    one, has no die around it."""
    width = candidate.width
    if verdict.best != 1 or not any(
        math.hypot(p.x - candidate.x, p.y - candidate.y) < _CENTRED * width
        and _ONE_PIP[0] * width <= p.diameter <= _ONE_PIP[1] * width
        for p in pips
    ):
        return False
    return _stands_out(frame, candidate.x, candidate.y, width, params)


def _stands_out(frame: Frame, x: float, y: float, width: float, params: ReaderParams) -> bool:
    """Whether a die ``width`` wide centred at (x, y) stands out from what lies around it: in
    the square ring from 0.35 to 0.7 widths about its centre (across its edges), the lightest
    tenth is ``min_pip_contrast`` grey levels lighter than the darkest tenth."""
    reach = int(0.7 * width) + 1
    cx, cy = round(x), round(y)
    x0, y0 = max(0, cx - reach), max(0, cy - reach)
    box = frame[y0 : cy + reach + 1, x0 : cx + reach + 1]
    if box.size == 0:
        return False
    grey = cv2.cvtColor(np.ascontiguousarray(box), cv2.COLOR_BGR2GRAY)
    rows, columns = np.mgrid[y0 : y0 + grey.shape[0], x0 : x0 + grey.shape[1]]
    away = np.maximum(np.abs(columns - x), np.abs(rows - y)) / width
    ring = grey[(away >= 0.35) & (away <= 0.7)]
    if ring.size == 0:
        return False
    darkest, lightest = np.percentile(ring, [10.0, 90.0])
    return bool(lightest - darkest >= params.min_pip_contrast)


def _is_near_start(
    x: float,
    y: float,
    width: float,
    dice: list[Face],
    starts: list[_Candidate],
    params: ReaderParams,
) -> bool:
    """Whether a die at (x, y) would overlap a die read, or lie where a search already looks."""
    return _is_taken(x, y, width, dice, params) or any(
        math.hypot(x - c.x, y - c.y) < 0.5 * width for c in starts
    )


def _look(
    pyramid: Pyramid, starts: list[_Candidate], params: ReaderParams, taken: list[Face] | tuple[()]
) -> list[tuple[_Candidate, Verdict]]:
    """Each candidate moved to the die centre a first crop points to (those that land on a die
    already ``taken``, or on another candidate, dropped), and the classifier's verdict there."""
    centred = _centre(starts, classify([_crop(pyramid, c) for c in starts]), params, taken)
    verdicts = _read_turned(pyramid, centred, params)
    return list(zip((c for c, _ in centred), verdicts, strict=True))


def _decided(
    pyramid: Pyramid, starts: list[_Candidate], params: ReaderParams, taken: list[Face] | tuple[()]
) -> list[tuple[_Candidate, Face | None]]:
    """Each candidate looked at (`_look`) with the die decided there (None: no die). A face the
    classifier doubts is a die (under ``doubted_die_probability``) and that does not stand out
    from what lies around it (`_stands_out`) is no die: two specks on a plain tray, read as a
    sure two from their pips, which the classifier gave a die 0.53 and 0.44 (synthetic seeds
    8335, 8440)."""
    decided: list[tuple[_Candidate, Face | None]] = []
    for c, verdict in _look(pyramid, starts, params, taken):
        die = _decide(c, verdict, params)
        if (
            die is not None
            and c.face is not None
            and verdict.die_probability < params.doubted_die_probability
            and not _stands_out(pyramid[0], c.x, c.y, c.width, params)
        ):
            die = None
        decided.append((c, die))
    return decided


def _is_held(pip: Pip, dice: list[Face], params: ReaderParams) -> bool:
    """Whether a pip lies on one of ``dice`` (within 0.45 of its width of its centre)."""
    return any(math.hypot(pip.x - d.x, pip.y - d.y) < 0.45 * true_width(d, params) for d in dice)


def _is_taken(
    x: float, y: float, width: float, dice: list[Face] | tuple[()], params: ReaderParams
) -> bool:
    """Whether a die at (x, y) would overlap one of ``dice``."""
    return any(
        math.hypot(x - d.x, y - d.y) < params.search_clearance * max(width, true_width(d, params))
        for d in dice
    )


def _crop(pyramid: Pyramid, candidate: _Candidate, angle: float = 0.0) -> np.ndarray:
    return die_crop(pyramid, (candidate.x, candidate.y), candidate.width, angle)


def _read_turned(
    pyramid: Pyramid, centred: list[tuple[_Candidate, Verdict | None]], params: ReaderParams
) -> list[Verdict]:
    """The classifier's verdicts on crops of each candidate turned by 0, 90, 180... degrees
    (``classifier_turns`` of them, ``face_turns`` for a face or an unsure value: `_looks`),
    their probabilities averaged: a face reads the same turned. A candidate that its first crop
    left where it was has been seen unturned already: that verdict serves. A die looked for
    around a pip needs ``accept_probability`` on average, so one whose unturned look is too
    unsure to get there is not looked at turned (it stays rejected)."""
    turns = max(1, params.classifier_turns)
    looks: list[list[Verdict]] = [[seen] if seen is not None else [] for _, seen in centred]
    unseen = [i for i, (_, seen) in enumerate(centred) if seen is None]
    for i, verdict in zip(
        unseen, classify([_crop(pyramid, centred[i][0]) for i in unseen]), strict=True
    ):
        looks[i].append(verdict)
    # The least unturned die probability that can still average to accept_probability.
    least = turns * params.accept_probability - (turns - 1)
    jobs = [
        (i, 90.0 * k)
        for i, (candidate, _) in enumerate(centred)
        if _needs_turns(candidate, looks[i][0], least)
        for k in range(1, _looks(candidate, looks[i][0], params))
    ]
    crops = [_crop(pyramid, centred[i][0], angle) for i, angle in jobs]
    for (i, _), verdict in zip(jobs, classify(crops), strict=True):
        looks[i].append(verdict)
    verdicts = [_averaged(group, turns) for group in looks]
    return _valued_again(pyramid, [c for c, _ in centred], verdicts, params)


def _valued_again(
    pyramid: Pyramid, candidates: list[_Candidate], verdicts: list[Verdict], params: ReaderParams
) -> list[Verdict]:
    """The verdicts, those on the dice looked for around a pip that are found there (not on
    faces) with their value told again: looked at as if ``search_value_widths`` times as wide,
    unturned and turned half round, those looks' value probabilities averaged with the first
    looks' with equal weight. A die the pip stages did not count has only the classifier for its
    value, and one look's width can be wrong (smoky dice with red pips); a value the first looks
    read surely (`_AGREED`) is not looked at again (a sixth of the crops of a rendered frame, and
    no die read otherwise). Whether a die is there stays the first looks' say."""
    found = [
        i
        for i, (candidate, verdict) in enumerate(zip(candidates, verdicts, strict=True))
        if candidate.face is None
        and verdict.die_probability >= params.accept_probability
        and max(verdict.probabilities[1:UNREADABLE]) < _AGREED
    ]
    jobs = [
        (i, scale, angle)
        for i in found
        for scale in params.search_value_widths
        for angle in (0.0, 180.0)
    ]
    crops = [
        die_crop(pyramid, (candidates[i].x, candidates[i].y), scale * candidates[i].width, angle)
        for i, scale, angle in jobs
    ]
    again: dict[int, list[tuple[float, ...]]] = {}
    for (i, _, _), verdict in zip(jobs, classify(crops), strict=True):
        again.setdefault(i, []).append(verdict.probabilities)
    pooled = list(verdicts)
    for i, looks in again.items():
        first = np.asarray(verdicts[i].probabilities)
        values = 0.5 * (first[1:] + np.mean(looks, axis=0)[1:])
        values *= (1.0 - first[0]) / max(float(values.sum()), 1e-12)
        probabilities = np.concatenate(([first[0]], values))
        pooled[i] = Verdict(tuple(float(p) for p in probabilities), verdicts[i].offset)
    return pooled


def _looks(candidate: _Candidate, unturned: Verdict, params: ReaderParams) -> int:
    """How many looks in all a candidate worth turning gets (`_needs_turns`): ``face_turns`` for
    a face and for a die looked for around a pip whose value the unturned look does not read
    surely, else ``classifier_turns``."""
    turns = max(1, params.classifier_turns)
    if candidate.face is None and max(unturned.probabilities[1:UNREADABLE]) >= _AGREED:
        return turns
    return max(turns, params.face_turns)


def _averaged(looks: list[Verdict], turns: int) -> Verdict:
    """The looks at one candidate as one verdict: their probabilities averaged, the unturned
    look's offset (in the frame's own axes). Looks past the first ``turns`` are there to tell a
    face's value; they may make a die surer, but cannot drop one that the first looks keep (when
    they could, a 2 in a row of touching ivory dice was lost)."""
    probabilities = np.mean([v.probabilities for v in looks], axis=0)
    first = float(np.mean([v.probabilities[0] for v in looks[:turns]]))
    dice = probabilities[1:]
    if first < probabilities[0] and dice.sum() > 0.0:
        probabilities = np.concatenate(([first], dice * (1.0 - first) / dice.sum()))
    return Verdict(tuple(float(p) for p in probabilities), looks[0].offset)


def _needs_turns(candidate: _Candidate, unturned: Verdict, least: float) -> bool:
    """Whether a candidate is worth looking at turned: a face unless the unturned look already
    reads its value surely, a search unless its unturned look is too unsure to be accepted."""
    if candidate.face is None:
        return unturned.die_probability >= least
    value = candidate.face.value
    return value is None or unturned.probabilities[value] < _AGREED


def without_faces_of_dice(
    pyramid: Pyramid, pips: tuple[Pip, ...], faces: list[Face], params: ReaderParams
) -> tuple[list[Face], list[Pip]]:
    """The faces that are not made of whole dice, and the pips of those that are: a face whose
    pips are each large enough to be a die (``min_die_width``) and each taken for a die by the
    classifier (``pip_die_probability``), cut as wide as the pip or a little narrower
    (`_blob_widths`). Dark dice lying apart on a light tray, each seen as one blob, make the pips
    of a die several times their size, which the classifier itself reads surely at that width
    (two dice a "2" 160 px wide), and which told the frame's die width."""
    large = [
        f for f in faces if f.pips and all(pips[k].diameter >= params.min_die_width for k in f.pips)
    ]
    if not large:
        return faces, []
    # Each face's first pip first: most faces are no dice, and one pip tells it.
    firsts = sorted({f.pips[0] for f in large})
    dice = _dice_among(pyramid, pips, firsts, params)
    rest = {k for f in large if f.pips[0] in dice for k in f.pips[1:]}
    dice |= _dice_among(pyramid, pips, sorted(rest.difference(firsts)), params)
    of_dice = [bool(f.pips) and all(k in dice for k in f.pips) for f in faces]
    kept = [f for f, whole in zip(faces, of_dice, strict=True) if not whole]
    dropped = {k for f, whole in zip(faces, of_dice, strict=True) if whole for k in f.pips}
    return kept, [pips[k] for k in sorted(dropped)]


def _dice_among(
    pyramid: Pyramid, pips: tuple[Pip, ...], blobs: list[int], params: ReaderParams
) -> set[int]:
    """Which of the ``blobs`` (indices into ``pips``) the classifier takes for whole dice, cut as
    wide as the blob or a little narrower (`_blob_widths`)."""
    looks = [
        (k, width)
        for k in blobs
        for width in _blob_widths(params.die_width_per_blob * pips[k].diameter, params)
    ]
    verdicts = classify([die_crop(pyramid, (pips[k].x, pips[k].y), w) for k, w in looks])
    return {
        k
        for (k, _), v in zip(looks, verdicts, strict=True)
        if v.die_probability >= params.pip_die_probability
    }


def _blob_widths(width: float, params: ReaderParams) -> tuple[float, ...]:
    """The widths a blob ``width`` pixels across is looked at as a die: its own, and
    ``_BLOB_SHADOW`` of it while that is still a die's width (``min_die_width``): a small dark
    die runs together with its shadow into a blob half as wide again (synthetic seed 2574: dice
    21 px wide seen as blobs of 31-33 px)."""
    narrower = _BLOB_SHADOW * width
    return (width, narrower) if narrower >= params.min_die_width else (width,)


def _centre(
    starts: list[_Candidate],
    verdicts: list[Verdict],
    params: ReaderParams,
    taken: list[Face] | tuple[()],
) -> list[tuple[_Candidate, Verdict | None]]:
    """Each candidate moved to the die centre its first crop points to; faces first, the
    candidates that land on a die already ``taken`` or on another of like width dropped (but not
    on a search whose first crop saw no die: `_NO_DIE`). With each, the first crop's verdict when
    the candidate stayed where it was (None: it moved)."""
    order = sorted(range(len(starts)), key=lambda i: -_priority(starts[i]))
    moved: list[tuple[_Candidate, Verdict | None]] = []
    blocking: list[_Candidate] = []
    for i in order:
        start, verdict = starts[i], verdicts[i]
        ox, oy = verdict.offset
        distance = math.hypot(ox, oy)
        reach = params.face_reach if start.face is not None else params.search_reach
        stays = distance < _STILL or distance > reach
        if distance > reach and start.face is None:
            continue
        if stays:
            ox = oy = 0.0
        x, y = start.x + ox * start.width, start.y + oy * start.width
        if _is_taken(x, y, start.width, taken, params):
            continue
        clearance = params.search_clearance * start.width
        if any(
            math.hypot(x - m.x, y - m.y) < clearance and are_alike(m.width, start.width)
            for m in blocking
        ):
            continue
        candidate = _Candidate(x, y, start.width, start.face)
        moved.append((candidate, verdict if stays else None))
        if start.face is not None or verdict.die_probability >= _NO_DIE:
            blocking.append(candidate)
    return moved


def _priority(candidate: _Candidate) -> float:
    """Faces before searches, the surest face first."""
    return 1.0 + candidate.face.confidence if candidate.face is not None else 0.0


def _decide(
    candidate: _Candidate, verdict: Verdict, params: ReaderParams, accept: float | None = None
) -> Face | None:
    """The die at a candidate, or None when there is none: a face keeps its pip count unless the
    classifier is sure of another value (or sure there is no die), or doubts both the die and the
    count (``doubted_die_probability``, ``doubted_value_share``: then it is unread), or cannot
    read a die whose grid is unlike the frame's width (unread too); a die looked for around a
    pip needs the classifier to be fairly sure it is there (``accept``, by default
    ``accept_probability``)."""
    best = verdict.best
    sure = verdict.probabilities[best] >= params.classifier_confidence
    face = candidate.face
    if face is None:
        if verdict.die_probability < (params.accept_probability if accept is None else accept):
            return None
        value = None if best == UNREADABLE else verdict.value
        if value is None and not params.report_unread:
            return None
        u, v = square_grid(candidate.width, params)
        return Face(
            candidate.x, candidate.y, u, v, (), value, candidate.width, verdict.die_probability
        )
    # A lone pip read as a one is the weakest evidence of a die: a speck or a screw head looks so.
    floor = params.reject_single_probability if len(face.pips) == 1 else params.reject_probability
    if verdict.die_probability < floor:
        return None
    if face.value is None:
        # The centre of pips that fit no face is rough; a face fitted on its grid is exact.
        face = replace(face, x=candidate.x, y=candidate.y)
    elif not are_alike(true_width(face, params), candidate.width):
        # Read at the frame's width, far from its own: its grid was wrong (pips of two
        # dice, a whole die taken for a pip); the die is where and as wide as the crop says.
        u, v = square_grid(candidate.width, params)
        own = face.width / true_width(face, params)
        face = replace(face, x=candidate.x, y=candidate.y, u=u, v=v, width=own * candidate.width)
        if best == UNREADABLE:
            # And the classifier cannot read the die: its count is of a wrong grid (three pips
            # of a six at a tray's edge read as a three). Seen, not read.
            return replace(face, value=None, confidence=verdict.die_probability)
    if face.value is not None and face.value >= 4 and best < face.value:
        # Four pips or more fitted on a face's grid are seldom too many; pips are missed more.
        sure = verdict.probabilities[best] >= params.classifier_certainty
    if 1 <= best <= 6 and sure:
        confidence = min(1.0, 0.5 * (face.confidence + verdict.probabilities[best]))
        if face.value == best:
            confidence = max(face.confidence, verdict.probabilities[best])
        return replace(face, value=best, confidence=confidence)
    if (
        face.value is not None
        and verdict.die_probability < params.doubted_die_probability
        and verdict.probabilities[face.value] < params.doubted_value_share * verdict.die_probability
        and verdict.value != face.value
    ):
        # Doubted as a die, and its count unlikely on one and not the likeliest: two pips of a
        # 4 or a 6 whose others were missed read as a sure 2. Seen, not read (the throw is
        # thrown again at the table). A die the classifier cannot read (touching others) keeps
        # a count that no other outdoes.
        return replace(face, value=None, confidence=verdict.die_probability)
    return face


def _unexplained(
    pips: tuple[Pip, ...], dice: list[Face], width: float, params: ReaderParams
) -> list[_Candidate]:
    """Where to look for the dice no die read explains: around each pip that no die holds, the
    strongest first, at each die width it suggests that no pip close by was looked around at
    already. A pip of a die of the frame's width is looked for at that width (unless it is much
    more elongated than the pips of the dice read: those lie on the sides of dice seen
    obliquely), and narrower too when no die was read (the width is then a guess from the pip
    sizes), and so is a blob from nearly a die across to two (a die whose pips ran together, a
    dark die run together with its shadow); any blob large enough to be a die of its own is also
    looked for as one (a dark die whose pips did not show), and a pip far from the frame's pip
    size as a pip of a die of its own size; with two dice read or more, at no width over
    ``search_widest`` times the frame's nor under ``search_narrowest`` times it. (The pip of a
    one beside the blob of its whole die, looked around at the blob's width, is still looked
    around at the frame's.)"""
    used = {k for die in dice for k in die.pips}
    flat = [pips[k].elongation for k in used] or [p.elongation for p in pips]
    most_elongated = float(np.median(flat)) + params.search_elongation_excess if flat else 0.0
    # Dice in one tray are one size: with two read, the frame's width is no guess.
    widest = params.search_widest * width if len(dice) >= 2 else math.inf
    narrowest = params.search_narrowest * width if len(dice) >= 2 else 0.0
    starts: list[_Candidate] = []
    points: list[tuple[float, float, list[float]]] = []
    for k, pip in enumerate(pips):
        if len(points) >= params.max_searches:
            break
        if k in used or _is_held(pip, dice, params):
            continue
        widths = []
        if (
            _SMALLEST_PIP * width <= pip.diameter <= 0.4 * width
            and pip.elongation <= most_elongated
        ):
            widths.append(width)
            if not dice:  # the width is a guess from the pip sizes
                widths.append(params.guessed_width_narrower * width)
        elif 0.4 * width < pip.diameter < 2.0 * width:
            # A whole die of the frame's width seen as one blob, alone or run together with its
            # shadow or a die beside it.
            widths.append(width)
        if pip.diameter >= params.min_die_width:
            widths.append(params.die_width_per_blob * pip.diameter)
        if pip.elongation <= most_elongated:
            widths.append(params.die_width_per_pip * pip.diameter)
        # A width already looked at around a pip close by is not looked at again from here.
        near = [
            w
            for x, y, looked in points
            if math.hypot(pip.x - x, pip.y - y) < 0.25 * width
            for w in looked
        ]
        kept: list[float] = []
        for w in widths:
            if max(params.min_die_width, narrowest) <= w <= widest and not any(
                are_alike(w, o) for o in kept + near
            ):
                kept.append(w)
        if kept:
            points.append((pip.x, pip.y, kept))
            starts += [_Candidate(pip.x, pip.y, w, None) for w in kept]
    return starts
