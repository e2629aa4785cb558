"""Bad input from outside: lying or broken image files given to `dicekeeper read` and to the
replay camera at the table. Each gets one line naming it and exit status 2 (read), or a message with
the table going on (replay); never a traceback, never gigabytes decoded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.bad_images import bad_images, claimed_png, damaged_header_png
from tests.device.harness import SIZE, config, open_rig
from tests.vision.drawn import DrawnDie, draw


@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every kind of bad image file (the 20000×20000 PNG is about 400 KB, made once)."""
    return bad_images(tmp_path_factory.mktemp("bad"))


def _read(*images: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "device", "read", *map(str, images)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_read_names_each_bad_image_in_one_line_and_reads_the_good_ones(
    bad: dict[str, Path], tmp_path: Path
) -> None:
    good = tmp_path / "six.png"
    cv2.imwrite(str(good), draw([DrawnDie(320, 240, 80, 6, 0.0)]))
    result = _read(*bad.values(), good)
    assert result.returncode == 2
    assert result.stdout.splitlines() == [f"{good}: 6"]
    errors = result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    assert len(errors) == len(bad), result.stderr
    for line, path in zip(errors, bad.values(), strict=True):
        assert line.startswith(f"dicekeeper read: '{path}' "), line
    assert "too large" in errors[0] and "too large" in errors[1]


@pytest.mark.parametrize("name", ["header says 40000x40000", "20000x20000 image"])
def test_read_of_a_huge_image_alone_exits_2_at_once(bad: dict[str, Path], name: str) -> None:
    result = _read(bad[name])
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert "too large to read" in line


def test_the_table_says_a_replay_frame_is_bad_and_goes_on(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    tray = np.full((SIZE[1], SIZE[0], 3), 60, np.uint8)
    cv2.imwrite(str(frames / "a.png"), tray)
    damaged_header_png(frames / "b.png")
    claimed_png(frames / "c.png", 40_000, 40_000)
    cv2.imwrite(str(frames / "d.png"), tray)
    camera = {"backend": "replay", "path": str(frames), "width": SIZE[0], "height": SIZE[1]}
    rig = open_rig(config(tmp_path, extra={"camera": camera}), oracle=False)
    with rig.table:
        messages = [rig.step().message for _ in range(4)]
        assert "b.png" in messages[1] and "is not an image" in messages[1]
        assert "c.png" in messages[2] and "too large" in messages[2]
        assert "b.png" not in messages[3] and "c.png" not in messages[3]
        assert "ended" in rig.step().message  # the replay's end, as for any replay
