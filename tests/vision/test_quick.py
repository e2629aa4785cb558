"""The fast path: a frame read from the detector's proposals and the classifier's looks at them
and around them, only when every look is sure; any doubt leaves the frame to the pip stages."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import pytest

import vision.quick as quick_module
import vision.reader as reader_module
from tests.vision.stored_trays import stored_tray
from tests.vision.test_read_faces import right_or_not_sure
from vision import ReaderParams, read
from vision.classify import Verdict
from vision.crops import pyramid_of
from vision.detect import Proposal
from vision.errors import InvalidParams
from vision.quick import quick_faces
from vision.render import render_empty_tray, render_hand_pass, render_tray

PARAMS = ReaderParams(use_detector=True, use_judge=False)
"""The reader with the fast path tried first, up to the judge (tests/vision/test_judge.py)."""
CLEAR = [(5, [6, 1, 2]), (15, [4, 5, 6]), (20, [3, 4, 5])]
"""Rendered trays (seed, values) the fast path reads whole."""
SLOW = ReaderParams(use_detector=False)
"""The reader without the fast path: the pip stages' faces and the detector's proposals weighed
by the judge, what reads every frame the fast path leaves."""


def _verdict(value: int, die: float = 0.99, sure: float = 0.98, offset: float = 0.0) -> Verdict:
    """A look at a die: ``die`` sure of a die, ``sure`` of ``value`` (the rest: unreadable)."""
    probabilities = [0.0] * 8
    probabilities[0] = 1.0 - die
    probabilities[value] = sure
    probabilities[7] = die - sure
    return Verdict(tuple(probabilities), (offset, 0.0))


def _no_die(offset: float = 0.0) -> Verdict:
    return Verdict((0.99, 0.002, 0.002, 0.002, 0.002, 0.001, 0.001, 0.0), (offset, 0.0))


Place = tuple[int, int, float]
"""Where the classifier looks: x, y (rounded) and the angle its crop is turned by."""


def _faked(
    monkeypatch: pytest.MonkeyPatch,
    proposals: list[Proposal],
    looks: dict[Place, Verdict],
    standouts: Sequence[tuple[float, float]] = (),
) -> list[Place]:
    """The detector, the classifier and the standout stage replaced: the classifier sees what
    ``looks`` holds where it looks, and no die anywhere else. Returns where it looked."""
    asked: list[Place] = []

    def crop(
        pyramid: object, center: tuple[float, float], width: float, angle: float = 0.0
    ) -> Place:
        return (round(center[0]), round(center[1]), angle)

    def classify(crops: Sequence[Place]) -> list[Verdict]:
        asked.extend(crops)
        return [looks.get(place, _no_die()) for place in crops]

    monkeypatch.setattr(
        quick_module, "detect", lambda half, least: [p for p in proposals if p.strength >= least]
    )
    monkeypatch.setattr(quick_module, "die_crop", crop)
    monkeypatch.setattr(quick_module, "classify", classify)
    monkeypatch.setattr(quick_module, "standing_out", lambda *args, **kwargs: list(standouts))
    return asked


FRAME = render_empty_tray(seed=3).frame
TWO = [Proposal(100.0, 100.0, 50.0, 0.9), Proposal(300.0, 200.0, 50.0, 0.8)]
SURE = {(100, 100, 0.0): _verdict(3), (300, 200, 0.0): _verdict(5)}


def _quick(
    monkeypatch: pytest.MonkeyPatch,
    proposals: list[Proposal],
    looks: dict[Place, Verdict],
    standouts: Sequence[tuple[float, float]] = (),
) -> list[tuple[int | None, float, float]] | None:
    _faked(monkeypatch, proposals, looks, standouts)
    faces = quick_faces(pyramid_of(FRAME), PARAMS)
    return None if faces is None else [(f.value, f.x, f.y) for f in faces]


def test_certain_looks_at_every_proposal_read_the_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _faked(monkeypatch, TWO, SURE)
    faces = quick_faces(pyramid_of(FRAME), PARAMS)
    assert faces is not None
    assert [(f.value, f.x, f.y, f.width) for f in faces] == [
        (3, 100.0, 100.0, 50.0),
        (5, 300.0, 200.0, 50.0),
    ]
    assert asked == [(100, 100, 0.0), (300, 200, 0.0)]


@pytest.mark.parametrize(
    "doubt",
    [
        _verdict(5, die=0.8, sure=0.79),  # unsure of a die
        _verdict(5, sure=0.8),  # unsure of the value
        _verdict(5, offset=0.2),  # a die off the crop's centre
        _verdict(7, sure=0.98),  # a die that cannot be read
        Verdict((0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1), (0.0, 0.0)),
    ],
)
def test_one_doubtful_look_leaves_the_frame_to_the_pip_stages(
    monkeypatch: pytest.MonkeyPatch, doubt: Verdict
) -> None:
    looks = {**SURE, (300, 200, 0.0): doubt, (300, 200, 90.0): doubt, (310, 200, 0.0): doubt}
    assert _quick(monkeypatch, TWO, looks) is None


def test_a_second_look_where_the_first_places_the_die_can_make_it_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looks = {**SURE, (300, 200, 0.0): _verdict(5, offset=0.3), (315, 200, 0.0): _verdict(5)}
    assert _quick(monkeypatch, TWO, looks) == [(3, 100.0, 100.0), (5, 315.0, 200.0)]


def test_a_value_not_certain_is_looked_at_turned_and_must_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unsure = {**SURE, (300, 200, 0.0): _verdict(5, sure=0.92)}
    assert _quick(monkeypatch, TWO, {**unsure, (300, 200, 90.0): _verdict(5, sure=0.9)}) == [
        (3, 100.0, 100.0),
        (5, 300.0, 200.0),
    ]
    assert _quick(monkeypatch, TWO, {**unsure, (300, 200, 90.0): _verdict(6)}) is None
    assert _quick(monkeypatch, TWO, unsure) is None  # turned, no die is seen


def test_a_weak_proposal_surely_no_die_is_dismissed_and_where_it_points_looked_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    weak = [*TWO, Proposal(120.0, 100.0, 50.0, 0.2)]
    at_first = {**SURE, (120, 100, 0.0): _no_die(offset=-0.4)}
    assert _quick(monkeypatch, weak, at_first) == [(3, 100.0, 100.0), (5, 300.0, 200.0)]
    elsewhere = {**SURE, (120, 100, 0.0): _no_die(offset=0.8)}  # at (160, 100): nothing
    assert _quick(monkeypatch, weak, elsewhere) == [(3, 100.0, 100.0), (5, 300.0, 200.0)]
    missed = {**elsewhere, (160, 100, 0.0): _verdict(4)}
    assert _quick(monkeypatch, weak, missed) == [
        (3, 100.0, 100.0),
        (5, 300.0, 200.0),
        (4, 160.0, 100.0),
    ]
    doubted = {**elsewhere, (160, 100, 0.0): _verdict(4, die=0.6, sure=0.5)}
    assert _quick(monkeypatch, weak, doubted) is None
    strong = [*TWO, Proposal(500.0, 100.0, 50.0, 0.7)]
    assert _quick(monkeypatch, strong, SURE) is None  # the detector was sure of a die there


def test_a_weak_proposal_glimpsed_faintly_where_it_was_proposed_is_dismissed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tray's corner draws a weak peak, and a look there a faint glimpse of a die (under
    ``quick_faint``) that places it nowhere else: no die. Fainter than ``quick_doubt`` but more
    than ``quick_faint``, or under the detector's strong peak, the frame is left."""
    corner = [*TWO, Proposal(500.0, 400.0, 50.0, 0.3)]
    for die, dismissed in ((0.03, True), (0.1, False)):
        glimpse = _verdict(1, die=die, sure=die / 2)
        faces = _quick(monkeypatch, corner, {**SURE, (500, 400, 0.0): glimpse})
        assert (faces is not None) is dismissed
    glimpse = _verdict(1, die=0.03, sure=0.01)
    strong = [*TWO, Proposal(500.0, 400.0, 50.0, 0.7)]
    assert _quick(monkeypatch, strong, {**SURE, (500, 400, 0.0): glimpse}) is None


def test_small_dice_proposed_strongly_leave_the_frame_before_any_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = [Proposal(100.0, 100.0, 25.0, 0.9), Proposal(300.0, 200.0, 28.0, 0.8)]
    looks = {(100, 100, 0.0): _verdict(3), (300, 200, 0.0): _verdict(5)}
    asked = _faked(monkeypatch, small, looks)
    assert quick_faces(pyramid_of(FRAME), PARAMS) is None
    assert asked == []
    # Proposed weakly, just the same; and a small die read among wide places that hold none.
    weak = [replace(p, strength=0.3) for p in small]
    asked = _faked(monkeypatch, weak, looks)
    assert quick_faces(pyramid_of(FRAME), PARAMS) is None
    assert asked == []
    among = [*weak[:1], Proposal(400.0, 100.0, 40.0, 0.3), Proposal(500.0, 300.0, 40.0, 0.3)]
    asked = _faked(monkeypatch, among, looks)
    assert quick_faces(pyramid_of(FRAME), PARAMS) is None
    assert len(asked) == 3


SMALL = [replace(p, width=30.0) for p in TWO]
"""Two dice under ``quick_small_width`` (32 px), over ``quick_least_width`` (28 px)."""


def test_small_dice_are_read_only_when_certain(monkeypatch: pytest.MonkeyPatch) -> None:
    """A die read 0.9 sure of its value, turned or not, is sure enough when the dice are
    large, not when they are small (synthetic throw 6375: a small 4 read as a 5 at 0.90)."""
    for dice, reads in ((TWO, True), (SMALL, False)):
        looks = {
            **SURE,
            **{(100, 100, a): _verdict(3, sure=0.9) for a in (0.0, 90.0, 180.0, 270.0)},
        }
        assert (_quick(monkeypatch, dice, looks) is not None) is reads


def test_small_dice_let_no_glimpse_go_as_faint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beside small dice, a weak peak glimpsed as a die (more than ``quick_no_die``) leaves the
    frame (synthetic throw 2827: a small 1 touching a 1, glimpsed at 0.04)."""
    glimpse = _verdict(1, die=0.03, sure=0.01)
    for dice, reads in ((TWO, True), (SMALL, False)):
        corner = [*dice, Proposal(500.0, 400.0, dice[0].width, 0.3)]
        assert (
            _quick(monkeypatch, corner, {**SURE, (500, 400, 0.0): glimpse}) is not None
        ) is reads


def test_beside_small_dice_every_peak_hints_and_a_die_found_leaves_the_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Small dice touching are proposed as fewer, and the one missed stands out beside a die
    read, near its peak (rows, throw 136): a place standing out beside a die read is looked at.
    A die found there, the detector having missed it, leaves the frame: small dice it misses lie
    in a pile, and the rest of the pile may be missed too (synthetic throw 1636)."""
    for dice, looked in ((TWO, False), (SMALL, True)):
        asked = _faked(monkeypatch, dice, SURE, [(125.0, 100.0)])
        assert quick_faces(pyramid_of(FRAME), PARAMS) is not None
        assert ((125, 100, 0.0) in asked) is looked
    missed = {**SURE, (160, 100, 0.0): _verdict(2)}
    for dice, reads in ((TWO, True), (SMALL, False)):
        hinted = [*dice, Proposal(150.0, 110.0, dice[0].width, 0.05)]
        faces = _quick(monkeypatch, hinted, missed, standouts=[(160.0, 100.0)])
        assert (faces is not None) is reads


def test_beside_small_dice_the_standout_stage_looks_one_level_coarser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told: list[float] = []

    def standing_out(*args: object, die_pixels: float) -> list[tuple[float, float]]:
        told.append(die_pixels)
        return []

    for dice in (TWO, SMALL):
        _faked(monkeypatch, [*dice, Proposal(450.0, 400.0, dice[0].width, 0.05)], SURE)
        monkeypatch.setattr(quick_module, "standing_out", standing_out)
        assert quick_faces(pyramid_of(FRAME), PARAMS) is not None
    assert told == [quick_module.DIE_PIXELS, quick_module.SMALL_DIE_PIXELS]


def test_overlapping_uneven_or_no_dice_leave_the_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    close = [TWO[0], Proposal(125.0, 100.0, 50.0, 0.8)]
    assert _quick(monkeypatch, close, {**SURE, (125, 100, 0.0): _verdict(3)}) is None
    uneven = [*TWO, Proposal(500.0, 300.0, 70.0, 0.8)]
    assert _quick(monkeypatch, uneven, {**SURE, (500, 300, 0.0): _verdict(4)}) is None
    assert _quick(monkeypatch, [], {}) is None


def test_wide_dice_read_leave_the_frame_where_the_frame_quartered_sees_a_die_they_miss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide = [Proposal(100.0, 100.0, 120.0, 0.9), Proposal(300.0, 200.0, 120.0, 0.8)]
    asked: list[float] = []

    def quartered(proposals: list[Proposal]) -> None:
        def wide_proposals(pyramid: object, least: float) -> list[Proposal]:
            asked.append(least)
            return [p for p in proposals if p.strength >= least]

        monkeypatch.setattr(quick_module, "wide_proposals", wide_proposals)

    quartered([Proposal(110.0, 95.0, 190.0, 0.9)])  # the first die, seen wider: no other
    assert _quick(monkeypatch, wide, SURE) == [(3, 100.0, 100.0), (5, 300.0, 200.0)]
    assert asked == [PARAMS.quick_strong]
    quartered([Proposal(500.0, 300.0, 200.0, 0.9)])  # a die the frame halved did not show
    assert _quick(monkeypatch, wide, SURE) is None
    quartered([Proposal(500.0, 300.0, 200.0, 0.2)])  # proposed weakly: not a die missed
    assert _quick(monkeypatch, wide, SURE) is not None
    asked.clear()
    assert _quick(monkeypatch, TWO, SURE) is not None  # dice 50 px wide: nothing wider missed
    assert asked == []


HINTED = [*TWO, Proposal(200.0, 300.0, 50.0, 0.05)]
"""Two dice proposed, and a peak too weak to propose a die (under ``detector_least``) at
(200, 300), where the frame stands out in the tests below."""


def test_where_the_frame_stands_out_a_die_missed_is_read_or_the_frame_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    missed = {**SURE, (200, 300, 0.0): _verdict(2)}
    assert _quick(monkeypatch, HINTED, missed, standouts=[(200.0, 300.0)]) == [
        (3, 100.0, 100.0),
        (5, 300.0, 200.0),
        (2, 200.0, 300.0),
    ]
    assert _quick(monkeypatch, HINTED, SURE, standouts=[(200.0, 300.0)]) is not None  # no die
    doubted = {**SURE, (200, 300, 0.0): _verdict(2, die=0.7, sure=0.6)}
    assert _quick(monkeypatch, HINTED, doubted, standouts=[(200.0, 300.0)]) is None


def test_where_the_frame_stands_out_far_from_every_peak_of_the_detector_nothing_is_looked_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cable or a wall stands out from the tray far from any die: the detector, even weakly,
    sees nothing there, and the classifier is not asked (a peak under ``quick_hint`` is none)."""
    doubted = {**SURE, (200, 300, 0.0): _verdict(2, die=0.7, sure=0.6)}
    for peaks in (TWO, [*TWO, Proposal(200.0, 300.0, 50.0, 0.04)]):
        asked = _faked(monkeypatch, peaks, doubted, [(200.0, 300.0)])
        faces = quick_faces(pyramid_of(FRAME), PARAMS)
        assert faces is not None and len(faces) == 2
        assert asked == [(100, 100, 0.0), (300, 200, 0.0)]
    beside = [*TWO, Proposal(260.0, 300.0, 50.0, 0.05)]  # within HINT_REACH die widths
    assert _quick(monkeypatch, beside, doubted, standouts=[(200.0, 300.0)]) is None


def test_with_every_peak_explained_by_a_die_read_the_standout_stage_is_not_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: object, **kwargs: object) -> list[tuple[float, float]]:
        raise AssertionError("the standout stage ran with no peak to look near")

    _faked(monkeypatch, TWO, SURE)
    monkeypatch.setattr(quick_module, "standing_out", never)
    faces = quick_faces(pyramid_of(FRAME), PARAMS)
    assert faces is not None and len(faces) == 2


def test_a_look_around_that_places_its_die_on_a_die_read_is_not_followed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Beside a die read, a place standing out (its shadow, its edge) gets a look that places a
    die on the die read: that die is not looked at again, nor turned."""
    edge = Verdict((0.5, 0.0, 0.0, 0.4, 0.0, 0.0, 0.0, 0.1), (-0.5, 0.0))  # at (105, 100)
    hinted = [*TWO, Proposal(150.0, 110.0, 50.0, 0.05)]  # a weak peak beside the die
    asked = _faked(monkeypatch, hinted, {**SURE, (130, 100, 0.0): edge}, [(130.0, 100.0)])
    faces = quick_faces(pyramid_of(FRAME), PARAMS)
    assert faces is not None and len(faces) == 2
    assert asked == [(100, 100, 0.0), (300, 200, 0.0), (130, 100, 0.0)]


def test_a_peak_a_die_read_explains_hints_at_no_other_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A die's shadow stands out beside it, within reach of the die's own peak: no look there.
    A peak the die read lies a quarter of its width or more from was put between touching dice,
    and a place standing out beside it is looked at."""
    doubted = {**SURE, (140, 100, 0.0): _verdict(2, die=0.7, sure=0.6)}
    far = [*TWO, Proposal(450.0, 400.0, 50.0, 0.05)]  # a weak peak far away: the stage runs
    asked = _faked(monkeypatch, far, doubted, [(140.0, 100.0)])
    faces = quick_faces(pyramid_of(FRAME), PARAMS)
    assert faces is not None and len(faces) == 2
    assert asked == [(100, 100, 0.0), (300, 200, 0.0)]
    between = [Proposal(115.0, 100.0, 50.0, 0.9), TWO[1]]  # its look places the die 15 px left
    moved = {**doubted, (115, 100, 0.0): _verdict(3, offset=-0.3)}
    assert _quick(monkeypatch, between, moved, standouts=[(140.0, 100.0)]) is None
    moved[(140, 100, 0.0)] = _no_die()
    assert _quick(monkeypatch, between, moved, standouts=[(140.0, 100.0)]) == [
        (3, 100.0, 100.0),
        (5, 300.0, 200.0),
    ]


def _glimpse(die: float) -> Verdict:
    """A look that sees a little of a die, ``die`` sure of it, 0.3 die widths below its centre."""
    return Verdict((1.0 - die, die, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), (0.0, 0.3))


def test_a_die_glimpsed_where_the_frame_stands_out_is_followed_until_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look around that glimpses a die off its centre is followed (twice at most: the second
    look may glimpse it again, as at a die among touching dice the detector took for fewer);
    the die is read where it is seen surely, and the frame is left when it never is."""
    followed = {**SURE, (200, 300, 0.0): _glimpse(0.04), (200, 315, 0.0): _glimpse(0.04)}
    missed = {**followed, (200, 330, 0.0): _verdict(2)}
    assert _quick(monkeypatch, HINTED, missed, standouts=[(200.0, 300.0)]) == [
        (3, 100.0, 100.0),
        (5, 300.0, 200.0),
        (2, 200.0, 330.0),
    ]
    # Glimpsed at the last place too: surely more than a wall's shadow.
    still = {**followed, (200, 330, 0.0): _glimpse(0.2), (200, 345, 0.0): _glimpse(0.2)}
    assert _quick(monkeypatch, HINTED, still, standouts=[(200.0, 300.0)]) is None
    # Nothing there, or a glimpse fainter than quick_faint: a corner of the tray, read past.
    assert _quick(monkeypatch, HINTED, followed, standouts=[(200.0, 300.0)]) is not None
    faint = {**followed, (200, 330, 0.0): _glimpse(0.04), (200, 345, 0.0): _glimpse(0.04)}
    assert _quick(monkeypatch, HINTED, faint, standouts=[(200.0, 300.0)]) is not None
    fainter = replace(PARAMS, quick_faint=0.03)
    _faked(monkeypatch, HINTED, faint, [(200.0, 300.0)])
    assert quick_faces(pyramid_of(FRAME), fainter) is None


@pytest.mark.parametrize(("seed", "values"), CLEAR)
def test_a_clear_tray_is_read_without_the_pip_stages(
    monkeypatch: pytest.MonkeyPatch, seed: int, values: list[int]
) -> None:
    tray = render_tray(values, seed=seed)

    def no_pips(*args: object, **kwargs: object) -> None:
        raise AssertionError("the pip stages ran")

    monkeypatch.setattr(reader_module, "find_pip_faces", no_pips)
    reading = read(tray.frame, PARAMS)
    assert len(reading.dice) == len(tray.dice)
    for die in tray.dice:
        (near,) = [d for d in reading.dice if math.dist(d.center, die.center) < 0.2 * die.size_px]
        assert near.value == die.value
        assert abs(near.box.w / die.size_px - 1.0) < 0.2


def test_the_fast_path_reads_as_the_reader_without_it_does() -> None:
    read_alike = 0
    for seed in range(40):
        values = [1 + (seed * 7 + k) % 6 for k in range(1 + seed % 6)]
        tray = render_tray(values, seed=900 + seed)
        faces = quick_faces(pyramid_of(tray.frame), PARAMS)
        if faces is None:
            continue
        full = read(tray.frame, SLOW)
        assert right_or_not_sure(full.values, [f.value for f in faces]), (seed, faces, full.values)
        read_alike += 1
    assert read_alike >= 10


def test_a_tray_with_a_die_that_cannot_be_read_goes_to_the_pip_stages() -> None:
    unread = 0
    for seed in range(30):
        tray = render_tray([2, None, 5], seed=seed)
        full = read(tray.frame, replace(PARAMS, use_detector=False))
        if None in full.values:  # (a die drawn cocked may still show a face whole)
            unread += 1
            assert quick_faces(pyramid_of(tray.frame), PARAMS) is None
            assert read(tray.frame, PARAMS).values == full.values
    assert unread >= 2


def reads_only_what(full: Sequence[int | None], quick: Sequence[int | None]) -> bool:
    """Whether the dice ``quick`` read are among those ``full`` read: each of its values matched
    to a die ``full`` read so or left unread (None), and no more dice than ``full`` read."""
    unread = full.count(None)
    beyond = sum(max(0, quick.count(v) - full.count(v)) for v in set(quick) if v is not None)
    return len(quick) <= len(full) and None not in quick and beyond <= unread


def test_a_hand_over_the_dice_leaves_the_frame_to_the_pip_stages_or_reads_as_they_do() -> None:
    """Under a hand the fast path reads only the dice the reader reads without it (those in full
    view: a hand that hides a die whole hides it from both), and leaves most frames to the pip
    stages."""
    covered = left = 0
    for seed in range(6):
        for frame in render_hand_pass([3, 6, 2, 5], seed=seed, frames=7):
            if any(d.is_covered for d in frame.dice):
                covered += 1
                faces = quick_faces(pyramid_of(frame.frame), PARAMS)
                if faces is None:
                    left += 1
                    continue
                full = read(frame.frame, SLOW)
                assert reads_only_what(full.values, [f.value for f in faces]), (
                    faces,
                    full.values,
                )
    assert covered >= 30
    assert left >= covered // 2


def test_the_region_of_interest_holds_on_the_fast_path() -> None:
    seed, values = CLEAR[0]
    tray = render_tray(values, seed=seed)
    left = min(tray.dice, key=lambda d: d.center[0])
    edge = int(left.center[0] + 0.6 * left.size_px)
    roi = ((edge, 0), (640, 0), (640, 480), (edge, 480))
    reading = read(tray.frame, replace(PARAMS, roi=roi))
    assert len(reading.dice) == len(values) - 1
    assert all(d.center[0] > edge for d in reading.dice)


def test_the_fast_path_is_tried_first_unless_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = stored_tray(CLEAR[0][1], seed=CLEAR[0][0])
    seen: dict[str, object] = {}
    assert sorted(read(frame, PARAMS, debug=seen.__setitem__).values) == [1, 2, 6]
    assert set(seen) == {"dice"}  # read by the fast path: no pips were looked for

    def no_detector(*args: object) -> None:
        raise AssertionError("the detector ran")

    monkeypatch.setattr(quick_module, "detect", no_detector)
    assert sorted(read(frame, SLOW).values) == [1, 2, 6]
    assert len(read(frame, replace(PARAMS, use_classifier=False)).dice) == 3


@pytest.mark.parametrize(
    "wrong",
    [{"quick_sure": 1.5}, {"quick_faint": -0.1}, {"detector_least": -0.1}, {"quick_centred": 0.0}],
)
def test_fast_path_params_are_checked(wrong: dict[str, float]) -> None:
    with pytest.raises(InvalidParams, match=next(iter(wrong))):
        ReaderParams(**wrong)  # type: ignore[arg-type]
