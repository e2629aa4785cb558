"""Tests of the scoring helpers: labels and frames resized together still match."""

from __future__ import annotations

import numpy as np

from vision import read
from vision.evaluation import LabelledDie, read_right, rendered_labels, resized, score_image
from vision.render import render_tray
from vision.types import Box, DieReading, Reading


def test_a_scaled_label_keeps_its_value_and_moves_its_centre() -> None:
    label = LabelledDie(10.0, 20.0, 30.0, 60.0, 4)
    bigger = label.scaled(1.5)
    assert bigger == LabelledDie(15.0, 30.0, 45.0, 90.0, 4)
    assert bigger.center == (30.0, 60.0)


def test_a_frame_is_resized_by_its_factor_and_shrunk_by_averaging() -> None:
    frame = np.zeros((40, 60, 3), np.uint8)
    frame[:, 1::2] = 200  # columns alternate 0 and 200: averaged in pairs, 100
    assert resized(frame, 1.0) is frame
    assert resized(frame, 2.0).shape == (80, 120, 3)
    half = resized(frame, 0.5)
    assert half.shape == (20, 30, 3)
    assert half.dtype == np.uint8
    assert np.all(half == 100)


def test_a_tray_resized_with_its_labels_is_still_scored_where_its_dice_are() -> None:
    tray = render_tray([2, 5, 6], seed=11)
    labels = rendered_labels(tray.dice)
    assert score_image(read(tray.frame), labels).correct == 3
    bigger = score_image(read(resized(tray.frame, 1.5)), [d.scaled(1.5) for d in labels])
    assert bigger.correct == 3
    # The labels left at their old places would no longer match the dice read.
    assert score_image(read(resized(tray.frame, 1.5)), labels).correct < 3


def test_the_labels_read_right_are_those_matched_to_a_die_of_their_value() -> None:
    labels = [LabelledDie(0.0, 0.0, 20.0, 20.0, 3), LabelledDie(100.0, 0.0, 120.0, 20.0, 5)]

    def die(x: float, value: int | None) -> DieReading:
        return DieReading(value, (x, 10.0), Box(round(x) - 10, 0, 20, 20), 0.9)

    assert read_right(Reading((die(11.0, 3), die(110.0, 5))), labels) == {0, 1}
    assert read_right(Reading((die(11.0, 3), die(110.0, 6))), labels) == {0}
    assert read_right(Reading((die(11.0, None), die(60.0, 5))), labels) == set()
    # The nearer of two dice on one label is matched to it.
    assert read_right(Reading((die(16.0, 4), die(9.0, 3))), labels) == {0}


def test_a_throw_is_misread_silently_only_with_the_right_count_and_every_die_valued() -> None:
    labels = [LabelledDie(0.0, 0.0, 20.0, 20.0, 3), LabelledDie(100.0, 0.0, 120.0, 20.0, 5)]

    def reading(*dice: tuple[float, int | None]) -> Reading:
        return Reading(
            tuple(DieReading(v, (x, 10.0), Box(round(x) - 10, 0, 20, 20), 0.9) for x, v in dice)
        )

    right = score_image(reading((11.0, 3), (110.0, 5)), labels)
    assert (right.throws_right, right.silent) == (1, 0)
    wrong_value = score_image(reading((11.0, 3), (110.0, 6)), labels)
    assert (wrong_value.throws_right, wrong_value.silent) == (0, 1)
    assert wrong_value.silent_misreads == 1.0
    # A die said to be unreadable, or a die missed or added, is seen by the table: not silent.
    assert score_image(reading((11.0, 3), (110.0, None)), labels).silent == 0
    assert score_image(reading((11.0, 3)), labels).silent == 0
    assert score_image(reading((11.0, 3), (110.0, 5), (60.0, 2)), labels).silent == 0
    assert (right + wrong_value).silent_misreads == 0.5


def test_an_unread_die_whose_likeliest_value_is_its_label_is_counted() -> None:
    labels = [LabelledDie(0.0, 0.0, 20.0, 20.0, 3), LabelledDie(100.0, 0.0, 120.0, 20.0, 5)]

    def unread(x: float, likely: int | None) -> DieReading:
        return DieReading(None, (x, 10.0), Box(round(x) - 10, 0, 20, 20), 0.5, likely)

    score = score_image(Reading((unread(11.0, 3), unread(110.0, 6))), labels)
    assert (score.unread, score.likely_right, score.correct) == (2, 1, 0)
    assert score_image(Reading((unread(11.0, None), unread(60.0, 5))), labels).likely_right == 0
    assert (score + score).likely_right == 2
