"""Tests of the label errata: a die labelled with a value its photo does not show is corrected as
the labels are loaded, and an erratum that points at no such die is refused."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from benchmarks import vision_accuracy
from benchmarks.vision_accuracy import DATASETS, ERRATA, errata, load_labels

HEADER = "image,x_min,y_min,x_max,y_max,value\n"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "dice"
    folder.mkdir()
    (folder / "labels.csv").write_text(
        HEADER + "images/a.jpg,10,10,50,50,2\nimages/a.jpg,60,10,100,50,2\n", encoding="utf-8"
    )
    return folder


def _errata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *rows: str) -> None:
    path = tmp_path / "errata.csv"
    path.write_text("folder,image,x,y,labelled,shows,seen\n" + "".join(rows), encoding="utf-8")
    monkeypatch.setattr(vision_accuracy, "ERRATA", path)


def test_an_erratum_corrects_the_die_it_points_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _errata(tmp_path, monkeypatch, 'dice,images/a.jpg,80,30,2,3,"three pips"\n')
    labels = load_labels(_folder(tmp_path))
    assert [d.value for d in labels["images/a.jpg"]] == [2, 3]


@pytest.mark.parametrize(
    "row", ["dice,images/a.jpg,200,30,2,3,off\n", "dice,images/a.jpg,80,30,5,3,x\n"]
)
def test_an_erratum_on_no_such_die_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, row: str
) -> None:
    _errata(tmp_path, monkeypatch, row)
    with pytest.raises(ValueError, match="no single die labelled"):
        load_labels(_folder(tmp_path))


def test_the_shipped_errata_each_correct_one_die_of_the_shared_datasets() -> None:
    with ERRATA.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(row["seen"] and row["labelled"] != row["shows"] for row in rows)
    folders = sorted({row["folder"] for row in rows})
    if not all((DATASETS / name / "labels.csv").is_file() for name in folders):
        pytest.skip(f"no labelled photos at {DATASETS} (the shared datasets folder is missing)")
    for name in folders:
        labels = load_labels(DATASETS / name)  # refuses an erratum that matches no die
        for row in errata(name):
            x, y = float(row["x"]), float(row["y"])
            (die,) = [
                d
                for d in labels[row["image"]]
                if d.x_min <= x <= d.x_max and d.y_min <= y <= d.y_max
            ]
            assert die.value == int(row["shows"])
