"""README's tournament example, run as written on a fresh machine (an empty home): the table
is solved first, so `optimal` plays itself, the figures the README quotes are the ones printed,
and the plot is drawn."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_readme_tournament_example_compares_expert_and_optimal(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("dicekeeper strategy --solve --rules greed-koans")
    block = readme[start : readme.index("```", start)]
    commands = [shlex.split(line.split("#", 1)[0]) for line in block.splitlines() if line.strip()]
    assert [c[:2] for c in commands] == [["dicekeeper", "strategy"], ["dicekeeper", "tournament"]]
    env = dict(os.environ, HOME=str(tmp_path))
    for name in ("XDG_STATE_HOME", "STATE_DIRECTORY"):
        env.pop(name, None)
    outputs = []
    for command in commands:
        done = subprocess.run(
            [sys.executable, "-m", "device", *command[1:]],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "plays expert" not in done.stderr, done.stderr
        outputs.append(done.stdout)
    quoted = re.search(
        r"It prints expert (\d+) wins .* and optimal (\d+) ", readme.replace("\n", " ")
    )
    assert quoted is not None
    for name, wins in zip(("expert", "optimal"), quoted.groups(), strict=True):
        assert re.search(rf"^\s+{name}\s+{wins} wins", outputs[1], re.MULTILINE), outputs[1]
    assert (tmp_path / "trajectories.png").stat().st_size > 0
