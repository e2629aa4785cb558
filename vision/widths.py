"""Die widths, edge to edge: of one die from its face's pip grid, and of the frame's dice from the
faces read or, with none, from the pip sizes (all dice in a tray are one size). The classifier
(`vision.classify`) reads a die at the width it is told, within about a quarter of it either way:
adaptation (`vision.adapt`) and training (`training/make_crops.py`) cut their crops at these.
"""

from __future__ import annotations

import numpy as np

from vision.blob_dice import BlobDie
from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip

_LIKE_WIDTHS = 1.3
"""Die widths closer than this ratio are one width for the classifier (trained over +-25 %)."""


def true_width(face: Face, params: ReaderParams) -> float:
    """The width of a face's die, edge to edge: a face's width is told by its pip grid, which
    spans less of a die than its edges do (``die_width_per_face``); a die of one pip, or found
    by the classifier, already has its whole width."""
    return face.width * (params.die_width_per_face if len(face.pips) >= 2 else 1.0)


def die_width(pips: tuple[Pip, ...], faces: list[Face], params: ReaderParams) -> float | None:
    """The die width (edge to edge) in the frame: the median width of the faces read (of those
    with two pips or more, when there are enough of them to outvote a misfit, or when they are
    at least half of the faces read: the width of a one is a guess from its pip, and the median
    of a five and a speck taken for a one fits neither; else of those with a value, when there
    are any: an unread die's width is a guess), else from the pip sizes (None: nothing to go
    by)."""
    several = [true_width(f, params) for f in faces if f.value is not None and f.value >= 2]
    read = [f for f in faces if f.value is not None] or faces
    if len(several) >= 3 or (several and 2 * len(several) >= len(read)):
        return float(np.median(several))
    if read:
        return float(np.median([true_width(f, params) for f in read]))
    if pips:
        return params.die_width_per_pip * float(np.median([p.diameter for p in pips]))
    return None


def frame_width(
    pips: tuple[Pip, ...], faces: list[Face], blob_dice: list[BlobDie], params: ReaderParams
) -> float | None:
    """The frame's die width before the classifier has read any die: the faces' (`die_width`),
    unless no face is read and there are dice seen as one blob each: then the widths the
    classifier took those for dice at (the pip sizes would count those blobs as pips, and faces
    not read are most often the pips of several dice: dark dice on a light tray, whose grids
    told a width twice theirs)."""
    if blob_dice and all(f.value is None for f in faces):
        return float(np.median([d.width for d in blob_dice]))
    return die_width(pips, faces, params)


def width_of(face: Face, width: float, params: ReaderParams) -> float:
    """A face's own die width when it is one width with the frame's to the classifier, else
    the frame's: a grid much wider than the other dice's is most often the pips of two dice
    (two ones read as a two), which the classifier takes for a die at its own width and for
    none at the frame's."""
    own = true_width(face, params)
    if face.value is not None and face.value >= 2 and are_alike(own, width):
        return own
    return width


def are_alike(a: float, b: float) -> bool:
    """Whether two die widths are one width to the classifier."""
    return max(a, b) < _LIKE_WIDTHS * min(a, b)
