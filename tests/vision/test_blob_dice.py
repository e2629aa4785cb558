"""The faces whose pips are each a whole die: dropped, and their pips taken for dice."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tests.vision.stand_in import (
    PARAMS,
    blank_pyramid,
    classify_by_place,
    face_at,
    pip_at,
    verdict_of,
)
from vision.blob_dice import BlobDie, without_faces_of_dice
from vision.classify import Verdict
from vision.crops import pyramid_of
from vision.face import Face
from vision.render import render_tray


def test_two_small_dice_run_together_with_their_shadows_are_not_the_pips_of_a_giant_two() -> None:
    # Two marbled fours 21 px wide, each run together with its shadow into a blob of 31-33 px,
    # fit the grid of a two over 200 px wide. Looked at as dice as wide as the blobs, the
    # classifier finds none (0.1-0.5); at 0.7 of that, it finds them.
    tray = render_tray([5, 3, 4, 1, 3, 4], seed=2574)
    fours = [d for d in tray.dice if d.value == 4]
    blobs = tuple(pip_at(*d.center, 1.5 * d.size_px) for d in fours)
    giant = Face(
        (blobs[0].x + blobs[1].x) / 2.0,
        (blobs[0].y + blobs[1].y) / 2.0,
        (blobs[1].x - blobs[0].x, blobs[1].y - blobs[0].y),
        (blobs[0].y - blobs[1].y, blobs[1].x - blobs[0].x),
        (0, 1),
        2,
        math.dist((blobs[0].x, blobs[0].y), (blobs[1].x, blobs[1].y)),
        1.0,
    )
    kept, dice = without_faces_of_dice(pyramid_of(tray.frame), blobs, [giant], PARAMS)
    assert kept == []
    assert [(d.x, d.y) for d in dice] == [(b.x, b.y) for b in blobs]
    # Each die at the width the classifier was surest of: the narrower one, where it found them.
    assert [d.width for d in dice] == [0.7 * b.diameter for b in blobs]


def test_the_pips_of_a_face_are_looked_at_as_dice_only_while_they_may_all_be(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two faces of three 30 px blobs each. The classifier takes the blobs at x = 100 for dice,
    # not those at x = 300: the first face is three dice; of the second only its first pip is
    # looked at (as wide as it is, and at 0.7 of that).
    pips = tuple(pip_at(x, y, 30.0) for x in (100.0, 300.0) for y in (100.0, 200.0, 300.0))
    dice_face = replace(face_at(100.0, 200.0, 60.0, 3), pips=(0, 1, 2))
    other_face = replace(face_at(300.0, 200.0, 60.0, 3), pips=(3, 4, 5))
    looked: list[tuple[float, float, float]] = []

    def verdict(x: float, y: float, width: float) -> Verdict:
        looked.append((x, y, width))
        return verdict_of(none=0.1, v3=0.9) if x == 100.0 else verdict_of(none=0.9, v3=0.1)

    classify_by_place(monkeypatch, verdict)
    blank = blank_pyramid()
    kept, blobs = without_faces_of_dice(blank, pips, [dice_face, other_face], PARAMS)
    assert kept == [other_face]
    assert blobs == [BlobDie(p.x, p.y, 30.0) for p in pips[:3]]
    assert sorted((x, y) for x, y, _ in looked if x == 300.0) == [(300.0, 100.0)] * 2
    assert len(looked) == 8


def test_a_blob_die_takes_the_width_the_classifier_is_surer_of(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A blob 40 px across, alone on a face of one pip (a one): looked at 40 px wide the
    # classifier takes it for a die at 0.7, at 28 px at 0.95. Its die is 28 px wide.
    pips = (pip_at(200.0, 200.0, 40.0),)
    one = replace(face_at(200.0, 200.0, 40.0, 1), pips=(0,))

    def verdict(x: float, y: float, width: float) -> Verdict:
        return verdict_of(none=0.05, v1=0.95) if width < 30.0 else verdict_of(none=0.3, v1=0.7)

    classify_by_place(monkeypatch, verdict)
    kept, dice = without_faces_of_dice(blank_pyramid(), pips, [one], PARAMS)
    assert kept == []
    assert dice == [BlobDie(200.0, 200.0, 0.7 * 40.0)]
