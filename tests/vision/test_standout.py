"""Places that stand out from the tray (vision.standout), where a die may lie."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.drawn import DrawnDie, blank, draw, draw_die
from vision import ReaderParams
from vision.crops import pyramid_of
from vision.standout import standing_out

PARAMS = ReaderParams()
WIDTH = 40.0
DARK_ON_TRAY = [
    DrawnDie(150, 120, WIDTH, 5, 20.0, "dark"),
    DrawnDie(420, 300, WIDTH, 3, 0.0, "dark"),
    DrawnDie(520, 90, WIDTH, 6, 45.0, "dark"),
]


def _never_taken(x: float, y: float) -> bool:
    return False


def _nearest(point: tuple[float, float], dice: list[DrawnDie]) -> float:
    return min(math.hypot(point[0] - d.x, point[1] - d.y) for d in dice)


def test_dice_whose_pips_do_not_show_stand_out_from_the_tray() -> None:
    frame = draw(DARK_ON_TRAY)
    points = standing_out(pyramid_of(frame), WIDTH, _never_taken, PARAMS)
    for die in DARK_ON_TRAY:
        assert any(math.hypot(x - die.x, y - die.y) < 0.3 * WIDTH for x, y in points), (die, points)
    assert all(_nearest(p, DARK_ON_TRAY) < 0.5 * WIDTH for p in points), points


@pytest.mark.parametrize(("step", "passes"), [(18, (22.5,)), (11, (22.5, 15.0))])
def test_a_die_differing_from_the_tray_faintly_is_proposed_after_those_differing_more(
    step: int, passes: tuple[float, ...]
) -> None:
    # A die 40 px wide whose face differs from the tray by ``step`` in each channel (a colour
    # distance of 31 or 19, under standout_colour: 45), beside a dark die; its pips did not
    # show. It is proposed after the dark die, not before it nor in its place, once the faint
    # colour distances looked at in turn come down to under its own, and not before.
    frame = blank()
    faint = (320, 240)
    tray = frame[faint[1], faint[0]].astype(int)
    cv2.rectangle(frame, (300, 220), (340, 260), [int(c) + step for c in tray], -1)
    draw_die(frame, DARK_ON_TRAY[0])
    pyramid = pyramid_of(cv2.GaussianBlur(frame, (3, 3), 0))
    dark = DARK_ON_TRAY[0]
    points = standing_out(pyramid, WIDTH, _never_taken, ReaderParams(standout_faint_colours=passes))
    assert len(points) == 2, points
    assert math.hypot(points[0][0] - dark.x, points[0][1] - dark.y) < 0.3 * WIDTH, points
    assert math.hypot(points[1][0] - faint[0], points[1][1] - faint[1]) < 0.3 * WIDTH, points
    fewer = ReaderParams(standout_faint_colours=passes[:-1])
    assert len(standing_out(pyramid, WIDTH, _never_taken, fewer)) == 1
    assert standing_out(pyramid, WIDTH, _never_taken, PARAMS) == points


def test_on_a_tray_whose_grain_differs_faintly_the_faint_places_are_not_looked_for() -> None:
    # The die of the test above (a colour distance of 31 from the tray) on a tray of coarse
    # grain (8 px cells, spread 10 grey levels), which differs from its colour by about 7 in the
    # median: faint places there are grain. The dark die is proposed alone.
    cells = np.random.default_rng(1).normal(0.0, 10.0, (60, 80)).astype(np.float32)
    grain = cv2.resize(cells, (640, 480), interpolation=cv2.INTER_NEAREST)
    frame = np.clip(blank().astype(np.float32) + grain[:, :, None], 0, 255).astype(np.uint8)
    tray = frame[240, 320].astype(int)
    cv2.rectangle(frame, (300, 220), (340, 260), [int(c) + 18 for c in tray], -1)
    draw_die(frame, DARK_ON_TRAY[0])
    points = standing_out(pyramid_of(frame), WIDTH, _never_taken, PARAMS)
    dark = DARK_ON_TRAY[0]
    assert len(points) == 1, points
    assert math.hypot(points[0][0] - dark.x, points[0][1] - dark.y) < 0.3 * WIDTH, points


def test_an_empty_tray_with_a_light_gradient_stands_out_nowhere() -> None:
    assert standing_out(pyramid_of(blank()), WIDTH, _never_taken, PARAMS) == []


def test_a_wall_larger_than_a_few_dice_is_no_die() -> None:
    die = DARK_ON_TRAY[1]
    frame = draw([die])
    cv2.rectangle(frame, (0, 380), (639, 430), (30, 30, 30), -1)  # a dark wall across the tray
    points = standing_out(pyramid_of(frame), WIDTH, _never_taken, PARAMS)
    assert points, "the die was not proposed"
    assert all(math.hypot(x - die.x, y - die.y) < 0.3 * WIDTH for x, y in points), points


def test_a_die_lying_against_a_cable_across_the_tray_is_proposed() -> None:
    # A dark cable 0.4 of a die wide runs across the tray, and a die 20 px wide lies against
    # it: the two make a part larger than a few dice, but the cable is thin and lets go of the
    # die (synthetic seeds 6871, 8419: sixes lying against a cable).
    die = DrawnDie(420, 300, 20.0, 3, 0.0, "dark")
    frame = draw([die])
    cv2.rectangle(frame, (0, 310), (639, 317), (30, 30, 30), -1)
    points = standing_out(pyramid_of(frame), die.width, _never_taken, PARAMS)
    assert any(math.hypot(x - die.x, y - die.y) < 0.3 * die.width for x, y in points), points


def test_what_stands_out_in_the_frames_corners_is_no_deeper_than_what_shows_of_it() -> None:
    # The light floor around a tray, seen in the frame's corners, smaller than a die: cut by the
    # frame's edge, it is not as deep as a die (synthetic seed 3275, where such corners took
    # every place proposed and a blue one 135 px wide with no pip found went unread).
    frame = draw(DARK_ON_TRAY)
    side = round(0.4 * WIDTH)
    for x, y in ((0, 0), (640 - side, 0), (0, 480 - side), (640 - side, 480 - side)):
        cv2.rectangle(frame, (x, y), (x + side - 1, y + side - 1), (240, 240, 240), -1)
    points = standing_out(pyramid_of(frame), WIDTH, _never_taken, PARAMS)
    assert all(_nearest(p, DARK_ON_TRAY) < 0.5 * WIDTH for p in points), points
    assert len(points) == len(DARK_ON_TRAY), points


def test_places_already_taken_are_not_proposed_nor_any_when_none_are_wanted() -> None:
    frame = draw(DARK_ON_TRAY)
    first = DARK_ON_TRAY[0]

    def near_first(x: float, y: float) -> bool:
        return math.hypot(x - first.x, y - first.y) < WIDTH

    points = standing_out(pyramid_of(frame), WIDTH, near_first, PARAMS)
    assert points
    assert all(not near_first(x, y) for x, y in points), points
    assert standing_out(pyramid_of(frame), WIDTH, _never_taken, ReaderParams(max_standouts=0)) == []


def test_a_pile_of_dice_too_large_for_a_die_falls_apart_without_the_dice_read() -> None:
    pile = [
        DrawnDie(150.0 + 43.0 * (k % 8), 200.0 + 43.0 * (k // 8), WIDTH, 1 + k % 6, 0.0, "dark")
        for k in range(16)
    ]
    pyramid = pyramid_of(draw(pile))
    # The tray's colour, a median over a few dice about each point, is darkened beside so dark
    # a pile: what differs from it faintly there is plain tray, proposed to no harm (the
    # classifier finds no die there), and beside the point of this test.
    params = ReaderParams(standout_faint_colours=())
    assert standing_out(pyramid, WIDTH, _never_taken, params) == []  # one part, 16 dice large
    unread = pile[5]
    read = [(d.x, d.y, WIDTH) for d in pile if d is not unread]
    points = standing_out(pyramid, WIDTH, _never_taken, params, read)
    assert points, "the die left unread was not proposed"
    assert all(math.hypot(x - unread.x, y - unread.y) < 0.3 * WIDTH for x, y in points), points
