"""The table's throws kept as labelled photos (`device.photos`): what is kept and when, the ring's
bound, a full disk, and `dicekeeper photos [export DIR]`."""

from __future__ import annotations

import errno
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from benchmarks.vision_accuracy import labelled_photos, load_labels
from device.cli import main
from device.correction import Correction
from device.photos import PhotoKeeper, PhotoRing
from engine.events import Event, Thrown
from hardware.buttons import Button
from hardware.view import Phase
from tests.device import harness
from tests.device.harness import Rig, config, is_waiting, open_rig
from tests.device.test_correction import MisreadingOracle, misread
from vision.evaluation import LabelledDie
from vision.types import Box, DieReading, Frame, Reading


@pytest.fixture(autouse=True)
def misreading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(harness, "OracleRenderer", MisreadingOracle)


def kept(rig: Rig) -> list[tuple[int, ...]]:
    """The values of every photo kept so far, oldest first."""
    keeper = rig.table.controller.photos
    assert keeper is not None
    keeper.wait()
    return [tuple(int(d.value or 0) for d in p.dice) for p in keeper.ring.photos()]


def test_a_throw_is_kept_once_the_players_chose_their_keeps(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4], [2, 3]]))
    with rig.table:
        rig.until(is_waiting)
        assert kept(rig) == []  # it may still be corrected
        rig.press(Button.ROLL)  # keep 1 1 1 5, throw the rest
        assert kept(rig) == [(1, 1, 1, 5, 3, 4)]
        keeper = rig.table.controller.photos
        assert keeper is not None
        (photo,) = keeper.ring.photos()
        assert photo.dice[1] == LabelledDie(40, 30, 80, 70, 1)  # the box as read
        assert photo.image.read_bytes()[:2] == b"\xff\xd8"  # a JPEG
        assert photo.as_read == (True,) * 6 and photo.corrected == 0  # confirmed as read


def test_a_corrected_throw_is_kept_at_once_with_the_corrected_values(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 5, 3, 4], [2, 3]]))
    misread(rig, die0=2)
    with rig.table:
        rig.until(is_waiting)
        rig.press(Button.CORRECT, *[Button.ROLL] * 6, Button.STOP)  # 2 -> ... -> 1
        assert rig.view.message == "corrected to 1 1 1 5 3 4"
        assert kept(rig) == [(1, 1, 1, 5, 3, 4)]
        rig.press(Button.ROLL)  # the table moves on: the same photo, not a second one
        assert kept(rig) == [(1, 1, 1, 5, 3, 4)]
        keeper = rig.table.controller.photos
        assert keeper is not None
        (photo,) = keeper.ring.photos()
        assert photo.as_read == (False, *[True] * 5) and photo.corrected == 1


def test_a_labels_file_without_marks_reads_as_not_recorded(tmp_path: Path) -> None:
    ring = PhotoRing(tmp_path / "photos")
    frame = np.zeros((40, 40, 3), np.uint8)
    ring.write(1, frame, [LabelledDie(0, 0, 10, 10, 3)])
    ring.write(2, frame, [LabelledDie(0, 0, 10, 10, 3)], [False])
    assert (
        (tmp_path / "photos" / "00000001.csv")
        .read_text()
        .startswith("x_min,y_min,x_max,y_max,value\n")
    )
    old, new = ring.photos()
    assert old.as_read == () and old.corrected is None
    assert new.as_read == (False,) and new.corrected == 1
    with pytest.raises(ValueError, match="2 as_read marks for 1 dice"):
        ring.write(3, frame, [LabelledDie(0, 0, 10, 10, 3)], [True, True])


def test_a_bust_is_kept_when_the_next_throw_counts(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="greed", script=[[2, 2, 3, 4, 6], [5, 5, 5, 2, 3]])
    rig = open_rig(cfg)
    with rig.table:
        rig.until(lambda v: v.phase is Phase.BUST)
        assert kept(rig) == []
        rig.until(lambda v: v.turn_total == 500)  # Bob's throw counted
        assert kept(rig) == [(2, 2, 3, 4, 6)]


def test_a_die_struck_as_not_a_die_is_kept_as_no_die(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2, 3]]))
    with rig.table:
        rig.until(lambda v: "I see 6" in v.message)
        rig.press(Button.CORRECT, *[Button.SELECT] * 5, *[Button.ROLL] * 4, Button.STOP)
        keeper = rig.table.controller.photos
        assert keeper is not None
        keeper.wait()
        (photo,) = keeper.ring.photos()
        assert [d.value for d in photo.dice] == [1, 1, 1, 5, 2]
        assert [d.x_min for d in photo.dice] == [0, 40, 80, 120, 160]  # the sixth box left out
        assert photo.struck == (LabelledDie(200, 30, 240, 70, 0),)  # ... kept as no die
        assert photo.corrected == 0  # the five dice as read


def test_a_die_added_for_one_the_reader_missed_is_kept_by_its_value(tmp_path: Path) -> None:
    # Five dice thrown, four seen: the players add the fifth. It has no box: the photo is kept
    # with the four boxes and the fifth die's value alone, when corrected and corrected again.
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 2], [2, 2, 3, 4, 6], [5, 2]]))
    with rig.table:
        rig.until(lambda v: "I see 4" in v.message)
        rig.press(Button.CORRECT, *[Button.ROLL] * 3, Button.STOP)  # the added die: 3
        assert rig.view.message.startswith("corrected to 1 1 1 2 3")
        assert rig.table.controller.state.turn.total == 1000
        keeper = rig.table.controller.photos
        assert keeper is not None
        assert kept(rig) == [(1, 1, 1, 2)]
        (photo,) = keeper.ring.photos()
        assert photo.missed == (3,) and photo.as_read == (True,) * 4 and photo.corrected == 1
        rig.press(Button.CORRECT, *[Button.SELECT] * 4, Button.ROLL, Button.STOP)  # again: 3 -> 4
        assert rig.view.message.startswith("corrected to 1 1 1 2 4")
        rig.press(Button.ROLL)  # throw the two dice left: the table moves on
        rig.until(lambda v: rig.table.controller.state.turn.total == 1050)
        assert kept(rig) == [(1, 1, 1, 2)]  # the same photo, relabelled
        (photo,) = keeper.ring.photos()
        assert photo.missed == (4,)
        out = tmp_path / "out"
        assert keeper.ring.export(out) == 0  # no box for the missed die: not in a dataset


def test_computer_players_virtual_dice_are_not_kept(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", players=("cpu:expert", "cpu:bold")))
    thrown: list[Event] = []
    rig.table.controller.on_event = thrown.append
    with rig.table:
        rig.step(300)
        assert sum(isinstance(e, Thrown) for e in thrown) > 5
        assert kept(rig) == []


def _photo(value: int = 0) -> Frame:
    rng = np.random.default_rng(value)
    return rng.integers(0, 255, (48, 64, 3), dtype=np.uint8)


DIE = (LabelledDie(1, 2, 21, 22, 4),)


def test_the_ring_removes_the_oldest_photos_first(tmp_path: Path) -> None:
    ring = PhotoRing(tmp_path / "photos")
    ring.write(ring.new_number(), _photo(), DIE)
    _, one = ring.usage()
    ring.max_bytes = int(2.5 * one)
    for _ in range(4):
        ring.write(ring.new_number(), _photo(), DIE)
    assert [p.number for p in ring.photos()] == [4, 5]
    count, size = ring.usage()
    assert count == 2 and size <= ring.max_bytes
    again = PhotoRing(tmp_path / "photos", max_bytes=ring.max_bytes)
    assert again.new_number() == 6  # numbers never come back, even after a restart


def _state(open_throw: object) -> Any:
    return SimpleNamespace(open_throw=open_throw)


def _reading(*values: int | None) -> Reading:
    return Reading(
        tuple(
            DieReading(v, (10.0 + 20 * i, 10.0), Box(20 * i, 0, 20, 20), 1.0)
            for i, v in enumerate(values)
        )
    )


def test_a_full_disk_is_one_warning_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ring = PhotoRing(tmp_path / "photos")

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ring, "write", full)
    keeper = PhotoKeeper(ring, background=False)
    read = keeper.watching(lambda frame: _reading(1, 5))
    for throw in range(3):
        reading = read(_photo(throw))
        keeper.settled(reading)
        keeper.counted(_state(object()))
        keeper.check(_state(None))  # the table moved on: keep it
    warnings = [r for r in caplog.records if r.name == "device.photos"]
    assert len(warnings) == 1 and "No space left" in warnings[0].getMessage()
    assert warnings[0].levelno == logging.WARNING and keeper.kept == 3


def test_a_refused_reading_corrected_is_kept_with_its_frame(tmp_path: Path) -> None:
    keeper = PhotoKeeper(PhotoRing(tmp_path / "photos"), background=False)
    read = keeper.watching(lambda frame: _reading(3, None, 5))
    frame = _photo(7)
    keeper.settled(read(frame))
    read(_photo(8))  # a later frame: not the one the reading settled on
    correction = Correction.of("Ann", (3, None, 5), replaces=False).step().step()
    keeper.corrected(correction, _state(object()))
    (photo,) = keeper.ring.photos()
    assert [d.value for d in photo.dice] == [3, 2, 5]


def _table_config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[state]\ndirectory = "{tmp_path / "state"}"\n')
    return path


def test_export_writes_the_datasets_layout_the_benchmark_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ring = PhotoRing.in_directory(tmp_path / "state")
    ring.write(ring.new_number(), _photo(1), DIE, [True])
    ring.write(ring.new_number(), _photo(2), (*DIE, LabelledDie(30, 5, 50, 25, 6)), [True, False])
    out = tmp_path / "out"
    assert main(["photos", "export", str(out), "--config", str(_table_config(tmp_path))]) == 0
    assert "exported 2 photos (3 dice)" in capsys.readouterr().out
    labels = load_labels(out)
    assert sorted(labels) == ["images/00000001.jpg", "images/00000002.jpg"]
    assert [d.value for d in labels["images/00000002.jpg"]] == [4, 6]
    loaded = list(labelled_photos(out))
    assert [frame.shape for _, frame, _ in loaded] == [(48, 64, 3)] * 2
    assert main(["photos", "--config", str(_table_config(tmp_path))]) == 0
    out_text = capsys.readouterr().out
    assert out_text.startswith("2 labelled photos, ")
    assert "1 throw kept as read, 1 with 1 die corrected by the players" in out_text


def test_export_refuses_a_folder_with_something_in_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "labels.csv").write_text("something\n")
    assert main(["photos", "export", str(out), "--config", str(_table_config(tmp_path))]) == 2
    assert "is not empty" in caplog.text
    assert (out / "labels.csv").read_text() == "something\n"
