"""The tournament's plot: entrants whose mean trajectories coincide are all visible."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from device.commands.tournament import COLOURS, Standing, save_plot
from device.session import rules_for


def test_coincident_means_are_each_visible(tmp_path: Path) -> None:
    games = [[300, 700, 1200, 2000, 2600], [0, 500, 900, 1500, 2400, 3100]]
    standings = [Standing(name, trajectories=[list(g) for g in games]) for name in "ABC"]
    path = tmp_path / "plot.png"
    save_plot(str(path), rules_for("greed-koans"), standings)
    with Image.open(path) as image:
        plot = image.convert("RGB").crop((71, 31, 900 - 190, 560 - 50))  # inside the frame
        seen = {colour for _, colour in plot.getcolors(maxcolors=1 << 16) or []}
    for number in range(3):
        assert COLOURS[number] in seen, number
