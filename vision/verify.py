"""Stage 4: every die candidate read again by the die classifier (`vision.classify`).

The pip stages find most dice, but miss those whose pips contrast only in colour (red pips on a
black die, dark pips on a marbled one) and miscount some. Here each face found is a candidate,
looked at by the classifier, which says where the die centre lies, whether a die is there and
which face it shows (`vision.looks`); a face it rejects is looked at again narrower, as a die
whose pips lie near its edges or a one with a large pip. Then the pips that no die kept explains
are candidates too, and the places where the frame stands out (`vision.search`).
Die widths are edge to edge (`vision.widths`); the frame's comes from the faces the classifier
kept (all dice in a tray are the same size), else from the pip sizes (with no face kept at all,
each is looked at its own width again: the width was told by faces that are no dice); when the
search reads dice surely at another width, what it missed is looked for again at theirs. A face
whose pips are each a whole die to the classifier (dark dice lying apart on a light tray) is
dropped first, and its pips looked at as dice (`vision.blob_dice`).
Last, a die read far narrower than the sure dice, read unsurely at another width than theirs, or
found by the search as a narrower one, is looked at again at their width, a die seen but not read
or read unsurely is looked at again narrower and wider, and a dark blob the pip stages took for a
die holding its one (`vision.pips.PipsFound`) is looked at as the pip of a one with a glare spot
(a die of another value read there is kept too: the blobs were its glossy pips). A face read
across two touching dice, made of their pips near the edge they share, is read as those two dice
(`vision.straddle`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.blob_dice import without_faces_of_dice
from vision.classify import UNREADABLE, classify
from vision.crops import Pyramid, die_crop
from vision.face import Face
from vision.looks import Candidate, decide, dice_at, is_held, is_taken, look
from vision.params import ReaderParams
from vision.pips import Pip
from vision.search import CENTRED, NARROWER, ONE_PER_PIP, is_one_pip_size, search
from vision.standout import stands_out
from vision.straddle import may_straddle, split_straddling
from vision.widths import are_alike, die_width, frame_width, true_width, width_of

_PIPS_SPREAD = 0.75
"""Many dice have their pips nearer their edges: a face of two pips or more rejected at its own
width is looked for again this much narrower (the width of its pip grid, edge pips included)."""
_UNREAD_SPREAD_PIPS = 3
"""A face of this many pips or more, looked at as wide as its pip grid (`_spread_pips`), keeps its
count where the classifier sees a die it cannot read and likes no other count better: a die
in a row of touching dice, its crop holding its neighbours' pips."""
_SQUARE = 0.85
"""A face whose grid steps are this alike in length or more, and ..."""
_RIGHT_ANGLE = 0.2
"""... whose steps' cosine is this small or less, is seen square-on (`_is_square`)."""
_SURE_WIDTH = 0.5
"""Faces read with at least this confidence tell the frame's die width when there are any."""
_HALF_GRID = 0.75
"""A die read surely but under this share of the sure dice's width may have had its grid fitted
on half of it: a corner pip and the centre pip of a three make a two 0.6-0.7 as wide
(`_one_size`)."""
_ONE_SIZE_LOOKS = (1.0, 0.75)
"""The widths, in the other dice's, at which a die read at another width than them is looked at
again (`_one_size`): their median may itself be a little wide (smoke-red dice 57-70 px wide found
at 66-83 px; a four among them, read at 35 px, is a die to the classifier at 57 px, not at 75)."""
_UNREAD_WIDTHS = (0.75, 1.18, 1.4)
"""A die seen but not read is looked at again this many times as wide (`_unread_looked_again`)."""
_UNSURE = 0.75
"""A die read with a value under this confidence is looked at again at other widths
(`_unsure_looked_again`): ..."""
_UNSURE_WIDTHS = (0.75, 1.33, 1.75)
"""... this many times as wide as it was read, and at the frame's die width; ..."""
_SURE_AGAIN = 0.9
"""... a die read there with a value and a die probability this high or more, ..."""
_GLANCE = 0.85
"""... (looked at so only where one crop gives a die `_SURE_AGAIN` and a value this much), ..."""
_STEADY = (0.9, 1.1)
"""... which reads the same value where it lies at this many times its width, ..."""
_TURNS = (90.0, 180.0, 270.0)
"""... and at its width turned by these many degrees, ..."""
_STEADY_VALUE = 0.7
"""... with this probability or more each, replaces it."""


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
    (`_glossy_dice`)."""
    faces, blob_dice = without_faces_of_dice(pyramid, pips, faces, params)
    width = frame_width(pips, faces, blob_dice, params)
    if width is None:
        return faces
    starts = [Candidate(f.x, f.y, width_of(f, width, params), f) for f in faces]
    starts += [Candidate(p.x, p.y, width, None) for p in blob_dice]
    decided = dice_at(pyramid, starts, params, ())
    dice = _apart([die for _, die in decided if die is not None], params)
    # A one rejected at the frame's width may be a die whose one pip is drawn large, or one
    # far wider than the faces that told that width (`_one_widths`).
    big_ones = [
        replace(candidate, width=width)
        for candidate, die in decided
        if die is None and candidate.face is not None and len(candidate.face.pips) == 1
        for width in _one_widths(candidate.face, candidate.width, params)
    ]
    # One die a face at most: a one read narrower and again at its own width is one die.
    ones = [die for _, die in dice_at(pyramid, big_ones, params, dice) if die is not None]
    dice += _apart(ones, params)
    dice += _spread_pips(pyramid, pips, decided, dice, params)
    if not dice:
        dice = _at_own_width(pyramid, decided, params)
    # The faces the classifier read surely tell the die width better than all the faces found.
    # With none of them, the pip sizes tell it (the doubtful and unread faces count only when
    # there are no pips either).
    width = die_width(pips, _sure(dice), params) or die_width(pips, dice, params) or width
    found = search(pyramid, pips, dice, width, params)
    # Dice in one tray are one size: dice the search read surely at another width than the one
    # it looked at (dark dice seen whole as blobs, when the width came from the pips or from a
    # face read unsurely) tell the width better, and what is still unexplained is looked for
    # again at theirs.
    sure_found = _sure(found)
    if sure_found:
        again = float(np.median([true_width(d, params) for d in sure_found]))
        if not are_alike(again, width):
            found += search(pyramid, pips, dice + found, again, params)
    dice = _one_size(pyramid, dice + found, params)
    dice = _unread_looked_again(pyramid, dice, width, params)
    dice = _unsure_looked_again(pyramid, dice, width, params)
    dice = split_straddling(pyramid, pips, dice, params)
    return dice + _glossy_dice(pyramid, spotted, dice, width, params)


def _one_widths(face: Face, width: float, params: ReaderParams) -> list[float]:
    """The widths at which a one ``face`` rejected at the frame's ``width`` is looked at again:
    `NARROWER` (its pip drawn large), and its own width, as its pip's size tells it, when that
    is far wider than the frame's (the one's pip of a die 162 px wide, among dice whose grids
    told 109 px: synthetic seed 3408)."""
    own = true_width(face, params)
    widths = [NARROWER * width]
    if own > width and not are_alike(own, width):
        widths.append(own)
    return widths


def _spread_pips(
    pyramid: Pyramid,
    pips: tuple[Pip, ...],
    decided: list[tuple[Candidate, Face | None]],
    dice: list[Face],
    params: ReaderParams,
) -> list[Face]:
    """The faces of two pips or more that the classifier rejected at their own width, found as
    dice whose pips lie nearer their edges than most (``die_width_per_face``): each is looked
    for as a die as wide as its pip grid (`_PIPS_SPREAD`), and kept when the classifier is sure
    of a die there showing the face's count. Looked at a third wider, such a die (a row of
    touching ivory dice, pips near the edges) fills the crop's edges with its neighbours' pips.
    A face looked at at the frame's width is not looked at again: its grid, unlike the other
    dice's, is most often the pips of two dice; nor a face read again narrower but as another
    count: two screw heads read as a two are a die of some value to the classifier there; nor
    a face seen obliquely (`_is_square`): the side of a die beside it, which the classifier reads
    as a die when cut narrower (matteop65-wood two_29, dice_20); nor a die that does not stand
    out from what lies around it (`vision.standout.stands_out`): two specks on a plain tray, a
    two to the classifier at 0.84 when cut narrower (synthetic seed 6830). A face of
    `_UNREAD_SPREAD_PIPS` pips or more keeps its count where the classifier sees a die there
    that it cannot read, and likes no other count better, unless it may lie across two touching
    dice (`vision.straddle.may_straddle`: the inner pips of two fours made a four, which kept
    the two fours from being read)."""
    faces = [
        c.face
        for c, die in decided
        if die is None
        and c.face is not None
        and c.face.value is not None
        and len(c.face.pips) >= 2
        and c.width == true_width(c.face, params)
        and _is_square(c.face)
    ]
    # Faces the pip stages found, read or not, hold their pips: a die in a row of touching
    # dice has its neighbours' pips beside it, but those lie on faces of their own.
    seen = [c.face for c, _ in decided if c.face is not None]
    found: list[Face] = []
    for face in faces:
        start = Candidate(face.x, face.y, _PIPS_SPREAD * true_width(face, params), None)
        for candidate, verdict in look(pyramid, [start], params, dice + found):
            die = decide(candidate, verdict, params)
            if die is not None and verdict.best == UNREADABLE:
                # Read or not (`vision.looks.decide` reads a value nearly as likely), a die
                # the classifier likes best as one it cannot read keeps the face's count only
                # so: the two green fours were 0.42 a four there, 0.43 unreadable.
                kept = (
                    len(face.pips) >= _UNREAD_SPREAD_PIPS
                    and verdict.value == face.value
                    and not may_straddle(face, pips, [*seen, *dice, *found], params)
                )
                die = replace(die, value=face.value) if kept else None
            if (
                die is not None
                and die.value == face.value
                and stands_out(pyramid[0], die.x, die.y, die.width, params)
            ):
                found.append(die)
    return found


def _at_own_width(
    pyramid: Pyramid, decided: list[tuple[Candidate, Face | None]], params: ReaderParams
) -> list[Face]:
    """With no die read at all, the faces of two pips or more looked at the frame's width, far
    from their own, looked at again at their own: the frame's width is then the median of faces
    that are no dice (two screw heads on a tray's rim, 47 px apart, read as a two beside a yellow
    two of 28 px, which was looked at 44 px wide and rejected: synthetic seed 5086). A face seen
    again so is a die only where the classifier does not doubt one (``doubted_die_probability``):
    the screw heads, looked at their own width, were a die 0.42 to the weights of 2026-11-25."""
    starts = [
        Candidate(c.face.x, c.face.y, true_width(c.face, params), c.face)
        for c, die in decided
        if die is None
        and c.face is not None
        and c.face.value is not None
        and len(c.face.pips) >= 2
        and not are_alike(c.width, true_width(c.face, params))
    ]
    again = dice_at(pyramid, starts, params, (), least=params.doubted_die_probability)
    return _apart([die for _, die in again if die is not None], params)


def _is_square(face: Face) -> bool:
    """Whether a face's grid is seen square-on: steps alike in length (``_SQUARE``) and nearly
    at right angles (``_RIGHT_ANGLE``, the cosine between them)."""
    across, down = math.hypot(*face.u), math.hypot(*face.v)
    if min(across, down) < _SQUARE * max(across, down):
        return False
    cosine = (face.u[0] * face.v[0] + face.u[1] * face.v[1]) / (across * down)
    return abs(cosine) <= _RIGHT_ANGLE


def _glossy_dice(
    pyramid: Pyramid,
    spotted: tuple[Pip, ...],
    dice: list[Face],
    width: float,
    params: ReaderParams,
) -> list[Face]:
    """The dice found at the dark blobs that the pip stages took for dice holding their one pip
    (`vision.pips.PipsFound`) and that no die read holds: each is looked at as a one's pip with a
    glare spot (the die `ONE_PER_PIP` times as wide), and kept when the classifier reads a one
    centred on it there (`dice_at` drops a look landing on a die read), or a die of another
    value, wherever its centre: the blobs were its glossy pips, each holding a glare spot (a
    yellow two 127 px wide, a pearl two 146 px wide, each alone on a tray and missed: synthetic
    seeds 1587, 4145). A one centred off the blob is not its one. (A dark die holding its one
    is mostly read from that pip.) A blob of a one's pip size at the frame's die ``width``
    (`vision.search.is_one_pip_size`) is looked at that wide too, and the surest die found
    kept: an ivory one's pip, 0.29 of its die across, was looked at 150 px wide for a die of
    114 px, where the classifier saw no die (synthetic seed 782)."""
    found: list[Face] = []
    for blob in spotted:
        read = dice + found
        if is_held(blob, read, params):
            continue
        widths = [ONE_PER_PIP * blob.diameter]
        if is_one_pip_size(blob.diameter, width) and not are_alike(width, widths[0]):
            widths.append(width)
        starts = [Candidate(blob.x, blob.y, w, None) for w in widths if w >= params.min_die_width]
        seen = [
            die
            for _, die in dice_at(pyramid, starts, params, read)
            if die is not None
            and die.value is not None
            and (die.value != 1 or math.hypot(die.x - blob.x, die.y - blob.y) < CENTRED * die.width)
        ]
        if seen:
            found.append(max(seen, key=lambda die: die.confidence))
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
    A die read unsurely or not read, at a width unlike theirs, or read surely but far narrower
    (`_HALF_GRID`; be there one sure die only), is replaced by the surest die read there with a
    value, or stays: a three looked at 127 px wide, as the pips of the dice not read told, was
    not read; the search then read the others surely at 91 px (synthetic seed 2367). Two pips
    of a three 67 px wide, a corner's and the centre's, fitted a sure two 36 px wide (3450,
    8582, 9287, 9977)."""
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
        elif (die not in sure or own < _HALF_GRID * width) and not are_alike(own, width):
            again[i] = (width, False)
    kept = [die for i, die in enumerate(dice) if i not in again]
    for i, (width, droppable) in again.items():
        looks = [Candidate(dice[i].x, dice[i].y, s * width, None) for s in _ONE_SIZE_LOOKS]
        seen = [
            die
            for _, die in dice_at(pyramid, looks, params, kept)
            if die is not None and (droppable or die.value is not None)
        ]
        if seen:
            kept.append(max(seen, key=lambda die: die.confidence))
        elif not droppable:
            kept.append(dice[i])
    return kept


def _unread_looked_again(
    pyramid: Pyramid, dice: list[Face], width: float, params: ReaderParams
) -> list[Face]:
    """The dice, each seen but not read looked at again where it lies, wider and narrower
    (`_UNREAD_WIDTHS`) and, when its width is unlike the frame's die ``width`` (`are_alike`),
    at that width; it is replaced by the surest die read there with a value, when it is surer
    than the unread one. A crop too narrow cuts the pips at a die's edges off (a swirled blue
    six 30 px wide and a marbled three 107 px wide, found 30 and 61 px wide, were sure dice 36
    and 85 px wide: synthetic seeds 4745, 4996); one too wide holds the tray about a die (a
    swirled red five 25 px wide alone in its tray, its face fitted 37 px wide, was a sure five
    at the 27 px its pips told: 9106; a swirled red five 30 px wide touching a black six, seen
    39 px wide, a sure five at 29 px: 1311). Dice read with a value looked at so were as often
    read wrong as right (`_unsure_looked_again` asks more of them)."""
    kept = list(dice)
    for i, die in enumerate(dice):
        if die.value is not None:
            continue
        others = kept[:i] + kept[i + 1 :]
        looks = [
            Candidate(die.x, die.y, w, None)
            for w in _widths_about(die, _UNREAD_WIDTHS, width, params)
        ]
        read = [
            seen
            for _, seen in dice_at(pyramid, looks, params, others)
            if seen is not None and seen.value is not None and seen.confidence > die.confidence
        ]
        if read:
            kept[i] = max(read, key=lambda seen: seen.confidence)
    return kept


def _unsure_looked_again(
    pyramid: Pyramid, dice: list[Face], width: float, params: ReaderParams
) -> list[Face]:
    """The dice, each read with a value unsurely (`_is_unsure`) looked at again narrower and
    wider (`_UNSURE_WIDTHS`) and, when its width is unlike the frame's die ``width``, at that
    width; it is replaced by the surest die read surely there (`_SURE_AGAIN`) whose value holds
    a little narrower and wider (`_STEADY`) and turned (`_TURNS`). A die alone has only its own
    pips to tell its width, and a grid fitted on swirls or on pips near the die's edges tells
    it wrong: a swirled blue five 70 px wide, read 50 px wide as a four (0.27), was a sure five
    at 67 px; a swirled red five 38 px wide, read at 45 px as a four (0.32), a sure five at
    34 px; a swirled blue four 83 px wide, read at 63 px as a five (0.72), a sure four at
    83 px; a gold one 135 px wide, its pip small, read beside it as a two 77 px wide (0.4), a
    sure one at 135 px; a blurred gold two 22 px wide, found by the search 28 px wide as a one
    (0.42), a sure two at 21 px (synthetic seeds 4064, 1953, 1624, 5669, 4763). At a wrong
    width the classifier is now and then sure of a wrong value, but seldom at three widths
    about it and turned: dice read with a value and looked at again wider alone were as often
    read wrong as right, and a marbled three 32 px wide with swirled red pips was a six at
    24 px, 0.98 unturned and 0.58 turned three quarters round (nell-byler
    IMG_20191209_095359). One crop at each width goes first (`_GLANCE`), so a die read no
    surer at any costs three or four crops."""
    kept = list(dice)
    for i, die in enumerate(dice):
        if die.value is None or not _is_unsure(pyramid, die, die.value):
            continue
        others = kept[:i] + kept[i + 1 :]
        widths = _widths_about(die, _UNSURE_WIDTHS, width, params)
        # One crop at each width first: most unsure dice read no surer at any.
        glances = classify([die_crop(pyramid, (die.x, die.y), w) for w in widths])
        starts = [
            Candidate(die.x, die.y, w, None)
            for w, glance in zip(widths, glances, strict=True)
            if glance.die_probability >= _SURE_AGAIN
            and max(glance.probabilities[1:UNREADABLE]) >= _GLANCE
        ]
        found: list[tuple[float, int, Face]] = []
        for c, verdict in look(pyramid, starts, params, others):
            seen = decide(c, verdict, params)
            if seen is None or seen.value is None:
                continue
            sure = verdict.probabilities[seen.value]
            if sure >= _SURE_AGAIN and verdict.die_probability >= _SURE_AGAIN:
                found.append((sure, seen.value, replace(seen, confidence=sure)))
        for _, value, seen in sorted(found, key=lambda f: -f[0]):
            crops = [die_crop(pyramid, (seen.x, seen.y), s * seen.width) for s in _STEADY]
            crops += [die_crop(pyramid, (seen.x, seen.y), seen.width, angle) for angle in _TURNS]
            if all(v.probabilities[value] >= _STEADY_VALUE for v in classify(crops)):
                kept[i] = seen
                break
    return kept


def _widths_about(
    die: Face, scales: tuple[float, ...], width: float, params: ReaderParams
) -> list[float]:
    """The widths a die is looked at again: its own times each of ``scales``, and the frame's
    die ``width`` when its own is unlike that (`are_alike`)."""
    own = true_width(die, params)
    return [s * own for s in scales] + ([] if are_alike(own, width) else [width])


def _is_unsure(pyramid: Pyramid, die: Face, value: int) -> bool:
    """Whether a die is read unsurely: with a confidence under `_UNSURE`, or found by the search
    (no pips of its own, its confidence the classifier's die probability) with its value given
    under `_UNSURE` by one crop where it was read (most often one seen already: free)."""
    if die.confidence < _UNSURE:
        return True
    if die.pips:
        return False
    (glance,) = classify([die_crop(pyramid, (die.x, die.y), die.width)])
    return glance.probabilities[value] < _UNSURE


def _apart(dice: list[Face], params: ReaderParams) -> list[Face]:
    """The dice, less those that lie on a surer one (``search_clearance``), in their order: the
    first crops of two blobs of one die, each looked around at a width the classifier sees no
    die at, may both point to its centre, and neither keeps the other away
    (`vision.looks._NO_DIE`)."""
    kept: list[int] = []
    for i in sorted(range(len(dice)), key=lambda i: -dice[i].confidence):
        die = dice[i]
        if not is_taken(die.x, die.y, true_width(die, params), [dice[k] for k in kept], params):
            kept.append(i)
    return [dice[i] for i in sorted(kept)]


def _sure(dice: list[Face]) -> list[Face]:
    """The dice read with a value and at least ``_SURE_WIDTH`` confidence: they tell the die
    width."""
    return [d for d in dice if d.value is not None and d.confidence >= _SURE_WIDTH]
