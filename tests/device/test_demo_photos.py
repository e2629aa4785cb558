"""`dicekeeper demo --keep-photos DIR`: the game's labelled photos exported at the end, in the
datasets' layout; a folder with something in it is refused before any game is played."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.vision_accuracy import load_labels
from device.cli import main
from tests.device.harness import run_demo


def test_the_demo_exports_the_photos_of_its_throws(tmp_path: Path) -> None:
    out = tmp_path / "photos"
    stdout, _ = run_demo(
        ["--target", "300", "--seed", "3", "--fast", "--keep-photos", str(out)], tmp_path / "s"
    )
    kept = re.search(r"^photos: (\d+) labelled photos \((\d+) dice\) in ", stdout, re.MULTILINE)
    assert kept is not None, stdout
    read = re.search(r"^reader: \d+ of (\d+) throws.*, (\d+) refused", stdout, re.MULTILINE)
    assert read is not None
    labels = load_labels(out)
    counted = int(read[1]) - int(read[2])
    assert len(labels) == int(kept[1]) == counted  # every throw that counted, no other
    assert sum(len(dice) for dice in labels.values()) == int(kept[2])
    assert all((out / image).is_file() for image in labels)
    assert {d.value for dice in labels.values() for d in dice} <= {1, 2, 3, 4, 5, 6}


def test_a_folder_with_something_in_it_is_refused_before_playing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "old.jpg").write_bytes(b"x")
    assert main(["demo", "--keep-photos", str(tmp_path)]) == 2
    assert "--keep-photos" in caplog.text and "is not empty" in caplog.text
