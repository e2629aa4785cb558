"""The table never waits for the web: with the web's event loop stuck, the table still steps and
reads a throw (a table that waited would hang until pytest's timeout); once the web is free again
it serves the newest state."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request
from pathlib import Path

from device.web.bridge import WebBridge
from device.web.server import start_web
from tests.device.harness import config, is_waiting, open_rig


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_table_steps_while_the_web_is_stuck(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3, 4]]))
    bridge = WebBridge()
    port = _free_port()
    server = start_web(
        bridge,
        rig.table.controller,
        bind="127.0.0.1",
        port=port,
        store_path=rig.table.store.path,
    )
    release = threading.Event()
    try:
        assert server._loop is not None
        server._loop.call_soon_threadsafe(release.wait)  # the web's loop can do nothing now
        rig.until(is_waiting)  # a table that waited for the web would hang here (timeout)
        assert rig.view.options and rig.view.phase.value == "choosing"
        release.set()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=30) as answer:
            state = json.loads(answer.read())
        assert state["phase"] == "choosing" and state["options"]
    finally:
        release.set()
        server.stop()
        bridge.close()
        rig.table.close()
