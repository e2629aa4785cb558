"""The fast path: a frame read by the die detector and the die classifier alone, when both are sure.

The detector (`vision.detect`) proposes where dice lie and how wide they are; the classifier
(`vision.classify`) looks at each proposal, again where that look places the die centre when it
is not sure, and turned when it is not certain of the value (`_looked_at`). Then it looks where
a look that saw no die placed one and where the frame stands out from the tray away from the dice
read, near a peak of the detector's however weak that no die read explains (`_looked_around`):
a die the detector missed.
The frame is read this way only when every proposal is a die read surely (a die, of one value,
centred in its crop: each at least ``quick_sure``) or surely no die (under ``quick_no_die``, or
under ``quick_faint`` placing no die elsewhere) that the detector was weak on, every look around
is a die read surely or under ``quick_doubt`` sure of one, and the dice are not the smallest
(``quick_least_width``: such dice strongly proposed leave the frame before any look), do not
overlap, are of one width, and, when they are wide, leave no die the frame quartered proposes
unexplained (`_wide_die_unread`). Small dice (under ``quick_small_width``) are read more strictly,
as the classifier and the detector are weaker on them (`_strict`, and `_looked_around` with
``small``). Anything else (a die read unsurely, a die the detector is sure of and the classifier
is not, no die at all) sends the frame to the pip stages and the classifier's many looks
(`vision.reader`), which read every frame the fast path leaves and report dice seen but not read.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import replace

from vision.classify import Verdict, classify
from vision.crops import Pyramid, die_crop
from vision.detect import WIDE, Proposal, detect, wide_proposals
from vision.face import Face
from vision.params import ReaderParams
from vision.standout import DIE_PIXELS, standing_out

TURNS = ((90.0,), (180.0, 270.0))
"""A die whose value is not certain (``quick_certain``) is looked at again turned by the first of
these angles (degrees), and by the others when the looks averaged are not sure (``quick_sure``)."""
OVERLAP = 0.6
"""Two dice read with centres closer than this many widths of the narrower are one die."""
HINT_REACH = 1.5
"""A place that stands out from the tray is looked at only within this many die widths of one of
the detector's peaks (``quick_hint`` strong or more) that no die read explains (`EXPLAINED`). At
0.75, a place beside a row of touching dice whose look placed the die the detector missed among
them was not looked at."""
SMALL_DIE_PIXELS = 6.5
"""On a frame of small dice (``quick_small_width``), the places standing out from the tray are
found on the pyramid level where a die is this many pixels wide or more (dice of 28-32 px on the
second, not the first: there the stage took 5-9 ms a frame, against 1-3 ms)."""
MAY_BE_WIDER = 2 / 3 * WIDE
"""The frame halved tells dice of 160-290 px (held-out close-ups) 115-142 px wide, and proposes
few of those over 220 px: where a die read is this wide or more, the frame may hold wider dice it
missed, and the frame quartered is read too (`_wide_die_unread`)."""
EXPLAINED = 0.25
"""A peak of the detector's within this many widths of a die read is that die's, and hints at no
other: the shadow beside a die stands out near its peak (up to 9 looks on a frame of dice about
100 px wide, all seeing no die). A peak the die read lies farther from was put between touching
dice (a row of four given three peaks: rows, throw 267), and still hints at a die missed."""


def quick_faces(pyramid: Pyramid, params: ReaderParams) -> list[Face] | None:
    """The dice of the frame whose pyramid is ``pyramid``, as faces without pips, or ``None``
    when the fast path is not sure of them all."""
    if len(pyramid) < 2:
        return None
    peaks = detect(pyramid[1], min(params.quick_hint, params.detector_least))
    proposals = [p for p in peaks if p.strength >= params.detector_least]
    if not proposals:
        return None
    strong = [p.width for p in proposals if p.strength >= params.quick_strong]
    width = statistics.median(strong or [p.width for p in proposals])
    if width < params.quick_least_width:
        return None  # before any look: the smallest dice are left to the pip stages
    small = width < params.quick_small_width
    if small:
        params = _strict(params)
    faces: list[Face] = []
    pointed: list[tuple[float, float]] = []
    for proposal, verdict in _looked_at(pyramid, proposals, params):
        if _sure(verdict, params):
            faces.append(_face(proposal, verdict, params))
        elif proposal.strength < params.quick_strong and (
            verdict.die_probability <= params.quick_no_die
            # a faint glimpse that places no die elsewhere: the tray's corner or wall
            or (verdict.die_probability <= params.quick_faint and _centred(verdict, params))
        ):
            if not _centred(verdict, params):
                moved = _moved(proposal, verdict)
                pointed.append((moved.x, moved.y))
        else:
            return None
    if not faces or statistics.median(f.width for f in faces) < params.quick_least_width:
        return None
    found = _looked_around(pyramid, faces, pointed, peaks, params, small=small)
    if found is None:
        return None
    faces += found
    if _overlap(faces) or _uneven(faces, params) or _wide_die_unread(pyramid, faces, params):
        return None
    return faces


def _wide_die_unread(pyramid: Pyramid, faces: list[Face], params: ReaderParams) -> bool:
    """Whether, the widest die read being `MAY_BE_WIDER` wide or more, the detector strongly
    (``quick_strong``) proposes a die over `vision.detect.WIDE` in the frame quartered or coarser
    (`wide_proposals`) that lies on no die read: a die the frame halved does not show."""
    if max(f.width for f in faces) < MAY_BE_WIDER:
        return False
    return any(not _on_a_die(p.x, p.y, faces) for p in wide_proposals(pyramid, params.quick_strong))


def _strict(params: ReaderParams) -> ReaderParams:
    """The fast path's thresholds for small dice: every die read ``quick_certain`` sure (synthetic
    throw 6375: a small 4 read as a 5 at 0.90, turned looks averaged in), and no glimpse of a die
    over ``quick_no_die`` let go as faint (throw 2827: a small 1 touching another, glimpsed at
    0.04 by the look at its weak peak, which took it for 40 px wide)."""
    return replace(
        params,
        quick_sure=max(params.quick_sure, params.quick_certain),
        quick_faint=params.quick_no_die,
    )


def _looked_at(
    pyramid: Pyramid,
    proposals: list[Proposal],
    params: ReaderParams,
    *,
    read: list[Face] | None = None,
) -> list[tuple[Proposal, Verdict]]:
    """Each proposal with the classifier's verdict on it: its look, or, when that is not sure
    and sees more than no die (or, given the dice ``read`` so far, places a die off its centre),
    its look where that one places the die centre; and when that is a die (``quick_doubt`` sure),
    centred, but not certain of its value, the average of it and looks turned (`TURNS`), unless
    they see different values (then the look is no longer centred). A look that places its die
    on a die ``read`` is not followed: its proposal is moved there, with that look."""
    seen = list(zip(proposals, _looks(pyramid, proposals, 0.0), strict=True))
    again = [
        i
        for i, (_, v) in enumerate(seen)
        if not _sure(v, params)
        and (
            v.die_probability > params.quick_no_die
            or (read is not None and not _centred(v, params))
        )
    ]
    moved = {i: _moved(*seen[i]) for i in again}
    landed = {i for i in again if read and _on_a_die(moved[i].x, moved[i].y, read)}
    fresh = [i for i in again if i not in landed]
    for i in landed:
        seen[i] = (moved[i], seen[i][1])
    for i, v in zip(fresh, _looks(pyramid, [moved[i] for i in fresh], 0.0), strict=True):
        seen[i] = (moved[i], v)
    every = {i: [v] for i, (_, v) in enumerate(seen)}
    for angles, enough in ((TURNS[0], params.quick_certain), (TURNS[1], params.quick_sure)):
        doubted = [
            i
            for i, (_, v) in enumerate(seen)
            if i not in landed
            and v.die_probability >= params.quick_doubt
            and _centred(v, params)
            and not (_sure(v, params) and v.probabilities[v.value] >= enough)
        ]
        turned = [_looks(pyramid, [seen[i][0] for i in doubted], angle) for angle in angles]
        for k, i in enumerate(doubted):
            every[i] += [looks_at[k] for looks_at in turned]
            seen[i] = (seen[i][0], _together(every[i]))
    return seen


def _looks(pyramid: Pyramid, proposals: list[Proposal], angle: float) -> list[Verdict]:
    """The classifier's look at each proposal, turned by ``angle`` degrees."""
    if not proposals:
        return []
    return classify([die_crop(pyramid, (p.x, p.y), p.width, angle) for p in proposals])


def _together(looks: list[Verdict]) -> Verdict:
    """Looks at one place: their probabilities averaged, at the first one's offset; a die off
    centre (an offset of a whole die width) when they see different values."""
    first = looks[0]
    if any(other.value != first.value for other in looks):
        return Verdict(first.probabilities, (1.0, 0.0))
    probabilities = tuple(
        sum(column) / len(looks) for column in zip(*(v.probabilities for v in looks), strict=True)
    )
    return Verdict(probabilities, first.offset)


def _looked_around(
    pyramid: Pyramid,
    faces: list[Face],
    pointed: list[tuple[float, float]],
    peaks: list[Proposal],
    params: ReaderParams,
    *,
    small: bool = False,
) -> list[Face] | None:
    """The dice found away from the dice read: where a look that saw no die placed one
    (``pointed``), and where the frame stands out from the tray (`vision.standout`, as the pip
    stages' reader looks there too) near one of the detector's ``peaks``, however weak, that no
    die read explains (within `HINT_REACH` die widths: a cable or a wall stands out far from any,
    and a die's shadow near its own, `EXPLAINED`, while a die among touching dice lies beside a
    peak put between them and a die the detector was weak on under its own). A die the
    detector missed is read there when surely read; the frame is left when a look there sees a
    die under ``quick_doubt`` sure of it. A look that glimpses a die (more than ``quick_no_die``
    sure of one) and places it off its centre and on no die read is followed there once more; the
    frame is left when that look too glimpses one (more than ``quick_faint`` sure) elsewhere.
    (Most glimpses are of the tray's walls and corners; the dice among them are seen surely at
    the second place, as a die in a cluster of touching dice the detector took for fewer.)

    Beside ``small`` dice, every peak hints, those of the dice read too (small dice touching are
    proposed as fewer, and the one missed stands out beside a die read: rows, throw 136, the
    middle die of a row of three missed without it), the places standing out are found one
    pyramid level coarser (`SMALL_DIE_PIXELS`), and a die found leaves the frame: small dice the
    detector misses lie in a pile, whose other dice may be missed too (throw 1636: a die touching
    one found here, at the frame's edge)."""
    width = statistics.median(f.width for f in faces)
    found: list[Face] = []

    def is_taken(x: float, y: float) -> bool:
        return _on_a_die(x, y, faces + found)

    read = [(f.x, f.y, f.width) for f in faces]
    points = [p for p in pointed if not is_taken(*p)]
    hints = [p for p in peaks if small or not _on_a_die(p.x, p.y, faces, EXPLAINED)]
    if hints:  # else no place standing out is near enough to one to be looked at
        pixels = SMALL_DIE_PIXELS if small else DIE_PIXELS
        points += [
            (x, y)
            for x, y in standing_out(pyramid, width, is_taken, params, read, die_pixels=pixels)
            if any(math.hypot(x - p.x, y - p.y) < HINT_REACH * width for p in hints)
        ]
    proposals = [Proposal(x, y, width, 0.0) for x, y in points]
    for faint in (params.quick_no_die, params.quick_faint):
        glimpsed = []
        for proposal, verdict in _looked_at(pyramid, proposals, params, read=faces + found):
            if _on_a_die(proposal.x, proposal.y, faces + found):
                continue  # followed to a die read
            if _sure(verdict, params):
                if small:
                    return None  # small dice the detector missed lie in a pile, as often as not
                found.append(_face(proposal, verdict, params))
            elif verdict.die_probability >= params.quick_doubt:
                return None
            elif verdict.die_probability > faint and _points_past(
                proposal, verdict, faces + found, params
            ):
                glimpsed.append(_moved(proposal, verdict))
        if not glimpsed:
            return found
        proposals = glimpsed
    return None


def _sure(verdict: Verdict, params: ReaderParams) -> bool:
    """Whether the crop surely shows a die, of one value, centred in it."""
    return (
        verdict.die_probability >= params.quick_sure
        and verdict.probabilities[verdict.value] >= params.quick_sure
        and _centred(verdict, params)
    )


def _centred(verdict: Verdict, params: ReaderParams) -> bool:
    """Whether the look places the die centre (or would, if it saw one) at the crop's centre."""
    return math.hypot(*verdict.offset) < params.quick_centred


def _moved(proposal: Proposal, verdict: Verdict) -> Proposal:
    """The proposal moved to where the classifier's look at it places the die centre."""
    return Proposal(
        proposal.x + verdict.offset[0] * proposal.width,
        proposal.y + verdict.offset[1] * proposal.width,
        proposal.width,
        proposal.strength,
    )


def _face(proposal: Proposal, verdict: Verdict, params: ReaderParams) -> Face:
    """A die read by the fast path as a face: its grid square to the frame (the classifier tells
    no angle), spaced so that the die is ``proposal.width`` wide."""
    step = proposal.width / params.die_width_per_spacing
    sureness = min(verdict.die_probability, verdict.probabilities[verdict.value])
    centre = _moved(proposal, verdict)
    return Face(
        centre.x,
        centre.y,
        (step, 0.0),
        (0.0, step),
        (),
        verdict.value,
        proposal.width,
        sureness,
    )


def _points_past(
    proposal: Proposal, verdict: Verdict, faces: list[Face], params: ReaderParams
) -> bool:
    """Whether a look that saw no die places one off its centre, and on no die read: a die's edge
    seen, whose die the detector did not propose."""
    if _centred(verdict, params):
        return False
    place = _moved(proposal, verdict)
    return not _on_a_die(place.x, place.y, faces)


def _on_a_die(x: float, y: float, faces: list[Face], reach: float = 0.5) -> bool:
    """Whether (x, y) lies on one of ``faces``' dice: within ``reach`` of its width of its
    centre (half: anywhere on it)."""
    return any(math.hypot(x - f.x, y - f.y) < reach * f.width for f in faces)


def _overlap(faces: list[Face]) -> bool:
    """Whether two of the dice read lie too close to be two dice: closer than `OVERLAP` of the
    narrower one's width, or one's centre on the other (half the wider one's width)."""
    return any(
        math.hypot(a.x - b.x, a.y - b.y)
        < max(OVERLAP * min(a.width, b.width), 0.5 * max(a.width, b.width))
        for i, a in enumerate(faces)
        for b in faces[i + 1 :]
    )


def _uneven(faces: list[Face], params: ReaderParams) -> bool:
    """Whether a die read is more than ``quick_width_spread`` times wider or narrower than the
    median of them (dice in one tray are one size: a die's pip or two dice read as one die)."""
    middle = statistics.median(f.width for f in faces)
    spread = params.quick_width_spread
    return any(not middle / spread <= f.width <= middle * spread for f in faces)
