"""Stage 4: how the die classifier (`vision.classify`) looks at a candidate, and the die it decides.

A candidate is where a die may be: a face the pip stages found, or a place where a die is looked
for (around a pip no die explains, or where the frame stands out: `vision.search`). A first crop
around it says where the die centre lies from there, a second crop cut on that centre says whether
a die is there and which face it shows; a die found around a pip has its value told again from
looks at other widths. A face whose count the classifier finds unlikely on a die it doubts, or
which it cannot read and whose grid is unlike the frame's die width, is seen but not read; one it
doubts is a die where nothing stands out is dropped (specks). `vision.verify` puts it together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from vision.classify import UNREADABLE, Verdict, classify
from vision.crops import Pyramid, die_crop
from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip
from vision.standout import stands_out
from vision.widths import are_alike, square_grid, true_width

_STILL = 0.08
"""Offsets below this many die widths are noise: the crop stays where it was."""
_AGREED = 0.9
"""A face whose unturned look gives its pip count this probability is not looked at turned, nor
a die looked for around a pip more than ``classifier_turns`` times when it reads any value so,
nor read again at other widths (``search_value_widths``) when its looks read a value so."""
_READABLE = 0.4
"""A die the classifier likes best as one it cannot read is read as the value it likes next when
it gives that this much: a face whose grid is unlike the frame's die width, pips that fit no
face, a die the search found."""
_VALUE_SHARE = 0.7
"""A face the classifier doubts is a die, whose count it finds unlikely, is read as the value it
likes when that has this share of the die probability or more (else it is seen, not read)."""
_UNLIKELY_COUNT = 0.05
"""A face's pip count that the classifier gives less than this share of the die probability is
all but ruled out (`decide`)."""
_FAIR_COUNT = 0.15
"""A face of four pips or more keeps its count against a smaller one the classifier is sure of
when it gives its own count this share of the die probability or more (`decide`)."""
_CLOSE = 0.8
"""A face keeps its pip count where the classifier gives it this share of the value it likes best
or more (`decide`)."""
_NO_DIE = 0.1
"""A search whose first crop gives a die less than this does not keep the candidates after it
away: a pip of the die beside it, looked around first, hid the one pip of a large die."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """Where a die may be: its centre, its width, and the face the pip stages read there (None
    for a die looked for around an unexplained pip)."""

    x: float
    y: float
    width: float
    face: Face | None


def look(
    pyramid: Pyramid, starts: list[Candidate], params: ReaderParams, taken: list[Face] | tuple[()]
) -> list[tuple[Candidate, Verdict]]:
    """Each candidate moved to the die centre a first crop points to (those that land on a die
    already ``taken``, or on another candidate, dropped), and the classifier's verdict there."""
    centred = _centre(starts, classify([_crop(pyramid, c) for c in starts]), params, taken)
    verdicts = _read_turned(pyramid, centred, params)
    return list(zip((c for c, _ in centred), verdicts, strict=True))


def look_still(
    pyramid: Pyramid, starts: list[Candidate], params: ReaderParams
) -> list[tuple[Candidate, Verdict]]:
    """Each candidate looked at where it is (not moved where a first crop points), turned as
    `look` turns it."""
    return list(
        zip(starts, _read_turned(pyramid, [(c, None) for c in starts], params), strict=True)
    )


def dice_at(
    pyramid: Pyramid,
    starts: list[Candidate],
    params: ReaderParams,
    taken: list[Face] | tuple[()],
    *,
    least: float = 0.0,
) -> list[tuple[Candidate, Face | None]]:
    """Each candidate looked at (`look`) with the die decided there (None: no die), where the
    classifier gives a die ``least`` or more (a second look at faces rejected once). A face the
    classifier doubts is a die (under ``doubted_die_probability``) and that does not stand out
    from what lies around it (`stands_out`) is no die: two specks on a plain tray, read as a
    sure two from their pips, which the classifier gave a die 0.53 and 0.44 (synthetic seeds
    8335, 8440). Nor is a face of ``stand_out_pips`` pips or fewer that does not stand out,
    however sure the classifier: two screw heads on a tray's rim were a sure two to it (a die
    1.0; synthetic seeds 420, 3024, 8410)."""
    decided: list[tuple[Candidate, Face | None]] = []
    for c, verdict in look(pyramid, starts, params, taken):
        die = decide(c, verdict, params) if verdict.die_probability >= least else None
        if (
            die is not None
            and c.face is not None
            and (
                verdict.die_probability < params.doubted_die_probability
                or 0 < len(c.face.pips) <= params.stand_out_pips
            )
            and not stands_out(pyramid[0], c.x, c.y, c.width, params)
        ):
            die = None
        decided.append((c, die))
    return decided


def is_held(pip: Pip, dice: list[Face], params: ReaderParams) -> bool:
    """Whether a pip lies on one of ``dice`` (within 0.45 of its width of its centre)."""
    return any(math.hypot(pip.x - d.x, pip.y - d.y) < 0.45 * true_width(d, params) for d in dice)


def is_taken(
    x: float, y: float, width: float, dice: list[Face] | tuple[()], params: ReaderParams
) -> bool:
    """Whether a die at (x, y) would overlap one of ``dice``."""
    return any(
        math.hypot(x - d.x, y - d.y) < params.search_clearance * max(width, true_width(d, params))
        for d in dice
    )


def _crop(pyramid: Pyramid, candidate: Candidate, angle: float = 0.0) -> np.ndarray:
    return die_crop(pyramid, (candidate.x, candidate.y), candidate.width, angle)


def _read_turned(
    pyramid: Pyramid, centred: list[tuple[Candidate, Verdict | None]], params: ReaderParams
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
    pyramid: Pyramid, candidates: list[Candidate], verdicts: list[Verdict], params: ReaderParams
) -> list[Verdict]:
    """The verdicts, those on the dice looked for around a pip that are found there, and on the
    faces whose pip count the classifier does not read, with their value told again: looked at
    as if ``search_value_widths`` times as wide, unturned and turned half round, those looks'
    value probabilities averaged with the first looks' with equal weight. A die the pip stages
    did not count has only the classifier for its value, and one look's width can be wrong
    (smoky dice with red pips); a value the first looks read surely (`_AGREED`) is not looked at
    again (a sixth of the crops of a rendered frame, and no die read otherwise). A face is looked
    at again only where its pips and the classifier disagree and the classifier reads its own
    value unsurely (under ``classifier_certainty``): swirled red-pip dice (a three read 0.49 a
    five and 0.39 a three, synthetic seed 351); pooled, a four read fairly surely was given back
    to the five the pip stages found with a spurious pip (6505). Whether a die is there stays
    the first looks' say."""
    found = [
        i
        for i, (candidate, verdict) in enumerate(zip(candidates, verdicts, strict=True))
        if _value_unsure(candidate, verdict, params)
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


def _value_unsure(candidate: Candidate, verdict: Verdict, params: ReaderParams) -> bool:
    """Whether a die is there whose value `_valued_again` tells again: found around a pip and
    read unsurely (`_AGREED`), or a face whose pips the classifier disagrees with, reading its
    own value under ``classifier_certainty``."""
    if verdict.die_probability < params.accept_probability:
        return False
    surest = max(verdict.probabilities[1:UNREADABLE])
    face = candidate.face
    if face is None:
        return surest < _AGREED
    return (
        face.value is not None
        and verdict.value != face.value
        and surest < params.classifier_certainty
    )


def _looks(candidate: Candidate, unturned: Verdict, params: ReaderParams) -> int:
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


def _needs_turns(candidate: Candidate, unturned: Verdict, least: float) -> bool:
    """Whether a candidate is worth looking at turned: a face unless the unturned look already
    reads its value surely, a search unless its unturned look is too unsure to be accepted."""
    if candidate.face is None:
        return unturned.die_probability >= least
    value = candidate.face.value
    return value is None or unturned.probabilities[value] < _AGREED


def _centre(
    starts: list[Candidate],
    verdicts: list[Verdict],
    params: ReaderParams,
    taken: list[Face] | tuple[()],
) -> list[tuple[Candidate, Verdict | None]]:
    """Each candidate moved to the die centre its first crop points to; faces first, the
    candidates that land on a die already ``taken`` or on another of like width dropped (but not
    on a search whose first crop saw no die: `_NO_DIE`). With each, the first crop's verdict when
    the candidate stayed where it was (None: it moved)."""
    order = sorted(range(len(starts)), key=lambda i: -_priority(starts[i]))
    moved: list[tuple[Candidate, Verdict | None]] = []
    blocking: list[Candidate] = []
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
        if is_taken(x, y, start.width, taken, params):
            continue
        clearance = params.search_clearance * start.width
        if any(
            math.hypot(x - m.x, y - m.y) < clearance and are_alike(m.width, start.width)
            for m in blocking
        ):
            continue
        candidate = Candidate(x, y, start.width, start.face)
        moved.append((candidate, verdict if stays else None))
        if start.face is not None or verdict.die_probability >= _NO_DIE:
            blocking.append(candidate)
    return moved


def _priority(candidate: Candidate) -> float:
    """Faces before searches, the surest face first."""
    return 1.0 + candidate.face.confidence if candidate.face is not None else 0.0


def decide(
    candidate: Candidate, verdict: Verdict, params: ReaderParams, accept: float | None = None
) -> Face | None:
    """The die at a candidate, or None when there is none: a face keeps its pip count unless the
    classifier is sure of another value and likes it clearly better (`_CLOSE`), or is sure there
    is no die, or doubts both the die and the count (``doubted_die_probability``,
    ``doubted_value_share``: then it is unread), or cannot read a die whose grid is unlike the
    frame's width (unread too, but a lone pip stays a one where the classifier likes the one
    best of the values); pips that fit no face are a die (unread, unless the classifier reads
    it) only where the classifier gives a die ``doubted_die_probability`` or more; a die looked
    for around a pip needs the classifier to be fairly sure it is there (``accept``, by default
    ``accept_probability``). A lone pip read as another value than one is a die where the
    classifier centred it. A die the classifier likes best as one it cannot read is read as the
    value it likes next when that is nearly as likely (`_READABLE`)."""
    best = verdict.best
    sure = verdict.probabilities[best] >= params.classifier_confidence
    # A die it cannot read, unless it reads a value nearly as surely (`_READABLE`).
    unread = best == UNREADABLE and verdict.probabilities[verdict.value] < _READABLE
    face = candidate.face
    if face is None:
        if verdict.die_probability < (params.accept_probability if accept is None else accept):
            return None
        value = None if unread else verdict.value
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
    if face.value is None and verdict.die_probability < params.doubted_die_probability:
        # Pips that fit no face, where the classifier doubts a die: keys of a keyboard, specks.
        # Reported unread, they would have the throw thrown again for nothing.
        return None
    if face.value is None:
        # The centre of pips that fit no face is rough; a face fitted on its grid is exact.
        face = replace(face, x=candidate.x, y=candidate.y)
        if not are_alike(true_width(face, params), candidate.width):
            # Nor does their spread tell the die's width: a three read so, 70 px wide for a die
            # of 40, kept the search off the one touching it (rows throw 143).
            face = _as_wide(face, candidate, params)
        if best == UNREADABLE and not unread:
            return _valued(face, candidate, verdict.value, verdict.probabilities[verdict.value])
    elif not are_alike(true_width(face, params), candidate.width):
        # Read at the frame's width, far from its own: its grid was wrong (pips of two
        # dice, a whole die taken for a pip); the die is where and as wide as the crop says.
        face = _as_wide(face, candidate, params)
        if best == UNREADABLE:
            # And the classifier cannot read the die: its count is of a wrong grid (three pips
            # of a six at a tray's edge read as a three). Seen, not read.
            # Unless it reads a value nearly as surely (`_READABLE`): two pips of a five seen
            # obliquely near the frame's edge fitted a two 22 px wide, for a die of 44
            # (synthetic seed 9591: 0.47 five, 0.52 unreadable).
            # A one is no grid: its lone pip stays a one where the classifier likes the one
            # best of the values (wine ones at the frame's edge, their sides showing: a die it
            # could not read 0.4 and 0.8, a one 0.3 and 0.17: synthetic seeds 2426, 9427).
            if unread and not (len(face.pips) == 1 and verdict.value == 1):
                return replace(face, value=None, confidence=verdict.die_probability)
            return _valued(face, candidate, verdict.value, verdict.probabilities[verdict.value])
    if face.value is not None and face.value >= 4 and best < face.value:
        # Four pips or more fitted on a face's grid are seldom too many; pips are missed more.
        # Their count stands where the classifier gives it a fair share (`_FAIR_COUNT`): gold
        # fours read as sure twos (0.73-0.79, a four 0.19-0.23), a swirled five as a four
        # (synthetic seeds 1779, 2942, 4306).
        sure = (
            verdict.probabilities[best] >= params.classifier_certainty
            and verdict.probabilities[face.value] < _FAIR_COUNT * verdict.die_probability
        )
    if (
        face.value is not None
        and face.value != best
        and verdict.probabilities[face.value] >= _CLOSE * verdict.probabilities[best]
    ):
        # Nearly as likely to the classifier as the value it likes best, a count of pips found
        # stands: a white four read 0.38 a six, 0.37 a four (synthetic seed 7167).
        sure = False
    if 1 <= best <= 6 and sure:
        confidence = min(1.0, 0.5 * (face.confidence + verdict.probabilities[best]))
        if face.value == best:
            confidence = max(face.confidence, verdict.probabilities[best])
        return _valued(face, candidate, best, confidence)
    if (
        face.value is not None
        and verdict.value > face.value
        and verdict.probabilities[face.value] < _UNLIKELY_COUNT * verdict.die_probability
    ):
        # Pips are missed more than added: a count the classifier all but rules out, where it
        # likes a larger one best of the values, is of a face whose other pips did not show
        # (red pips on swirled dice; a four read as a two, unreadable or no die being likelier
        # to the classifier than any value: synthetic seeds 3464, 6896, 8874, 1199).
        return _valued(face, candidate, verdict.value, verdict.probabilities[verdict.value])
    if (
        face.value is not None
        and verdict.die_probability < params.doubted_die_probability
        and verdict.probabilities[face.value] < params.doubted_value_share * verdict.die_probability
        and verdict.value != face.value
    ):
        # Doubted as a die, and its count unlikely on one and not the likeliest: two pips of a
        # 4 or a 6 whose others were missed read as a sure 2. Seen, not read (the throw is
        # thrown again at the table). A die the classifier cannot read (touching others) keeps
        # a count that no other outdoes. But a value that has most of the die it sees
        # (`_VALUE_SHARE`) is the die's: a swirled two seen as a one, 0.51 a die and 0.41 a
        # two (synthetic seed 4866).
        value = verdict.value
        if verdict.probabilities[value] >= _VALUE_SHARE * verdict.die_probability:
            return _valued(face, candidate, value, verdict.probabilities[value])
        return replace(face, value=None, confidence=verdict.die_probability)
    return face


def _valued(face: Face, candidate: Candidate, value: int, confidence: float) -> Face:
    """The face read as ``value``. A lone pip read as a one and now as another value may be any
    pip of that die (a corner pip of a three): the die is where the first crop centred it."""
    if len(face.pips) == 1 and value != face.value:
        face = replace(face, x=candidate.x, y=candidate.y)
    return replace(face, value=value, confidence=confidence)


def _as_wide(face: Face, candidate: Candidate, params: ReaderParams) -> Face:
    """The face moved to the candidate and made as wide as it, on an upright grid."""
    u, v = square_grid(candidate.width, params)
    own = face.width / true_width(face, params)
    return replace(face, x=candidate.x, y=candidate.y, u=u, v=v, width=own * candidate.width)
