"""The renderer's oblique camera (`TrayStyle.camera_tilt`) and the "oblique-table" preset: top and
side faces in true perspective, near dice larger, labels on the top face as rune55 draws them."""

from __future__ import annotations

import dataclasses
import itertools

import cv2
import numpy as np
import pytest

from tests.vision.test_render import count_pips
from vision.evaluation import rendered_labels
from vision.render import (
    SCHEMES,
    InvalidRenderRequest,
    RenderedDie,
    RenderedTray,
    TrayStyle,
    render_edge_die,
    render_throw,
    render_tray,
    style_from_seed,
    style_like,
)
from vision.render.core import tilted_camera
from vision.render.die import Camera

# A white die on dark felt, nothing else: the die's pixels are the bright ones.
PLAIN = TrayStyle(
    die_size=(60.0, 60.0),
    background="felt",
    background_color=(40, 60, 30),
    perspective=1.0,
    noise=0.0,
    blur=0.0,
    gloss=0.0,
    gradient=0.0,
    vignette=0.0,
    shadow=0.3,
    touching=0.0,
    clutter=0.0,
)


def area(quad: np.ndarray) -> float:
    """The area of a polygon (K×2 points in order)."""
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def bright(tray: RenderedTray) -> np.ndarray:
    """Where the frame shows the white die (not the dark felt)."""
    grey = cv2.cvtColor(tray.frame, cv2.COLOR_BGR2GRAY)
    mask: np.ndarray = grey > 110
    return mask


def outside_top_face(tray: RenderedTray, die: RenderedDie) -> np.ndarray:
    """Pixels of the die's box that do not lie on its top face."""
    h, w = tray.frame.shape[:2]
    face = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(face, np.round(np.array(die.top_corners)).astype(np.int32), 255)
    face = cv2.dilate(face, np.ones((3, 3), np.uint8))
    box = np.zeros((h, w), bool)
    b = die.box
    box[b.y : b.y + b.h, b.x : b.x + b.w] = True
    out: np.ndarray = box & (face == 0)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_tilted_die_shows_its_side_faces_below_its_top_face(seed: int) -> None:
    style = dataclasses.replace(PLAIN, camera_tilt=50.0, camera_azimuth=90.0)
    tray = render_tray([5], seed=seed, style=style)
    (die,) = tray.dice
    top = np.array(die.top_corners)
    face_height = float(top[:, 1].max() - top[:, 1].min())
    # The camera stands at the bottom of the picture: the faces turned to it show below the top.
    assert die.box.h > 1.3 * face_height
    assert die.box.y + die.box.h > top[:, 1].max() + 0.25 * die.size_px
    assert abs(die.box.y - top[:, 1].min()) < 0.15 * die.size_px
    # And they are drawn: die-coloured pixels outside the top face, in its box.
    side = int((bright(tray) & outside_top_face(tray, die)).sum())
    face_area = area(top)
    assert side > 0.3 * face_area
    # The top face is still the one whose pips the ground truth gives (away from its edges, where
    # the rounded edges and a side face seen edge-on overlap its sharp outline).
    assert count_pips(tray, die, SCHEMES["white"].pip, SCHEMES["white"].body, 0.25) == 5


def test_an_overhead_die_shows_no_side_faces() -> None:
    """The check above, on the overhead camera: it would pass a renderer ignoring the tilt."""
    tray = render_tray([5], seed=1, style=dataclasses.replace(PLAIN, perspective=0.0))
    (die,) = tray.dice
    top = np.array(die.top_corners)
    face_area = area(top)
    assert int((bright(tray) & outside_top_face(tray, die)).sum()) < 0.1 * face_area


@pytest.mark.parametrize(("azimuth", "axis"), [(90.0, 1), (0.0, 0), (270.0, 1)])
def test_near_dice_look_larger_than_far_ones(azimuth: float, axis: int) -> None:
    style = dataclasses.replace(
        PLAIN, die_size=(30.0, 30.0), camera_tilt=55.0, camera_azimuth=azimuth
    )
    tray = render_tray([1, 2, 3, 4, 5, 6, 1, 2], seed=4, style=style)
    # Towards the camera's side of the picture (+y for 90, +x for 0, -y for 270).
    sign = -1.0 if azimuth == 270.0 else 1.0
    by_nearness = sorted(tray.dice, key=lambda d: sign * d.center[axis])
    far, near = by_nearness[0], by_nearness[-1]
    assert near.size_px > 1.2 * far.size_px
    sizes = [d.size_px for d in by_nearness]
    nearer_larger = sum(b > a for a, b in itertools.pairwise(sizes))
    assert nearer_larger >= len(sizes) - 2


def test_a_tilt_near_zero_is_the_overhead_camera() -> None:
    points = np.array([[100.0, 50.0, 0.0], [300.0, 400.0, 30.0], [640.0, 0.0, 10.0]])
    overhead = Camera(900.0, (320.0, 240.0), np.eye(3))
    almost = tilted_camera(900.0, (640, 480), 1e-9, 90.0)
    assert np.allclose(overhead.project(points), almost.project(points), atol=1e-4)
    assert np.allclose(overhead.eye(), almost.eye())
    assert overhead.on_screen(30.0, (1.0, 2.0, 15.0)) == pytest.approx(
        almost.on_screen(30.0, (1.0, 2.0, 15.0)), abs=1e-6
    )
    # Tilted, the camera looks at the tray point under the frame centre, focal length away.
    tilted = tilted_camera(900.0, (640, 480), 40.0, 90.0)
    assert np.allclose(tilted.project(np.array([[320.0, 240.0, 0.0]])), [[320.0, 240.0]])
    assert np.linalg.norm(tilted.eye() - np.array([320.0, 240.0, 0.0])) == pytest.approx(900.0)
    assert tilted.eye()[1] > 240.0  # standing at the bottom of the picture
    ground = tilted.ground(np.array([[10.0, 20.0], [600.0, 470.0]]), 1e6)
    again = tilted.project(np.c_[ground, np.zeros(2)])
    assert np.allclose(again, [[10.0, 20.0], [600.0, 470.0]], atol=1e-6)


def test_default_style_is_the_overhead_camera() -> None:
    style = style_from_seed(12)
    assert style.camera_tilt == 0.0
    explicit = dataclasses.replace(style, camera_tilt=0.0, camera_azimuth=33.0)
    a = render_tray([2, 4, 6], seed=12, style=style)
    b = render_tray([2, 4, 6], seed=12, style=explicit)
    assert np.array_equal(a.frame, b.frame)
    assert all(d.face_bounds is None for d in a.dice)


@pytest.mark.parametrize("seed", range(6))
def test_oblique_labels_hold_the_top_face_inside_the_silhouette(seed: int) -> None:
    style = style_like("oblique-table", seed)
    tray = render_tray([1, 2, 3, 4, 5], seed=seed, size=(640, 640), style=style)
    labels = rendered_labels(tray.dice)
    for die, label in zip(tray.dice, labels, strict=True):
        assert label.value == die.value
        b = die.box
        # Inside the die's whole outline (side faces included; the label measures the sharp
        # cube's face, a little beyond the rounded edges), centred on the top face.
        slack = 1.0 + 0.08 * die.size_px
        assert b.x - slack <= label.x_min < label.x_max <= b.x + b.w + slack
        assert b.y - slack <= label.y_min < label.y_max <= b.y + b.h + slack
        assert label.center == pytest.approx(die.center)
        # As wide and tall as the top face looks: within its corners' reach, and the side
        # faces left out (the outline is bigger than the label in the tilt direction).
        top = np.array(die.top_corners)
        assert top[:, 0].min() - 0.5 <= label.x_min and label.x_max <= top[:, 0].max() + 0.5
        assert top[:, 1].min() - 0.5 <= label.y_min and label.y_max <= top[:, 1].max() + 0.5
        assert (label.x_max - label.x_min) * (label.y_max - label.y_min) < 0.8 * b.w * b.h


def test_an_oblique_top_face_is_labelled_foreshortened() -> None:
    style = dataclasses.replace(PLAIN, camera_tilt=55.0, camera_azimuth=90.0)
    for seed in range(3):
        (label,) = rendered_labels(render_tray([3], seed=seed, style=style).dice)
        assert label.y_max - label.y_min < 0.8 * (label.x_max - label.x_min)
    (flat,) = render_tray([3], seed=0, style=dataclasses.replace(PLAIN, perspective=0.0)).dice
    (square,) = rendered_labels([flat])
    assert square.x_max - square.x_min == pytest.approx(flat.size_px)
    assert square.y_max - square.y_min == pytest.approx(flat.size_px)


def test_oblique_preset_looks_like_rune55_oblique_tables() -> None:
    tilts, sizes, touching = [], [], 0
    for seed in range(12):
        style = style_like("oblique-table", seed)
        assert 25.0 <= style.camera_tilt <= 60.0 and not style.walls
        assert min(style.background_color) >= 170  # a white or light grey table
        tray = render_tray([1, 2, 3, 4, 5], seed=seed, size=(640, 480), style=style)
        assert tray.values == (1, 2, 3, 4, 5)
        tilts.append(style.camera_tilt)
        sizes += [d.size_px for d in tray.dice]
        boxes = [d.box for d in tray.dice]
        touching += any(
            a.x <= b.x + b.w and b.x <= a.x + a.w and a.y <= b.y + b.h and b.y <= a.y + a.h
            for i, a in enumerate(boxes)
            for b in boxes[i + 1 :]
        )
    assert max(tilts) - min(tilts) > 15.0
    assert min(sizes) >= 8.0 and max(sizes) <= 45.0
    assert 12 <= np.median(sizes) <= 32
    assert touching >= 6  # most trays have a small heap


def test_oblique_renders_are_a_pure_function_of_the_seed() -> None:
    def draw(seed: int) -> RenderedTray:
        return render_tray([6, 5, 4], seed=seed, style=style_like("oblique-table", seed))

    a, b, c = draw(21), draw(21), draw(22)
    assert np.array_equal(a.frame, b.frame) and a.dice == b.dice
    assert not np.array_equal(a.frame, c.frame)


def test_oblique_throws_and_edge_dice_render() -> None:
    style = style_like("oblique-table", 5)
    frames = render_throw([2, 3], seed=5, moving_frames=3, still_frames=2, style=style)
    assert frames[-1].values == (2, 3)
    assert frames[-1].dice == render_tray([2, 3], seed=5, style=style).dice
    edge = render_edge_die(4, seed=5, style=style)
    (die,) = edge.dice
    assert die.value is None
    b = die.box
    assert b.x <= 0 or b.y <= 0 or b.x + b.w >= 640 or b.y + b.h >= 480


def test_bad_tilts_are_refused() -> None:
    with pytest.raises(InvalidRenderRequest, match="camera_tilt"):
        TrayStyle(camera_tilt=75.0)
    with pytest.raises(InvalidRenderRequest, match="camera_tilt"):
        TrayStyle(camera_tilt=-5.0)
    with pytest.raises(InvalidRenderRequest, match="walls"):
        TrayStyle(camera_tilt=30.0, walls=True)
    with pytest.raises(InvalidRenderRequest, match="camera_azimuth"):
        TrayStyle(camera_tilt=30.0, camera_azimuth=float("nan"))


def test_oblique_dice_spread_over_the_picture_not_the_far_side() -> None:
    """An oblique camera sees far more tray far away than near: dice placed evenly on the tray
    would crowd the far side of the picture."""
    thirds = np.zeros(3)
    for seed in range(40):
        style = dataclasses.replace(
            style_like("oblique-table", seed), camera_tilt=55.0, camera_azimuth=90.0, touching=0.0
        )
        tray = render_tray([1, 2, 3], seed=seed, size=(640, 480), style=style)
        for die in tray.dice:
            thirds[min(int(die.center[1] / 160), 2)] += 1
    share = thirds / thirds.sum()
    assert share[2] > 0.18 and share[0] < 0.45
