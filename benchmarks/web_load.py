"""The table loop's step times without the web scoreboard, then with phones watching and
controlling it on the loopback address.

    .venv/bin/python benchmarks/web_load.py [--seconds 20] [--watchers 20] [--controllers 2]

The table plays by itself: two computer players whose dice the simulated camera throws and the
table reads (``computer_throws = "person"``; the simulator's truth, or with ``--real-reader``
the dice reader), stepped 20 times a second by
`device.loop.run_loop` on the real clock. The first run has no web; the second serves it on
127.0.0.1 (a free port) while a separate process runs the clients for the same time, each from
its own loopback address (127.0.0.2 onwards, as phones have their own; the server bounds what
one address may hold): WATCHERS event streams (each fetching the camera picture when its number
changes, as the page does) and CONTROLLERS paired clients posting a keep or a roll once a second
each (refused while a computer plays, so they go through the table's queue without changing the
game), then the table alone again (how much the figures vary by themselves on this machine). It
prints each run's step times (median, 99th percentile, max, in ms) and what the clients got.
Everything stops by itself after the given time; only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from benchmarks.children import free_port

RATE = 20.0


WARM_UP = 20
"""Steps left out of the figures at the start of each run (networks loading, first renders)."""


def _config(state: Path, *, real_reader: bool) -> object:
    from device.config import parse_config

    return parse_config(
        {
            "game": {"rules": "greed", "players": ["cpu:expert", "cpu:bold"], "target": 3000},
            "players": {"computer_throws": "person"},
            "camera": {
                "backend": "simulated",
                "seed": 5,
                "settle_seconds": 0.3,
                "read_truth": not real_reader,
            },
            "display": [{"kind": "terminal"}],
            "state": {"directory": str(state)},
        },
        environ={},
    )


def run_table(
    seconds: float, *, web: bool, watchers: int, controllers: int, real_reader: bool
) -> dict[str, object]:
    """Run the table for ``seconds``; with ``web``, serve it and run the clients meanwhile."""
    from device.loop import run_loop
    from device.web.bridge import WebBridge
    from device.wiring import open_table
    from hardware.display import MultiDisplay

    times: list[float] = []
    clients: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="dicekeeper-web-load-") as folder:
        config = _config(Path(folder), real_reader=real_reader)
        bridge = WebBridge() if web else None
        table = open_table(
            config,  # type: ignore[arg-type]
            think_seconds=0.3,
            on_frame=bridge.on_frame if bridge else None,
        )
        with table:
            controller = table.controller
            # The terminal would print every view: show nothing but the web (or nothing).
            table.display.displays = ()
            controller.display = MultiDisplay([])
            server = None
            process = None
            if bridge is not None:
                from device.web.server import start_web

                port = free_port()
                server = start_web(
                    bridge, controller, bind="127.0.0.1", port=port, store_path=table.store.path
                )
                code = controller.overlay.pair_code
                process = subprocess.Popen(
                    [
                        sys.executable,
                        __file__,
                        "--client",
                        f"http://127.0.0.1:{port}",
                        "--code",
                        code,
                        "--seconds",
                        str(seconds),
                        "--watchers",
                        str(watchers),
                        "--controllers",
                        str(controllers),
                    ],
                    stdout=subprocess.PIPE,
                    text=True,
                )
            step = controller.step

            def timed(now: float) -> object:
                start = time.perf_counter()
                view = step(now)
                times.append(time.perf_counter() - start)
                return view

            controller.step = timed  # type: ignore[method-assign]
            end = time.monotonic() + seconds
            if process is None:
                run_loop(controller, rate=RATE, stop=lambda c: time.monotonic() >= end)
            else:  # until the clients are done (they stop after ``seconds``)
                run_loop(controller, rate=RATE, stop=lambda c: process.poll() is not None)
            if process is not None:
                out, _ = process.communicate(timeout=seconds + 60)
                clients = json.loads(out)
                clients["client_cpu_s"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            if server is not None:
                if server.thread_id is not None:
                    clock = time.pthread_getcpuclockid(server.thread_id)
                    clients["web_thread_cpu_s"] = time.clock_gettime(clock)
                clients["wall_s"] = time.monotonic() - end + seconds
                server.stop()
            if bridge is not None:
                bridge.close()
            turns = sum(p.turns for p in controller.state.players)
    return {"times": times[WARM_UP:], "clients": clients, "turns": turns}


def _summary(label: str, result: dict[str, object]) -> str:
    times = sorted(result["times"])  # type: ignore[type-var]
    ms = [t * 1000 for t in times]  # type: ignore[attr-defined]
    if not ms:
        return f"{label}: no step measured past the first {WARM_UP} (a machine too busy)"
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return (
        f"{label}: {len(ms)} steps ({result['turns']} turns played), step time median "
        f"{statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms"
    )


# --- the clients (a process of their own) ----------------------------------------------------


async def clients(url: str, code: str, seconds: float, watchers: int, controllers: int) -> dict:
    """Run the watchers and controllers against ``url`` for ``seconds``; what they got."""
    import aiohttp

    counts: Counter[str] = Counter()
    latencies: list[float] = []
    end = time.monotonic() + seconds
    timeout = aiohttp.ClientTimeout(total=None, sock_read=20)

    def phone(number: int) -> aiohttp.ClientSession:
        """A session from loopback address 127.0.0.(number + 2), as one phone."""
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{number + 2}", 0))
        return aiohttp.ClientSession(timeout=timeout, connector=connector)

    async def watch(number: int) -> None:
        camera = 0
        async with phone(number) as session, session.get(f"{url}/api/events") as stream:
            counts[f"events {stream.status}"] += 1
            while time.monotonic() < end:
                try:
                    line = await asyncio.wait_for(
                        stream.content.readline(), max(0.01, end - time.monotonic())
                    )
                except TimeoutError:
                    break
                if not line.startswith(b"data: "):
                    continue
                counts["state events"] += 1
                state = json.loads(line[6:])
                if state["camera"] != camera:
                    camera = state["camera"]
                    async with session.get(f"{url}/api/camera.jpg") as picture:
                        await picture.read()
                        counts[f"camera.jpg {picture.status}"] += 1

    async def control(number: int) -> None:
        async with phone(number) as session:
            await control_from(session)

    async def control_from(session: aiohttp.ClientSession) -> None:
        async with session.post(f"{url}/api/pair", json={"code": code}) as answer:
            token = (await answer.json())["token"]
        headers = {"Authorization": f"Bearer {token}"}
        n = 0
        while time.monotonic() < end:
            path, body = (("/api/keep", {"option": 0}), ("/api/roll", {}))[n % 2]
            n += 1
            start = time.perf_counter()
            async with session.post(f"{url}{path}", json=body, headers=headers) as answer:
                await answer.read()
                counts[f"control {answer.status}"] += 1
            latencies.append(time.perf_counter() - start)
            await asyncio.sleep(1.0)

    await asyncio.gather(
        *(watch(n) for n in range(watchers)),
        *(control(watchers + n) for n in range(controllers)),
    )
    ms = sorted(t * 1000 for t in latencies)
    return {
        "counts": dict(sorted(counts.items())),
        "control_median_ms": statistics.median(ms) if ms else None,
        "control_max_ms": ms[-1] if ms else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="each run (default 20)")
    parser.add_argument("--watchers", type=int, default=20, help="event streams (default 20)")
    parser.add_argument("--controllers", type=int, default=2, help="paired clients (default 2)")
    parser.add_argument(
        "--real-reader",
        action="store_true",
        help="read the simulated frames with the dice reader (default: the simulator's truth, "
        "so the figures show the table's own work and the web's, not the reader's)",
    )
    parser.add_argument("--client", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 0 < args.seconds <= 600 or not 0 <= args.watchers <= 64:
        parser.error("--seconds must be in (0, 600] and --watchers in [0, 64]")
    if args.client:
        if not args.client.startswith("http://127.0.0.1:"):
            parser.error("the clients only contact 127.0.0.1")
        got = asyncio.run(
            clients(args.client, args.code, args.seconds, args.watchers, args.controllers)
        )
        print(json.dumps(got))
        return 0
    alone = run_table(
        args.seconds, web=False, watchers=0, controllers=0, real_reader=args.real_reader
    )
    print(_summary("without the web", alone))
    loaded = run_table(
        args.seconds,
        web=True,
        watchers=args.watchers,
        controllers=args.controllers,
        real_reader=args.real_reader,
    )
    print(
        _summary(f"with the web, {args.watchers} watching, {args.controllers} controlling", loaded)
    )
    again = run_table(
        args.seconds, web=False, watchers=0, controllers=0, real_reader=args.real_reader
    )
    print(_summary("without the web again", again))
    got = loaded["clients"]
    assert isinstance(got, dict)
    counts = ", ".join(f"{k}: {v}" for k, v in got["counts"].items())
    print(f"the clients got: {counts}")
    print(
        f"CPU over {got['wall_s']:.0f} s: the web's thread {got['web_thread_cpu_s']:.2f} s, "
        f"the clients' process {got['client_cpu_s']:.2f} s (on the same cores here; on phones "
        "at the table)"
    )
    if got["control_median_ms"] is not None:
        print(
            f"control requests answered in median {got['control_median_ms']:.1f} ms, "
            f"max {got['control_max_ms']:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
