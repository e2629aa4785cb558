"""Stage 4: every die candidate read again by the die classifier (`vision.classify`).

The pip stages find most dice, but miss those whose pips contrast only in colour (red pips on a
black die, dark pips on a marbled one) and miscount some. Here every face found, and every pip that
no face explains, is a candidate: a first crop around it says where the die centre lies from there,
a second crop cut on that centre says whether a die is there and which face it shows. Die widths
come from the faces read (all dice in a tray are the same size), else from the pip sizes.
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

_STILL = 0.08
"""Offsets below this many die widths are noise: the crop stays where it was."""


@dataclass(frozen=True, slots=True)
class _Candidate:
    """Where a die may be: its centre, its width, and the face the pip stages read there (None
    for a die looked for around an unexplained pip)."""

    x: float
    y: float
    width: float
    face: Face | None


def verify(
    pyramid: Pyramid, pips: tuple[Pip, ...], faces: list[Face], params: ReaderParams
) -> list[Face]:
    """The faces re-read by the classifier (their values checked, those it rejects dropped) and
    the dice it finds around the pips that no face explains."""
    width = _die_width(pips, faces, params)
    if width is None:
        return faces
    starts = [_Candidate(f.x, f.y, _width_of(f, width), f) for f in faces]
    starts += [_Candidate(x, y, width, None) for x, y in _unexplained(pips, faces, width, params)]
    if not starts:
        return faces
    centred = _centre(starts, classify([_crop(pyramid, c) for c in starts]), params)
    verdicts = _read_turned(pyramid, centred, params.classifier_turns)
    dice = []
    for candidate, verdict in zip(centred, verdicts, strict=True):
        die = _decide(candidate, verdict, params)
        if die is not None:
            dice.append(die)
    return dice


def _crop(pyramid: Pyramid, candidate: _Candidate, angle: float = 0.0) -> np.ndarray:
    return die_crop(pyramid, (candidate.x, candidate.y), candidate.width, angle)


def _read_turned(pyramid: Pyramid, centred: list[_Candidate], turns: int) -> list[Verdict]:
    """The classifier's verdicts on crops of each candidate turned by 0, 90, 180... degrees
    (``turns`` of them), their probabilities averaged: a face reads the same turned."""
    angles = [90.0 * k for k in range(max(1, turns))]
    verdicts = classify([_crop(pyramid, c, a) for a in angles for c in centred])
    count = len(centred)
    averaged = []
    for i in range(count):
        group = [verdicts[k * count + i] for k in range(len(angles))]
        probabilities = np.mean([v.probabilities for v in group], axis=0)
        averaged.append(Verdict(tuple(float(p) for p in probabilities), group[0].offset))
    return averaged


def _die_width(pips: tuple[Pip, ...], faces: list[Face], params: ReaderParams) -> float | None:
    """The die width in the frame: the median width of the faces read (of those with two pips or
    more, when there are enough of them to outvote a misfit), else from the pip sizes (None:
    nothing to go by)."""
    several = [f.width for f in faces if f.value is not None and f.value >= 2]
    if len(several) >= 3:
        return float(np.median(several))
    if faces:
        return float(np.median([f.width for f in faces]))
    if pips:
        return params.die_width_per_pip * float(np.median([p.diameter for p in pips]))
    return None


def _width_of(face: Face, width: float) -> float:
    """A face's own width when it is close to the frame's, else the frame's."""
    if face.value is not None and face.value >= 2 and 0.6 < face.width / width < 1.6:
        return face.width
    return width


def _centre(
    starts: list[_Candidate], verdicts: list[Verdict], params: ReaderParams
) -> list[_Candidate]:
    """Each candidate moved to the die centre its first crop points to; faces first, the
    candidates that land on a die already taken dropped."""
    order = sorted(range(len(starts)), key=lambda i: -_priority(starts[i]))
    moved: list[_Candidate] = []
    for i in order:
        start, verdict = starts[i], verdicts[i]
        ox, oy = verdict.offset
        distance = math.hypot(ox, oy)
        reach = params.face_reach if start.face is not None else params.search_reach
        if distance > reach:
            if start.face is None:
                continue
            ox = oy = 0.0
        elif distance < _STILL:
            ox = oy = 0.0
        x, y = start.x + ox * start.width, start.y + oy * start.width
        clearance = params.search_clearance * start.width
        if any(math.hypot(x - m.x, y - m.y) < clearance for m in moved):
            continue
        moved.append(_Candidate(x, y, start.width, start.face))
    return moved


def _priority(candidate: _Candidate) -> float:
    """Faces before searches, the surest face first."""
    return 1.0 + candidate.face.confidence if candidate.face is not None else 0.0


def _decide(candidate: _Candidate, verdict: Verdict, params: ReaderParams) -> Face | None:
    """The die at a candidate, or None when there is none: a face keeps its pip count unless the
    classifier is sure of another value (or sure there is no die); a die looked for around a pip
    needs the classifier to be fairly sure it is there."""
    best = verdict.best
    sure = verdict.probabilities[best] >= params.classifier_confidence
    face = candidate.face
    if face is None:
        if verdict.die_probability < params.accept_probability:
            return None
        value = None if best == UNREADABLE else verdict.value
        if value is None and not params.report_unread:
            return None
        step = candidate.width / params.die_width_per_spacing
        return Face(
            candidate.x,
            candidate.y,
            (step, 0.0),
            (0.0, step),
            (),
            value,
            candidate.width,
            verdict.die_probability,
        )
    # A lone pip read as a one is the weakest evidence of a die: a speck or a screw head looks so.
    floor = params.reject_single_probability if len(face.pips) == 1 else params.reject_probability
    if verdict.die_probability < floor:
        return None
    if face.value is None:
        # The centre of pips that fit no face is rough; a face fitted on its grid is exact.
        face = replace(face, x=candidate.x, y=candidate.y)
    if face.value is not None and face.value >= 4 and best < face.value:
        # Four pips or more fitted on a face's grid are seldom too many; pips are missed more.
        sure = verdict.probabilities[best] >= params.classifier_certainty
    if 1 <= best <= 6 and sure:
        confidence = min(1.0, 0.5 * (face.confidence + verdict.probabilities[best]))
        if face.value == best:
            confidence = max(face.confidence, verdict.probabilities[best])
        return replace(face, value=best, confidence=confidence)
    return face


def _unexplained(
    pips: tuple[Pip, ...], faces: list[Face], width: float, params: ReaderParams
) -> list[tuple[float, float]]:
    """Where the pips no face explains are, the strongest first, near ones merged. Pips much
    more elongated than those of the faces read are on the sides of dice seen obliquely."""
    used = {k for face in faces for k in face.pips}
    flat = [pips[k].elongation for k in used] or [p.elongation for p in pips]
    most_elongated = float(np.median(flat)) + params.search_elongation_excess if flat else 0.0
    starts: list[tuple[float, float]] = []
    for k, pip in enumerate(pips):
        if len(starts) >= params.max_searches:
            break
        if k in used or not 0.08 * width <= pip.diameter <= 0.4 * width:
            continue
        if pip.elongation > most_elongated:
            continue
        if any(math.hypot(pip.x - f.x, pip.y - f.y) < 0.6 * width for f in faces):
            continue
        if any(math.hypot(pip.x - x, pip.y - y) < 0.35 * width for x, y in starts):
            continue
        starts.append((pip.x, pip.y))
    return starts
