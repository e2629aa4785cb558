"""`dicekeeper run` with a picamera2 that does not load: exit 2 and one line, never a traceback.

A fake `picamera2` package first on PYTHONPATH stands in for apt's picamera2 meeting a numpy it
was not built for (or not being installed at all), as on a Pi where pip replaced apt's numpy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CONFIG = """
[camera]
backend = "picamera2"
[buttons]
backend = "keyboard"
[[display]]
kind = "terminal"
[state]
directory = "{state}"
"""

DTYPE_SIZE_CHANGED = (
    "numpy.dtype size changed, may indicate binary incompatibility. "
    "Expected 96 from C header, got 88 from PyObject"
)


@pytest.mark.parametrize(
    ("package", "words"),
    [
        (f"raise ValueError({DTYPE_SIZE_CHANGED!r})", ["ValueError", "constraints-bookworm.txt"]),
        ("raise ImportError('libcamera.so.0.2: cannot open shared object file')", ["apt install"]),
        (
            "class Picamera2:\n    def __init__(self):\n        raise IndexError('list index')\n",
            ["no Raspberry Pi camera found", "IndexError"],
        ),
    ],
    ids=["numpy-mismatch", "not-installed", "no-camera"],
)
def test_a_picamera2_that_fails_exits_2_with_one_line(
    tmp_path: Path, package: str, words: list[str]
) -> None:
    fake = tmp_path / "site" / "picamera2"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(package + "\n")
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=tmp_path / "state"))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env["PYTHONPATH"] = os.pathsep.join([str(fake.parent), env.get("PYTHONPATH", "")])
    env.pop("NOTIFY_SOCKET", None)
    result = subprocess.run(
        [sys.executable, "-m", "device", "run", "--config", str(config)],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("dicekeeper run:")]
    assert len(errors) == 1, result.stderr
    assert "picamera" in errors[0].lower() or "Raspberry Pi camera" in errors[0]
    for word in words:
        assert word in errors[0]
