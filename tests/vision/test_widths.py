"""Tests of the die widths: of the frame, before the classifier has read any die."""

from __future__ import annotations

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
