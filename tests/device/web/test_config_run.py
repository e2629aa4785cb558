"""The [web] configuration and `dicekeeper run` serving the scoreboard as a real process."""

from __future__ import annotations

import json
import signal
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from device.config import ConfigError, WebConfig, load_config, parse_config
from tests.device.harness import start_run

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "systemd" / "config.example.toml"


def test_the_web_is_off_by_default_and_on_in_the_pis_config() -> None:
    assert parse_config({}, environ={}).web == WebConfig(enabled=False, port=8080, bind="0.0.0.0")
    assert load_config(EXAMPLE, environ={}).web == WebConfig(True, 8080, "0.0.0.0")


def test_web_keys_are_read() -> None:
    web = parse_config({"web": {"enabled": True, "port": 9000, "bind": "::"}}, environ={}).web
    assert web == WebConfig(True, 9000, "::")


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"enabled": "yes"}, ["web.enabled", "'yes'"]),
        ({"port": 80}, ["web.port", "80", "1024"]),
        ({"port": 70000}, ["web.port", "70000", "65535"]),
        ({"port": "8080"}, ["web.port", "'8080'", "whole number"]),
        ({"bind": "pi.local"}, ["web.bind", "'pi.local'", "IP address"]),
        ({"bind": 0}, ["web.bind", "0", "string"]),
        ({"prot": 8080}, ["web.prot", "did you mean 'port'"]),
    ],
)
def test_bad_web_keys_are_named(table: dict[str, object], words: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"web": table}, environ={})
    for word in words:
        assert word in str(caught.value)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _config(tmp_path: Path, port: int, web: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        f"""
[game]
rules = "farkle"
players = ["Ann", "Bob"]
[camera]
backend = "simulated"
width = 320
height = 240
settle_seconds = 0.1
read_truth = true
[buttons]
backend = "keyboard"
[[display]]
kind = "terminal"
[state]
directory = "{tmp_path / "state"}"
[web]
enabled = true
bind = "127.0.0.1"
port = {port}
{web}
"""
    )
    return path


def test_run_serves_the_state_on_its_port(tmp_path: Path) -> None:
    port = _free_port()
    out = tmp_path / "out.txt"
    process = start_run(_config(tmp_path, port), out)
    try:
        deadline = time.monotonic() + 60
        state = None
        while state is None:
            assert process.poll() is None, out.read_text()
            assert time.monotonic() < deadline, out.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
                    state = json.loads(r.read())
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        assert state["rules"] == "farkle"
        assert [p["name"] for p in state["players"]] == ["Ann", "Bob"]
        shown = out.read_text()
        assert f"http://127.0.0.1:{port}" in shown
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_port_in_use_stops_run_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = tmp_path / "out.txt"
        process = start_run(_config(tmp_path, port), out)
        try:
            assert process.wait(60) == 2
        finally:
            if process.poll() is None:
                process.kill()
    text = out.read_text()
    assert "Traceback" not in text
    last = text.splitlines()[-1]
    assert f"web.port = {port}" in last and "address already in use" in last.lower(), text


def test_a_bad_web_key_stops_run_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    config = _config(tmp_path, 8080, web='colour = "red"')
    process = start_run(config, out)
    assert process.wait(60) == 2
    lines = [line for line in out.read_text().splitlines() if line.strip()]
    assert len(lines) == 1 and "web.colour" in lines[0], lines
