"""The reader on drawn dice with known values: every face, colour scheme, rotation, size, touching
dice, and the region of interest."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.drawn import PIP_LAYOUT, SCHEMES, DrawnDie, blank, draw, draw_die
from vision import InvalidParams, ReaderParams, read
from vision import blobs as blobs_module
from vision import faces as faces_module
from vision import pips as pips_module
from vision.blobs import ROUND, box_sum
from vision.face import Face
from vision.faces import find_faces
from vision.pips import Pip, _colour_changes, find_pips, planes_of, to_gray
from vision.render import render_tray, style_from_seed

PARAMS = ReaderParams(use_detector=False, use_judge=False)
"""The pip stages alone, as these tests are about them (the fast path tried first is
tests/vision/test_quick.py's, the judge tests/vision/test_judge.py's)."""


READERS = [
    pytest.param(PARAMS, id="pip-stages"),
    pytest.param(ReaderParams(), id="as-shipped"),
]
"""The hardest cases are read by the pip stages, and by the reader as shipped, the fast path
(tests/vision/test_quick.py) tried first."""


NOT_SURE = frozenset({("black", 2), ("white", 5, 6, 0.0)})
"""Drawn dice the reader as shipped leaves "not sure" (None): each of them is read right or None,
never another value."""


def right_or_not_sure(read: Sequence[int | None], thrown: Sequence[int | None]) -> bool:
    """Whether ``read`` holds a die for each of ``thrown`` (in any order), each right or None."""
    given = sorted(v for v in read if v is not None)
    return len(read) == len(thrown) and all(given.count(v) <= thrown.count(v) for v in given)


def values_at(frame: np.ndarray, params: ReaderParams | None = None) -> list[int | None]:
    reading = read(frame, params or PARAMS)
    return sorted(reading.values, key=lambda v: -1 if v is None else v)


@pytest.mark.parametrize("params", READERS)
@pytest.mark.parametrize("scheme", sorted(SCHEMES))
@pytest.mark.parametrize("value", range(1, 7))
def test_every_face_of_every_colour_scheme_is_read(
    scheme: str, value: int, params: ReaderParams
) -> None:
    frame = draw([DrawnDie(320, 240, 70, value, 20.0, scheme)])
    reading = read(frame, params)
    if params.use_judge and (scheme, value) in NOT_SURE:
        assert right_or_not_sure(reading.values, [value]), reading.values
    else:
        assert reading.values == (value,)
    die = reading.dice[0]
    # The pip stages place a die's centre from its pips; the fast path from the classifier's
    # look, within a tenth of the die's width.
    near = 7.0 if params.use_detector else 5.0
    assert math.hypot(die.center[0] - 320, die.center[1] - 240) < near
    assert 0.0 < die.confidence <= 1.0
    assert die.box.x < 320 < die.box.x + die.box.w


@pytest.mark.parametrize("scheme", ["white", "black", "red"])
def test_pips_are_found_with_their_polarity(scheme: str) -> None:
    frame = draw([DrawnDie(320, 240, 80, 5, 0.0, scheme)])
    pips = find_pips(frame, to_gray(frame), ReaderParams())
    assert len(pips) == 5
    assert {p.is_dark for p in pips} == {scheme == "white"}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    value=st.integers(1, 6),
    angle=st.floats(0.0, 90.0),
    width=st.floats(36.0, 140.0),
    scheme=st.sampled_from(sorted(SCHEMES)),
    seed=st.integers(0, 1000),
)
@pytest.mark.parametrize("params", READERS)
def test_any_rotation_and_size_is_read(
    value: int, angle: float, width: float, scheme: str, seed: int, params: ReaderParams
) -> None:
    frame = draw([DrawnDie(320, 240, width, value, angle, scheme)], seed=seed)
    assert read(frame, params).values == (value,)


@pytest.mark.parametrize(
    ("left", "right"), [(3, 3), (2, 2), (1, 1), (2, 3), (3, 4), (5, 6), (1, 2)]
)
@pytest.mark.parametrize("angle", [0.0, 45.0])
@pytest.mark.parametrize("params", READERS)
def test_touching_dice_are_separate_dice(
    left: int, right: int, angle: float, params: ReaderParams
) -> None:
    width = 60
    # Side by side, just touching: the dice's horizontal extent grows with the angle.
    gap = width * (abs(math.cos(math.radians(angle))) + abs(math.sin(math.radians(angle)))) + 1
    frame = draw(
        [
            DrawnDie(260, 240, width, left, angle, "white"),
            DrawnDie(260 + gap, 240, width, right, angle, "white"),
        ]
    )
    if params.use_judge and ("white", left, right, angle) in NOT_SURE:
        assert right_or_not_sure(values_at(frame, params), [left, right])
    else:
        assert values_at(frame, params) == sorted([left, right])


def test_a_row_of_touching_dice_is_read_die_by_die() -> None:
    values = [6, 3, 3, 2, 5, 1]
    frame = draw([DrawnDie(100 + 71 * k, 240, 70, v, 0.0, "ivory") for k, v in enumerate(values)])
    assert values_at(frame) == sorted(values)


STRADDLED = pytest.mark.xfail(
    strict=True, reason="the reader as shipped reads one die (or none) across the two dice"
)
"""Touching dice the former stage 4 split again (`vision.straddle`) and the judge does not."""
ONE_OF_TWO = pytest.mark.xfail(
    strict=True,
    reason="the reader as shipped keeps one die of the two (not sure, or the other missed)",
)
"""Touching dice the judge's network before the present one read as two, and it keeps one of."""


@pytest.mark.parametrize(
    ("value", "scheme", "width", "angle", "side"),
    [
        pytest.param(2, "white", 60, 0.0, 0.0, marks=STRADDLED),
        pytest.param(2, "black", 100, 0.0, 90.0, marks=ONE_OF_TWO),
        pytest.param(2, "blue", 60, 35.0, 90.0, marks=ONE_OF_TWO),
        (4, "white", 60, 20.0, 90.0),
        pytest.param(4, "black", 60, 35.0, 0.0, marks=STRADDLED),
        (4, "ivory", 60, 35.0, 0.0),
        (6, "white", 60, 35.0, 0.0),
        pytest.param(6, "black", 100, 35.0, 0.0, marks=STRADDLED),
        (6, "blue", 60, 35.0, 0.0),
        pytest.param(4, "green", 30, 0.0, 0.0, marks=STRADDLED),
        (6, "green", 60, 0.0, 0.0),
    ],
)
def test_two_touching_dice_whose_inner_pips_make_a_face_are_two_dice(
    value: int, scheme: str, width: int, angle: float, side: float
) -> None:
    # Square to each other, edge on edge: the inner pips of two twos make a two across the
    # edge they share, the inner columns of two fours a four, of two sixes a six. The pip
    # stages read that face as the only die, the outer pips beside it unexplained; the reader
    # as shipped reads the two dice, each right or not sure.
    along = math.radians(angle + side)
    dx, dy = 0.5 * width * math.cos(along), 0.5 * width * math.sin(along)
    frame = draw(
        [
            DrawnDie(320 - dx, 240 - dy, width, value, angle, scheme),
            DrawnDie(320 + dx, 240 + dy, width, value, angle, scheme),
        ]
    )
    assert right_or_not_sure(values_at(frame, ReaderParams()), [value, value])


def test_a_five_in_a_row_that_the_classifier_cannot_read_keeps_its_count() -> None:
    # Throw 26 of the accuracy benchmark's rows (--in-a-row): red dice 78 px wide, their pips
    # near their edges. Every face was found, but the 5 between a 6 and a 4, looked at as wide
    # as its pip grid, was a die the classifier could not read (0.77), its crop holding its
    # neighbours' pips; no other count was likelier to it than 5.
    style = replace(style_from_seed(100_026), in_a_row=True)
    tray = render_tray([5, 6, 5, 4], seed=100_026, style=style)
    assert sorted(read(tray.frame, PARAMS).values) == [4, 5, 5, 6]


def test_a_mixed_tray_is_read() -> None:
    dice = [
        DrawnDie(100, 100, 60, 4, 10.0, "white"),
        DrawnDie(250, 120, 50, 6, 35.0, "black"),
        DrawnDie(420, 110, 80, 2, 70.0, "red"),
        DrawnDie(120, 330, 45, 5, 5.0, "green"),
        DrawnDie(300, 340, 65, 1, 50.0, "blue"),
        DrawnDie(500, 330, 90, 3, 15.0, "ivory"),
    ]
    frame = draw(dice)
    assert values_at(frame) == sorted(d.value for d in dice)


def test_the_region_of_interest_ignores_dice_set_aside() -> None:
    frame = draw([DrawnDie(150, 240, 60, 5, 0.0), DrawnDie(500, 240, 60, 2, 0.0)])
    left_half = ((0, 0), (320, 0), (320, 480), (0, 480))
    assert read(frame, replace(PARAMS, roi=left_half)).values == (5,)
    assert sorted(read(frame, PARAMS).values, key=str) == [2, 5]


def test_the_reading_is_in_reading_order() -> None:
    frame = draw([DrawnDie(500, 400, 60, 2), DrawnDie(100, 100, 60, 4), DrawnDie(400, 100, 60, 6)])
    centres = [d.center for d in read(frame, PARAMS).dice]
    assert centres == sorted(centres, key=lambda c: (c[1], c[0]))


def test_the_debug_callback_receives_intermediate_images() -> None:
    seen: dict[str, tuple[int, ...]] = {}
    frame = draw([DrawnDie(320, 240, 70, 3)])
    read(frame, PARAMS, debug=lambda name, image: seen.__setitem__(name, image.shape))
    assert set(seen) == {"pips", "dice"}
    assert all(shape == frame.shape for shape in seen.values())


def test_a_die_whose_pips_fit_no_face_is_seen_but_unread() -> None:
    # The pip stages alone: the classifier takes this made-up layout for the two it resembles.
    alone = ReaderParams(use_classifier=False)
    odd = DrawnDie(320, 240, 70, 3, 10.0, "white", layout=((-1, -1), (1, -1), (1, 1)))
    reading = read(draw([odd, DrawnDie(480, 240, 70, 4, 0.0)]), alone)
    assert sorted(reading.values, key=str) == [4, None]
    unread = next(d for d in reading.dice if d.value is None)
    assert abs(unread.center[0] - 320) < 15 and abs(unread.center[1] - 240) < 15
    assert not reading.is_complete
    assert read(draw([odd]), replace(alone, report_unread=False)).is_empty


def test_pips_with_the_grey_level_of_their_face_are_found_by_colour() -> None:
    frame = draw([DrawnDie(320, 240, 70, 5, 15.0, "blue-red")])
    assert read(frame, PARAMS).values == (5,)
    assert read(frame, replace(PARAMS, planes=1)).values != (5,)


def test_the_red_channel_is_looked_at_only_where_colour_tells_more_than_grey() -> None:
    # On a green tray every pixel differs from grey, yet the tray and the white die show the
    # same edges in red as in grey; the red pips of the blue die are where red tells more.
    frame = blank(colour=(60, 140, 50))
    draw_die(frame, DrawnDie(200, 240, 70, 5, 0.0, "white"))
    draw_die(frame, DrawnDie(440, 240, 70, 5, 0.0, "blue-red"))
    changes = _colour_changes(frame[:, :, 2], to_gray(frame), ReaderParams())

    def changed(x: int, y: int, half: int = 15) -> int:
        return int(box_sum(changes, x - half, y - half, x + half, y + half))

    assert changed(320, 100) == 0  # the tray
    assert changed(200, 240) == 0  # the white die
    assert changed(440, 240) > 0
    assert read(frame, PARAMS).values == (5, 5)


@pytest.mark.parametrize("value", range(1, 6))
def test_a_die_whose_pips_alone_are_coloured_is_read_in_a_grey_frame(value: int) -> None:
    # Its red pips have the grey level of its slate face, and they are all the colour in the
    # frame (a few ten-thousandths of it): the red channel is looked at all the same.
    frame = draw([DrawnDie(320, 240, 40, value, 15.0, "slate-red")])
    assert read(frame, PARAMS).values == (value,)


@pytest.mark.parametrize("value", range(1, 7))
def test_glare_on_glossy_pips_does_not_hide_them(value: int) -> None:
    frame = draw([DrawnDie(320, 240, 90, value, 20.0, "white", glare=True)])
    assert read(frame, PARAMS).values == (value,)


@pytest.mark.parametrize("value", range(2, 7))
def test_glare_near_the_centre_of_every_pip_does_not_hide_them(value: int) -> None:
    # 0.2 pip diameters off the centre: as far as a one may lie off its die's centre; the
    # pip stages alone tell them apart by the glare spots all leaning one way.
    die = DrawnDie(320, 240, 90, value, 20.0, "white", glare=True, glare_reach=0.28)
    assert read(draw([die]), ReaderParams(use_classifier=False)).values == (value,)


@pytest.mark.parametrize("scheme", ["red", "black", "blue"])
@pytest.mark.parametrize("share", [0.2, 0.3])
def test_a_faint_spot_at_the_centre_of_a_six_is_no_seventh_pip(scheme: str, share: float) -> None:
    # A glare spot on a glossy face, a fifth to a third as bright as its pips: with it at the
    # centre, the six's pips and the spot fitted no face, and two of the pips were read as a two
    # (throws 16 and 48 of the accuracy benchmark's rows). The pip stages alone read it here.
    frame = blank()
    draw_die(frame, DrawnDie(320, 240, 70, 6, 20.0, scheme))
    face, pip = SCHEMES[scheme]
    spot = tuple(round(f + share * (p - f)) for f, p in zip(face, pip, strict=True))
    cv2.circle(frame, (320, 240), 7, spot, -1, cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    assert read(frame, ReaderParams(use_classifier=False)).values == (6,)


@pytest.mark.parametrize("scheme", ["black", "red", "blue"])
def test_a_soft_glare_at_the_centre_of_a_four_is_no_pip(scheme: str) -> None:
    # A glossy die lit from above shows a soft light spot at its centre, twice as wide as its
    # pips and as bright: the four's centre was not bare, and the die was missed (a black four
    # 118 px wide with red pips, smoke dice: synthetic seeds 6336, 2180).
    frame = blank().astype(np.float32)
    draw_die(frame, DrawnDie(320, 240, 110, 4, 25.0, scheme))
    face, pip = SCHEMES[scheme]
    rows, columns = np.mgrid[0:480, 0:640]
    glow = np.exp(-((columns - 320.0) ** 2 + (rows - 240.0) ** 2) / (2 * 16.0**2))[..., None]
    light = np.array([max(pip)] * 3, np.float32) - np.array(face, np.float32)
    frame = np.asarray(np.clip(cv2.GaussianBlur(frame + glow * light, (3, 3), 0), 0, 255), np.uint8)
    assert read(frame, ReaderParams(use_classifier=False)).values == (4,)


def _spot(x: float, y: float, diameter: float, is_dark: bool) -> Pip:
    level = 40.0 if is_dark else 230.0
    return Pip(x, y, diameter, is_dark, 100.0, 0.9, 1.0, ROUND, (level,) * 3, level)


def test_spots_apart_in_a_blob_are_its_pips_and_one_spot_found_twice_a_glare() -> None:
    # A dark blob 40 px across: a small die run together with its shadow, holding five light
    # pips 5 px wide about 8 px apart; and a glossy pip holding one glare spot 12 px off its
    # centre, found at two scales 1 px apart.
    shadowed = _spot(92.0, 149.0, 40.0, True)
    five = [
        _spot(x, y, 5.0, False)
        for x, y in ((94.0, 159.0), (88.0, 149.0), (104.0, 153.0), (98.0, 144.0), (96.0, 152.0))
    ]
    assert pips_module._drop_faces_seen_as_pips([shadowed, *five]) == five
    glossy = _spot(300.0, 300.0, 40.0, True)
    glare = [_spot(312.0, 300.0, 5.0, False), _spot(312.5, 301.0, 6.0, False)]
    assert pips_module._drop_faces_seen_as_pips([glossy, *glare]) == [glossy]


def test_one_small_spot_off_a_pip_centre_is_a_glare() -> None:
    pip = _spot(100.0, 100.0, 40.0, False)
    glare = _spot(110.0, 100.0, 8.0, False)
    assert pips_module.is_glare_spot(pip, [glare])
    assert pips_module.is_glare_spot(pip, [glare, _spot(110.5, 101.0, 9.0, False)])  # twice
    assert not pips_module.is_glare_spot(pip, [glare, _spot(100.0, 110.0, 8.0, False)])  # pips
    assert not pips_module.is_glare_spot(pip, [_spot(110.0, 100.0, 18.0, False)])  # too large
    assert not pips_module.is_glare_spot(pip, [_spot(102.0, 100.0, 8.0, False)])  # centred


def test_a_one_whose_pip_holds_a_glare_spot_is_read() -> None:
    # Synthetic seeds 4571 and 6248 of the accuracy benchmark: a black one 111 px wide and a
    # grey one 63 px wide on light trays, whose red pips each hold a glare spot, were taken for
    # whole dice seen as one blob holding a pip, and missed.
    for seed in (4571, 6248):
        assert read(render_tray([1], seed=seed).frame, PARAMS).values == (1,)


@pytest.mark.parametrize("scheme", ["black", "white", "blue-red"])
@pytest.mark.parametrize("width", [140, 150])
def test_a_one_on_a_die_150_px_wide_is_read(scheme: str, width: int) -> None:
    # The one's pip of a die 150 px wide is about 43 px across in a 640×480 frame, past the
    # largest pip area for the frame (``max_pip_area_fraction``): it was no pip, and the die
    # was missed (synthetic seeds 8193 and 9480: black ones 164 and 139 px wide, red pips).
    frame = draw([DrawnDie(300, 230, width, 1, 20.0, scheme, pip_scale=1.6)])
    assert read(frame, ReaderParams(use_classifier=False)).values == (1,)
    assert read(frame, PARAMS).values == (1,)


@pytest.mark.parametrize("scheme", ["white", "red"])
def test_a_one_with_a_large_pip_is_read(scheme: str) -> None:
    frame = draw([DrawnDie(320, 240, 60, 1, 30.0, scheme, pip_scale=1.6)])
    assert read(frame, PARAMS).values == (1,)


@pytest.mark.parametrize(
    ("scheme", "width", "angle"),
    [("black", 40, 20.0), ("white", 52, 30.0), ("black", 80, 45.0), ("white", 80, 20.0)],
)
def test_a_six_whose_column_pips_touch_is_read(scheme: str, width: int, angle: float) -> None:
    # Pips this large touch along the columns of a six: the threshold runs each column into one
    # long blob, which is no pip; it is cut at its narrow places.
    die = DrawnDie(320, 240, width, 6, angle, scheme, pip_scale=1.45)
    assert read(draw([die]), ReaderParams(use_classifier=False)).values == (6,)


def test_a_column_of_touching_pips_in_a_blob_split_again_is_cut_into_pips() -> None:
    # A small white six seen whole as one light blob: thresholded again inside, each column of
    # three touching pips is one long dark part, cut at its narrow places into three pips.
    frame = np.full((80, 80, 3), 128, np.uint8)
    cv2.rectangle(frame, (26, 26), (53, 53), (235, 235, 235), -1)
    for x in (33.5, 46.5):
        for y in (32.0, 39.5, 47.0):
            centre = (round(16 * x), round(16 * y))
            cv2.circle(frame, centre, 48, (40, 40, 40), -1, cv2.LINE_AA, 4)
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    gray = to_gray(frame)
    outline = np.array([[[26, 26]], [[53, 26]], [[53, 53]], [[26, 53]]], dtype=np.int32)
    darker, _ = blobs_module._split(gray, frame, outline, 1.0, PARAMS)
    assert sorted((round(b[0]), round(b[1])) for b in darker) == [
        (34, 32),
        (34, 40),
        (34, 47),
        (46, 32),
        (46, 40),
        (46, 47),
    ]


def test_a_one_far_larger_than_the_pips_of_the_dice_read_is_no_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A whole die seen as one blob beside three dice, taken for the pip of a one 150 px wide: it
    # passed for the top of the dice beside it, and their faces were dropped as its sides.
    frame = draw(
        [
            DrawnDie(200.0, 200.0, 40.0, 4, 0.0, "white"),
            DrawnDie(260.0, 200.0, 40.0, 5, 0.0, "white"),
            DrawnDie(320.0, 200.0, 40.0, 6, 20.0, "white"),
        ]
    )
    smooth = np.asarray(cv2.GaussianBlur(frame, (3, 3), 0), dtype=np.uint8)
    pips = find_pips(frame, to_gray(frame), PARAMS)
    blob = Pip(260.0, 250.0, 30.0, True, 120.0, 0.95, 1.0, ROUND, (200.0, 200.0, 200.0), 200.0)
    step = 5.0 * blob.diameter / PARAMS.die_width_per_spacing
    one = Face(blob.x, blob.y, (step, 0.0), (0.0, step), (len(pips),), 1, 150.0, 0.95)
    monkeypatch.setattr(faces_module, "find_ones", lambda *_: [one])

    def values(params: ReaderParams) -> list[int | None]:
        found = find_faces((*pips, blob), planes_of(smooth), smooth, params)
        return sorted(f.value or 0 for f in found)

    assert values(PARAMS) == [4, 5, 6]
    assert values(replace(PARAMS, largest_relative_one_size=100.0)) == [1]


def _two_over_its_five(share: float) -> np.ndarray:
    """A white two whose five's other three pips show through the die, ``share`` as dark."""
    frame = blank()
    draw_die(frame, DrawnDie(320, 240, 80, 2))
    face, pip = SCHEMES["white"]
    faint = tuple(round((1.0 - share) * f + share * p) for f, p in zip(face, pip, strict=True))
    for gx, gy in ((1, -1), (0, 0), (-1, 1)):
        centre = (round(320 + gx * 0.27 * 80), round(240 + gy * 0.27 * 80))
        cv2.circle(frame, centre, round(0.09 * 80), faint, -1, cv2.LINE_AA)
    return np.asarray(cv2.GaussianBlur(frame, (3, 3), 0), dtype=np.uint8)


def test_pips_seen_faintly_through_a_translucent_die_are_not_counted() -> None:
    frame = _two_over_its_five(0.25)
    pips = find_pips(frame, to_gray(frame), PARAMS)
    smooth = np.asarray(cv2.GaussianBlur(frame, (3, 3), 0), dtype=np.uint8)
    faces = find_faces(pips, planes_of(smooth), smooth, PARAMS)
    assert [f.value for f in faces] == [2]
    assert len(pips) == 5  # the faint pips are found, and left out of the face
    assert values_at(frame) == [2]


@pytest.mark.parametrize("scheme", ["white", "red", "black", "blue"])
@pytest.mark.parametrize("share", [0.2, 0.25])
def test_a_one_seen_through_to_its_six_is_a_one(scheme: str, share: float) -> None:
    # A translucent one shows its six faintly around its pip: the pip and the two faint ones
    # in line with it fitted a three (the classifier read the one there, but not always: the
    # wine ones of synthetic seeds 3913 and 5499 were missed, their faint pips about them).
    frame = blank()
    draw_die(frame, DrawnDie(320, 240, 80, 1, 0.0, scheme))
    face, pip = SCHEMES[scheme]
    faint = tuple(round((1.0 - share) * f + share * p) for f, p in zip(face, pip, strict=True))
    for gx, gy in PIP_LAYOUT[6]:
        centre = (round(320 - gx * 0.27 * 80), round(240 + gy * 0.27 * 80))
        cv2.circle(frame, centre, round(0.09 * 80), faint, -1, cv2.LINE_AA)
    frame = np.asarray(cv2.GaussianBlur(frame, (3, 3), 0), dtype=np.uint8)
    assert read(frame, ReaderParams(use_classifier=False)).values == (1,)
    assert values_at(frame) == [1]


@pytest.mark.parametrize("scheme", ["white", "red", "black", "blue"])
def test_a_faint_spot_beside_a_one_s_pip_does_not_hide_the_one(scheme: str) -> None:
    # A swirl of a marbled one, a quarter as dark as its pip and 22 px off it: the pip had a
    # neighbour of its kind, and the two were an unread die (synthetic seed 6691).
    frame = blank()
    draw_die(frame, DrawnDie(320, 240, 80, 1, 0.0, scheme))
    face, pip = SCHEMES[scheme]
    faint = tuple(round(0.75 * f + 0.25 * p) for f, p in zip(face, pip, strict=True))
    cv2.circle(frame, (336, 224), 7, faint, -1, cv2.LINE_AA)
    frame = np.asarray(cv2.GaussianBlur(frame, (3, 3), 0), dtype=np.uint8)
    assert read(frame, ReaderParams(use_classifier=False)).values == (1,)


def test_pips_as_dark_as_the_others_of_their_face_are_counted() -> None:
    frame = _two_over_its_five(0.6)
    assert values_at(frame) == [5]


def test_the_faint_pip_share_is_checked() -> None:
    with pytest.raises(InvalidParams, match="ghost_pip_contrast"):
        ReaderParams(ghost_pip_contrast=1.2)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(0, 255), min_size=16, max_size=16), min_size=1, max_size=8))
def test_ring_levels_are_the_median_and_quartiles(rows: list[list[int]]) -> None:
    ring = np.array(rows, dtype=np.float32)
    median, q25, q75 = pips_module._ring_levels(np.sort(ring, axis=1))
    assert np.array_equal(median, np.median(ring, axis=1))
    assert np.array_equal(q25, np.percentile(ring, 25.0, axis=1))
    assert np.array_equal(q75, np.percentile(ring, 75.0, axis=1))


def test_lines_are_not_thresholded_again_for_pips(monkeypatch: pytest.MonkeyPatch) -> None:
    # Wood grain and scratches make thin dark lines and long stripes under the threshold: they
    # hold no pips, and thresholding each again inside cost most of the pip stages on a grained
    # tray. A dark die seen whole as one blob is still split into its pips.
    frame = np.full((480, 640, 3), 200, np.uint8)
    bent = np.array([(20, 20), (30, 45), (42, 24)], np.int32)
    cv2.polylines(frame, [bent], False, (90, 90, 90), 1)  # a line one pixel wide
    cv2.line(frame, (60, 30), (90, 34), (90, 90, 90), 3)  # a stripe ten times as long as wide
    corners = cv2.boxPoints(((145.0, 65.0), (30.0, 30.0), 20.0))
    cv2.fillPoly(frame, [np.round(corners).astype(np.int32)], (40, 40, 40))  # a dark die ...
    for x, y in ((139, 59), (151, 71)):
        cv2.circle(frame, (x, y), 3, (230, 230, 230), -1)  # ... showing a two
    gray = to_gray(frame)
    split: list[tuple[int, int]] = []
    real_split = blobs_module._split

    def recording(*args: Any) -> Any:
        split.append(cv2.boundingRect(args[2])[:2])
        return real_split(*args)

    monkeypatch.setattr(blobs_module, "_split", recording)
    _, light = blobs_module.level_blobs(gray, 1.0, gray, frame, PARAMS)
    assert (126, 46) in split  # the die
    assert (20, 20) not in split and (58, 28) not in split  # the line and the stripe
    assert {(round(b[0]), round(b[1])) for b in light} == {(139, 59), (151, 71)}
