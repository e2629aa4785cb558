"""benchmarks/adaptation_photos.py: which throws the table keeps, with what values, and its
arguments (its figures are printed, not checked: tests never assert accuracy targets)."""

from __future__ import annotations

from pathlib import Path

import pytest

import benchmarks.adaptation_photos as bench
from vision.evaluation import LabelledDie, rendered_labels
from vision.render import render_tray


def test_a_throw_is_kept_with_its_true_values_and_a_missed_die_by_value() -> None:
    tray = render_tray([2, 5, 3], seed=4)
    labels = rendered_labels(tray.dice)
    told = [LabelledDie(d.x_min, d.y_min, d.x_max, d.y_max, 7 - (d.value or 0)) for d in labels]
    ghost = LabelledDie(1.0, 1.0, 30.0, 30.0, 4)
    table, story = bench.kept([(tray.frame, [*labels, ghost]), (tray.frame, told)], 5)
    assert (
        story
        == "2 kept (2 corrected, 1 with dice the reader missed added by value), 0 with no die read"
    )
    ((missed, whole_missed), (kept, whole)) = table
    assert not whole_missed and whole
    assert sorted(d.value for d in missed[1]) == [2, 3, 5]  # the ghost has no box: by value
    frame, dice = kept
    assert frame is tray.frame
    # The dice as read, each given the value the players confirm: here the one told.
    assert sorted(d.value for d in dice) == [2, 4, 5]
    for die in dice:
        label = next(t for t in told if t.value == die.value)
        assert abs(die.center[0] - label.center[0]) < 8 and abs(die.center[1] - label.center[1]) < 8
    assert bench.split(table) == ([kept], [missed])


def test_no_more_throws_are_kept_than_asked() -> None:
    tray = render_tray([1, 6], seed=8)
    table, story = bench.kept([(tray.frame, rendered_labels(tray.dice))] * 3, 2)
    assert len(table) == 2 and story.startswith("2 kept")


def test_sizes_that_are_not_counts_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for sizes in ("ten", "0,10"):
        with pytest.raises(SystemExit) as stopped:
            bench.main(["--sizes", sizes])
        assert stopped.value.code == 2
        assert f"--sizes {sizes!r}" in capsys.readouterr().err


def test_without_the_datasets_it_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench, "DATASETS", tmp_path / "missing")
    assert bench.main([]) == 0
    assert capsys.readouterr().out == f"skipped: {tmp_path / 'missing'} is missing\n"
