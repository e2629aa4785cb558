"""Tests of how the benchmark and the training scripts take a folder of crops of one die each:
each crop set in a frame of its border's colour, its label moved with it, and such folders listed
only when asked for."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks import vision_accuracy
from benchmarks.vision_accuracy import CROP_MARGIN, framed, labelled_folders, labelled_photos
from vision.evaluation import LabelledDie

HEADER = "image,x_min,y_min,x_max,y_max,value\n"
CLOTH = (30, 120, 40)


def _crop() -> np.ndarray:
    """A 30 px wide, 20 px high crop of green cloth with a white die in it."""
    crop = np.full((20, 30, 3), CLOTH, np.uint8)
    crop[3:17, 8:22] = 255
    return crop


def _folder(root: Path, name: str) -> Path:
    folder = root / name
    (folder / "images").mkdir(parents=True)
    cv2.imwrite(str(folder / "images" / "a.png"), _crop())
    (folder / "labels.csv").write_text(HEADER + "images/a.png,0,0,30,20,5\n", encoding="utf-8")
    return folder


def test_a_crop_is_set_in_the_middle_of_a_frame_of_its_border_colour() -> None:
    frame, dice = framed(_crop(), [LabelledDie(0, 0, 30, 20, 5)])
    margin = round(CROP_MARGIN * 30)
    assert frame.shape == (20 + 2 * margin, 30 + 2 * margin, 3)
    assert np.array_equal(frame[margin : margin + 20, margin : margin + 30], _crop())
    assert tuple(frame[0, 0]) == CLOTH and tuple(frame[-1, -1]) == CLOTH
    assert dice == [LabelledDie(margin, margin, margin + 30, margin + 20, 5)]


def test_the_crops_of_a_crop_folder_come_framed_and_a_photo_folder_s_as_they_are(
    tmp_path: Path,
) -> None:
    [(name, frame, dice)] = labelled_photos(_folder(tmp_path, "chase-casino-crops"))
    assert name == "images/a.png"
    assert frame.shape == (80, 90, 3)
    assert dice[0].center == (45.0, 40.0) and dice[0].value == 5
    [(_, photo, labels)] = labelled_photos(_folder(tmp_path, "photos"))
    assert photo.shape == (20, 30, 3)
    assert labels[0].center == (15.0, 10.0)


def test_folders_of_crops_are_listed_only_when_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _folder(tmp_path, "chase-casino-crops")
    _folder(tmp_path, "photos")
    monkeypatch.setattr(vision_accuracy, "DATASETS", tmp_path)
    assert [f.name for f in labelled_folders()] == ["photos"]
    assert [f.name for f in labelled_folders(crops=True)] == ["chase-casino-crops", "photos"]
