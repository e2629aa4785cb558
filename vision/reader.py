"""The dice reader: a frame in, every die seen with its value, centre, box and confidence out.

A checked frame (`vision.validate`) is read first by the fast path, `vision.quick` (a die detector,
`vision.detect`, and the classifier alone), which reads it only when it is sure of every die
(unless ``use_detector`` is off). Every other frame goes through the pip stages, one stage per
module: `vision.pips` (pip candidates), `vision.faces` (pips grouped into faces by their grid),
`vision.unread` (dice seen but not read), `vision.roi` (throwing area). Their faces and the
detector's proposals at the frame's scales (`vision.detect.detect_scales`) are the candidates
(`vision.candidates`) that go to `vision.judge`, the one place where the evidence on each die is
weighed: it leaves out what is unlikely a die and keeps a value only when it is likely right
(``use_judge`` off: the fast path's or the pip stages' faces are read as they are). A frame of
more than `WORKING_PIXELS` is read shrunk to about that size (`working_copy`) and its dice placed
back in it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from vision.annotate import annotate
from vision.calibration import differs_from_empty
from vision.candidates import LEAST_STRENGTH, Candidate, candidates
from vision.crops import Pyramid, pyramid_of
from vision.detect import detect_scales
from vision.errors import InvalidParams
from vision.face import Face
from vision.faces import compatible_pips, find_faces
from vision.judge import judge, judge_classifier, shipped_model
from vision.params import ReaderParams
from vision.pips import Pip, find_pips, planes_of, to_gray
from vision.quick import quick_faces
from vision.roi import is_inside
from vision.types import Box, DieReading, Frame, Reading
from vision.unread import unread_dice
from vision.validate import check_frame

Debug = Callable[[str, Frame], None]

WORKING_PIXELS = 1920 * 1088
"""Frames of more pixels than this (a little more than 1920×1080) are read shrunk to about as
many (`working_copy`)."""

DEFAULT_PARAMS = ReaderParams()
MOST_DICE = 30
"""The most dice a throw that the reader is told to expect may have."""


class PipFaces(NamedTuple):
    """What the pip stages found in a frame: the pip candidates, and the faces (and unread dice)
    they form."""

    pips: tuple[Pip, ...]
    faces: list[Face]


def read(
    frame: Frame,
    params: ReaderParams = DEFAULT_PARAMS,
    *,
    debug: Debug | None = None,
    expected: int | None = None,
) -> Reading:
    """Read every die in ``frame`` (an H×W×3 BGR uint8 image).

    ``expected`` is the number of dice thrown, when it is known (at the table the rules say how
    many the player throws): the judge then takes that many dice (`vision.judge.decide`), and the
    fast path reads the frame only when it found that many. It never gives a die a value.

    Raises `vision.errors.InvalidFrame` for something that is not such an image, and
    `vision.errors.InvalidParams` for an ``expected`` outside 1 to `MOST_DICE`. ``debug``, when
    given, receives intermediate images by stage name: "pips" (the pip candidates circled, when
    the pip stages read the frame: not when the fast path, `vision.quick`, did) and "dice" (the
    dice read, boxed with their values).
    """
    if expected is not None and (
        isinstance(expected, bool)
        or not isinstance(expected, int)
        or not 1 <= expected <= MOST_DICE
    ):
        raise InvalidParams(f"the dice expected must be 1 to {MOST_DICE}, not {expected!r}")
    frame = check_frame(frame)
    working, factor = working_copy(frame)
    pyramid = pyramid_of(working) if params.use_classifier else None
    height, width = frame.shape[:2]

    def admits(face: Face) -> bool:
        """Whether a face of the working copy is a die of the throwing area (not the empty
        tray's)."""
        if factor != 1.0:
            face = scaled(face, 1.0 / factor)
        if not is_inside((face.x, face.y), params.roi):
            return False
        if params.empty_tray is None:
            return True
        box = die_reading(face, width, height, params).box
        return differs_from_empty(frame, params.empty_tray, box)

    faces = read_faces(working, pyramid, params, debug, expected=expected, admits=admits)
    if factor != 1.0:
        faces = [scaled(face, 1.0 / factor) for face in faces]
    dice = [die_reading(face, width, height, params) for face in faces]
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    reading = Reading(tuple(dice))
    if debug is not None:
        debug("dice", annotate(frame, reading))
    return reading


def working_copy(frame: Frame) -> tuple[Frame, float]:
    """The frame the stages read, and the factor it was resized by: a frame of more than
    `WORKING_PIXELS` is shrunk (by averaging) to about that many, so that a phone's 12 MP photo
    is read in bounded time and memory; smaller frames are read as they are."""
    height, width = frame.shape[:2]
    if height * width <= WORKING_PIXELS:
        return frame, 1.0
    factor = math.sqrt(WORKING_PIXELS / (height * width))
    size = (max(1, int(width * factor)), max(1, int(height * factor)))
    shrunk = np.asarray(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    return shrunk, size[0] / width


def scaled(face: Face, factor: float) -> Face:
    """The face as seen in its frame resized by ``factor``."""
    return replace(
        face,
        x=face.x * factor,
        y=face.y * factor,
        u=(face.u[0] * factor, face.u[1] * factor),
        v=(face.v[0] * factor, face.v[1] * factor),
        width=face.width * factor,
    )


def read_faces(
    frame: Frame,
    pyramid: Pyramid | None,
    params: ReaderParams,
    debug: Debug | None = None,
    *,
    expected: int | None = None,
    admits: Callable[[Face], bool] | None = None,
) -> list[Face]:
    """The dice of a checked frame (whose pyramid is ``pyramid``, or ``None`` without the
    classifier) as faces in its pixels: the judge's decision on the candidates (`candidates_of`)
    with the number of dice ``expected`` and the faces ``admits`` (the throwing area's), or with
    ``use_judge`` off (or no classifier) the stages' faces as they are (`stage_faces`), those
    ``admits`` takes."""
    if pyramid and params.use_judge:
        found = candidates_of(frame, pyramid, params, debug, expected=expected, admits=admits)
        return judge(
            pyramid, found, judge_classifier, shipped_model(), expected=expected, admits=admits
        )
    faces = stage_faces(frame, pyramid, params, debug)
    return faces if admits is None else [face for face in faces if admits(face)]


def stage_faces(
    frame: Frame, pyramid: Pyramid | None, params: ReaderParams, debug: Debug | None = None
) -> list[Face]:
    """The dice of a checked frame (whose pyramid is ``pyramid``, or ``None`` without the
    classifier) as the stages before the judge read them: the fast path's when it is sure of
    them all, else the pip stages' faces."""
    quick = quick_faces(pyramid, params) if pyramid and params.use_detector else None
    if quick is not None:
        return quick
    return find_pip_faces(frame, params, debug).faces


def candidates_of(
    frame: Frame,
    pyramid: Pyramid,
    params: ReaderParams,
    debug: Debug | None = None,
    *,
    expected: int | None = None,
    admits: Callable[[Face], bool] | None = None,
) -> list[Candidate]:
    """The judge's candidates in a checked frame whose pyramid is ``pyramid``: the fast path's
    dice when it is sure of them all (and, with ``expected``, found that many that ``admits``
    takes), else the pip stages' faces and the detector's proposals at the frame's scales
    (`vision.candidates.candidates`)."""
    quick = quick_faces(pyramid, params) if params.use_detector else None
    if quick is not None and expected is not None and _count(quick, admits) != expected:
        quick = None
    if quick is not None:
        return [Candidate(face, 0.0) for face in quick]
    pips, faces = find_pip_faces(frame, params, debug)
    proposals = detect_scales(pyramid, LEAST_STRENGTH)
    return candidates(faces, proposals, params.die_width_per_spacing, pips)


def _count(faces: Sequence[Face], admits: Callable[[Face], bool] | None) -> int:
    return sum(1 for face in faces if admits is None or admits(face))


def find_pip_faces(
    frame: Frame, params: ReaderParams = DEFAULT_PARAMS, debug: Debug | None = None
) -> PipFaces:
    """The pip stages alone on a checked frame, before the classifier (`PipFaces`). Training
    cuts its crops where these stages look."""
    gray = to_gray(frame)
    smooth = np.asarray(cv2.GaussianBlur(frame, (3, 3), 0), dtype=np.uint8)
    smooth_planes = planes_of(smooth)
    pips = find_pips(frame, gray, params, debug, smooth=smooth, smooth_planes=smooth_planes)
    faces = find_faces(pips, smooth_planes, smooth, params)
    if params.report_unread:
        faces += unread_dice(pips, faces, compatible_pips(pips, params), params)
    return PipFaces(pips, faces)


def die_reading(face: Face, width: int, height: int, params: ReaderParams) -> DieReading:
    """The reading of one face, with the bounding box of its die (the face grid, widened)."""
    half = params.die_width_per_spacing / 2.0
    half_w = half * (abs(face.u[0]) + abs(face.v[0]))
    half_h = half * (abs(face.u[1]) + abs(face.v[1]))
    x0 = max(0, round(face.x - half_w))
    y0 = max(0, round(face.y - half_h))
    x1 = min(width, round(face.x + half_w))
    y1 = min(height, round(face.y + half_h))
    box = Box(x0, y0, max(1, x1 - x0), max(1, y1 - y0))
    confidence = round(face.confidence, 3)
    return DieReading(face.value, (face.x, face.y), box, confidence, face.likely)
