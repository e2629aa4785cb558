"""Places that stand out from the tray, where a die may lie whose pips were not found.

A die whose pips hardly differ from its face (black pips on a dark die, a swirled face) gives the
pip stages nothing to start from, but the die itself still differs from the tray around it. The
tray's own colour is told by a median over a few die widths of a much reduced frame (so a lighting
gradient across the tray does not stand out, and a die does); what differs from it by more than
``standout_colour`` is foreground, and the points deepest inside it, half a die width apart or more,
are places where a die may lie; after them, those deep inside what differs from it by less, by each
of ``standout_faint_colours`` in turn, on a tray plain enough for that to tell. Parts larger than
``standout_max_dice`` dice are left out: walls of the tray, a keyboard, a hand; but dice lying close
together make such a part too, and what is left of it once the dice read are taken out is looked at
again, as are dice lying against a cable or a tray's rim (what is thinner than a die is let go of).
This only proposes places: the fast path (`vision.quick`) looks at them for dice it has not read,
and training cuts crops there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import Pyramid
from vision.params import ReaderParams

_BACKGROUND_DIE_PIXELS = 2.0
"""The frame is reduced until a die is about this many pixels wide to take the tray's colour."""
_BACKGROUND_WIDTHS = 4.0
"""The tray's colour at a point is the median over this many die widths around it."""
DIE_PIXELS = 8.0
"""Foreground is looked at on the pyramid level where a die is at least this many pixels wide
(unless told otherwise: `standing_out`'s ``die_pixels``)."""
_READ_DIE = 0.5
"""A die read is taken out of a pile of dice as a disc this many of its widths across."""
_ABOVE_TRAY = 4.0
"""A faint colour distance (``standout_faint_colours``) is looked for only where it is this many
times the median distance of the frame from the tray's colour or more: on a plain tray, not on a
wooden desk or a noisy one, where faint places are mostly grain and noise (looked for there, they
made the classifier read 29.8 crops a matteop65-wood photo, against 16.9, for one die more of
the 951 in those photos)."""
_THIN = 0.6
"""What is left of a pile narrower than this many die widths (a cable, a tray's rim) is let go
of, and the dice lying against it are looked at."""


def standing_out(
    pyramid: Pyramid,
    width: float,
    is_taken: Callable[[float, float], bool],
    params: ReaderParams,
    read: Sequence[tuple[float, float, float]] = (),
    *,
    die_pixels: float = DIE_PIXELS,
) -> list[tuple[float, float]]:
    """Up to ``max_standouts`` points (x, y in frame pixels) deep inside what differs from the
    tray by ``standout_colour``, the deepest first, at least half a die ``width`` apart, none
    where ``is_taken`` says a die is already; then up to ``max_standouts`` more for each of
    ``standout_faint_colours`` in turn, as far from those before, deep inside what differs from
    it by that much: a die that differs from the tray little, or whose core is cut by its pips
    and swirls at the first threshold, may stand out there (a smoky red four beside a three, a
    white six on a light tray, a swirled red one on a red tray: synthetic seeds 4934, 7463,
    101), where the tray itself differs from its colour little enough (`_ABOVE_TRAY`). The
    first points are not crowded out by the later ones (a lower first threshold made parts run
    together and missed 12 dice it found). ``read`` holds the dice read so far (x, y, width): a
    part too large for a die that is a pile of dice falls apart without them and without its
    thin parts (a die against a cable: synthetic seeds 6871, 8419), and its pieces are looked
    at. All this is done on the pyramid level where a die is ``die_pixels`` wide or more."""
    if params.max_standouts == 0 or width <= 0:
        return []
    level = min(len(pyramid) - 1, max(0, math.floor(math.log2(max(width / die_pixels, 1.0)))))
    image = pyramid[level]
    factor = 2.0**level
    die = width / factor
    height, side = image.shape[:2]
    shrink = max(1.0, die / _BACKGROUND_DIE_PIXELS)
    small = cv2.resize(
        image,
        (max(1, round(side / shrink)), max(1, round(height / shrink))),
        interpolation=cv2.INTER_AREA,
    )
    kernel = max(3, 2 * round(_BACKGROUND_WIDTHS * _BACKGROUND_DIE_PIXELS / 2) + 1)
    tray = cv2.resize(cv2.medianBlur(small, kernel), (side, height), interpolation=cv2.INTER_LINEAR)
    squared = cv2.absdiff(image, tray).astype(np.float32) ** 2
    # Whole numbers under 2**24, which float32 adds exactly in any order: channel by channel is the
    # same sum as along the axis, and several times quicker.
    distance = np.sqrt(squared[:, :, 0] + squared[:, :, 1] + squared[:, :, 2])
    # Most of a frame is tray: the median distance tells how much the tray differs from itself.
    floor = _ABOVE_TRAY * float(np.median(distance)) if params.standout_faint_colours else 0.0
    faint = [c for c in params.standout_faint_colours if c >= floor]
    points: list[tuple[float, float]] = []
    for colour in (params.standout_colour, *faint):
        foreground = (distance > colour).astype(np.uint8) * 255
        depth = _depth(foreground, die, factor, params, read)
        points += _deepest(depth, die, factor, width, is_taken, points, params)
    return points


def _depth(
    foreground: npt.NDArray[np.uint8],
    die: float,
    factor: float,
    params: ReaderParams,
    read: Sequence[tuple[float, float, float]],
) -> npt.NDArray[np.float32]:
    """How deep each pixel lies inside ``foreground`` (a pyramid level ``factor`` times smaller
    than the frame, where a die is ``die`` pixels wide), its gaps the size of a pip closed and
    its parts larger than ``standout_max_dice`` dice taken out, but for what is left of a pile
    of dice without the ``read`` ones and without its thin parts."""
    # Pips of a die may happen to be the tray's colour: they are die all the same.
    pip = max(3, 2 * round(0.15 * die) + 1)
    closed = cv2.morphologyEx(foreground, cv2.MORPH_CLOSE, np.ones((pip, pip), np.uint8))
    foreground = np.asarray(
        cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), dtype=np.uint8
    )
    # Parts far larger than a few dice are the tray's walls, a keyboard, a hand: no die alone.
    # Or dice lying close together: without those read, such a pile falls apart.
    largest = params.standout_max_dice * die * die
    large = _too_large(foreground, largest)
    if large is not None:
        pile = large.astype(np.uint8) * 255
        foreground[large] = 0
        for x, y, die_width in read:
            centre = (round((x + 0.5) / factor - 0.5), round((y + 0.5) / factor - 0.5))
            cv2.circle(pile, centre, max(1, round(_READ_DIE * die_width / factor)), 0, -1)
        # A thin part (a cable, a tray's rim) is let go of too: a die lying against it comes away.
        thin = max(3, 2 * round(_THIN * die / 2) + 1)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (thin, thin))
        pile = np.asarray(cv2.morphologyEx(pile, cv2.MORPH_OPEN, disc), dtype=np.uint8)
        pieces = _too_large(pile, largest)
        if pieces is not None:
            pile[pieces] = 0
        foreground |= pile
    # What lies beyond the frame's edge is not foreground: a part cut by the edge is as deep as
    # what shows of it (the light floor around a tray, seen in the frame's corners, is no die).
    bordered = cv2.copyMakeBorder(foreground, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    return np.asarray(cv2.distanceTransform(bordered, cv2.DIST_L2, 3)[1:-1, 1:-1], np.float32)


def _deepest(
    depth: npt.NDArray[np.float32],
    die: float,
    factor: float,
    width: float,
    is_taken: Callable[[float, float], bool],
    before: list[tuple[float, float]],
    params: ReaderParams,
) -> list[tuple[float, float]]:
    """Up to ``max_standouts`` local maxima of ``depth`` at least ``standout_core`` die widths
    deep, in frame pixels, the deepest first, none where ``is_taken`` says, and at least half a
    die ``width`` from each other and from the points found ``before``."""
    reach = max(3, 2 * round(0.25 * die) + 1)
    peaks = (depth >= cv2.dilate(depth, np.ones((reach, reach), np.uint8))) & (
        depth >= params.standout_core * die
    )
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-depth[ys, xs])
    points: list[tuple[float, float]] = []
    for k in order:
        x, y = (xs[k] + 0.5) * factor - 0.5, (ys[k] + 0.5) * factor - 0.5
        if is_taken(x, y) or any(
            math.hypot(x - px, y - py) < 0.5 * width for px, py in before + points
        ):
            continue
        points.append((float(x), float(y)))
        if len(points) >= params.max_standouts:
            break
    return points


def _too_large(foreground: npt.NDArray[np.uint8], largest: float) -> npt.NDArray[np.bool_] | None:
    """Where the parts of ``foreground`` larger than ``largest`` pixels lie (None: nowhere)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(foreground, connectivity=8)
    too_large = stats[:, cv2.CC_STAT_AREA] > largest
    too_large[0] = False
    return np.asarray(too_large[labels]) if too_large.any() else None
