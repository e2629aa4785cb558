"""Stage 4: the search, for the dice the pip stages missed (part of `vision.verify`).

The pips that no die read explains are candidates, each at the die widths it suggests (the
frame's, or a die of its own size: it may be a pip, or a whole die seen as one blob), and so are
the places where the frame stands out from the tray (`vision.standout`). Each is looked at by the
classifier (`vision.looks`); the surest die wins where several land on one. A one the classifier
is unsure of is found when its pip lies at its centre on a die that stands out, or looks like
the pips of the dice read (a black one on black felt); a die it doubts is looked at again
narrower; a die read with more pips than its box shows (in grey or a colour) is dropped.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.classify import UNREADABLE, Verdict
from vision.crops import Pyramid
from vision.face import Face
from vision.looks import Candidate, decide, is_held, is_taken, look, look_still
from vision.params import ReaderParams
from vision.pips import Pip
from vision.standout import standing_out, stands_out
from vision.types import Frame
from vision.widths import are_alike, true_width

NARROWER = 0.7
"""A die the classifier doubts at the width looked is looked at again this much narrower: many
dice have their one pip drawn large, or their pips near their edges."""
_DOUBTED = (0.22, 0.55)
"""A search look that gives a die this probability or more, though too little to find one, is
looked at again `NARROWER`: the first when it reads a one likelier than any other value, the
second when it reads another."""
_MOVED_AGAIN = 0.2
"""A search look that finds no die, whose crop points this many die widths away or more, may
be looked at again there (`_moved_again`) ..."""
_NEAR_LOOK = 0.3
"""... when a pip lies this many die widths from where it looked, or less."""
CENTRED = 0.1
"""A pip this many die widths from a die's centre or less is at its centre."""
_NEAR_CENTRE = 0.2
"""A pip this many die widths from a die's centre or less is nearer it than any corner pip."""
_OFF_CENTRE_ONE = 0.93
"""A one the search finds around a pip off its centre, on a die that does not stand out, must be
read this surely (`_a_speck_read_as_a_one`)."""
_CENTRE_PIP = (3, 5)
"""The faces of more than one pip that hold one at their centre."""
_ONE_PIP = (0.12, 0.4)
"""The diameters of a one's pip, in die widths (a one's pip is often drawn large)."""
_LIKE_FACE = 30.0
"""A pip is like another (`_like_their_pips`) when the colours of the faces around them differ
by no more than this in any channel, ..."""
_LIKE_PIP = 45.0
"""... and the colours of their middles by no more than this."""
ONE_PER_PIP = 4.5
"""A one's pip is about 0.22 of its die's width: a pip looked at as a one's is looked at as a die
this many times as wide."""
_SMALLEST_PIP = 0.04
"""A stray pip this many frame die widths across or more is looked for at the frame's width: as
small as the glare spot left of a glossy pip of a large die when the pip was taken for a dark die
holding its one (`vision.pips`)."""


_STREAK_AWAY = 1.0
"""A pip a little too elongated for the search to look around with the others
(``search_streak_elongation``: swirled and smoky dice's pips are drawn unevenly) is looked
around when it lies this many frame die widths or more from every die read (the pips on the
side of a die seen obliquely lie within one), ..."""
_SURE_STREAK = 0.95
"""... and the die found there is kept only when read this surely: a keyboard key's lit symbol
far from the dice was a one read 0.92 (matteop65-wood four_9). So is a die found where a look
was moved again (`_moved_again`)."""


def is_one_pip_size(diameter: float, width: float) -> bool:
    """Whether a pip ``diameter`` across may be the pip of a one ``width`` wide (`_ONE_PIP`)."""
    return _ONE_PIP[0] * width <= diameter <= _ONE_PIP[1] * width


def search(
    pyramid: Pyramid, pips: tuple[Pip, ...], dice: list[Face], width: float, params: ReaderParams
) -> list[Face]:
    """The dice found around the pips that no die explains, each looked for at the frame's die
    width and at the widths the pip itself suggests (it may be a pip, or a whole die seen as one
    dark or bright blob), and where the frame stands out from the tray with no die read there
    (`vision.standout`); the surest die wins where several land on one. A look that doubts a die
    (``_DOUBTED``) is looked at again `NARROWER`, where the classifier is often sure: a one's pip
    was drawn large, or its die is black on a dark tray, its edges faded (a pearl one 132 px wide
    looked at 183 px as its pip suggests; black ones 118 and 154 px wide looked at the frame's
    width, 131 and 148 px: synthetic seeds 9738, 6744, 3442), or the die was looked at wider than
    it is, its crop holding the pips of the dice beside it (a gold two 109 px wide looked at 129
    px; a six 26 px wide touching a four, at 31 px: 7509, 1063). A die found so must show the
    value its first look leaned to (`_decided`). A one whose first look moved off its pip is
    also looked at where its pip is (`_moved_off_a_one`), and one whose looks found no die there
    as narrow as its pip tells (`_narrower_ones`). Pips a little too elongated to be looked
    around with the others are looked around last, far from the dice (`_streaks`), and a look
    that found no die near a pip like the dice read's is looked at again where its crop points
    (`_moved_again`); dice found so must be read surely (`_SURE_STREAK`)."""
    around_pips = _unexplained(pips, dice, width, params)
    standouts = standing_out(
        pyramid,
        width,
        lambda x, y: _is_near_start(x, y, width, dice, around_pips, params),
        params,
        [(d.x, d.y, true_width(d, params)) for d in dice],
    )
    starts = around_pips + [Candidate(x, y, width, None) for x, y in standouts]
    looked = look(pyramid, starts, params, dice)
    one_pips = _moved_off_a_one(pips, around_pips, looked, width, params)
    one_pips += _lone_ones(pips, dice, params)
    one_pips += _narrower_ones(pips, around_pips, looked, width, params)
    looked += [(c, v) for c, v in look_still(pyramid, one_pips, params) if v.value == 1]
    moved = _moved_again(pyramid[0], pips, looked, dice, params)
    looked += [
        (c, v)
        for c, v in look_still(pyramid, moved, params)
        if max(v.probabilities[1:UNREADABLE]) >= _SURE_STREAK
    ]
    found = _decided(pyramid, pips, looked, dice, [], params)
    for value in range(1, 7):
        narrower = [
            replace(candidate, width=NARROWER * candidate.width)
            for candidate, verdict in looked
            if verdict.value == value and _doubted(candidate, verdict, found, params)
        ]
        if narrower:
            again = look(pyramid, narrower, params, dice + found)
            found = _decided(pyramid, pips, again, dice, found, params, value=value)
    return found + _streaks(pyramid, pips, dice, found, width, params)


def _moved_again(
    frame: Frame,
    pips: tuple[Pip, ...],
    looked: list[tuple[Candidate, Verdict]],
    dice: list[Face],
    params: ReaderParams,
) -> list[Candidate]:
    """The search looks that found no die (under ``accept_probability``), near a pip that no die
    holds (`_NEAR_LOOK`) and that is like the pips of the ``dice`` read (`_like_their_pips`),
    whose crop points `_MOVED_AGAIN` die widths away or more (but within ``search_reach``), to
    no die read, moved there: a first crop around a corner pip of a six may point only half way
    to its centre (a smoky six 30 px wide, looked at 11 px below its centre, read no die; 9 px
    further up, a sure six: synthetic seed 9305). A die read there is kept only when its value
    is read surely (`_SURE_STREAK`, in `search`): looks around specks are moved so too."""
    moved = []
    for candidate, verdict in looked:
        if candidate.face is not None or verdict.die_probability >= params.accept_probability:
            continue
        if not _MOVED_AGAIN <= math.hypot(*verdict.offset) <= params.search_reach:
            continue
        x = candidate.x + verdict.offset[0] * candidate.width
        y = candidate.y + verdict.offset[1] * candidate.width
        if is_taken(x, y, candidate.width, dice, params):
            continue
        near = [
            p
            for p in pips
            if math.hypot(p.x - candidate.x, p.y - candidate.y) < _NEAR_LOOK * candidate.width
            and not is_held(p, dice, params)
        ]
        if any(_like_their_pips(frame, p, pips, dice, params) for p in near):
            moved.append(Candidate(x, y, candidate.width, None))
    return moved


def _moved_off_a_one(
    pips: tuple[Pip, ...],
    starts: list[Candidate],
    looked: list[tuple[Candidate, Verdict]],
    width: float,
    params: ReaderParams,
) -> list[Candidate]:
    """The starts at the frame's width around a round pip of a one's size (`_ONE_PIP`) that
    their first look moved off: no candidate looked at lies at the pip. A one's pip lies at its
    die's centre, so the die is looked at there too (`search`), and kept only if read as a one:
    the first crop on a black one on a dark tray pointed a third of a die away, to the die
    beside it (synthetic seeds 5306, 6844, 8437, 8744)."""
    left = []
    for start in starts:
        if _one_sized_pip(start, pips, width, params) is None:
            continue
        if any(math.hypot(c.x - start.x, c.y - start.y) < CENTRED * width for c, _ in looked):
            continue
        left.append(start)
    return left


def _narrower_ones(
    pips: tuple[Pip, ...],
    starts: list[Candidate],
    looked: list[tuple[Candidate, Verdict]],
    width: float,
    params: ReaderParams,
) -> list[Candidate]:
    """The round pips of a one's size (`_ONE_PIP`) whose starts at the frame's width found no
    die with a value around them, each looked at where it is as the pip of a one (`ONE_PER_PIP`
    times as wide) when that is far narrower than the frame's width, and kept only if read as a
    one (`search`): dice in one tray may differ in size, and a die read too wide makes the
    frame's width so. A black one 27 px wide beside dice read 21 and 38 px wide, looked at 38 px,
    was no die to the classifier, and at 23 px a sure one; so were a marbled one 85 px wide, not
    read at 76 px, and a swirled blue one 105 px wide among dice read 95 px wide (synthetic
    seeds 7496, 7614, 9002). A die read there with a value stays: a one read at 48 px, looked at
    so at 32 px and read surer, made the width the search looked at again narrower, and a false
    two was found (matteop65-wood dice_38 at ``--scale 1.5``)."""
    left = []
    for start in starts:
        pip = _one_sized_pip(start, pips, width, params)
        if pip is None:
            continue
        own = ONE_PER_PIP * pip.diameter
        if own >= width or are_alike(own, width) or own < params.min_die_width:
            continue
        if any(
            math.hypot(c.x - start.x, c.y - start.y) < 0.5 * width
            and (die := decide(c, verdict, params)) is not None
            and die.value is not None
            for c, verdict in looked
        ):
            continue
        left.append(Candidate(pip.x, pip.y, own, None))
    return left


def _one_sized_pip(
    start: Candidate, pips: tuple[Pip, ...], width: float, params: ReaderParams
) -> Pip | None:
    """The round pip of a one's size (`_ONE_PIP`) that a start at the frame's ``width`` was put
    at (None: none, or the start is at another width)."""
    if start.width != width:
        return None
    return next(
        (
            p
            for p in pips
            if math.hypot(p.x - start.x, p.y - start.y) < 0.5
            and is_one_pip_size(p.diameter, width)
            and p.circularity >= params.single_min_circularity
        ),
        None,
    )


def _lone_ones(pips: tuple[Pip, ...], dice: list[Face], params: ReaderParams) -> list[Candidate]:
    """With no die read, each round pip is also looked at where it is as the pip of a one
    (`ONE_PER_PIP` times as wide), and kept only if read as a one (`search`): the frame's width
    is then a guess from the pip sizes, and a one's pip is larger than the others' (a lone one
    32 px wide looked for at 77 and 54 px, the screw heads of its tray telling the pip size:
    synthetic seed 5102)."""
    if dice:
        return []
    return [
        Candidate(pip.x, pip.y, ONE_PER_PIP * pip.diameter, None)
        for pip in pips[: params.max_searches]
        if pip.circularity >= params.single_min_circularity
        and ONE_PER_PIP * pip.diameter >= params.min_die_width
    ]


def _doubted(
    candidate: Candidate, verdict: Verdict, found: list[Face], params: ReaderParams
) -> bool:
    """Whether a search look is worth looking at again `NARROWER`: it doubts a die there
    (``_DOUBTED``), no die was found there, and the narrower die would be no narrower than
    ``min_die_width`` (specks looked at that narrow were read as fives: synthetic seeds 6570,
    7675)."""
    least = _DOUBTED[0] if verdict.value == 1 else _DOUBTED[1]
    return (
        least <= verdict.die_probability < params.accept_probability
        and NARROWER * candidate.width >= params.min_die_width
        and not is_taken(candidate.x, candidate.y, candidate.width, found, params)
    )


def _decided(
    pyramid: Pyramid,
    pips: tuple[Pip, ...],
    looked: list[tuple[Candidate, Verdict]],
    dice: list[Face],
    found: list[Face],
    params: ReaderParams,
    *,
    value: int | None = None,
) -> list[Face]:
    """``found`` and the dice decided at the candidates ``looked`` at, the surest first, each
    unless it lies on a die found already; the ``dice`` read before the search show what the
    tray's pips look like (`_is_plain_one`, `_a_speck_read_as_a_one`). Looked at narrower
    (`_doubted`) where the first looks leaned to ``value``, a die must show that value, or
    more pips than that (a look too wide loses pips, it adds none: a swirled five 21 px wide
    looked at 29 px leaned to a four, synthetic seed 8499), but a die leaned to as a one must
    be a one: around a pip of a two read beside it, off its centre, a look leaning to a two
    saw that pip alone as a sure one (5149).
    And unless that value is one, it must stand out from what lies around it (`stands_out`):
    two screw heads at a tray's corner, looked at narrower, were a two to the classifier (5487,
    9716). (A black one on a dark tray does not stand out.)"""
    found = list(found)
    for candidate, verdict in sorted(looked, key=lambda cv: -cv[1].die_probability):
        if is_taken(candidate.x, candidate.y, candidate.width, found, params):
            continue
        accept = params.accept_probability
        if params.one_accept_probability <= verdict.die_probability < accept and _is_plain_one(
            pyramid[0], pips, candidate, verdict, dice + found, params
        ):
            accept = params.one_accept_probability
        die = decide(candidate, verdict, params, accept)
        if die is None or not _shows_its_pips(pyramid[0], die, params):
            continue
        if (
            _a_speck_read_as_pips(pyramid[0], pips, die, dice + found, params)
            or _a_speck_read_as_a_one(pyramid[0], pips, die, dice + found, params)
            or _cut_by_the_frame(pyramid[0], die, params)
        ):
            continue
        if value is not None and (
            die.value is None
            or die.value < value
            or (value == 1 and die.value != 1)
            or (value != 1 and not stands_out(pyramid[0], die.x, die.y, die.width, params))
        ):
            continue
        found.append(die)
    return found


def _shows_its_pips(frame: Frame, die: Face, params: ReaderParams) -> bool:
    """Whether a die the search found (around a stray pip, or where the frame stands out) shows
    as many pips as it is read to have: at least ``search_pip_fraction`` of its box per pip
    differs from the box's median by a pip's contrast, in grey or in one colour channel (red
    pips on a smoky or swirled die differ little in grey: synthetic seeds 1724, 4375).
    Ones and twos cover too little of a die to be told from a speck this way."""
    if die.value is None or die.value < 3:
        return True
    half = max(2, int(die.width / 2))
    x, y = int(die.x), int(die.y)
    box = np.ascontiguousarray(frame[max(0, y - half) : y + half, max(0, x - half) : x + half])
    if box.size == 0:
        return True
    least = params.search_pip_fraction * die.value
    for plane in (cv2.cvtColor(box, cv2.COLOR_BGR2GRAY), *cv2.split(box)):
        levels = plane.astype(np.float32)
        differs = np.abs(levels - float(np.median(levels))) > params.min_pip_contrast
        if float(differs.mean()) >= least:
            return True
    return False


def _a_speck_read_as_pips(
    frame: Frame, pips: tuple[Pip, ...], die: Face, dice: list[Face], params: ReaderParams
) -> bool:
    """Whether a die the search read as a face with a centre pip and others (`_CENTRE_PIP`)
    holds one pip found alone, near its centre (`_NEAR_CENTRE`), and does not stand out from
    what lies around it (`stands_out`): a speck on a plain tray, looked around at the frame's
    width, that the classifier read as a five (synthetic seeds 2145, 2412, 5139, 9284). Small
    sixes whose pips ran together hold one blob found near their centre, and are dice, and so
    is a die like the dice read whose other pips faded (`_like_the_dice_read`)."""
    if die.value not in _CENTRE_PIP:
        return False
    lone = _lone_pip(pips, die, params)
    if lone is None or _off_centre(lone, die) > _NEAR_CENTRE:
        return False
    if _like_the_dice_read(frame, lone, die, pips, dice, params):
        return False
    return not stands_out(frame, die.x, die.y, die.width, params)


def _a_speck_read_as_a_one(
    frame: Frame, pips: tuple[Pip, ...], die: Face, dice: list[Face], params: ReaderParams
) -> bool:
    """Whether a die the search read as a one, holding one pip found alone that lies off its
    centre (`CENTRED` or more: a one's pip is at its die's centre), read less surely than
    `_OFF_CENTRE_ONE` and standing out from nothing around it (`stands_out`), is a speck on a
    plain tray: the classifier's first look moved off the speck, and there saw a one about it
    (synthetic seeds 4788, 6894, 7354, 8088: 11 such ones in 10,000 throws were specks, 3 of
    178 were dice). A die like the ``dice`` read (`_like_the_dice_read`) is no speck."""
    if die.value != 1 or die.confidence >= _OFF_CENTRE_ONE:
        return False
    lone = _lone_pip(pips, die, params)
    if lone is None or _off_centre(lone, die) < CENTRED:
        return False
    if _like_the_dice_read(frame, lone, die, pips, dice, params):
        return False
    return not stands_out(frame, die.x, die.y, die.width, params)


def _like_the_dice_read(
    frame: Frame, pip: Pip, die: Face, pips: tuple[Pip, ...], dice: list[Face], params: ReaderParams
) -> bool:
    """Whether a die the search found holding ``pip`` alone is one of the ``dice`` read: as wide
    as their median (`are_alike`), its pip like theirs (`_like_their_pips`). A speck is neither;
    a smoky three whose other pips faded into its die is both (synthetic seed 6104), and a speck
    among dice twice its width read as a five is not (9284)."""
    if not dice:
        return False
    median = float(np.median([true_width(d, params) for d in dice]))
    return are_alike(die.width, median) and _like_their_pips(frame, pip, pips, dice, params)


def _lone_pip(pips: tuple[Pip, ...], die: Face, params: ReaderParams) -> Pip | None:
    """The one pip found on a die (`is_held`); None when the die holds none or several."""
    held = [p for p in pips if is_held(p, [die], params)]
    return held[0] if len(held) == 1 else None


def _off_centre(pip: Pip, die: Face) -> float:
    """How far a pip lies from a die's centre, in its widths."""
    return math.hypot(pip.x - die.x, pip.y - die.y) / die.width


def _cut_by_the_frame(frame: Frame, die: Face, params: ReaderParams) -> bool:
    """Whether a die the search found lies centred less than half its width from the frame's
    edge, and stands out from nothing around it (`stands_out`): specks near a tray's corner,
    their crops filled out from the frame's edge, were read as twos (synthetic seeds 420, 522,
    2680, 5868). A die half out of view is not read."""
    height, width = frame.shape[:2]
    margin = min(die.x, die.y, width - 1 - die.x, height - 1 - die.y)
    return margin < 0.5 * die.width and not stands_out(frame, die.x, die.y, die.width, params)


def _is_plain_one(
    frame: Frame,
    pips: tuple[Pip, ...],
    candidate: Candidate,
    verdict: Verdict,
    dice: list[Face],
    params: ReaderParams,
) -> bool:
    """Whether a die looked for around a pip is read as a one whose pip lies at its centre and
    is a one's size (`_ONE_PIP`), on a die that stands out from what lies around it
    (`stands_out`). A speck on a plain tray, which the classifier may take for the pip of a
    one, has no die around it. A black one on black felt does not stand out either: its pip
    alone shows, and it is a one's when it looks like the pips of the ``dice`` read
    (`_like_their_pips`; synthetic seeds 2443, 5453, 6191)."""
    width = candidate.width
    if verdict.best != 1:
        return False
    centred = [
        p
        for p in pips
        if math.hypot(p.x - candidate.x, p.y - candidate.y) < CENTRED * width
        and is_one_pip_size(p.diameter, width)
    ]
    if not centred:
        return False
    return stands_out(frame, candidate.x, candidate.y, width, params) or any(
        _like_their_pips(frame, p, pips, dice, params) for p in centred
    )


def _like_their_pips(
    frame: Frame, pip: Pip, pips: tuple[Pip, ...], dice: list[Face], params: ReaderParams
) -> bool:
    """Whether ``pip`` looks like a pip of one of ``dice``: as dark or light against its face,
    found in the same plane, on a face of the same colour (`_LIKE_FACE`) and of the same colour
    itself (`_LIKE_PIP`). Dice in one tray are most often one set."""
    own = _pip_colour(frame, pip)
    return any(
        other is not pip
        and other.is_dark == pip.is_dark
        and other.plane == pip.plane
        and max(abs(a - b) for a, b in zip(other.face_colour, pip.face_colour, strict=True))
        <= _LIKE_FACE
        and float(np.abs(_pip_colour(frame, other) - own).max()) <= _LIKE_PIP
        for other in pips
        if is_held(other, dice, params)
    )


def _pip_colour(frame: Frame, pip: Pip) -> npt.NDArray[np.float32]:
    """The median colour (B, G, R) of the middle of a pip, a fifth of its diameter about its
    centre (off a glare spot's edge)."""
    reach = max(1, int(0.2 * pip.diameter))
    x, y = round(pip.x), round(pip.y)
    box = frame[max(0, y - reach) : y + reach + 1, max(0, x - reach) : x + reach + 1]
    return np.asarray(np.median(box.reshape(-1, 3).astype(np.float32), axis=0), np.float32)


def _is_near_start(
    x: float,
    y: float,
    width: float,
    dice: list[Face],
    starts: list[Candidate],
    params: ReaderParams,
) -> bool:
    """Whether a die at (x, y) would overlap a die read, or lie where a search already looks."""
    return is_taken(x, y, width, dice, params) or any(
        math.hypot(x - c.x, y - c.y) < 0.5 * width for c in starts
    )


def _most_elongated(pips: tuple[Pip, ...], dice: list[Face], params: ReaderParams) -> float:
    """The most elongated pip that the search looks around (`_unexplained`): as the pips of the
    ``dice`` read (of all pips, with none read) and ``search_elongation_excess`` more."""
    used = {k for die in dice for k in die.pips}
    flat = [pips[k].elongation for k in used] or [p.elongation for p in pips]
    return float(np.median(flat)) + params.search_elongation_excess if flat else 0.0


def _streaks(
    pyramid: Pyramid,
    pips: tuple[Pip, ...],
    dice: list[Face],
    found: list[Face],
    width: float,
    params: ReaderParams,
) -> list[Face]:
    """The dice read surely (`_SURE_STREAK`) around the pips that no die explains, a little more
    elongated than those the search looks around (``search_streak_elongation``), that lie far
    from every die read and found (`_STREAK_AWAY`), looked for at the frame's ``width``: a pip
    of a swirled red two 1.37 times as long as wide, beside a five whose pips are 1.15
    (synthetic seed 2822), the pips of a smoky one, of a swirled blue six and of a marbled six
    (9435, 136, 1653)."""
    taken = dice + found
    most = _most_elongated(pips, dice, params)
    starts = [
        Candidate(p.x, p.y, width, None)
        for p in pips
        if most < p.elongation <= most + params.search_streak_elongation
        and _SMALLEST_PIP * width <= p.diameter <= 0.4 * width
        and not is_held(p, taken, params)
        and all(math.hypot(p.x - d.x, p.y - d.y) > _STREAK_AWAY * width for d in taken)
    ][: params.max_searches]
    if not starts:
        return []
    decided = _decided(pyramid, pips, look(pyramid, starts, params, taken), dice, found, params)
    return [die for die in decided[len(found) :] if die.confidence >= _SURE_STREAK]


def _unexplained(
    pips: tuple[Pip, ...], dice: list[Face], width: float, params: ReaderParams
) -> list[Candidate]:
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
    most_elongated = _most_elongated(pips, dice, params)
    # Dice in one tray are one size: with two read, the frame's width is no guess.
    widest = params.search_widest * width if len(dice) >= 2 else math.inf
    narrowest = params.search_narrowest * width if len(dice) >= 2 else 0.0
    starts: list[Candidate] = []
    points: list[tuple[float, float, list[float]]] = []
    for k, pip in enumerate(pips):
        if len(points) >= params.max_searches:
            break
        if k in used or is_held(pip, dice, params):
            continue
        own = [params.die_width_per_pip * pip.diameter] if pip.elongation <= most_elongated else []
        # With no die read the frame's width is a guess: the pip's own width comes first.
        widths = [] if dice else list(own)
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
        widths += own
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
            starts += [Candidate(pip.x, pip.y, w, None) for w in kept]
    return starts
