"""Tests of the kiosk unit and its install: the directives it must have, `systemd-analyze verify`
silent and the exposure at most 2.0, the install script's packages, checks and polkit rule."""

from __future__ import annotations

import os
import re
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
    assert set(d["SupplementaryGroups"][0].split()) == {"gpio", "video", "i2c", "render"}
    assert d["StateDirectory"] == ["dicekeeper"]
    assert d["ConfigurationDirectory"] == ["dicekeeper"]
    assert "SDL_VIDEODRIVER=kmsdrm" in d["Environment"]
    assert d["ExecStart"] == ["/opt/dicekeeper/.venv/bin/dicekeeper run"]
    assert d["PrivateDevices"] == ["no"] and d["ProtectSystem"] == ["strict"]
    allowed = " ".join(d["DeviceAllow"])
    for device in ("gpiochip", "i2c", "video4linux", "drm"):
        assert device in allowed
    assert "input" not in allowed
    assert d["CapabilityBoundingSet"] == [""]
    assert d["SystemCallFilter"] == ["@system-service"]
    # The notify socket and D-Bus (logind's power-off) need AF_UNIX, udev AF_NETLINK, the web
    # scoreboard AF_INET/AF_INET6: it binds its port only, and talks only to private networks.
    assert set(d["RestrictAddressFamilies"][0].split()) == {
        "AF_UNIX",
        "AF_NETLINK",
        "AF_INET",
        "AF_INET6",
    }
    assert d["SocketBindAllow"] == ["tcp:8080"] and d["SocketBindDeny"] == ["any"]
    assert d["IPAddressDeny"] == ["any"]
    allowed_peers = d["IPAddressAllow"][0].split()
    assert "any" not in allowed_peers and "192.168.0.0/16" in allowed_peers


def test_the_unit_bounds_memory_and_descriptors_above_what_the_web_may_hold() -> None:
    from device.web.server import MAX_CONNECTIONS

    d = _directives()
    assert d["MemoryMax"] == ["768M"]
    assert int(d["LimitNOFILE"][0]) >= 4 * MAX_CONNECTIONS


def test_input_devices_only_through_the_keyboard_drop_in() -> None:
    text = (SYSTEMD / "keyboard-buttons.conf").read_text()
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines == ["[Service]", "SupplementaryGroups=input", "DeviceAllow=char-input r"]
    install = (SYSTEMD / "install.sh").read_text()
    assert "keyboard-buttons.conf" in install
    assert 'rm -f "$dropin/keyboard-buttons.conf"' in install


def test_the_polkit_rule_allows_only_power_off_only_to_the_service_user() -> None:
    rule = (SYSTEMD / "50-dicekeeper-poweroff.rules").read_text()
    actions = set(re.findall(r'action\.id == "([^"]+)"', rule))
    assert actions == {
        "org.freedesktop.login1.power-off",
        "org.freedesktop.login1.power-off-multiple-sessions",
    }
    assert re.findall(r'subject\.user == "([^"]+)"', rule) == ["dicekeeper"]
    assert rule.count("polkit.Result.YES") == 1
    assert "||" in rule and "&&" in rule  # the user AND one of the two actions


def test_the_install_script_installs_what_the_pi_needs() -> None:
    result = subprocess.run(
        [str(SYSTEMD / "install.sh"), "--print-apt-packages"],
        capture_output=True,
        text=True,
        check=True,
    )
    packages = set(result.stdout.split())
    for package in (
        "python3-numpy",
        "python3-picamera2",
        "python3-gpiozero",
        "python3-lgpio",
        "polkitd",
        "libgbm1",
        "libegl1",
        "libgles2",
        "libdrm2",
    ):
        assert package in packages


@pytest.mark.parametrize(
    ("dpkg_arch", "long_bit"), [("armhf", "32"), ("arm64", "32"), ("armel", "64")]
)
def test_the_install_script_refuses_a_32_bit_system(
    tmp_path: Path, dpkg_arch: str, long_bit: str
) -> None:
    # Stand-ins for dpkg, getconf and id (not root: were the check to let it through, the
    # script would stop at "run as root" and this test would fail, with nothing installed).
    for name, output in (("dpkg", dpkg_arch), ("getconf", long_bit), ("id", "1000")):
        tool = tmp_path / name
        tool.write_text(f"#!/bin/sh\necho {output}\n")
        tool.chmod(0o755)
    env = dict(os.environ, PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    result = subprocess.run(
        [str(SYSTEMD / "install.sh")], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 1
    assert "32-bit" in result.stderr and "arm64" in result.stderr
    assert result.stdout == ""


def test_the_install_script_is_valid_bash() -> None:
    script = SYSTEMD / "install.sh"
    assert script.stat().st_mode & 0o111
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text()
    assert "--system-site-packages" in text and "config.example.toml" in text


@needs_verify
def test_verify_passes_and_prints_only_the_exposures() -> None:
    result = subprocess.run([str(VERIFY)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and result.stderr == ""
    for line in lines:
        exposure = float(re.search(r"service: (\d+\.\d+) ", line).group(1))  # type: ignore[union-attr]
        assert exposure <= 2.0


@needs_verify
def test_verify_fails_a_unit_exposed_over_the_limit(tmp_path: Path) -> None:
    lax = tmp_path / "dicekeeper.service"
    hardening = ("CapabilityBoundingSet=", "SystemCallFilter=", "ProtectProc=", "IPAddressDeny=")
    lax.write_text(
        "".join(
            line
            for line in UNIT.read_text().splitlines(keepends=True)
            if not line.startswith(hardening)
        )
    )
    result = subprocess.run([str(VERIFY), str(lax)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "over 2.0" in result.stdout


@needs_verify
def test_verify_reports_a_broken_unit(tmp_path: Path) -> None:
    broken = tmp_path / "dicekeeper.service"
    broken.write_text(UNIT.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    result = subprocess.run([str(VERIFY), str(broken)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "sometimes" in result.stdout
