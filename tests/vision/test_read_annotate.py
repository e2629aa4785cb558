"""The annotated image: read dice boxed with their value, unread dice marked, frame untouched."""

from __future__ import annotations

import numpy as np

from vision.annotate import READ_COLOUR, UNREAD_COLOUR, annotate
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
