"""The classifier stage: faces re-read, faces that are not dice dropped, dice found around pips."""

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
from vision import verify as verify_module
from vision.classify import Verdict
from vision.crops import Pyramid, die_crop, pyramid_of
from vision.errors import InvalidParams
from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip, find_pips, to_gray
from vision.reader import read
from vision.render import TrayStyle, render_tray
from vision.verify import verify
from vision.widths import die_width, true_width


def test_a_miscounted_face_gets_the_value_the_classifier_sees() -> None:
    tray = render_tray([5, 2], seed=11)
    wrong = [face_at(*d.center, d.size_px, 1 if d.value != 1 else 2) for d in tray.dice]
    faces = verify(pyramid_of(tray.frame), (), wrong, PARAMS)
    assert sorted(f.value for f in faces) == sorted(d.value for d in tray.dice)


def test_a_face_where_there_is_no_die_is_dropped() -> None:
    tray = render_tray([4], seed=12)
    die = tray.dice[0]
    far = (die.center[0] + 150.0 if die.center[0] < 320 else die.center[0] - 150.0, die.center[1])
    faces = [face_at(*die.center, die.size_px, 4), face_at(*far, die.size_px, 1)]
    kept = verify(pyramid_of(tray.frame), (), faces, PARAMS)
    assert [(f.x, f.y) for f in kept] == [die.center]


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


def test_classifier_thresholds_must_be_probabilities() -> None:
    with pytest.raises(InvalidParams, match="accept_probability"):
        ReaderParams(accept_probability=1.5)
    with pytest.raises(InvalidParams, match="pip_die_probability"):
        ReaderParams(pip_die_probability=-0.1)
    with pytest.raises(InvalidParams, match="max_searches"):
        ReaderParams(max_searches=-1)
    with pytest.raises(InvalidParams, match="die_width_per_blob"):
        ReaderParams(die_width_per_blob=0.0)
    with pytest.raises(InvalidParams, match="guessed_width_narrower"):
        ReaderParams(guessed_width_narrower=-0.7)
    with pytest.raises(InvalidParams, match="face_turns"):
        ReaderParams(face_turns=0)
    with pytest.raises(InvalidParams, match="search_pip_fraction"):
        ReaderParams(search_pip_fraction=0.5)
    with pytest.raises(InvalidParams, match="search_narrowest"):
        ReaderParams(search_narrowest=3.0)
    with pytest.raises(InvalidParams, match="doubted_value_share"):
        ReaderParams(doubted_value_share=-0.1)
    with pytest.raises(InvalidParams, match="search_value_widths"):
        ReaderParams(search_value_widths=(0.85, 0.0))
    with pytest.raises(InvalidParams, match="one_accept_probability"):
        ReaderParams(one_accept_probability=1.5)


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


def test_a_face_the_classifier_rejects_does_not_set_the_die_width() -> None:
    # Two screw heads of the tray read as a huge two: the die found from a pip must be looked
    # for at the width its pip tells, not at the rejected face's.
    tray = render_tray([5], seed=34)
    die = tray.dice[0]
    far_x = 40.0 if die.center[0] > 320 else 600.0
    screws = face_at(far_x, 240.0, 6.0 * die.size_px, 2)
    corner = (die.center[0] + 0.25 * die.size_px, die.center[1] + 0.25 * die.size_px)
    pips = (pip_at(*corner, 0.17 * die.size_px),)
    faces = verify(pyramid_of(tray.frame), pips, [screws], PARAMS)
    assert [f.value for f in faces] == [5], faces


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


def test_an_unread_die_does_not_set_the_die_width_when_a_die_was_read() -> None:
    # An unread die's width is a guess from its pips; one die read tells it better.
    faces = [
        face_at(100.0, 100.0, 40.0, 3),
        *(face_at(300.0, y, 100.0, None) for y in (100.0, 300.0)),
    ]
    assert die_width((), faces, PARAMS) == pytest.approx(40.0)
    assert die_width((), faces[1:], PARAMS) == pytest.approx(100.0)


def test_faces_of_several_pips_tell_the_die_width_unless_ones_outnumber_them() -> None:
    # A one's width is a guess from its pip: a speck taken for a one beside a five made the
    # median of the two, fitting neither. Five ones outvote a glyph taken for a small two.
    five, speck = face_at(100.0, 100.0, 127.0, 5), face_at(300.0, 100.0, 26.0, 1)
    assert die_width((), [five, speck], PARAMS) == pytest.approx(127.0)
    ones = [face_at(100.0 * k, 300.0, 40.0, 1) for k in range(1, 6)]
    assert die_width((), [*ones, face_at(20.0, 90.0, 17.0, 2)], PARAMS) == pytest.approx(40.0)


def test_a_large_one_is_found_beside_a_five_and_a_speck_taken_for_a_one() -> None:
    # Both dice about 125 px wide; a speck on the tray is read as a small one first.
    tray = render_tray([5, 1], seed=1501)
    assert sorted(d.value for d in read(tray.frame).dice) == [1, 5]


def test_two_ones_are_not_read_as_one_two_much_wider_than_the_other_dice() -> None:
    # The pips of two ones side by side fit the grid of a two far wider than the five; read at
    # its own width the classifier took it for a two, read at the five's it finds no die there.
    tray = render_tray([1, 5, 1], seed=251)
    assert sorted(d.value for d in read(tray.frame).dice) == [1, 1, 5]


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


class _Scripted:
    """A stand-in classifier: the first call (the unturned looks) gets ``first`` for every crop,
    later calls get ``turned`` in turn (90, 180, 270 degrees for one candidate)."""

    def __init__(self, first: Verdict, turned: list[Verdict]) -> None:
        self.first, self.turned, self.crops = first, turned, 0

    def __call__(self, crops: list[object]) -> list[Verdict]:
        script = [self.first] if self.crops == 0 else self.turned
        self.crops += len(crops)
        return [script[i % len(script)] for i in range(len(crops))]


def _read_face_scripted(
    monkeypatch: pytest.MonkeyPatch, scripted: _Scripted, params: ReaderParams
) -> list[Face]:
    stand_in(monkeypatch, "classify", scripted)
    # A die's body under the face (a face doubted where nothing stands out is no die), and
    # nothing else: nothing to search.
    frame = np.full((240, 320, 3), 128, dtype=np.uint8)
    cv2.rectangle(frame, (80, 80), (120, 120), (230, 230, 230), -1)
    return verify(pyramid_of(frame), (), [face_at(100.0, 100.0, 40.0, 2)], params)


def test_a_face_the_first_look_doubts_is_read_from_four_turned_looks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Unturned and at 90 degrees the classifier leans to a 3; at 180 and 270 it sees the 2.
    first = verdict_of(none=0.1, v2=0.4, v3=0.5)
    turned = [
        verdict_of(none=0.1, v3=0.9),
        verdict_of(none=0.1, v2=0.9),
        verdict_of(none=0.1, v2=0.9),
    ]
    scripted = _Scripted(first, turned)
    (face,) = _read_face_scripted(monkeypatch, scripted, PARAMS)
    assert face.value == 2
    assert scripted.crops == PARAMS.face_turns == 4
    two_looks = _Scripted(first, turned)
    (face,) = _read_face_scripted(monkeypatch, two_looks, replace(PARAMS, face_turns=2))
    assert face.value == 3
    assert two_looks.crops == 2


def test_looks_past_the_first_two_do_not_drop_a_face_the_first_two_keep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first two looks give a die 0.425 (kept: the floor is 0.4); all four give it 0.24.
    first = verdict_of(none=0.2, v2=0.8)
    turned = [verdict_of(none=0.95, v2=0.05)]
    faces = _read_face_scripted(monkeypatch, _Scripted(first, turned), PARAMS)
    assert [f.value for f in faces] == [2]
    # When the first two looks already say no die, the face is dropped.
    first = verdict_of(none=0.7, v2=0.3)
    assert _read_face_scripted(monkeypatch, _Scripted(first, turned), PARAMS) == []


def test_a_face_the_classifier_doubts_and_whose_count_it_finds_unlikely_is_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two pips of a 4 read as a 2: the classifier gives a die there 0.45 (kept: the floor is
    # 0.4), and a 2 only 0.05 of it.
    doubted = verdict_of(none=0.55, v2=0.05, v4=0.25, v6=0.15)
    (face,) = _read_face_scripted(monkeypatch, _Scripted(doubted, [doubted]), PARAMS)
    assert face.value is None
    assert face.confidence == pytest.approx(0.45)
    # A count the classifier finds likely enough on a die is kept, doubted or not ...
    likely = verdict_of(none=0.55, v2=0.3, v4=0.15)
    (face,) = _read_face_scripted(monkeypatch, _Scripted(likely, [likely]), PARAMS)
    assert face.value == 2
    # ... and so is any count on a die the classifier does not doubt ...
    sure_die = verdict_of(none=0.28, v2=0.05, v4=0.24, v6=0.22, v7=0.21)
    (face,) = _read_face_scripted(monkeypatch, _Scripted(sure_die, [sure_die]), PARAMS)
    assert face.value == 2
    # ... and a count that no other count outdoes, on a die the classifier takes for one it
    # cannot read (a die in a row of touching dice).
    unreadable = verdict_of(none=0.5, v2=0.05, v7=0.45)
    (face,) = _read_face_scripted(monkeypatch, _Scripted(unreadable, [unreadable]), PARAMS)
    assert face.value == 2


def test_a_die_found_around_a_pip_takes_its_value_from_looks_at_other_widths_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Around the pip (36 px for the frame's width: 6 times its diameter) the classifier leans
    # to a 1 at that width and sees a 2 at 0.85 and 1.18 times it; there is no die at the
    # narrower width also looked at (no die read yet).
    blank = np.full((240, 320, 3), 128, dtype=np.uint8)  # nothing stands out
    pips = (pip_at(160.0, 120.0, 6.0),)

    def verdict(x: float, y: float, width: float) -> Verdict:
        if width == pytest.approx(36.0):
            return verdict_of(none=0.05, v1=0.5, v2=0.45)
        if width in (pytest.approx(0.85 * 36.0), pytest.approx(1.18 * 36.0)):
            return verdict_of(none=0.05, v2=0.9, v1=0.05)
        return verdict_of(none=0.95, v1=0.05)

    classify_by_place(monkeypatch, verdict)
    assert [f.value for f in verify(pyramid_of(blank), pips, [], PARAMS)] == [2]
    one_width = replace(PARAMS, search_value_widths=())
    assert [f.value for f in verify(pyramid_of(blank), pips, [], one_width)] == [1]


def test_a_die_found_around_a_pip_whose_value_is_read_surely_is_not_read_at_other_widths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At 36 px the classifier reads a 1 surely (0.92): no looks at 0.85 and 1.18 times it.
    blank = np.full((240, 320, 3), 128, dtype=np.uint8)  # nothing stands out
    pips = (pip_at(160.0, 120.0, 6.0),)
    widths: list[float] = []

    def verdict(x: float, y: float, width: float) -> Verdict:
        widths.append(width)
        if width == pytest.approx(36.0):
            return verdict_of(none=0.03, v1=0.92, v2=0.05)
        return verdict_of(none=0.95, v1=0.05)

    classify_by_place(monkeypatch, verdict)
    assert [f.value for f in verify(pyramid_of(blank), pips, [], PARAMS)] == [1]
    assert widths and all(w < 0.8 * 36.0 or w == pytest.approx(36.0) for w in widths)


def test_a_face_far_wider_than_the_frame_s_dice_is_remade_as_wide_as_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The third face's grid is three dice wide (pips of two dice, or a whole die taken for a
    # pip): the classifier looks at it at the frame's width, and the die read is that wide, so
    # it does not cover the dice beside it.
    two = verdict_of(none=0.1, v2=0.9)
    stand_in(monkeypatch, "classify", _Scripted(two, [two]))
    blank = np.full((240, 400, 3), 128, dtype=np.uint8)
    faces = [
        face_at(60.0, 100.0, 40.0, 2),
        face_at(160.0, 100.0, 40.0, 3),
        face_at(300.0, 120.0, 120.0, 2),
    ]
    read = verify(pyramid_of(blank), (), faces, PARAMS)
    assert [true_width(f, PARAMS) for f in read] == pytest.approx([40.0] * 3)
    assert [(f.x, f.y) for f in read] == [(60.0, 100.0), (160.0, 100.0), (300.0, 120.0)]
    assert [(f.u, f.v, f.width) for f in read[:2]] == [(f.u, f.v, f.width) for f in faces[:2]]
    wide = read[2]
    assert math.hypot(*wide.u) == pytest.approx(40.0 / PARAMS.die_width_per_face / 3.5)


def test_a_die_found_around_a_pip_is_looked_at_four_times_when_its_value_is_unsure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blank = np.full((240, 320, 3), 128, dtype=np.uint8)  # nothing stands out
    pips = (pip_at(160.0, 120.0, 6.0),)
    # Unturned, the classifier hesitates between a 1 and a 2; turned, it sees the 2.
    # (Counted without the looks at other widths a die found gets for its value.)
    params = replace(PARAMS, search_value_widths=())
    unsure = _Scripted(verdict_of(none=0.05, v1=0.45, v2=0.5), [verdict_of(none=0.05, v2=0.95)])
    stand_in(monkeypatch, "classify", unsure)
    assert [f.value for f in verify(pyramid_of(blank), pips, [], params)] == [2]
    sure = _Scripted(verdict_of(none=0.05, v2=0.95), [verdict_of(none=0.05, v2=0.95)])
    stand_in(monkeypatch, "classify", sure)
    assert [f.value for f in verify(pyramid_of(blank), pips, [], params)] == [2]
    # Each place looked at (the pip's width and, with no die read, a narrower one) got all its
    # looks when unsure, two when sure.
    assert unsure.crops == sure.crops // PARAMS.classifier_turns * PARAMS.face_turns > sure.crops


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


def test_two_dark_dice_apart_taken_for_a_face_s_pips_are_read_as_two_dice() -> None:
    # Two dark dice on a light tray, each seen whole as one blob, are the pips of a "2" six
    # times their size; the classifier takes each blob for a die, so the face is none, and the
    # dice are read where they lie, as wide as they are, not as one die that wide.
    style = TrayStyle(
        die_size=(28.0, 30.0),
        schemes=("black-red",),
        background="light",
        background_color=(205, 208, 210),
        touching=0.0,
        clutter=0.0,
        perspective=0.0,
    )
    tray = render_tray([3, 5], seed=31, style=style)
    first, second = tray.dice
    assert math.dist(first.center, second.center) > 3.0 * first.size_px
    pips = tuple(pip_at(*d.center, 0.9 * d.size_px) for d in tray.dice)
    middle = ((first.center[0] + second.center[0]) / 2, (first.center[1] + second.center[1]) / 2)
    spread = math.dist(first.center, second.center) / math.sqrt(2.0)
    two = replace(face_at(*middle, spread * PARAMS.die_width_per_spacing / 2.0, 2), pips=(0, 1))
    read = verify(pyramid_of(tray.frame), pips, [two], PARAMS)
    assert len(read) == 2, read
    for die in tray.dice:
        face = min(read, key=lambda f: math.dist((f.x, f.y), die.center))
        assert face.value == die.value
        assert math.dist((face.x, face.y), die.center) < 0.25 * die.size_px
        assert true_width(face, PARAMS) < 1.5 * die.size_px


def test_what_the_search_missed_is_looked_for_again_at_the_width_it_read_dice_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The pips tell a width of 42 px (six times their 7 px), a face read unsurely does not
    # correct it, and the dice are 28 px wide: a dark die seen whole as a 28 px blob is read
    # surely at its own width, and the die of the stray pip at (250, 100), looked for at 42 px
    # first, is found when looked for again at 28.
    blob, stray = pip_at(100.0, 100.0, 28.0), pip_at(250.0, 100.0, 7.0)
    pips = (blob, stray, pip_at(400.0, 300.0, 7.0), pip_at(420.0, 300.0, 7.0))
    face = replace(face_at(410.0, 300.0, 42.0 / PARAMS.die_width_per_face, 2), pips=(2, 3))

    def verdict(x: float, y: float, width: float) -> Verdict:
        if math.hypot(x - 410.0, y - 300.0) < 10.0:
            return verdict_of(none=0.44, v2=0.4, v3=0.16)  # a die, its 2 unsure
        if 0.8 * 28.0 < width < 1.25 * 28.0:
            return verdict_of(none=0.02, v2=0.98)
        return verdict_of(none=0.95, v1=0.05)

    classify_by_place(monkeypatch, verdict)
    dice = verify(blank_pyramid(), pips, [face], PARAMS)
    assert sorted((round(d.x), round(d.y), d.value) for d in dice) == [
        (100, 100, 2),
        (250, 100, 2),
        (410, 300, 2),
    ]
    assert [d.width for d in dice if d.y == 100.0] == pytest.approx([28.0, 28.0])


def test_a_face_of_a_grid_unlike_the_other_dice_s_that_the_classifier_cannot_read_is_unread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three threes 28 px wide, and three pips of a six at the tray's edge fitted as a three
    # 17 px wide: read at the frame's width, the classifier takes it for a die it cannot read.
    blank = np.full((240, 480, 3), 128, dtype=np.uint8)  # nothing stands out
    centres = ((60.0, 60.0, 28.0), (180.0, 60.0, 28.0), (300.0, 60.0, 28.0), (420.0, 60.0, 17.0))
    pips: list[Pip] = []
    faces: list[Face] = []
    for x, y, width in centres:
        step = 0.3 * width
        first = len(pips)
        pips += [pip_at(x + k * step, y + k * step, 4.0) for k in (-1, 0, 1)]
        face = face_at(x, y, width / PARAMS.die_width_per_face, 3)
        faces.append(replace(face, pips=(first, first + 1, first + 2)))

    def verdict(x: float, y: float, width: float) -> Verdict:
        if x > 400.0:
            return verdict_of(none=0.02, v3=0.08, v7=0.9)
        return verdict_of(none=0.02, v3=0.98)

    classify_by_place(monkeypatch, verdict)
    dice = verify(pyramid_of(blank), tuple(pips), faces, PARAMS)
    assert [(round(d.x), d.value) for d in dice] == [(60, 3), (180, 3), (300, 3), (420, None)]


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


def test_a_pip_looked_around_where_there_is_no_die_does_not_hide_a_die_beside_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two stray pips 20 px apart, dice 42 px wide (six times their 7 px): the first is looked
    # around first and is no die's; the second is a one's.
    blank = np.full((240, 320, 3), 128, dtype=np.uint8)  # nothing stands out
    pips = (pip_at(200.0, 100.0, 7.0), pip_at(200.0, 120.0, 7.0))

    def verdict(x: float, y: float, width: float) -> Verdict:
        if math.hypot(x - 200.0, y - 120.0) < 3.0 and width == pytest.approx(42.0):
            return verdict_of(none=0.02, v1=0.98)
        return verdict_of(none=0.98, v1=0.02)

    classify_by_place(monkeypatch, verdict)
    dice = verify(pyramid_of(blank), pips, [], PARAMS)
    assert [(d.x, d.y, d.value) for d in dice] == [(200.0, 120.0, 1)]


def test_two_blobs_of_one_die_that_both_point_to_it_are_one_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two 30 px blobs fit a two; each is a die to the classifier at 0.7 of its width, so the two
    # is no face. A five read elsewhere tells the frame's width, 30 px. Looked around at that
    # width, neither blob's crop sees a die there, but both point to one die between them, which
    # is then read from each.
    blobs = (pip_at(100.0, 100.0, 30.0), pip_at(150.0, 100.0, 30.0))
    two = Face(125.0, 100.0, (50.0, 0.0), (0.0, 50.0), (0, 1), 2, 50.0, 0.9)
    five = replace(face_at(200.0, 160.0, 30.0, 5), confidence=0.95)

    def verdict(x: float, y: float, width: float) -> Verdict:
        if math.hypot(x - 125.0, y - 100.0) < 3.0:
            return verdict_of(none=0.02, v3=0.98)
        if math.hypot(x - 200.0, y - 160.0) < 3.0:
            return verdict_of(none=0.02, v5=0.98)
        if width < 25.0:
            return verdict_of(none=0.1, v1=0.9)
        away = Verdict((0.95, 0.0, 0.0, 0.05, 0.0, 0.0, 0.0, 0.0), ((125.0 - x) / width, 0.0))
        return away if width < 35.0 else verdict_of(none=1.0)

    classify_by_place(monkeypatch, verdict)
    blank = np.full((200, 250, 3), 128, dtype=np.uint8)
    read = verify(pyramid_of(blank), blobs, [two, five], PARAMS)
    assert sorted((f.value, f.x, f.y) for f in read) == [(3, 125.0, 100.0), (5, 200.0, 160.0)]


def _sure_die(x: float, y: float, width: float, value: int) -> Face:
    return replace(face_at(x, y, width, value), confidence=0.95)


def test_a_die_far_narrower_than_the_sure_dice_is_looked_at_again_at_their_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three sure dice 100 px wide; a speck read as a one 14 px wide is no die at theirs, and a
    # four read at 40 px is a four at 75 px (their width may be a little wide).
    dice = [
        _sure_die(100.0, 100.0, 100.0, 5),
        _sure_die(250.0, 100.0, 100.0, 3),
        _sure_die(400.0, 100.0, 100.0, 2),
        _sure_die(100.0, 300.0, 14.0, 1),
        _sure_die(300.0, 300.0, 40.0, 4),
    ]

    def verdict(x: float, y: float, width: float) -> Verdict:
        if x == 300.0 and y == 300.0 and width < 90.0:
            return verdict_of(none=0.05, v4=0.95)
        return verdict_of(none=0.97, v1=0.03)

    classify_by_place(monkeypatch, verdict)
    kept = verify_module._one_size(blank_pyramid(), dice, PARAMS)
    assert [(d.value, d.x, d.y) for d in kept] == [
        (5, 100.0, 100.0),
        (3, 250.0, 100.0),
        (2, 400.0, 100.0),
        (4, 300.0, 300.0),
    ]
    assert kept[-1].width == pytest.approx(75.0)


def test_a_narrow_die_beside_one_sure_die_only_is_replaced_but_not_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One sure die may be the misread one: a narrow die where a die of its width is read is
    # that die (the pip of a two, read as a one at its own size), one where none is stays (a
    # one read from its pip: one the search found around a pip is dropped, as a speck).
    six = _sure_die(100.0, 100.0, 100.0, 6)
    pip_of_a_two = _sure_die(300.0, 300.0, 40.0, 1)
    speck = replace(_sure_die(100.0, 300.0, 14.0, 1), pips=(0,))

    def verdict(x: float, y: float, width: float) -> Verdict:
        if x == 300.0 and y == 300.0 and width == 100.0:
            return verdict_of(none=0.02, v2=0.98)
        return verdict_of(none=0.97, v1=0.03)

    classify_by_place(monkeypatch, verdict)
    blank = blank_pyramid()
    read = verify_module._one_size(blank, [six, pip_of_a_two], PARAMS)
    assert [(d.value, d.x, d.y, d.width) for d in read] == [
        (6, 100.0, 100.0, 100.0),
        (2, 300.0, 300.0, 100.0),
    ]
    assert verify_module._one_size(blank, [six, speck], PARAMS) == [six, speck]


def test_a_speck_beside_five_large_dice_is_not_read_as_a_tiny_one() -> None:
    # Synthetic seed 715 of the accuracy benchmark: two specks read as ones told the frame's die
    # width before the five dice, 102-117 px wide, were found; one stayed, a one 14 px wide.
    tray = render_tray([1, 1, 3, 2, 5], seed=715)
    reading = read(tray.frame, PARAMS)
    assert sorted(reading.values) == [1, 1, 2, 3, 5]


def test_a_die_read_unsurely_at_another_width_is_read_again_at_the_sure_dice_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A sure die 100 px wide (one is enough). Looked at 140 px, as the pips of dice not read
    # told, one die was not read, and is a sure three at 100 px; another stays unread, being no
    # die at 100 px.
    unread = replace(face_at(100.0, 300.0, 140.0, None), confidence=0.0)
    doubted = replace(face_at(300.0, 300.0, 140.0, None), confidence=0.0)
    dice = [_sure_die(250.0, 100.0, 100.0, 3), unread, doubted]

    def verdict(x: float, y: float, width: float) -> Verdict:
        if x == 100.0 and y == 300.0 and width == 100.0:
            return verdict_of(none=0.05, v3=0.95)
        return verdict_of(none=0.97, v1=0.03)

    classify_by_place(monkeypatch, verdict)
    kept = verify_module._one_size(blank_pyramid(), dice, PARAMS)
    assert [(d.value, d.x, d.y, d.width) for d in kept[1:]] == [
        (3, 100.0, 300.0, 100.0),
        (None, 300.0, 300.0, 140.0),
    ]


def test_a_dark_blob_taken_for_a_die_holding_its_one_is_looked_at_as_a_glossy_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three dark blobs 25 px across, each holding a light spot: the first is the pip of a one
    # 112 px wide (its spot a glare), the second is no one to the classifier at that width (a
    # two), the third lies on a die read already and is not looked at.
    glossy, other, held = (
        pip_at(100.0, 100.0, 25.0),
        pip_at(300.0, 100.0, 25.0),
        pip_at(100.0, 300.0, 25.0),
    )
    read_die = _sure_die(104.0, 300.0, 30.0, 1)
    looked: list[tuple[float, float, float]] = []

    def verdict(x: float, y: float, width: float) -> Verdict:
        looked.append((x, y, width))
        if x == 100.0 and y == 100.0 and width == pytest.approx(4.5 * 25.0):
            return verdict_of(none=0.05, v1=0.95)
        return verdict_of(none=0.05, v2=0.95)

    classify_by_place(monkeypatch, verdict)
    blank = blank_pyramid()
    found = verify_module._glossy_ones(blank, (glossy, other, held), [read_die], PARAMS)
    assert [(d.value, d.x, d.y, d.width) for d in found] == [(1, 100.0, 100.0, 112.5)]
    assert {(x, y) for x, y, _ in looked} == {(100.0, 100.0), (300.0, 100.0)}


def test_a_glossy_one_whose_glare_lies_off_its_pip_centre_is_read() -> None:
    # Synthetic seeds 8640 and 9766 of the accuracy benchmark: the glare spot of a one's pip
    # 0.22 of the pip off its centre, with no other pip to lean alike, was taken for the one pip
    # of a dark die that the pip itself was, and the die was missed.
    for values, seed in (([1], 8640), ([5, 4, 1], 9766)):
        tray = render_tray(values, seed=seed)
        frame = tray.frame
        spotted = find_pips(frame, to_gray(frame), PARAMS).spotted
        one = next(d for d in tray.dice if d.value == 1)
        assert any(math.dist((p.x, p.y), one.center) < 0.1 * one.size_px for p in spotted)
        assert sorted(read(frame, PARAMS).values) == sorted(values)


def test_a_speck_the_search_read_as_a_narrow_one_beside_a_sure_die_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One sure four 41 px wide. A speck the search read surely as a one 27 px wide (no pips of
    # its own) is no die at 41 px, nor at 0.75 of it: dropped. A one read from its pip at that
    # width is kept: it may be the four that is misread.
    four = _sure_die(100.0, 100.0, 41.0, 4)
    speck = _sure_die(300.0, 100.0, 27.0, 1)
    one = replace(_sure_die(300.0, 300.0, 27.0, 1), pips=(0,))

    def verdict(x: float, y: float, width: float) -> Verdict:
        return verdict_of(none=0.97, v1=0.03)

    classify_by_place(monkeypatch, verdict)
    blank = blank_pyramid()
    assert verify_module._one_size(blank, [four, speck], PARAMS) == [four]
    assert verify_module._one_size(blank, [four, one], PARAMS) == [four, one]


def test_a_face_the_classifier_doubts_is_dropped_when_no_die_stands_out_around_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two specks on a plain tray, read as a sure two from their pips: the classifier doubts a
    # die is there (0.48) without rejecting it. Dropped; on a die's body, kept.
    plain = np.full((240, 320, 3), 128, dtype=np.uint8)
    on_a_die = plain.copy()
    cv2.rectangle(on_a_die, (85, 85), (115, 115), (230, 230, 230), -1)
    pips = (pip_at(94.0, 94.0, 4.0), pip_at(106.0, 106.0, 4.0))
    face = replace(face_at(100.0, 100.0, 30.0 / PARAMS.die_width_per_face, 2), pips=(0, 1))
    classify_by_place(monkeypatch, lambda x, y, width: verdict_of(none=0.52, v2=0.48))
    assert verify(pyramid_of(plain), pips, [face], PARAMS) == []
    assert [f.value for f in verify(pyramid_of(on_a_die), pips, [face], PARAMS)] == [2]
