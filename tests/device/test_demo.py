"""`dicekeeper demo`: computer players play a whole game through the full pipeline, no input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def test_demo_plays_to_a_winner_through_camera_reader_and_screens(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    command = ["demo", "--rules", "greed", "--target", "300", "--seed", "3", "--fast"]
    result = subprocess.run(
        [sys.executable, "-m", "device", *command, "--screenshots", str(shots)],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    match = re.search(r"^winner: (\w+) \((.*)\)$", result.stdout, re.MULTILINE)
    assert match is not None, result.stdout[-2000:]
    scores = {name: int(points) for name, points in re.findall(r"(\w+) (\d+)", match.group(2))}
    assert set(scores) == {"Expert", "Bold"}
    assert scores[match.group(1)] == max(scores.values()) >= 300
    assert re.fullmatch(
        r"reader: \d+ of \d+ throws read exactly, \d+ corrected by the players, "
        r"\d+ refused and thrown again, \d+ scored wrongly",
        result.stdout.strip().splitlines()[-1],
    )
    for name in ("final-screen.png", "final-oled.png", "turn-001-screen.png"):
        assert (shots / name).stat().st_size > 0
