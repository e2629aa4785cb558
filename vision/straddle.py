"""Stage 4: two touching dice read as one die between them (part of `vision.verify`).

Two dice lying side by side, square to each other, show a face across the edge they share when
their pips near that edge make one: the inner pips of two twos make a two, the inner columns of
two fours a four and of two sixes a six. The pip stages fit a face there and the classifier,
looking there, is sure of it (synthetic seeds 9891, 5043: two twos). The die read holds the
inner pips of both dice, so their outer pips stay unexplained beside it, and the search does not
look there: the dice they belong to would overlap the die read. So it is with the pip of a one
and the end pip of a three beside it, read as a two and then as a three by the classifier,
which left the one out (a row of dice, `benchmarks/vision_accuracy.py --in-a-row`). Here such
a die, with unexplained pips beside it on one side or both, is looked at again as two dice,
half a die to either side of it along one of its grid's axes, and is replaced by them when the
classifier is sure of both. Two ones lying side by side leave no pip out: their pips are a two's
(`_two_ones`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from vision.crops import Pyramid
from vision.face import Face
from vision.looks import Candidate, dice_at, is_held
from vision.params import ReaderParams
from vision.pips import Pip
from vision.search import NARROWER
from vision.widths import are_alike, true_width

_BESIDE = 0.5
"""The two dice are looked for this many die widths to either side of the die read, ..."""
_NEAR = 0.5
"""... where an unexplained pip lies within this many die widths of the centre of one of them
(`_pips_beside`) or both, ..."""
_PIP_SIZES = 1.5
"""... a pip alike in size to the die's own pips, within this ratio."""
_SURE = 0.9
"""Each of the two dice must be read with this confidence or more, ..."""
_APART = 0.3
"""... its centre at least this many of its widths from the die read, ..."""
_BESIDE_APART = 0.7
"""... and this many from the other's: touching dice lie a die apart."""


def split_straddling(
    pyramid: Pyramid, pips: tuple[Pip, ...], dice: list[Face], params: ReaderParams
) -> list[Face]:
    """The dice, each die of two pips or more that lies across two touching dice (unexplained
    pips alike to its own beside it, along one of its grid's axes) replaced by those two dice,
    when the classifier finds them there surely, and each two that is two ones (`_two_ones`)."""
    result = list(dice)
    for die in dice:
        others = [d for d in result if d is not die]
        ones = _two_ones(pyramid, pips, die, others, params)
        if ones:
            result = others + ones
            continue
        if len(die.pips) < 2:
            continue
        width = true_width(die, params)
        stray = _stray(die, pips, result, params)
        for starts in _sides(die, width, stray):
            split = [
                d
                for _, d in dice_at(pyramid, starts, params, others)
                if d is not None
                and d.value is not None
                and d.confidence >= _SURE
                and math.hypot(d.x - die.x, d.y - die.y) >= _APART * d.width
            ]
            if len(split) == 2 and _side_by_side(*split) and _pips_beside(split, stray, starts):
                result = others + split
                break
    return result


def _two_ones(
    pyramid: Pyramid, pips: tuple[Pip, ...], die: Face, others: list[Face], params: ReaderParams
) -> list[Face]:
    """The two ones whose pips ``die`` read as a two, when the classifier finds a one at each of
    its pips surely (`_SURE`), side by side, at the width of the ``others`` read surely (none: no
    ones). Only a two whose pips lie as far apart as those dice are wide is looked at so: a two's
    own pips lie about 0.6 of its width apart, and at each pip of a two looked at that narrow the
    classifier often sees a sure one (tried on every two, 27 twos of the first 5,000 synthetic
    throws became two ones). Two black ones 23 px wide lying side by side among dice read 16-28 px
    wide were a sure two 39 px wide (synthetic seed 1707)."""
    if die.value != 2 or len(die.pips) != 2:
        return []
    sure = [true_width(d, params) for d in others if d.value is not None and d.confidence >= _SURE]
    if not sure:
        return []
    width = float(np.median(sure))
    first, second = (pips[k] for k in die.pips)
    if not are_alike(math.hypot(first.x - second.x, first.y - second.y), width):
        return []
    starts = [Candidate(p.x, p.y, width, None) for p in (first, second)]
    ones = [
        d
        for _, d in dice_at(pyramid, starts, params, others)
        if d is not None and d.value == 1 and d.confidence >= _SURE
    ]
    return ones if len(ones) == 2 and _side_by_side(*ones) else []


def may_straddle(face: Face, pips: tuple[Pip, ...], dice: list[Face], params: ReaderParams) -> bool:
    """Whether a face of two pips or more may lie across two touching dice alike: pips alike to
    its own that none of ``dice`` holds lie half a die to both sides of it (`_sides`). (With
    them on one side only, the die beside it may be a one found later.)"""
    if len(face.pips) < 2:
        return False
    stray = _stray(face, pips, dice, params)
    return any(
        all(_has_stray(side, stray) for side in sides)
        for sides in _sides(face, true_width(face, params), stray)
    )


def _stray(die: Face, pips: tuple[Pip, ...], dice: list[Face], params: ReaderParams) -> list[Pip]:
    """The pips alike to all of ``die``'s own (`_alike`) that none of ``dice`` holds."""
    own = [pips[k] for k in die.pips]
    return [p for p in pips if all(_alike(p, o) for o in own) and not is_held(p, dice, params)]


def _sides(die: Face, width: float, stray: list[Pip]) -> list[list[Candidate]]:
    """The pairs of places half a die to either side of ``die`` along each axis of its grid,
    for a die ``width`` wide and for one `NARROWER` (a grid fitted on the pips of two dice may be
    wider than one die's: two twos 60 px wide, slid a third of a die along their shared edge,
    made a two 95 px wide), where either place has a ``stray`` pip near it (the other die may
    be a one, whose pip is in the die read)."""
    pairs = []
    for step, seen in itertools.product((die.u, die.v), (width, NARROWER * width)):
        length = math.hypot(*step)
        if length <= 0.0:
            continue
        dx, dy = _BESIDE * seen * step[0] / length, _BESIDE * seen * step[1] / length
        sides = [
            Candidate(x, y, seen, None)
            for x, y in ((die.x - dx, die.y - dy), (die.x + dx, die.y + dy))
        ]
        if any(_has_stray(side, stray) for side in sides):
            pairs.append(sides)
    return pairs


def _pips_beside(split: list[Face], stray: list[Pip], starts: list[Candidate]) -> bool:
    """Whether each of the two dice found that was looked for beside a ``stray`` pip shows more
    than one pip, when only one of them was: the other die's pips are all in the die read (a
    one, whose pip was fitted with the end pip of a three beside it), but a one found beside a
    stray pip is no such die (a two with a speck beside it, looked at as two dice, was two
    ones: synthetic seeds 4754, 8802)."""
    near = [_has_stray(start, stray) for start in starts]
    if all(near):
        return True
    for start, beside in zip(starts, near, strict=True):
        if beside:
            die = min(split, key=lambda d: math.hypot(d.x - start.x, d.y - start.y))
            return die.value is not None and die.value >= 2
    return False


def _side_by_side(one: Face, other: Face) -> bool:
    """Whether two dice found lie side by side, not on one die: their centres `_BESIDE_APART`
    of the wider's width apart or more (a four with a speck beside it, looked at as two dice,
    was two fours on the one: synthetic seeds 6884, 9552)."""
    apart = math.hypot(one.x - other.x, one.y - other.y)
    return apart >= _BESIDE_APART * max(one.width, other.width)


def _has_stray(place: Candidate, stray: list[Pip]) -> bool:
    """Whether a ``stray`` pip lies within `_NEAR` of a die width of a place looked at."""
    return any(math.hypot(p.x - place.x, p.y - place.y) < _NEAR * place.width for p in stray)


def _alike(pip: Pip, other: Pip) -> bool:
    """Whether two pips could be of one set of dice: as dark (or as light) against their faces,
    of sizes within `_PIP_SIZES` of each other."""
    larger, smaller = max(pip.diameter, other.diameter), min(pip.diameter, other.diameter)
    return pip.is_dark == other.is_dark and larger <= _PIP_SIZES * smaller
