"""`dicekeeper demo`: computer players play a whole game through the full pipeline, no input."""

from __future__ import annotations

import re
from pathlib import Path

from tests.device.harness import run_demo


def test_demo_plays_to_a_winner_through_camera_reader_and_screens(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    stdout, match = run_demo(
        ["--rules", "greed", "--target", "300", "--seed", "3", "--fast"], shots
    )
    scores = {name: int(points) for name, points in re.findall(r"(\w+) (\d+)", match.group(2))}
    assert set(scores) == {"Expert", "Bold"}
    assert scores[match.group(1)] == max(scores.values()) >= 300
    assert re.fullmatch(
        r"reader: \d+ of \d+ throws read exactly, \d+ corrected by the players, "
        r"\d+ refused and thrown again, \d+ scored wrongly",
        stdout.strip().splitlines()[-1],
    )
    for name in ("final-screen.png", "final-oled.png", "turn-001-screen.png"):
        assert (shots / name).stat().st_size > 0
    # Without a window the table is printed at the start and once a turn, not at every change.
    turns = len(list(shots.glob("turn-*-screen.png")))
    assert stdout.count("== dicekeeper · greed ==") == turns + 1
