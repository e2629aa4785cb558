"""Calibration (`vision.calibration`) on rendered trays of every style: the throwing area found
among clutter with a hand in the picture, the dice measured, each check failing on a frame made
to fail it and passing on a good one; and the reader using the area and the empty tray."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision
from tests.vision.calibration_scenes import (
    SIZE,
    STYLES,
    CalibrationScene,
    boundary_distance,
    on_table,
    rendered,
    style_named,
)
from vision.calibration import (
    Calibration,
    calibrate,
    differs_from_empty,
    find_area,
)
from vision.render import TrayStyle, render_tray
from vision.types import Box, Frame

SEEDS = (0, 1, 2)
BOXES = ("felt-box", "wood-box", "plastic-box", "light-box")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", STYLES)
def test_the_area_is_the_tray_among_clutter_with_a_hand(name: str, seed: int) -> None:
    scene = on_table(style_named(name, seed), seed)
    area = find_area(scene.empty)
    assert area is not None
    assert boundary_distance(area, scene.floor) <= 7.0


@pytest.mark.parametrize("name", BOXES)
def test_the_area_of_a_box_filling_the_frame_is_its_floor(name: str) -> None:
    # The renderer's own box pictures: walls and a dark rim around the floor, a hand over it.
    # A wall of about the floor's colour hides the floor's edge: the wall's top is found then.
    distances = []
    for seed in range(4):
        scene = rendered(style_named(name, seed), seed, hand=True)
        area = find_area(scene.empty)
        assert area is not None
        distances.append(boundary_distance(area, scene.floor))
    assert max(distances) <= 25.0
    assert sorted(distances)[2] <= 8.0


def test_a_tray_filling_the_frame_is_the_whole_frame() -> None:
    scene = rendered(replace(TrayStyle(), clutter=0.0), 4, hand=True)
    area = find_area(scene.empty)
    assert area is not None
    w, h = SIZE
    assert boundary_distance(area, np.array([(0, 0), (w, 0), (w, h), (0, h)], float)) <= 3.0


def test_no_tray_in_the_dark_or_in_clutter() -> None:
    assert find_area(np.zeros((480, 640, 3), np.uint8)) is None
    rng = np.random.default_rng(5)
    busy = np.zeros((480, 640, 3), np.uint8)
    for _ in range(300):
        x, y = (int(v) for v in rng.integers(0, 640, 2))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        cv2.rectangle(busy, (x, y % 480), (x + 40, y % 480 + 30), colour, -1)
    assert find_area(busy) is None


# --- the checks ---------------------------------------------------------------------------------


def _calibrated(empty: Frame, throw: Frame) -> Calibration:
    area = find_area(empty)
    assert area is not None
    reading = vision.read(throw, vision.ReaderParams(roi=area))
    result = calibrate(empty, throw, reading)
    assert result is not None
    return result


def _failed(result: Calibration) -> set[str]:
    return {check.name for check in result.checks if not check.ok}


GOOD = (("table", 0), ("felt-box", 0), ("webcam-desk", 2))


@pytest.fixture(scope="module", params=GOOD, ids=[f"{n}-{s}" for n, s in GOOD])
def good(request: pytest.FixtureRequest) -> CalibrationScene:
    name, seed = request.param
    return on_table(style_named(name, seed), seed)


def test_a_good_picture_passes_every_check(good: CalibrationScene) -> None:
    result = _calibrated(good.empty, good.throw)
    assert _failed(result) == set()
    names = [check.name for check in result.checks]
    assert names == ["glare", "looking-down", "light", "focus", "dice-size"]
    assert all(check.advice and "\n" not in check.advice for check in result.checks)
    assert result.die_width_px is not None
    # The reader's boxes span 0.75 to 0.9 of a die's edge (up to 1.15 for the smallest dice).
    assert 0.6 * good.die_px <= result.die_width_px <= 1.2 * good.die_px


def test_too_dark(good: CalibrationScene) -> None:
    dark = (np.asarray(good.empty * 0.25, np.uint8), np.asarray(good.throw * 0.25, np.uint8))
    assert "light" in _failed(_calibrated(*dark))


def test_glare_spots(good: CalibrationScene) -> None:
    area = find_area(good.empty)
    assert area is not None
    cx, cy = np.array(area, float).mean(axis=0)
    empty, throw = good.empty.copy(), good.throw.copy()
    for frame in (empty, throw):
        for dx, dy in ((-90, -60), (70, -40), (10, 70)):
            cv2.ellipse(frame, (int(cx + dx), int(cy + dy)), (26, 16), 20, 0, 360, (255,) * 3, -1)
    assert _failed(_calibrated(empty, throw)) == {"glare"}


def test_out_of_focus(good: CalibrationScene) -> None:
    blurred = [cv2.GaussianBlur(frame, (0, 0), 3.0) for frame in (good.empty, good.throw)]
    assert "focus" in _failed(_calibrated(*blurred))


def test_camera_not_looking_down(good: CalibrationScene) -> None:
    w, h = SIZE
    source = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    target = np.float32([[0.22 * w, 0.1 * h], [0.78 * w, 0.1 * h], [w, h], [0, h]])
    warp = cv2.getPerspectiveTransform(source, target)
    oblique = [
        cv2.warpPerspective(f, warp, SIZE, borderMode=cv2.BORDER_REPLICATE)
        for f in (good.empty, good.throw)
    ]
    assert "looking-down" in _failed(_calibrated(*oblique))


@pytest.mark.parametrize("side", [20.0, 150.0])
def test_dice_too_small_or_too_large(side: float) -> None:
    style = TrayStyle(die_size=(side, side), clutter=0.0)
    empty = render_tray((), seed=3, style=style).frame
    throw = render_tray((1, 2, 3, 4, 5, 6), seed=3, style=style).frame
    result = _calibrated(empty, throw)
    assert _failed(result) == {"dice-size"}
    advice = next(c.advice for c in result.checks if c.name == "dice-size")
    assert ("too small" if side < 50 else "too large") in advice


def test_no_dice_in_the_test_throw(good: CalibrationScene) -> None:
    result = _calibrated(good.empty, good.empty)
    assert result.die_width_px is None
    assert "dice-size" in _failed(result)


# --- the reader with a calibration --------------------------------------------------------------


def test_the_reader_ignores_dice_outside_the_area() -> None:
    scene = on_table(style_named("felt-box", 0), 0, hand=False)
    area = find_area(scene.empty)
    assert area is not None
    throw = scene.throw.copy()
    # A die set aside on the table left of the tray, cut with its felt from a throw elsewhere.
    size = (scene.die_px, scene.die_px * 1.05)
    other = render_tray((5,), seed=8, style=TrayStyle(die_size=size, clutter=0.0))
    box = other.dice[0].box
    patch = other.frame[box.y - 6 : box.y + box.h + 6, box.x - 6 : box.x + box.w + 6]
    left = min(x for x, _ in area)
    assert left > patch.shape[1] + 4
    x, y = (left - patch.shape[1]) // 2, 240
    throw[y : y + patch.shape[0], x : x + patch.shape[1]] = patch
    everything = vision.read(throw)
    inside = vision.read(throw, vision.ReaderParams(roi=area))
    assert len(inside.dice) == 6
    assert len(everything.dice) == 7


def test_the_reader_drops_what_is_only_the_empty_tray() -> None:
    # A die printed on the tray (here: a die lying there when the empty tray was taken) is
    # never read once the empty tray is known; a die thrown beside it still is.
    style = TrayStyle(clutter=0.0)
    printed = render_tray((4,), seed=11, style=style)
    empty = printed.frame
    assert len(vision.read(empty).dice) == 1
    params = vision.ReaderParams(empty_tray=empty)
    assert vision.read(empty, params).dice == ()
    thrown = render_tray((2,), seed=12, style=style)
    box = thrown.dice[0].box
    throw = empty.copy()
    target = printed.dice[0].box
    x = 40 if target.x > 320 else 440
    y = 160
    throw[y : y + box.h + 12, x : x + box.w + 12] = thrown.frame[
        box.y - 6 : box.y + box.h + 6, box.x - 6 : box.x + box.w + 6
    ]
    reading = vision.read(throw, params)
    assert reading.values == (2,)
    assert len(vision.read(throw).dice) == 2


def test_differs_from_empty_sees_a_die_not_noise() -> None:
    tray = render_tray((3,), seed=2, style=TrayStyle(clutter=0.0))
    again = render_tray((3,), seed=2, style=replace(TrayStyle(clutter=0.0), noise=5.0))
    empty = render_tray((), seed=2, style=TrayStyle(clutter=0.0)).frame
    box = tray.dice[0].box
    assert differs_from_empty(tray.frame, empty, box)
    assert not differs_from_empty(again.frame, tray.frame, box)
    assert differs_from_empty(tray.frame, empty[:100], Box(0, 0, 10, 10))  # other sizes differ
