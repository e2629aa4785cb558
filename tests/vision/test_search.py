"""The search for the dice no face explains: the widths looked at around pips, ones, specks."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.stand_in import (
    PARAMS,
    blank_pyramid,
    classify_by_place,
    face_at,
    pip_at,
    stand_in,
    verdict_of,
)
from vision import search as search_module
from vision.classify import Verdict
from vision.crops import Pyramid, die_crop, pyramid_of
from vision.face import Face
from vision.looks import Candidate
from vision.pips import Pip
from vision.render import TrayStyle, render_tray
from vision.verify import verify


def test_a_die_no_face_explains_is_found_from_one_of_its_pips() -> None:
    for seed, value in ((21, 6), (22, 3), (23, 5)):
        tray = render_tray([value, 2], seed=seed)
        missed, read = tray.dice
        corner = (missed.center[0] + 0.25 * missed.size_px, missed.center[1] + 0.2 * missed.size_px)
        pips = (pip_at(*corner, 0.17 * missed.size_px),)
        faces = verify(
            pyramid_of(tray.frame), pips, [face_at(*read.center, read.size_px, 2)], PARAMS
        )
        assert len(faces) == 2, faces
        found = faces[1]
        assert (
            math.hypot(found.x - missed.center[0], found.y - missed.center[1])
            < 0.2 * missed.size_px
        )
        assert found.value == value


def test_a_die_seen_as_one_blob_is_looked_for_at_the_blob_s_width() -> None:
    # A dark die whose pips did not show is one blob, far larger than a pip: read as a pip it
    # would give a die five times too wide.
    for seed, value in ((31, 4), (32, 2), (33, 6)):
        tray = render_tray([value], seed=seed)
        die = tray.dice[0]
        blob = pip_at(*die.center, die.size_px / PARAMS.die_width_per_blob)
        faces = verify(pyramid_of(tray.frame), (blob,), [], PARAMS)
        assert [f.value for f in faces] == [value], (seed, faces)
        assert (
            math.hypot(faces[0].x - die.center[0], faces[0].y - die.center[1]) < 0.2 * die.size_px
        )


def test_a_pip_far_from_the_frame_s_pip_size_is_searched_at_the_width_it_tells() -> None:
    # With no face kept, the frame's die width is a guess from the pip sizes; here two large
    # blobs on the empty tray make it three times too wide, and the die is found at the width
    # its own pip tells.
    tray = render_tray([3], seed=35)
    die = tray.dice[0]
    far_x = 60.0 if die.center[0] > 320 else 580.0
    blobs = tuple(pip_at(far_x, y, 0.5 * die.size_px) for y in (100.0, 380.0))
    corner = (die.center[0] + 0.25 * die.size_px, die.center[1] - 0.25 * die.size_px)
    pips = (pip_at(*corner, die.size_px / PARAMS.die_width_per_pip), *blobs)
    faces = verify(pyramid_of(tray.frame), pips, [], PARAMS)
    assert [f.value for f in faces] == [3], faces
    assert math.hypot(faces[0].x - die.center[0], faces[0].y - die.center[1]) < 0.2 * die.size_px


def test_with_no_die_read_a_round_pip_is_looked_at_as_the_pip_of_a_one() -> None:
    # A one's pip is larger than the others' (about a quarter of its die): with no die read and
    # two screw heads on the tray telling the pip size, the widths a pip tells are all too wide
    # for the one; looked at as a one's pip, where it is, the one is read.
    for seed in (71, 72, 73, 74):
        tray = render_tray([1], seed=seed)
        die = tray.dice[0]
        far_x = 60.0 if die.center[0] > 320 else 580.0
        screws = tuple(pip_at(far_x, y, 0.5 * die.size_px) for y in (100.0, 380.0))
        pips = (pip_at(*die.center, 0.24 * die.size_px), *screws)
        faces = verify(pyramid_of(tray.frame), pips, [], PARAMS)
        assert [f.value for f in faces] == [1], (seed, faces)
        assert (
            math.hypot(faces[0].x - die.center[0], faces[0].y - die.center[1]) < 0.2 * die.size_px
        )


def test_with_no_die_read_only_a_one_is_kept_from_a_look_at_a_pip_as_a_one_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two specks of dust on a plain tray, each looked at as the pip of a one 22 px wide, were a
    # two to the classifier (synthetic seed 6830).
    pip = pip_at(250.0, 200.0, 5.0)
    as_a_one = search_module.ONE_PER_PIP * pip.diameter
    for value, read in ((2, []), (1, [1])):

        def verdict(x: float, y: float, width: float, value: int = value) -> Verdict:
            if abs(width - as_a_one) < 0.5 and math.hypot(x - pip.x, y - pip.y) < 1.0:
                return verdict_of(none=0.05, **{f"v{value}": 0.95})
            return verdict_of(none=0.98, v1=0.02)

        classify_by_place(monkeypatch, verdict)
        assert [f.value for f in verify(blank_pyramid(), (pip,), [], PARAMS)] == read, value


def test_a_die_seen_as_one_blob_smaller_than_a_die_is_looked_for_at_the_frame_s_width() -> None:
    # The pips of a small die ran together into one blob narrower than the die: read as a
    # pip it tells a die six times too wide, read as a whole die one too narrow.
    for seed, value in ((41, 6), (42, 4), (43, 5)):
        tray = render_tray([value, 2], seed=seed)
        missed, read = tray.dice
        blob = pip_at(*missed.center, 0.6 * missed.size_px)
        faces = verify(
            pyramid_of(tray.frame), (blob,), [face_at(*read.center, read.size_px, 2)], PARAMS
        )
        assert sorted(f.value for f in faces) == sorted([value, 2]), (seed, faces)


def test_a_glare_spot_left_of_a_large_die_s_pip_is_looked_for_at_the_frame_s_width() -> None:
    # A glossy pip of a large die whose glare lies a little off its centre is taken for a dark
    # die holding its one, and only the glare spot stays: a speck under a twentieth of the die.
    for seed in (1, 2, 3):
        tray = render_tray([2, 5], seed=seed, style=replace(TrayStyle(), die_size=(130.0, 140.0)))
        two, five = tray.dice
        step = 0.18 * two.size_px
        spot = pip_at(two.center[0] + step, two.center[1] - step, 0.045 * five.size_px)
        faces = verify(
            pyramid_of(tray.frame), (spot,), [face_at(*five.center, five.size_px, 5)], PARAMS
        )
        assert sorted(f.value for f in faces) == [2, 5], (seed, faces)


def test_with_no_die_read_a_pip_is_also_looked_for_at_a_narrower_width() -> None:
    # With no die read, the frame's die width is a guess from the pip sizes; a die whose pips
    # are large for its size (a quarter of it across) would be looked for nearly one and a half
    # times too wide.
    for seed, value in ((51, 4), (52, 2), (53, 6), (54, 5), (55, 3), (56, 1)):
        tray = render_tray([value], seed=seed)
        die = tray.dice[0]
        corner = (die.center[0] + 0.25 * die.size_px, die.center[1] + 0.25 * die.size_px)
        pips = (pip_at(*corner, 0.25 * die.size_px),)
        faces = verify(pyramid_of(tray.frame), pips, [], PARAMS)
        assert [f.value for f in faces] == [value], (seed, faces)
        assert (
            math.hypot(faces[0].x - die.center[0], faces[0].y - die.center[1]) < 0.2 * die.size_px
        )


def _looks_made(
    monkeypatch: pytest.MonkeyPatch, pyramid: Pyramid, faces: list[Face], pips: tuple[Pip, ...]
) -> list[tuple[float, float, float]]:
    """The centre (x, y) and die width of every crop the classifier is given while ``verify``
    reads the frame."""
    looks: list[tuple[float, float, float]] = []

    def recording_crop(
        pyramid: Pyramid, center: tuple[float, float], width: float, angle: float = 0.0
    ) -> np.ndarray:
        looks.append((center[0], center[1], width))
        return die_crop(pyramid, center, width, angle)

    stand_in(monkeypatch, "die_crop", recording_crop)
    verify(pyramid, pips, faces, PARAMS)
    return looks


def _widths_looked_at(
    monkeypatch: pytest.MonkeyPatch, pyramid: Pyramid, faces: list[Face], pip: Pip
) -> list[float]:
    """The die widths of every crop the classifier is given while ``verify`` reads the frame."""
    return [width for _, _, width in _looks_made(monkeypatch, pyramid, faces, (pip,))]


def _widths_around_a_far_blob(
    monkeypatch: pytest.MonkeyPatch, diameter: float
) -> tuple[list[float], list[float]]:
    """The die widths looked at on a tray with two dice read 40 px wide and a blob ``diameter``
    across away from them: with both dice read, and with the first alone."""
    tray = render_tray([2, 3], seed=61)
    faces = [face_at(*d.center, 40.0, d.value) for d in tray.dice]
    far = (20.0 if tray.dice[0].center[0] > 320 else 620.0, 240.0)
    blob = pip_at(*far, diameter)
    pyramid = pyramid_of(tray.frame)
    return (
        _widths_looked_at(monkeypatch, pyramid, faces, blob),
        _widths_looked_at(monkeypatch, pyramid, faces[:1], blob),
    )


def test_with_two_dice_read_no_die_is_looked_for_far_wider_than_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A blob half a die across, away from the dice: as a pip it would tell a die three dice wide.
    widths, with_one = _widths_around_a_far_blob(monkeypatch, 20.0)
    assert widths and max(widths) <= PARAMS.search_widest * 40.0
    # With one die read, the frame's width may be that die's mistake: the wide look is made.
    assert max(with_one) >= 3.0 * 40.0


def test_a_pip_beside_a_blob_looked_around_is_looked_around_at_its_own_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The blob of a whole die (and its shadow) 65 px across, with the pip of its one 5 px off its
    # centre: the blob is looked around as a die of its own size, the pip at the frame's width.
    tray = render_tray([2, 3], seed=61)
    faces = [face_at(*d.center, 40.0, d.value) for d in tray.dice]
    far = (60.0 if tray.dice[0].center[0] > 320 else 580.0, 240.0)
    pips = (pip_at(*far, 65.0), pip_at(far[0] + 4.0, far[1] + 3.0, 7.0))
    looks = _looks_made(monkeypatch, pyramid_of(tray.frame), faces, pips)
    there = [w for x, y, w in looks if math.hypot(x - far[0], y - far[1]) < 10.0]
    assert any(w == pytest.approx(65.0) for w in there), there
    assert any(w == pytest.approx(40.0) for w in there), there


def test_with_two_dice_read_no_die_is_looked_for_far_narrower_than_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A blob 16 px across, away from the dice: it may be a die of its own, 16 px wide.
    widths, with_one = _widths_around_a_far_blob(monkeypatch, 16.0)
    assert widths and min(widths) >= PARAMS.search_narrowest * 40.0
    assert min(with_one) == pytest.approx(16.0)


def test_a_die_read_around_a_speck_on_a_plain_tray_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A classifier that sees a 5 everywhere: a speck of dust gives no die, a die showing 5 does.
    five = verdict_of(none=0.02, v5=0.98)
    stand_in(monkeypatch, "classify", lambda crops: [five] * len(crops))
    plain = np.full((240, 320, 3), 170, dtype=np.uint8)
    cv2.circle(plain, (160, 120), 1, (60, 60, 60), -1)
    assert verify(pyramid_of(plain), (pip_at(160.0, 120.0, 4.0),), [], PARAMS) == []
    tray = render_tray([5], seed=71)
    die = tray.dice[0]
    pip = pip_at(*die.center, 0.15 * die.size_px)
    found = verify(pyramid_of(tray.frame), (pip,), [], PARAMS)
    assert any(
        f.value == 5 and math.hypot(f.x - die.center[0], f.y - die.center[1]) < 0.2 * die.size_px
        for f in found
    ), found


def _speck_on_a_plain_tray_and_on_a_die(radius: int) -> tuple[np.ndarray, np.ndarray]:
    """A dark spot of ``radius`` px at (160, 120), on a plain tray and on a light die 46 px
    wide that stands out from it."""
    plain = np.full((240, 320, 3), 170, dtype=np.uint8)
    lit = cv2.rectangle(plain.copy(), (137, 97), (183, 143), (235, 235, 235), -1)
    for frame in (plain, lit):
        cv2.circle(frame, (160, 120), radius, (60, 60, 60), -1)
    return plain, lit


def test_a_lone_pip_at_the_centre_of_a_die_read_as_a_five_is_a_speck_unless_it_stands_out() -> None:
    # Synthetic seeds 2145, 2412, 5139, 9284: a speck on a plain tray, looked around at the
    # frame's width, was a sure five to the classifier. A small six whose pips ran together
    # into one blob near its centre is a die, and so is a five on a die that stands out.
    plain, lit = _speck_on_a_plain_tray_and_on_a_die(6)
    speck = (pip_at(160.0, 120.0, 12.0),)

    def is_speck(frame: np.ndarray, pips: tuple[Pip, ...], value: int) -> bool:
        die = face_at(162.0, 121.0, 45.0, value)
        return search_module._a_speck_read_as_pips(frame, pips, die, [], PARAMS)

    assert is_speck(plain, speck, 5) and is_speck(plain, speck, 3)
    assert not is_speck(plain, speck, 6)
    assert not is_speck(lit, speck, 5)
    assert not is_speck(plain, (*speck, pip_at(172.0, 109.0, 12.0)), 5)


def test_a_one_read_off_a_lone_speck_s_centre_and_unsurely_is_a_speck() -> None:
    # Synthetic seeds 6894, 8088, 2139: a speck on a plain tray; the first look moved off it,
    # and the classifier saw a one about it there (a die 0.83-0.91). A one's pip lies at its
    # die's centre; read surely, or on a die that stands out, it is a one.
    plain, lit = _speck_on_a_plain_tray_and_on_a_die(4)
    speck = (pip_at(160.0, 120.0, 8.0),)

    def is_speck(frame: np.ndarray, x: float, value: int, confidence: float) -> bool:
        die = replace(face_at(x, 121.0, 45.0, value), confidence=confidence)
        return search_module._a_speck_read_as_a_one(frame, speck, die, [], PARAMS)

    assert is_speck(plain, 165.0, 1, 0.88)
    assert not is_speck(plain, 165.0, 1, 0.97)
    assert not is_speck(plain, 160.5, 1, 0.88)
    assert not is_speck(lit, 165.0, 1, 0.88)
    assert not is_speck(plain, 165.0, 2, 0.88)


def test_a_lone_pip_like_the_pips_of_the_dice_read_on_a_die_as_wide_is_no_speck() -> None:
    # Synthetic seed 6104: a smoky three 26 px wide whose other pips faded into its die, beside
    # smoky dice 20-25 px wide with pips like its, was dropped as a speck read as pips. Seed
    # 9284: a speck read as a five half as wide as the dice read is still a speck.
    plain, _ = _speck_on_a_plain_tray_and_on_a_die(6)
    cv2.circle(plain, (60, 120), 6, (60, 60, 60), -1)
    pips = (pip_at(160.0, 120.0, 12.0), pip_at(60.0, 120.0, 12.0))
    five = face_at(162.0, 121.0, 45.0, 5)
    one = replace(face_at(167.0, 121.0, 45.0, 1), confidence=0.88)  # off its lone pip

    def is_speck(die: Face, read_width: float) -> bool:
        read = [face_at(60.0, 120.0, read_width, 1)]
        if die.value == 1:
            return search_module._a_speck_read_as_a_one(plain, pips, die, read, PARAMS)
        return search_module._a_speck_read_as_pips(plain, pips, die, read, PARAMS)

    for die in (five, one):
        assert not is_speck(die, 45.0)
        assert not is_speck(die, 56.0)
        assert is_speck(die, 90.0)


def test_a_pip_a_little_too_elongated_is_looked_around_only_far_from_the_dice_and_surely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Swirled dice's pips are drawn unevenly (synthetic seeds 136, 1653, 2822, 9435), and a
    # die's side pips, seen obliquely, lie beside it: a pip more elongated than the search looks
    # around is looked around far from every die read, and a die found there must be sure (a
    # keyboard key's lit symbol was a one read 0.92: matteop65-wood four_9).
    width = 40.0
    round_pips = tuple(pip_at(100.0 + 10.0 * k, 200.0, 8.0) for k in range(3))
    five = replace(face_at(110.0, 200.0, width, 5), pips=(0, 1, 2))
    most = search_module._most_elongated(round_pips, [five], PARAMS)

    def found(x: float, elongation: float, sure: float) -> list[tuple[int | None, int]]:
        streak = replace(pip_at(x, 200.0, 8.0), elongation=elongation)
        classify_by_place(monkeypatch, lambda *_: verdict_of(v2=sure, none=1.0 - sure))
        dice = search_module._streaks(
            blank_pyramid(), (*round_pips, streak), [five], [], width, PARAMS
        )
        return [(d.value, round(d.x)) for d in dice]

    assert found(300.0, most + 0.15, 0.98) == [(2, 300)]
    assert found(300.0, most + 0.15, 0.9) == []
    assert found(300.0, most + 0.3, 0.98) == []  # far too elongated
    assert found(300.0, most - 0.05, 0.98) == []  # the search looks around it already
    assert found(110.0 + 0.9 * width, most + 0.15, 0.98) == []  # beside the five


def test_a_look_that_found_no_die_near_a_pip_like_the_dice_read_s_is_moved_again() -> None:
    # A first crop around a corner pip of a six may point only half way to its centre
    # (synthetic seed 9305): where it points again, from near a pip like those of the dice
    # read, and far enough, the die is looked at again.
    frame = blank_pyramid()[0]
    held, stray = pip_at(100.0, 100.0, 8.0), pip_at(300.0, 300.0, 8.0)
    dice = [face_at(100.0, 100.0, 40.0, 1)]

    def moved(
        offset: tuple[float, float], none: float = 0.9, pip: Pip = stray
    ) -> list[tuple[float, float, float]]:
        verdict = Verdict((none, 1.0 - none, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), offset)
        looked = [(Candidate(300.0, 300.0, 40.0, None), verdict)]
        again = search_module._moved_again(frame, (held, pip), looked, dice, PARAMS)
        return [(c.x, c.y, c.width) for c in again]

    assert moved((0.0, -0.3)) == [(300.0, 288.0, 40.0)]
    assert moved((0.0, -0.1)) == []  # it stays
    assert moved((0.0, -0.3), none=0.1) == []  # a die was found there
    assert moved((0.0, -0.3), pip=replace(stray, is_dark=False)) == []  # unlike the dice read's


def test_a_die_found_shows_its_pips_in_grey_or_in_a_colour_channel() -> None:
    # Red pips on a smoky red die have the grey level of its face (synthetic seeds 1724, 4375:
    # sure fours and sixes were dropped as specks read as pips); the red channel shows them. A
    # plain die read as a four shows none.
    plain = np.full((200, 200, 3), 120, dtype=np.uint8)
    cv2.rectangle(plain, (80, 80), (119, 119), (40, 40, 90), -1)
    dotted = plain.copy()
    for dx, dy in ((-10, -10), (10, -10), (-10, 10), (10, 10)):
        cv2.circle(dotted, (100 + dx, 100 + dy), 4, (20, 10, 160), -1)
    grey = cv2.cvtColor(dotted, cv2.COLOR_BGR2GRAY)
    assert abs(int(grey[90, 90]) - int(grey[100, 100])) < PARAMS.min_pip_contrast
    four = face_at(100.0, 100.0, 40.0, 4)
    assert search_module._shows_its_pips(dotted, four, PARAMS)
    assert not search_module._shows_its_pips(plain, four, PARAMS)


def test_a_die_found_half_out_of_the_frame_that_does_not_stand_out_is_a_speck() -> None:
    # Synthetic seeds 420, 522, 2680, 5868: specks near a tray's corner, their crops filled out
    # from the frame's edge, were read as twos. A die that stands out there is kept.
    plain = np.full((240, 320, 3), 170, dtype=np.uint8)
    lit = cv2.rectangle(plain.copy(), (0, 97), (37, 143), (235, 235, 235), -1)

    def is_cut(frame: np.ndarray, x: float) -> bool:
        die = face_at(x, 120.0, 45.0, 2)
        return search_module._cut_by_the_frame(frame, die, PARAMS)

    assert is_cut(plain, 15.0) and is_cut(plain, 305.0)
    assert not is_cut(plain, 30.0)
    assert not is_cut(lit, 15.0)


def test_a_one_the_classifier_is_unsure_of_is_found_when_its_die_stands_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A stray 6 px pip, dice 36 px wide (six times it): the classifier leans to a one there but
    # gives a die only 0.75, under accept_probability. On a die lighter than the tray it is a
    # one; alone on the plain tray it is a speck. A two so unsure is not found either way.
    pips = (pip_at(160.0, 120.0, 6.0),)

    def leaning_to(value: int) -> Callable[[float, float, float], Verdict]:
        def verdict(x: float, y: float, width: float) -> Verdict:
            if math.hypot(x - 160.0, y - 120.0) < 1.0 and width == pytest.approx(36.0):
                return verdict_of(none=0.25, **{f"v{value}": 0.75})
            return verdict_of(none=0.98, v1=0.02)

        return verdict

    plain = np.full((240, 320, 3), 90, dtype=np.uint8)
    die = cv2.rectangle(plain.copy(), (142, 102), (178, 138), (200, 200, 200), -1)
    classify_by_place(monkeypatch, leaning_to(1))
    assert verify(pyramid_of(plain), pips, [], PARAMS) == []
    found = verify(pyramid_of(die), pips, [], PARAMS)
    assert [(d.x, d.y, d.value) for d in found] == [(160.0, 120.0, 1)]
    classify_by_place(monkeypatch, leaning_to(2))
    assert verify(pyramid_of(die), pips, [], PARAMS) == []


def test_a_blob_up_to_two_dice_across_is_looked_for_as_a_die_of_the_frame_s_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A dark die 22 px wide run together with its shadow into one 35 px blob: looked for as a
    # die 35 px wide (its own) or 210 px (a pip of one), it is none.
    blank = np.full((240, 480, 3), 128, dtype=np.uint8)  # nothing stands out
    pips = (pip_at(300.0, 120.0, 35.0),)
    read_die = face_at(100.0, 100.0, 22.0, 4)

    def verdict(x: float, y: float, width: float) -> Verdict:
        if math.hypot(x - 100.0, y - 100.0) < 3.0:
            return verdict_of(none=0.01, v4=0.99)
        if math.hypot(x - 300.0, y - 120.0) < 3.0 and width == pytest.approx(22.0):
            return verdict_of(none=0.01, v2=0.99)
        return verdict_of(none=0.98, v1=0.02)

    classify_by_place(monkeypatch, verdict)
    dice = verify(pyramid_of(blank), pips, [read_die], PARAMS)
    assert [(d.x, d.y, d.value) for d in dice] == [(100.0, 100.0, 4), (300.0, 120.0, 2)]


def _doubted_at_the_frame_s_width(
    monkeypatch: pytest.MonkeyPatch, pyramid: Pyramid, doubted: Verdict, narrower: Verdict
) -> list[tuple[float, float, int | None]]:
    """The dice found in ``pyramid`` besides a four read 60 px wide at (100, 100), when the
    classifier gives ``doubted`` around a stray 12 px pip at (300, 200) looked for at that width,
    and ``narrower`` there looked at 40-55 px wide. (A one's pip 12 px across is a die about as
    wide as the frame's: it is not looked at narrower for that, `_narrower_ones`.)"""
    read_die = face_at(100.0, 100.0, 60.0, 4)

    def verdict(x: float, y: float, width: float) -> Verdict:
        if math.hypot(x - 100.0, y - 100.0) < 3.0:
            return verdict_of(none=0.01, v4=0.99)
        if math.hypot(x - 300.0, y - 200.0) < 1.0 and width >= 55.0:
            return doubted
        if math.hypot(x - 300.0, y - 200.0) < 1.0 and width >= 40.0:
            return narrower
        return verdict_of(none=0.98, v1=0.02)

    classify_by_place(monkeypatch, verdict)
    dice = verify(pyramid, (pip_at(300.0, 200.0, 12.0),), [read_die], PARAMS)
    assert dice[0].value == 4
    return [(d.x, d.y, d.value) for d in dice[1:]]


def test_a_one_the_classifier_doubts_is_looked_at_again_narrower(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Looked for at the frame's width, the classifier leans to a one but gives a die only 0.5;
    # looked at again 0.7 as wide, it is sure, even where nothing stands out (a black one on a
    # dark tray). A look leaning to a two so unsure, or to a one under 0.22, is not looked at
    # narrower; nor is a one kept that is read as another value there.
    blank = blank_pyramid()
    sure_one = verdict_of(none=0.01, v1=0.99)
    doubted_one = verdict_of(none=0.5, v1=0.4, v2=0.1)
    assert _doubted_at_the_frame_s_width(monkeypatch, blank, doubted_one, sure_one) == [
        (300.0, 200.0, 1)
    ]
    for doubted in (verdict_of(none=0.5, v2=0.4, v1=0.1), verdict_of(none=0.85, v1=0.15)):
        assert _doubted_at_the_frame_s_width(monkeypatch, blank, doubted, sure_one) == []
    sure_two = verdict_of(none=0.01, v2=0.99)
    assert _doubted_at_the_frame_s_width(monkeypatch, blank, doubted_one, sure_two) == []


def test_a_one_s_pip_whose_first_look_points_away_is_looked_at_where_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Beside a four read 60 px wide, a stray pip of a one's size: the first crop on it points a
    # third of a die away (to a die beside it, as crops of a black one on a dark tray did:
    # synthetic seeds 6844, 8437), where there is none. Looked at where it is, it is a sure one;
    # a pip too small for a one's, or a look there that reads another value, finds nothing.
    read_die = face_at(100.0, 100.0, 60.0, 4)

    def at_the_pip(**probabilities: float) -> Callable[[float, float, float], Verdict]:
        def verdict(x: float, y: float, width: float) -> Verdict:
            if math.hypot(x - 100.0, y - 100.0) < 3.0:
                return verdict_of(none=0.01, v4=0.99)
            if math.hypot(x - 300.0, y - 200.0) < 1.0:
                return Verdict(verdict_of(**probabilities).probabilities, (0.0, 0.3))
            return verdict_of(none=0.98, v1=0.02)

        return verdict

    def found(diameter: float) -> list[tuple[float, float, int | None]]:
        pips = (pip_at(300.0, 200.0, diameter),)
        dice = verify(blank_pyramid(), pips, [read_die], PARAMS)
        return [(d.x, d.y, d.value) for d in dice[1:]]

    classify_by_place(monkeypatch, at_the_pip(none=0.05, v1=0.95))
    assert found(10.0) == [(300.0, 200.0, 1)]
    assert found(4.0) == []
    classify_by_place(monkeypatch, at_the_pip(none=0.05, v2=0.95))
    assert found(10.0) == []


def test_a_one_s_pip_where_no_die_was_found_is_looked_at_as_narrow_as_it_tells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Beside a four read 45 px wide, a stray pip 7 px across: a one 31.5 px wide
    # (`ONE_PER_PIP`). Looked for at 45 px there is no die; at 28-36 px the classifier is sure
    # of a one (synthetic seed 7496). Where the look at 45 px read a die with a value, that die
    # stays, though the narrower look is surer (matteop65-wood dice_38 at --scale 1.5).
    read_die = face_at(100.0, 100.0, 45.0, 4)

    def narrow_one(at_45: Verdict) -> Callable[[float, float, float], Verdict]:
        def verdict(x: float, y: float, width: float) -> Verdict:
            if math.hypot(x - 100.0, y - 100.0) < 3.0:
                return verdict_of(none=0.01, v4=0.99)
            if math.hypot(x - 300.0, y - 200.0) < 1.0 and 28.0 <= width <= 36.0:
                return verdict_of(none=0.01, v1=0.99)
            if math.hypot(x - 300.0, y - 200.0) < 1.0 and width >= 44.0:
                return at_45
            return verdict_of(none=0.98, v1=0.02)

        return verdict

    def found() -> list[tuple[float, float, int | None, float]]:
        dice = verify(blank_pyramid(), (pip_at(300.0, 200.0, 7.0),), [read_die], PARAMS)
        return [(d.x, d.y, d.value, d.width) for d in dice[1:]]

    classify_by_place(monkeypatch, narrow_one(verdict_of(none=0.9, v1=0.1)))
    ((x, y, value, width),) = found()
    assert (x, y, value) == (300.0, 200.0, 1) and width < 40.0
    # Read a one at 45 px, less surely than at 31.5 px: it stays as wide as the four.
    classify_by_place(monkeypatch, narrow_one(verdict_of(none=0.02, v1=0.98)))
    assert found() == [(300.0, 200.0, 1, 45.0)]


def test_a_one_on_a_die_that_does_not_stand_out_is_read_where_its_pip_is_like_the_dice_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A black one on black felt shows only its pip. Beside a four read 60 px wide, a lone light
    # pip of a one's size, where the classifier leans to a one but gives a die only 0.75 (under
    # accept_probability): it is a one when it looks like the four's pips (white on a black
    # face), not when their pips are red (synthetic seeds 2443, 5453, 6191).
    four = [(90.0, 90.0), (110.0, 90.0), (90.0, 110.0), (110.0, 110.0)]

    def verdict(x: float, y: float, width: float) -> Verdict:
        if math.hypot(x - 100.0, y - 100.0) < 3.0:
            return verdict_of(none=0.01, v4=0.99)
        if math.hypot(x - 300.0, y - 200.0) < 1.0:
            return verdict_of(none=0.25, v1=0.7, v2=0.05)
        return verdict_of(none=0.98, v1=0.02)

    def found(their_pips: tuple[int, int, int]) -> list[tuple[float, float, int | None]]:
        frame = np.full((400, 500, 3), 45, dtype=np.uint8)
        for x, y in four:
            cv2.circle(frame, (round(x), round(y)), 4, their_pips, -1)
        cv2.circle(frame, (300, 200), 5, (235, 235, 235), -1)
        pips = tuple(
            replace(pip_at(x, y, d), is_dark=False, face_colour=(45.0, 45.0, 45.0), face_level=45.0)
            for x, y, d in [(300.0, 200.0, 10.0)] + [(x, y, 8.0) for x, y in four]
        )
        dice = verify(pyramid_of(frame), pips, [face_at(100.0, 100.0, 60.0, 4)], PARAMS)
        return [(d.x, d.y, d.value) for d in dice[1:]]

    classify_by_place(monkeypatch, verdict)
    assert found((235, 235, 235)) == [(300.0, 200.0, 1)]
    assert found((40, 40, 200)) == []


def test_a_die_found_narrower_may_show_more_pips_than_its_first_look_leaned_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A swirled five 21 px wide, looked at 29 px, leaned to a four; 0.7 as wide it was a five
    # (synthetic seed 8499): pips drop out of a look too wide, none are added. A look leaning
    # to a two that sees a sure one narrower saw a pip of the two alone (5149): no die.
    five = cv2.rectangle(
        np.full((400, 500, 3), 90, np.uint8), (279, 179), (321, 221), (200,) * 3, -1
    )
    for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
        cv2.circle(five, (300 + 11 * dx, 200 + 11 * dy), 4, (30, 30, 30), -1)
    die = pyramid_of(five)
    leaning_four = verdict_of(none=0.4, v4=0.5, v1=0.1)
    sure_five = verdict_of(none=0.01, v5=0.99)
    assert _doubted_at_the_frame_s_width(monkeypatch, die, leaning_four, sure_five) == [
        (300.0, 200.0, 5)
    ]
    leaning_two = verdict_of(none=0.4, v2=0.5, v1=0.1)
    sure_one = verdict_of(none=0.01, v1=0.99)
    assert _doubted_at_the_frame_s_width(monkeypatch, die, leaning_two, sure_one) == []


def test_a_die_of_another_value_found_narrower_must_stand_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The classifier leans to a two there at 0.6, and is sure of it 0.7 as wide: on a plain tray
    # (screw heads) it is no die; on a die lighter than the tray, 42 px wide, it is a two.
    plain = np.full((400, 500, 3), 90, dtype=np.uint8)
    die = cv2.rectangle(plain.copy(), (279, 179), (321, 221), (200, 200, 200), -1)
    doubted_two = verdict_of(none=0.4, v2=0.5, v1=0.1)
    sure_two = verdict_of(none=0.01, v2=0.99)
    assert (
        _doubted_at_the_frame_s_width(monkeypatch, pyramid_of(plain), doubted_two, sure_two) == []
    )
    assert _doubted_at_the_frame_s_width(monkeypatch, pyramid_of(die), doubted_two, sure_two) == [
        (300.0, 200.0, 2)
    ]
