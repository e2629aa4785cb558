"""`dicekeeper read`: text and JSON lines per image, annotated images, bad files named on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cli import main
from device.commands import read as read_command
from tests.vision.drawn import DrawnDie, draw
from vision.types import Box, DieReading, Reading


@pytest.fixture
def tray_images(tmp_path: Path) -> tuple[Path, Path]:
    """Two images of drawn dice: a 3 and a 5; and a 6 alone."""
    first = tmp_path / "three_five.png"
    second = tmp_path / "six.png"
    cv2.imwrite(
        str(first), draw([DrawnDie(200, 240, 70, 3, 10.0), DrawnDie(420, 240, 70, 5, 30.0)])
    )
    cv2.imwrite(str(second), draw([DrawnDie(320, 240, 80, 6, 0.0, "red")]))
    return first, second


def test_json_prints_one_line_per_image_with_every_die(
    tray_images: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tray_images
    assert main(["read", "--json", str(first), str(second)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    one, two = (json.loads(line) for line in lines)
    assert one["image"] == str(first)
    assert sorted(d["value"] for d in one["dice"]) == [3, 5]
    assert [d["value"] for d in two["dice"]] == [6]
    die = two["dice"][0]
    assert set(die) == {"value", "x", "y", "w", "h", "confidence"}
    # The fast path places a die's centre from the classifier's look, within a tenth of its
    # width (the pip stages, from its pips, within a pixel or two).
    assert abs(die["x"] - 320) < 8 and abs(die["y"] - 240) < 8  # 80 px wide
    assert die["w"] > 40 and die["h"] > 40
    assert 0 < die["confidence"] <= 1


def test_text_output_names_the_image_and_its_values(
    tray_images: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, second = tray_images
    assert main(["read", str(second)]) == 0
    assert capsys.readouterr().out.strip() == f"{second}: 6"


def test_a_file_that_is_not_an_image_is_named_and_the_others_still_read(
    tray_images: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tray_images
    junk = tmp_path / "notes.jpg"
    junk.write_text("not an image")
    missing = tmp_path / "missing.png"
    status = main(["read", "--json", str(first), str(junk), str(missing), str(second)])
    captured = capsys.readouterr()
    assert status == 2
    assert [json.loads(line)["image"] for line in captured.out.splitlines()] == [
        str(first),
        str(second),
    ]
    errors = captured.err.splitlines()
    assert len(errors) == 2
    assert str(junk) in errors[0] and "not an image" in errors[0]
    assert str(missing) in errors[1] and "does not exist" in errors[1]


def test_annotate_writes_each_image_with_its_dice_drawn(
    tray_images: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tray_images
    out = tmp_path / "annotated"
    assert main(["read", "--annotate", str(out), str(first), str(second)]) == 0
    capsys.readouterr()
    written = sorted(p.name for p in out.iterdir())
    assert written == ["six.annotated.png", "three_five.annotated.png"]
    original = cv2.imread(str(second))
    annotated = cv2.imread(str(out / "six.annotated.png"))
    assert original is not None and annotated is not None
    assert annotated.shape == original.shape
    assert bool(np.any(annotated != original))


def test_a_tiny_image_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), draw([])[:2, :2])
    assert main(["read", str(tiny)]) == 2
    assert "tiny.png" in capsys.readouterr().err


def test_json_gives_an_unread_die_its_likeliest_value_when_there_is_one(
    tray_images: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    box = Box(10, 10, 40, 40)
    dice = (
        DieReading(3, (30.0, 30.0), box, 0.9),
        DieReading(None, (90.0, 30.0), box, 0.6, likely=5),
        DieReading(None, (150.0, 30.0), box, 0.5),
    )
    monkeypatch.setattr(read_command, "read", lambda frame, expected=None: Reading(dice))
    assert main(["read", "--json", str(tray_images[1])]) == 0
    read, guessed, unsure = json.loads(capsys.readouterr().out)["dice"]
    assert (read["value"], guessed["value"], unsure["value"]) == (3, None, None)
    assert guessed["likely"] == 5
    assert "likely" not in read and "likely" not in unsure
    assert set(read) == {"value", "x", "y", "w", "h", "confidence"}


def test_expect_passes_the_count_of_dice_to_the_reader(
    tray_images: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told: list[int | None] = []
    real = read_command.read

    def reading(frame: np.ndarray, *, expected: int | None = None) -> Reading:
        told.append(expected)
        return real(frame, expected=expected)

    monkeypatch.setattr(read_command, "read", reading)
    first, second = tray_images
    assert main(["read", "--expect", "2", str(first)]) == 0
    assert main(["read", str(second)]) == 0
    assert told == [2, None]
    assert capsys.readouterr().out.splitlines()[0].endswith(": 3 5")


@pytest.mark.parametrize("count", ["0", "31", "-2", "two", "2.5"])
def test_expect_refuses_a_count_outside_one_to_thirty(
    count: str, tray_images: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["read", "--expect", count, str(tray_images[0])])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"--expect: {count!r} is not a number of dice from 1 to 30" in err
    assert "Traceback" not in err
