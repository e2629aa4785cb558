"""The bridge between the table's thread and the web's: views, frames and queued requests."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from device.web.bridge import MAX_QUEUED, PER_STEP, TableBusy, WebBridge
from device.web.server import lan_address
from hardware.view import PlayerView, TableView
from tests.device.harness import config, open_rig
from tests.device.web.webrig import served


def test_show_wakes_the_web_only_when_the_view_changed() -> None:
    woken: list[int] = []
    bridge = WebBridge(clock=lambda: 0.0)
    bridge.set_wake(lambda: woken.append(1))
    view = TableView(rules="greed", players=(PlayerView("Ann"),), current=0)
    bridge.show(view)
    bridge.show(TableView(rules="greed", players=(PlayerView("Ann"),), current=0))
    assert len(woken) == 1 and bridge.snapshot() == (view, 0)
    bridge.show(TableView(rules="farkle"))
    assert len(woken) == 2


def test_a_new_camera_picture_is_announced_at_most_every_period() -> None:
    now = [0.0]
    bridge = WebBridge(clock=lambda: now[0], camera_period=0.5)
    view = TableView()
    bridge.show(view)
    assert bridge.frame() == (0, None)
    frame = np.zeros((4, 4, 3), np.uint8)
    bridge.on_frame(frame)
    bridge.show(view)
    assert bridge.snapshot()[1] == 1 and bridge.frame()[1] is frame
    bridge.on_frame(frame.copy())
    now[0] += 0.2
    bridge.show(view)
    assert bridge.snapshot()[1] == 1  # too soon
    now[0] += 0.3
    bridge.show(view)
    assert bridge.snapshot()[1] == 2
    now[0] += 1.0
    bridge.show(view)
    assert bridge.snapshot()[1] == 2  # no new frame


def test_drain_applies_a_bounded_number_of_requests_in_order() -> None:
    bridge = WebBridge()
    done: list[int] = []
    futures = [
        bridge.submit(lambda controller, now, n=n: done.append(n) or n) for n in range(PER_STEP + 2)
    ]
    bridge.drain(None, 0.0)  # type: ignore[arg-type]
    assert done == list(range(PER_STEP))
    bridge.drain(None, 0.0)  # type: ignore[arg-type]
    assert done == list(range(PER_STEP + 2))
    assert [f.result() for f in futures] == list(range(PER_STEP + 2))


def test_a_failing_request_fails_its_future_and_the_table_carries_on() -> None:
    bridge = WebBridge()

    def broken(controller: Any, now: float) -> None:
        raise ValueError("broken")

    failing = bridge.submit(broken)
    fine = bridge.submit(lambda controller, now: "ok")
    bridge.drain(None, 0.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="broken"):
        failing.result()
    assert fine.result() == "ok"


def test_a_full_queue_is_busy_and_closing_fails_the_waiting_requests() -> None:
    bridge = WebBridge()
    waiting = [bridge.submit(lambda controller, now: None) for _ in range(MAX_QUEUED)]
    with pytest.raises(TableBusy):
        bridge.submit(lambda controller, now: None)
    bridge.close()
    assert all(isinstance(f.exception(), TableBusy) for f in waiting)


def test_the_event_stream_pings_while_nothing_changes(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path))
    rig.step()

    async def check() -> None:
        async with served(rig) as web:
            web.context.ping_seconds = 0.05
            answer = await web.client.get("/api/events")
            lines = []
            while b": ping\n" not in lines:
                lines.append(await asyncio.wait_for(answer.content.readline(), 10))
            assert lines[0] == b"event: state\n"
            answer.close()

    asyncio.run(check())


def test_the_address_shown_is_the_bound_one_or_this_machines() -> None:
    assert lan_address("127.0.0.1") == "127.0.0.1"
    assert lan_address("192.168.1.5") == "192.168.1.5"
    found = lan_address("0.0.0.0")
    assert found and found != "0.0.0.0" and not found.startswith("127.")


def test_a_new_address_reaches_the_screens_at_the_next_step(tmp_path: Path) -> None:
    from device.web.auth import Pairing
    from device.web.server import WebServer, connect

    rig = open_rig(config(tmp_path))
    bridge = WebBridge()
    server = WebServer(bridge, Pairing(), bind="0.0.0.0", port=8080, store_path=None)
    connect(bridge, rig.table.controller, url="http://raspberrypi.local:8080", code="1234")
    assert rig.step().web == "http://raspberrypi.local:8080"
    assert server.show_address("http://192.168.1.7:8080")
    assert rig.step().web == "http://192.168.1.7:8080"
