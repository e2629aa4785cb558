"""Files read at start-up and on the command line, bounded and checked: a bad one is set aside
or refused in one line, never a hang, a traceback or gigabytes of memory."""

from __future__ import annotations

import json
import logging
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest

import device.adaptation
from benchmarks.bad_images import claimed_png
from device.adaptation import AdaptedFileError, adapted_path, load_last_layer
from device.bounded import FileUnusable, read_bounded
from device.calibration import (
    CALIBRATION_NAME,
    EMPTY_TRAY_NAME,
    load_calibration,
    save_calibration,
)
from device.cli import main
from device.photos import PhotoRing
from device.rules_file import register_rules_folders
from vision.adapt import Refit
from vision.calibration import Calibration, Check
from vision.classify import Adapted, shipped_last_layer
from vision.evaluation import LabelledDie, Score

DIE = (LabelledDie(4, 4, 20, 20, 5),)


def _saved(directory: Path) -> Path:
    empty = np.full((480, 640, 3), 90, np.uint8)
    result = Calibration(
        ((10, 10), (630, 10), (630, 470), (10, 470)), 40.0, (Check("a", True, "b"),)
    )
    return save_calibration(directory, result, empty)


def _edit(path: Path, **fields: object) -> None:
    record = json.loads(path.read_text())
    record.update(fields)
    path.write_text(json.dumps(record))


BAD_CALIBRATIONS = {
    "NaN corner": {"roi": [[float("nan"), 1], [5, 1], [5, 5]]},
    "corner at 10^12": {"roi": [[10**12, 1], [5, 1], [5, 5]]},
    "negative die width": {"die_width_px": -40.0},
    "NaN die width": {"die_width_px": float("nan")},
    "die width 10^12": {"die_width_px": 1e12},
    "frame of 10^9 pixels a side": {"size": [10**9, 10**9]},
}


@pytest.mark.parametrize("fields", BAD_CALIBRATIONS.values(), ids=BAD_CALIBRATIONS.keys())
def test_a_calibration_the_reader_cannot_use_is_set_aside(
    tmp_path: Path, fields: dict[str, object]
) -> None:
    _edit(_saved(tmp_path), **fields)
    saved, notice = load_calibration(tmp_path, clock=lambda: 0.0)
    assert saved is None and notice is not None and "damaged" in notice
    assert (tmp_path / f"{CALIBRATION_NAME}.damaged-19700101T000000").exists()


def test_an_empty_tray_claiming_40000_squared_is_set_aside_undecoded(tmp_path: Path) -> None:
    _saved(tmp_path)
    claimed_png(tmp_path / EMPTY_TRAY_NAME, 40_000, 40_000)
    saved, notice = load_calibration(tmp_path, clock=lambda: 0.0)
    assert saved is None and notice is not None and "too large" in notice


def test_a_calibration_json_too_large_is_set_aside(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    path.write_text(path.read_text()[:-1] + ', "pad": "' + "x" * 200_000 + '"}')
    saved, notice = load_calibration(tmp_path, clock=lambda: 0.0)
    assert saved is None and notice is not None and "at most" in notice


def test_reads_refuse_fifos_and_devices_and_large_files(tmp_path: Path) -> None:
    fifo = tmp_path / "a.toml"
    os.mkfifo(fifo)
    with pytest.raises(FileUnusable, match="not a regular file"):
        read_bounded(fifo, 100)  # at once: never waits for a writer
    with pytest.raises(FileUnusable, match="not a regular file"):
        read_bounded("/dev/zero", 100)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(FileUnusable, match="at most 100 bytes"):
        read_bounded(big, 100)
    assert read_bounded(big, 101) == b"x" * 101


def test_a_fifo_in_the_rules_folder_is_left_out_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    os.mkfifo(folder / "blocked.toml")
    (folder / "tiny.toml").write_text('name = "tiny-state"\nbase = "greed"\ntarget = 500\n')
    with caplog.at_level(logging.WARNING, logger="device"):
        found = register_rules_folders([folder])
    assert [r.name for r in found] == ["tiny-state"]
    assert "blocked.toml" in caplog.text and "left out" in caplog.text


DEEP = "[game]\nplayers = " + "[" * 3000 + '"Ann"' + "]" * 3000 + "\n"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["run", "--config", "/dev/zero"], "not a regular file"),
        (["history", "--config", "/dev/zero"], "not a regular file"),
        (["rules", "/dev/zero"], "not a regular file"),
        (["run", "--config", "DEEP"], "nested too deep"),
        (["rules", "DEEP"], "nested too deep"),
    ],
)
def test_endless_or_deep_files_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text(DEEP if argv[0] != "rules" else 'name = "x"\nx = ' + "[" * 3000 + "]" * 3000)
    argv = [str(deep) if a == "DEEP" else a for a in argv]
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


def _ring_with_photos(directory: Path, count: int) -> PhotoRing:
    ring = PhotoRing.in_directory(directory)
    for _ in range(count):
        ring.write(ring.new_number(), np.full((48, 64, 3), 90, np.uint8), DIE)
    return ring


def test_a_labels_file_linked_to_dev_zero_is_skipped_not_read(tmp_path: Path) -> None:
    ring = _ring_with_photos(tmp_path, 2)
    first = ring.photos()[0]
    labels = first.image.with_suffix(".csv")
    labels.unlink()
    labels.symlink_to("/dev/zero")
    assert [p.number for p in ring.photos()] == [ring.photos()[-1].number]
    out = tmp_path / "export"
    assert ring.export(out) == 1


def test_a_kept_photo_replaced_by_an_endless_file_is_left_out_of_the_export(
    tmp_path: Path,
) -> None:
    ring = _ring_with_photos(tmp_path, 2)
    image = ring.photos()[0].image
    image.unlink()
    image.symlink_to("/dev/zero")
    assert ring.export(tmp_path / "export") == 1


def test_adapting_skips_a_kept_photo_claiming_40000_squared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ring = _ring_with_photos(tmp_path, 3)
    claimed_png(ring.photos()[0].image, 40_000, 40_000)
    seen: list[int] = []

    def fit(
        photos: list[object], current: object, params: object, partial: object, held: int
    ) -> Refit:
        seen.append(len(photos))
        return Refit(Adapted(shipped_last_layer(), None), 0, len(photos), 0, Score(), Score())

    monkeypatch.setattr(device.adaptation, "refit", fit)
    monkeypatch.setattr(device.adaptation, "held_back", lambda dice: 1)
    monkeypatch.setattr(device.adaptation, "MIN_PHOTOS", 1)
    monkeypatch.setattr(device.adaptation, "MIN_DICE", 1)
    device.adaptation.adapt_from_ring(ring)
    assert seen == [2]


def test_an_adapted_file_claiming_a_huge_array_is_refused_unloaded(tmp_path: Path) -> None:
    path = adapted_path(tmp_path)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        header = np.lib.format.header_data_from_array_1_0(np.zeros(1, np.float32))
        header["shape"] = (2**29,)  # 2 GiB of float32, which numpy would set aside at once
        with archive.open("weights.npy", "w") as member:
            np.lib.format.write_array_header_1_0(member, header)
            for _ in range(4):
                member.write(bytes(1 << 20))
    assert path.stat().st_size < device.adaptation.MAX_ADAPTED_BYTES  # small on disk
    with pytest.raises(AdaptedFileError, match="unpack to"):
        load_last_layer(tmp_path)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('name = "ab\\u001b[2Jc"\nbase = "greed"\n', "printable characters"),
        (f'name = "{"x" * 100_000}"\nbase = "greed"\n', "printable characters"),
        ('name = "bm"\nbase = "greed"\nbank_minimum = 9000\ntarget = 5000\n', "bank_minimum"),
    ],
)
def test_rules_a_table_cannot_show_or_play_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, words: str
) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(body)
    assert main(["rules", str(path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert words in line and "\x1b" not in line and len(line) < 300


@pytest.mark.parametrize("rate", ["0", "-1", "nan", "inf", "1e9", "x"])
def test_run_rate_out_of_range_is_refused(capsys: pytest.CaptureFixture[str], rate: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--rate", rate])
    assert exit_.value.code == 2
    assert "--rate" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["1e30", "1" + "0" * 30, "1000000"])
def test_strategy_solve_refuses_absurd_targets_in_one_line(
    capsys: pytest.CaptureFixture[str], target: str
) -> None:
    try:
        status = main(["strategy", "--solve", "--rules", "greed", "--target", target])
    except SystemExit as exit_:  # argparse: the usage and the error
        status = int(str(exit_.code))
    assert status == 2
    err = capsys.readouterr().err
    assert "--target" in err or "not solved" in err
    assert "Traceback" not in err


def test_play_refuses_a_five_megabyte_line_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "device", "play", "--rules", "greed", "--players", "A,B"],
        input="1" * 5_000_000 + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).parents[2],
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "longer than" in lines[0]
    assert len(done.stdout) < 100_000  # the line was not echoed back


def test_a_refused_write_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from device.session import Seat, Session, rules_for
    from device.store import GameStore, StoreFull
    from engine.events import Thrown

    with GameStore.in_directory(tmp_path) as store:
        session = Session.new(store, rules_for("greed"), (Seat("Ann"), Seat("Bob")))

        def full(*args: object, **kwargs: object) -> None:
            raise StoreFull("the disk holding the game store is full")

        store.append_many = full  # type: ignore[method-assign]
        with caplog.at_level(logging.WARNING, logger="device"), pytest.raises(StoreFull):
            session.apply(Thrown("Ann", (1, 1, 1, 2, 3)))
    assert "disk holding the game store is full" in caplog.text
