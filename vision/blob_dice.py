"""The faces whose pips are each a whole die (dark dice seen whole as blobs).

Dark dice lying apart on a light tray, each seen as one blob, make the pips of a face several
times their size, and a frame's die width told by that face several times too wide. The
classifier (`vision.classify`) tells them: such a face is dropped, and its pips are dice
(`BlobDie`) whose widths tell the frame's (`vision.widths.frame_width`), where adaptation
(`vision.adapt`) and training (`training/make_crops.py`) cut their crops.
"""

from __future__ import annotations

from typing import NamedTuple

from vision.classify import classify
from vision.crops import Pyramid, die_crop
from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip


class BlobDie(NamedTuple):
    """A blob the classifier takes for a whole die: its centre, and the width it was surest of
    (the blob's own, or narrower: `_blob_widths`)."""

    x: float
    y: float
    width: float


_BLOB_SHADOW = 0.7
"""A blob taken for a die is also looked at this much narrower: the die may have run together
with its shadow."""


def without_faces_of_dice(
    pyramid: Pyramid, pips: tuple[Pip, ...], faces: list[Face], params: ReaderParams
) -> tuple[list[Face], list[BlobDie]]:
    """The faces that are not made of whole dice, and the pips of those that are, as dice
    (`BlobDie`): a face whose pips are each large enough to be a die (``min_die_width``) and
    each taken for a die by the classifier (``pip_die_probability``), cut as wide as the pip or
    a little narrower (`_blob_widths`). Dark dice lying apart on a light tray, each seen as one
    blob, make the pips of a die several times their size, which the classifier itself reads
    surely at that width (two dice a "2" 160 px wide), and which told the frame's die width."""
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
    return kept, [BlobDie(pips[k].x, pips[k].y, dice[k]) for k in sorted(dropped)]


def _dice_among(
    pyramid: Pyramid, pips: tuple[Pip, ...], blobs: list[int], params: ReaderParams
) -> dict[int, float]:
    """Which of the ``blobs`` (indices into ``pips``) the classifier takes for whole dice, cut as
    wide as the blob or a little narrower (`_blob_widths`), each with the width it was surest of
    there."""
    looks = [
        (k, width)
        for k in blobs
        for width in _blob_widths(params.die_width_per_blob * pips[k].diameter, params)
    ]
    verdicts = classify([die_crop(pyramid, (pips[k].x, pips[k].y), w) for k, w in looks])
    surest: dict[int, tuple[float, float]] = {}
    for (k, width), verdict in zip(looks, verdicts, strict=True):
        if k not in surest or verdict.die_probability > surest[k][0]:
            surest[k] = (verdict.die_probability, width)
    return {
        k: width
        for k, (probability, width) in surest.items()
        if probability >= params.pip_die_probability
    }


def _blob_widths(width: float, params: ReaderParams) -> tuple[float, ...]:
    """The widths a blob ``width`` pixels across is looked at as a die: its own, and
    ``_BLOB_SHADOW`` of it while that is still a die's width (``min_die_width``): a small dark
    die runs together with its shadow into a blob half as wide again (synthetic seed 2574: dice
    21 px wide seen as blobs of 31-33 px)."""
    narrower = _BLOB_SHADOW * width
    return (width, narrower) if narrower >= params.min_die_width else (width,)
