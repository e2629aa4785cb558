"""Tests of the kiosk unit: the directives it must have; `systemd-analyze verify` stays silent."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNIT = SYSTEMD / "dicekeeper.service"
VERIFY = SYSTEMD / "verify-unit.sh"


def _dicekeeper_executable() -> str | None:
    """The dicekeeper verify-unit.sh checks the unit with: the venv's, else the PATH's."""
    venv = SYSTEMD.parent / ".venv" / "bin" / "dicekeeper"
    if venv.is_file() and os.access(venv, os.X_OK):
        return str(venv)
    return shutil.which("dicekeeper")


needs_verify = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None or _dicekeeper_executable() is None,
    reason="needs systemd-analyze and a dicekeeper executable (in .venv/bin or on the PATH): "
    "install the project (make test) to run it",
)


def _directives() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_has_the_kiosk_directives() -> None:
    d = _directives()
    assert d["Type"] == ["notify"]
    assert int(d["WatchdogSec"][0]) > 0
    assert d["Restart"] == ["on-failure"]
    assert d["User"] == ["dicekeeper"]
    assert set(d["SupplementaryGroups"][0].split()) == {"gpio", "video", "i2c", "input", "render"}
    assert d["StateDirectory"] == ["dicekeeper"]
    assert d["ConfigurationDirectory"] == ["dicekeeper"]
    assert "SDL_VIDEODRIVER=kmsdrm" in d["Environment"]
    assert d["ExecStart"] == ["/opt/dicekeeper/.venv/bin/dicekeeper run"]
    assert d["PrivateDevices"] == ["no"] and d["ProtectSystem"] == ["strict"]
    allowed = " ".join(d["DeviceAllow"])
    for device in ("gpiochip", "i2c", "video4linux", "drm", "input"):
        assert device in allowed


def test_the_install_script_is_valid_bash() -> None:
    script = SYSTEMD / "install.sh"
    assert script.stat().st_mode & 0o111
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text()
    assert "--system-site-packages" in text and "config.example.toml" in text


@needs_verify
def test_systemd_analyze_verify_prints_nothing() -> None:
    result = subprocess.run([str(VERIFY)], capture_output=True, text=True, check=False)
    assert result.stdout + result.stderr == ""
    assert result.returncode == 0


@needs_verify
def test_verify_reports_a_broken_unit(tmp_path: Path) -> None:
    broken = tmp_path / "dicekeeper.service"
    broken.write_text(UNIT.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    result = subprocess.run([str(VERIFY), str(broken)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "sometimes" in result.stdout
