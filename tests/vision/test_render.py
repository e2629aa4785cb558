"""The synthetic tray renderer: ground truth consistent with itself and with the pixels drawn."""

from __future__ import annotations

import dataclasses
import itertools
import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.render import (
    PRESETS,
    SCHEMES,
    InvalidRenderRequest,
    RenderedDie,
    RenderedTray,
    TrayStyle,
    render_edge_die,
    render_empty_tray,
    render_hand_pass,
    render_throw,
    render_tray,
    style_from_seed,
    style_like,
)
from vision.render.layout import overlaps, place_in_row
from vision.render.lens import distort_points, undistort_points
from vision.render.style import LOOK_ALIKE_SCHEMES

CLEAN = TrayStyle(
    die_size=(70.0, 80.0),
    background="felt",
    perspective=0.0,
    noise=0.0,
    blur=0.0,
    gloss=0.0,
    gradient=0.0,
    vignette=0.0,
    shadow=0.3,
    touching=0.0,
)


def top_face(die: RenderedDie, shrink: float = 0.0) -> np.ndarray:
    """A die's top face (4×2 image points), shrunk towards its centre by ``shrink``."""
    corners = np.array(die.top_corners)
    out: np.ndarray = corners + (np.array(die.center) - corners) * shrink
    return out


def count_pips(
    tray: RenderedTray,
    die: RenderedDie,
    pip: tuple[int, int, int],
    body: tuple[int, int, int],
    shrink: float = 0.12,
) -> int:
    """Count the blobs on a die's top face (shrunk by ``shrink``) whose colour is nearer the pip
    colour than the body's."""
    h, w = tray.frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(top_face(die, shrink)).astype(np.int32), 255)
    img = tray.frame.astype(np.float32)
    d_pip = np.linalg.norm(img - np.array(pip, np.float32), axis=2)
    d_body = np.linalg.norm(img - np.array(body, np.float32), axis=2)
    blobs = ((d_pip < d_body) & (mask > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(blobs)
    min_area = (die.size_px * 0.05) ** 2
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area)


@given(
    values=st.lists(st.integers(1, 6), min_size=0, max_size=8),
    seed=st.integers(0, 2**31 - 1),
    side=st.floats(20.0, 150.0),
)
@settings(max_examples=25, deadline=None)
def test_ground_truth_is_consistent(values: list[int], seed: int, side: float) -> None:
    # Dice of one size (as in one set): their top faces are at one height, so in the image they
    # never overlap (a taller die may hide a corner of a smaller one, as in real life).
    style = dataclasses.replace(style_from_seed(seed), die_size=(side, side))
    tray = render_tray(values, seed=seed, style=style)
    assert tray.frame.shape == (480, 640, 3)
    assert tray.frame.dtype == np.uint8
    assert tray.values == tuple(values)
    for die in tray.dice:
        b = die.box
        assert b.x >= 0 and b.y >= 0 and b.x + b.w <= 640 and b.y + b.h <= 480
        assert b.x <= die.center[0] <= b.x + b.w and b.y <= die.center[1] <= b.y + b.h
        assert 0 <= die.angle < 90
        assert not die.is_moving and not die.is_covered
    for die in tray.dice:
        assert len(die.top_corners) == 4
        assert np.allclose(np.mean(die.top_corners, axis=0), die.center)
    # The lens bends the faces' edges; the corners joined by straight lines are the faces only
    # as the camera sees them before it (near the frame's corners, two dice 140 px wide lying
    # edge to edge overlapped by a pixel as straight-edged quads).
    size = (640, 480)
    faces = [
        [
            (float(x), float(y))
            for x, y in undistort_points(np.array(d.top_corners), size, style.lens)
        ]
        for d in tray.dice
    ]
    for i, first in enumerate(faces):
        for second in faces[i + 1 :]:
            assert not overlaps(first, second, tolerance=0.5), "two dice overlap"


def test_undistort_points_undoes_distort_points() -> None:
    points = np.array([[0.0, 0.0], [10.0, 20.0], [319.5, 239.5], [600.0, 400.0], [639.0, 479.0]])
    for k in (0.0, 0.05, 0.2):
        bent = distort_points(points, (640, 480), k)
        if k:
            assert not np.allclose(bent[1:2], points[1:2])
        assert np.allclose(undistort_points(bent, (640, 480), k), points)


def test_same_seed_same_image_other_seed_other_image() -> None:
    a = render_tray([1, 5, 6], seed=7)
    b = render_tray([1, 5, 6], seed=7)
    c = render_tray([1, 5, 6], seed=8)
    assert np.array_equal(a.frame, b.frame) and a.dice == b.dice
    assert not np.array_equal(a.frame, c.frame)


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_every_face_on_every_scheme_shows_its_pips(scheme: str) -> None:
    style = dataclasses.replace(CLEAN, schemes=(scheme,))
    tray = render_tray([1, 2, 3, 4, 5, 6], seed=11, style=style)
    colors = SCHEMES[scheme]
    counts = [count_pips(tray, d, colors.pip, colors.body) for d in tray.dice]
    assert counts == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("size", [(20.0, 20.0), (150.0, 150.0)])
def test_die_sizes_at_both_ends_of_the_range(size: tuple[float, float]) -> None:
    style = dataclasses.replace(CLEAN, die_size=size, perspective=0.0)
    tray = render_tray([2, 3, 6], seed=3, style=style)
    for die in tray.dice:
        assert die.size_px == pytest.approx(size[0], rel=0.08)
        # The die is drawn: its box differs from the empty tray with the same seed.
    empty = render_empty_tray(seed=3, style=style)
    for die in tray.dice:
        b = die.box
        diff = np.abs(
            tray.frame[b.y : b.y + b.h, b.x : b.x + b.w].astype(int)
            - empty.frame[b.y : b.y + b.h, b.x : b.x + b.w]
        )
        assert diff.mean() > 10


def test_cocked_die_has_no_value() -> None:
    tray = render_tray([4, None, 2], seed=5)
    assert tray.values == (4, None, 2)


def test_empty_tray_has_no_dice() -> None:
    tray = render_empty_tray(seed=1)
    assert tray.dice == () and tray.frame.shape == (480, 640, 3)


def test_styles_from_seeds_vary() -> None:
    styles = {style_from_seed(s) for s in range(30)}
    assert len({s.background for s in styles}) >= 3
    assert len({s.schemes for s in styles}) >= 5


@pytest.mark.parametrize("values", [[0], [7], [True], [1.5]])
def test_bad_values_are_refused(values: list[object]) -> None:
    with pytest.raises(InvalidRenderRequest, match="1-6"):
        render_tray(values, seed=0)  # type: ignore[arg-type]


def test_bad_style_is_refused() -> None:
    with pytest.raises(InvalidRenderRequest, match="die_size"):
        TrayStyle(die_size=(10.0, 30.0))
    with pytest.raises(InvalidRenderRequest, match="schemes"):
        TrayStyle(schemes=("plaid",))


def test_throw_comes_to_rest_as_render_tray_draws_it() -> None:
    frames = render_throw([2, 5, 6], seed=17, moving_frames=5, still_frames=3, hand=True)
    assert len(frames) == 8
    rest = render_tray([2, 5, 6], seed=17)
    assert all(d.is_moving for f in frames[:5] for d in f.dice)
    assert any(f.hand_visible for f in frames[:5])
    for still in frames[5:]:
        assert still.dice == rest.dice and not still.hand_visible
    assert np.array_equal(frames[5].frame, rest.frame)
    # Between still frames only the sensor noise changes: small, zero-mean differences.
    diff = frames[6].frame.astype(int) - frames[7].frame.astype(int)
    assert diff.any() and abs(diff.mean()) < 1.0 and np.percentile(np.abs(diff), 99) < 40
    # While tumbling, the dice move from frame to frame.
    moved = [
        math.dist(a.center, b.center) for a, b in zip(frames[0].dice, frames[1].dice, strict=True)
    ]
    assert max(moved) > 5


def test_hand_pass_covers_dice_and_leaves_them_where_they_were() -> None:
    values = [1, 2, 3, 4]
    frames = render_hand_pass(values, seed=8, frames=7)
    rest = render_tray(values, seed=8)
    assert any(f.hand_visible for f in frames)
    for f in frames:
        assert [d.center for d in f.dice] == [d.center for d in rest.dice]
    middle = frames[len(frames) // 2]
    assert middle.hand_visible


@pytest.mark.parametrize("seed", range(4))
def test_box_walls_keep_the_dice_on_the_floor(seed: int) -> None:
    style = dataclasses.replace(style_from_seed(seed), walls=True)
    tray = render_tray([1, 3, 5, 2, 4], seed=seed, style=style)
    floor = np.array(tray.floor, np.float32)
    assert len(floor) == 4
    for die in tray.dice:
        assert cv2.pointPolygonTest(floor, die.center, False) > 0


def test_dice_placed_in_a_row_lie_edge_to_edge_in_a_line() -> None:
    sides = [40.0, 50.0, 45.0, 40.0]
    row = place_in_row(sides, (0.0, 0.0, 640.0, 480.0), np.random.default_rng(3))
    assert row is not None
    assert [spot.side for spot in row] == sides
    assert len({spot.angle for spot in row}) == 1
    for before, after in itertools.pairwise(row):
        assert not before.overlaps(after)
        gap = math.hypot(after.x - before.x, after.y - before.y) - (before.side + after.side) / 2
        assert 0.0 < gap < 0.1
        heading = math.atan2(after.y - before.y, after.x - before.x)
        assert math.isclose(heading, row[0].angle, abs_tol=1e-9)


def test_a_row_that_cannot_fit_is_not_placed() -> None:
    assert place_in_row([60.0, 60.0], (0.0, 0.0, 80.0, 80.0), np.random.default_rng(0)) is None


@pytest.mark.parametrize("seed", range(3))
def test_a_tray_in_a_row_draws_its_dice_side_by_side(seed: int) -> None:
    style = dataclasses.replace(style_from_seed(seed), in_a_row=True)
    tray = render_tray([3, 5, 2, 6], seed=seed, style=style)
    assert [d.value for d in tray.dice] == [3, 5, 2, 6]
    for before, after in itertools.pairwise(tray.dice):
        # Neighbours' centres lie about a die apart (the camera's perspective aside).
        apart = math.hypot(after.center[0] - before.center[0], after.center[1] - before.center[1])
        assert 0.85 < apart / (0.5 * (before.size_px + after.size_px)) < 1.2


@pytest.mark.parametrize("preset", PRESETS)
def test_look_alike_presets_render(preset: str) -> None:
    style = style_like(preset, 3)
    tray = render_tray([6, 6, 1], seed=3, size=(640, 640), style=style)
    assert tray.values == (6, 6, 1)
    with pytest.raises(InvalidRenderRequest, match="preset"):
        style_like("studio", 3)


@pytest.mark.parametrize("seed", range(8))
def test_a_felt_tray_is_coloured_felt_seen_from_a_tilted_phone_with_its_own_dice(seed: int) -> None:
    style = style_like("felt-tray", seed)
    assert style.background == "felt" and 5 <= style.camera_tilt <= 35
    assert set(style.schemes) & set(LOOK_ALIKE_SCHEMES)
    assert not set(LOOK_ALIKE_SCHEMES) & set(style_from_seed(seed).schemes)
    tray = render_tray([1, 2, 3, 4, 5, 6], seed=seed, size=(640, 640), style=style)
    assert tray.values == (1, 2, 3, 4, 5, 6)
    assert {d.scheme for d in tray.dice} <= set(style.schemes)


def test_sequences_refuse_bad_frame_counts() -> None:
    with pytest.raises(InvalidRenderRequest, match="moving_frames"):
        render_throw([1], seed=0, moving_frames=-1)
    with pytest.raises(InvalidRenderRequest, match="frames"):
        render_hand_pass([1], seed=0, frames=0)


def test_dice_too_big_for_the_frame_are_drawn_smaller() -> None:
    style = dataclasses.replace(CLEAN, die_size=(150.0, 150.0))
    tray = render_tray([1, 2, 3, 4, 5, 6, 1, 2], seed=2, size=(320, 240), style=style)
    assert tray.values == (1, 2, 3, 4, 5, 6, 1, 2)
    assert all(d.size_px < 100 for d in tray.dice)
    faces = [d.top_corners for d in tray.dice]
    for i, first in enumerate(faces):
        for second in faces[i + 1 :]:
            assert not overlaps(first, second, tolerance=0.5)


@pytest.mark.parametrize("seed", range(6))
def test_random_styles_fit_small_frames(seed: int) -> None:
    tray = render_tray([6, 5, 4, 3, 2, 1], seed=seed, size=(320, 240))
    assert tray.frame.shape == (240, 320, 3) and len(tray.dice) == 6


@pytest.mark.parametrize("seed", range(4))
def test_edge_die_is_partly_out_of_view_and_unreadable(seed: int) -> None:
    tray = render_edge_die(4, seed=seed)
    (die,) = tray.dice
    assert die.value is None
    b = die.box
    assert b.x == 0 or b.y == 0 or b.x + b.w == 640 or b.y + b.h == 480
    assert 0 <= die.center[0] <= 640 and 0 <= die.center[1] <= 480
    empty = render_empty_tray(seed=seed, style=tray.style)
    patch = (slice(b.y, b.y + b.h), slice(b.x, b.x + b.w))
    assert np.abs(tray.frame[patch].astype(int) - empty.frame[patch]).mean() > 10


def test_lens_distortion_moves_the_ground_truth_with_the_pixels() -> None:
    plain = dataclasses.replace(CLEAN, schemes=("white",), die_size=(60.0, 60.0))
    bent = dataclasses.replace(plain, lens=0.25)
    straight = render_tray([1, 2, 3, 4, 5, 6], seed=4, style=plain)
    tray = render_tray([1, 2, 3, 4, 5, 6], seed=4, style=bent)
    colors = SCHEMES["white"]
    assert [count_pips(tray, d, colors.pip, colors.body) for d in tray.dice] == [1, 2, 3, 4, 5, 6]
    # Barrel distortion pushes everything but the centre outwards, within the frame.
    middle = np.array([320, 240])
    for a, b in zip(straight.dice, tray.dice, strict=True):
        assert math.dist(b.center, middle) > math.dist(a.center, middle)
        assert (
            b.box.x >= 0 and b.box.y >= 0 and b.box.x + b.box.w <= 640 and b.box.y + b.box.h <= 480
        )


@pytest.mark.parametrize("preset", ["phone-box", "webcam-desk"])
def test_throws_given_one_room_seed_share_the_tray_and_camera(preset: str) -> None:
    style = style_like(preset, 3)

    def empty(seed: int, room: int | None) -> np.ndarray:
        frame = render_throw(
            [], seed=seed, moving_frames=0, still_frames=1, style=style, room_seed=room
        )[-1].frame
        return np.asarray(frame, np.float32)

    def apart(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.mean(np.abs(a - b)))

    shared = apart(empty(1, room=7), empty(2, room=7))
    own = apart(empty(1, room=None), empty(2, room=None))
    assert shared < 4.0 < own  # sensor noise only, against another camera, tray and light
    dice = render_throw([3, 5], seed=2, moving_frames=0, still_frames=1, style=style, room_seed=7)
    assert [d.value for d in dice[-1].dice] == [3, 5]
