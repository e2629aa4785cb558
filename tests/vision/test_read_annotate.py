"""The annotated image: read dice boxed with their value, unread dice marked, frame untouched."""

from __future__ import annotations

import numpy as np

from vision.annotate import PLATE, READ_COLOUR, UNREAD_COLOUR, annotate, label_of, label_places
from vision.types import Box, DieReading, Reading


def test_read_and_unread_dice_are_drawn_in_their_colours_on_a_copy() -> None:
    frame = np.full((200, 300, 3), 128, dtype=np.uint8)
    reading = Reading(
        (
            DieReading(4, (60.0, 100.0), Box(30, 70, 60, 60), 0.9),
            DieReading(None, (220.0, 100.0), Box(190, 70, 60, 60), 0.2),
        )
    )
    drawn = annotate(frame, reading)
    assert (frame == 128).all()
    left, right = drawn[:, :150], drawn[:, 150:]
    assert (left == READ_COLOUR).all(axis=2).any()
    assert not (left == UNREAD_COLOUR).all(axis=2).any()
    assert (right == UNREAD_COLOUR).all(axis=2).any()
    # The unread die is crossed out through its centre.
    assert (drawn[100, 215:226] == UNREAD_COLOUR).all(axis=1).any()


def test_an_empty_reading_leaves_the_image_as_it_was() -> None:
    frame = np.random.default_rng(1).integers(0, 255, (50, 60, 3), dtype=np.uint8)
    assert (annotate(frame, Reading()) == frame).all()


def test_the_labels_of_touching_dice_do_not_cover_each_other_and_stay_in_the_frame() -> None:
    # Three dice in a row, touching, the first against the top edge.
    boxes = [Box(100, 0, 40, 40), Box(140, 0, 40, 40), Box(120, 40, 40, 40)]
    places = label_places(boxes, [(70, 20)] * 3, (320, 240))
    for i, (x, y, w, h) in enumerate(places):
        assert 0 <= x <= 320 - w and 0 <= y <= 240 - h
        for ox, oy, ow, oh in places[i + 1 :]:
            assert x + w <= ox or ox + ow <= x or y + h <= oy or oy + oh <= y
    # A die alone gets its label above its box.
    assert label_places([Box(100, 100, 40, 40)], [(70, 20)], (320, 240)) == [(100, 76, 70, 20)]


def test_a_label_keeps_the_value_apart_from_how_sure_the_reader_is() -> None:
    assert label_of(1, 1.0) == "1 (100%)"
    assert label_of(6, 0.874) == "6 (87%)"
    assert label_of(None, 0.42) == "? (42%)"


def test_labels_are_drawn_on_a_dark_plate_whatever_the_tray() -> None:
    """On a green felt as bright as the label's green, the label still stands out."""
    felt = np.zeros((240, 320, 3), np.uint8)
    felt[:] = READ_COLOUR
    drawn = annotate(felt, Reading((DieReading(1, (160.0, 150.0), Box(130, 120, 60, 60), 1.0),)))
    plate = (drawn == PLATE).all(axis=2)
    assert plate[:120].sum() > 200  # above the die's box
    assert not plate[120:].any()
