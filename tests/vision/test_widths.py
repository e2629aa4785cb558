"""Tests of the die widths: of the dice read, and of the frame before any is read."""

from __future__ import annotations

import pytest

from tests.vision.stand_in import PARAMS, face_at, pip_at
from vision.blob_dice import BlobDie
from vision.widths import die_width, frame_width


def test_dice_seen_as_blobs_tell_the_frame_s_width_while_no_face_is_read() -> None:
    # Dark dice on a light tray: their blobs make faces that cannot be read, 60 px grids over
    # the pips of several dice. The dice the classifier took the blobs for are 34-36 px wide.
    pips = (pip_at(100.0, 100.0, 49.0), pip_at(200.0, 100.0, 51.0))
    unread = [face_at(150.0, 100.0, 60.0, None)]
    blob_dice = [BlobDie(100.0, 100.0, 34.0), BlobDie(200.0, 100.0, 36.0)]
    assert frame_width(pips, unread, blob_dice, PARAMS) == 35.0
    assert frame_width(pips, [], blob_dice, PARAMS) == 35.0


def test_a_face_read_tells_the_frame_s_width_over_blob_dice() -> None:
    pips = (pip_at(100.0, 100.0, 49.0),)
    read = [face_at(300.0, 100.0, 40.0, 1)]
    blob_dice = [BlobDie(100.0, 100.0, 34.0)]
    assert frame_width(pips, read, blob_dice, PARAMS) == die_width(pips, read, PARAMS)
    assert frame_width(pips, read, blob_dice, PARAMS) == 40.0
    assert frame_width(pips, read, [], PARAMS) == 40.0


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
