"""Files read at start-up and on the command line, bounded and checked: a bad one is set aside
or refused in one line, never a hang, a traceback or gigabytes of memory."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import numpy as np
import pytest

from benchmarks.bad_images import claimed_png
from device.bounded import FileUnusable, read_bounded
from device.calibration import (
    CALIBRATION_NAME,
    EMPTY_TRAY_NAME,
    load_calibration,
    save_calibration,
)
from device.cli import main
from device.rules_file import register_rules_folders
from vision.calibration import Calibration, Check


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
