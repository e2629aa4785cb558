"""A hostile LAN against a real `dicekeeper run`, on loopback addresses only (benchmarks/faults.py).

`web_attacks(work)` starts the table (`dicekeeper run`: simulated camera, two computer players,
the web on 127.0.0.1) in a child that records every step's time, then attacks its web from
127.0.0.x source addresses (all loopback) one attack after another, each bounded in time and in
requests: DNS rebinding (a foreign ``Host``), pairing guessed by six addresses while a phone
pairs from another, a GET flood from eight addresses, slowloris (1,100 half-open connections from
50 addresses), event streams that never read (80 from 20 addresses) while a new page opens one,
and a second `dicekeeper run` on the same state directory. It returns the outcomes and the
table's step times (99th percentile) while idle and under each attack.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.children import free_port
from device.web.server import HEADER_SECONDS, MAX_CONNECTIONS

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


@dataclass(frozen=True)
class Attack:
    """One attack tried: what was expected and what happened (as benchmarks/faults.py prints)."""

    fault: str
    expected: str
    got: str
    ok: bool


@dataclass(frozen=True)
class StepTimes:
    """The table's step times in one phase (milliseconds)."""

    phase: str
    count: int
    median: float
    p99: float


def _source(number: int) -> str:
    """The loopback source address number ``number`` (127.0.0.2 onwards)."""
    if not 0 <= number < 250:
        raise ValueError(f"no loopback source address {number}")
    return f"127.0.0.{number + 2}"


# --- the table, its steps timed -----------------------------------------------------------------


def _table_child(config: str, times: str) -> int:
    """`dicekeeper run --config CONFIG` with each step's start and duration appended to TIMES."""
    import device.commands.run as run_command
    from device.cli import main

    real = run_command.run_loop

    def timed_loop(controller: object, **options: object) -> int:
        step = controller.step  # type: ignore[attr-defined]
        with open(times, "w", buffering=1) as out:

            def timed(now: float) -> object:
                start = time.monotonic()
                view = step(now)
                out.write(f"{start:.6f} {time.monotonic() - start:.6f}\n")
                return view

            controller.step = timed  # type: ignore[attr-defined]
            return real(controller, **options)  # type: ignore[arg-type]

    run_command.run_loop = timed_loop  # type: ignore[assignment]
    return main(["run", "--config", config])


class Table:
    """The timed `dicekeeper run` child: its output kept (the pairing code is read from it)."""

    def __init__(self, config: Path, times: Path, env: dict[str, str]) -> None:
        self.times = times
        self.port = int(re.findall(r"port = (\d+)", config.read_text())[0])
        self.process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.web_attacks", str(config), str(times)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
        self._text = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := self.process.stdout.read1(65536):
            with self._lock:
                self._text += chunk
                del self._text[: max(0, len(self._text) - 4_000_000)]

    def text(self) -> str:
        """What the table printed so far (its last 4 MB)."""
        with self._lock:
            return self._text.decode("utf-8", "replace")

    def code(self) -> str:
        """The newest pairing code the table's display printed."""
        codes = re.findall(rf"{HOST}:{self.port}\s+code (\d{{4,12}})", self.text())
        return codes[-1] if codes else ""

    def step_times(self, start: float, end: float) -> list[float]:
        """The step times (ms) of the steps that began between ``start`` and ``end``."""
        found = []
        for line in self.times.read_text().splitlines():
            at, _, took = line.partition(" ")
            with contextlib.suppress(ValueError):
                if start <= float(at) < end:
                    found.append(float(took) * 1000)
        return found

    def stop(self) -> tuple[int, str]:
        """SIGTERM, then its exit status and output."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(10)
        return self.process.returncode, self.text()


def table_config(directory: Path, port: int) -> Path:
    """A config: the simulated camera read by its truth, two computer players throwing for the
    camera, greed to a target never reached, the web on 127.0.0.1:``port``."""
    path = directory / "config.toml"
    path.write_text(
        '[game]\nrules = "greed"\nplayers = ["cpu:expert", "cpu:bold"]\ntarget = 1000000\n'
        '[players]\ncomputer_throws = "person"\n'
        '[camera]\nbackend = "simulated"\nseed = 5\nsettle_seconds = 0.3\nread_truth = true\n'
        '[buttons]\nbackend = "keyboard"\n[[display]]\nkind = "terminal"\n'
        f'[web]\nenabled = true\nbind = "{HOST}"\nport = {port}\n'
        f'[state]\ndirectory = "{directory / "state"}"\n'
    )
    return path


# --- a tiny HTTP client on raw connections, from a chosen loopback address ----------------------


async def _request(
    port: int,
    path: str,
    *,
    source: str = HOST,
    method: str = "GET",
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    timeout: float = 10.0,
) -> int:
    """One request on its own connection; the status (0: no answer, the connection closed)."""
    sent = {"Host": f"{HOST}:{port}", "Connection": "close", **(headers or {})}
    if body:
        sent |= {"Content-Type": "application/json", "Content-Length": str(len(body))}
    head = "".join(f"{k}: {v}\r\n" for k, v in sent.items())
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
            try:
                writer.write(f"{method} {path} HTTP/1.1\r\n{head}\r\n".encode() + body)
                await writer.drain()
                line = await reader.readline()
                await reader.read()
            finally:
                writer.close()
    except (OSError, TimeoutError):
        return 0
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


async def _requests_on_one_connection(
    port: int, path: str, source: str, until: float, most: int
) -> Counter[int]:
    """GET ``path`` again and again on one kept-alive connection until ``until`` (monotonic) or
    ``most`` requests; the statuses counted (a closed connection is opened again)."""
    got: Counter[int] = Counter()
    request = f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode()
    while time.monotonic() < until and got.total() < most:
        try:
            reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
        except OSError:
            got[0] += 1
            await asyncio.sleep(0.05)
            continue
        try:
            while time.monotonic() < until and got.total() < most:
                writer.write(request)
                async with asyncio.timeout(10):
                    status = (await reader.readline()).split()
                    length = 0
                    while (line := await reader.readline()) not in (b"\r\n", b""):
                        name, _, value = line.decode("latin-1").partition(":")
                        if name.strip().lower() == "content-length":
                            length = int(value)
                    await reader.readexactly(length)
                got[int(status[1]) if len(status) > 1 else 0] += 1
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
            got[0] += 1
        finally:
            writer.close()
    return got


# --- the attacks ---------------------------------------------------------------------------------


def rebinding(table: Table) -> Attack:
    """Requests naming another host (a page of attacker.example resolving to the table)."""

    async def go() -> Counter[int]:
        evil = {"Host": f"attacker.example:{table.port}"}
        got: Counter[int] = Counter()
        for path in ("/api/state", "/api/camera.jpg", "/api/games", "/"):
            got[await _request(table.port, path, headers=evil)] += 1
        body = b'{"code": "0000"}'
        got[await _request(table.port, "/api/pair", method="POST", body=body, headers=evil)] += 1
        return got

    got = asyncio.run(go())
    return Attack(
        "web: Host attacker.example (DNS rebinding)",
        "403 for every request",
        _counts(got),
        set(got) == {403},
    )


def pairing(table: Table, seconds: float) -> Attack:
    """Six addresses guess codes as fast as they may while a phone pairs with the code shown."""

    async def guess(source: str, until: float) -> Counter[int]:
        got: Counter[int] = Counter()
        number = 0
        while time.monotonic() < until and got.total() < 400:
            number += 1
            body = f'{{"code": "{number % 10_000:04d}"}}'.encode()
            got[
                await _request(table.port, "/api/pair", source=source, method="POST", body=body)
            ] += 1
            await asyncio.sleep(0.02)
        return got

    async def phone(until: float) -> Counter[int]:
        got: Counter[int] = Counter()
        while time.monotonic() < until:
            await asyncio.sleep(1.0)
            body = f'{{"code": "{table.code()}"}}'.encode()
            got[await _request(table.port, "/api/pair", method="POST", body=body)] += 1
        return got

    async def go() -> tuple[Counter[int], Counter[int]]:
        until = time.monotonic() + seconds
        guesses = [guess(_source(n), until) for n in range(6)]
        results = await asyncio.gather(phone(until), *guesses)
        return results[0], sum(results[1:], Counter())

    first = table.code()
    honest, guessed = asyncio.run(go())
    last = table.code()
    got = (
        f"phone {_counts(honest)}; guesses {_counts(guessed)}; code {len(first)} -> "
        f"{len(last)} digits"
    )
    ok = honest[429] == 0 and honest[200] >= 1 and 200 not in guessed and guessed[401] >= 10
    return Attack(
        "web: 6 addresses guessing codes",
        "phone pairs, never 429; guesses fail; code longer",
        got,
        ok and len(last) > len(first),
    )


def get_flood(table: Table, seconds: float) -> Attack:
    """Eight addresses, four kept-alive connections each, GET /api/state as fast as they can."""

    async def go() -> Counter[int]:
        until = time.monotonic() + seconds
        floods = [
            _requests_on_one_connection(table.port, "/api/state", _source(n), until, 5000)
            for n in range(8)
            for _ in range(4)
        ]
        return sum(await asyncio.gather(*floods), Counter())

    got = asyncio.run(go())
    return Attack(
        f"web: GET flood from 8 addresses, {seconds:.0f} s",
        "429 past the rate, no errors",
        _counts(got),
        got[429] > 0 and set(got) <= {200, 429},
    )


def slowloris(table: Table, seconds: float) -> Attack:
    """1,100 half-open connections (headers never finished) from 50 addresses, held
    ``seconds``, while a phone asks for the state every second."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2000 <= hard or hard == resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 2000), hard))
    held: list[socket.socket] = []
    fds = [_open_fds(table.process.pid)]
    phone: Counter[int] = Counter()
    try:
        for number in range(1100):
            client = socket.socket()
            client.setblocking(False)
            client.bind((_source(10 + number % 50), 0))
            with contextlib.suppress(BlockingIOError):
                client.connect((HOST, table.port))
            held.append(client)
        for client in held:
            with contextlib.suppress(OSError):
                client.send(f"GET /api/state HTTP/1.1\r\nHost: {HOST}\r\nX-a: ".encode())
        began = time.monotonic()
        until = began + seconds
        while time.monotonic() < until:
            phone[asyncio.run(_request(table.port, "/api/state", timeout=5))] += 1
            fds.append(_open_fds(table.process.pid))
            time.sleep(max(0.0, min(1.0, until - time.monotonic())))
        time.sleep(HEADER_SECONDS + 2)  # past the table's time for headers
        fds.append(_open_fds(table.process.pid))
        closed = sum(_is_closed(client) for client in held)
    finally:
        for client in held:
            client.close()
    # Connections the kernel's accept queue turned away never reach the table (nor cost it a
    # descriptor) and may look open from here: the table's own descriptors are the measure.
    bound = fds[0] + MAX_CONNECTIONS + 16
    got = (
        f"{closed} of 1100 closed by the table; phone {_counts(phone)}; table's open files "
        f"{min(fds)}-{max(fds)} (bound {bound})"
    )
    ok = phone[200] == phone.total() and max(fds) <= bound
    return Attack(
        f"web: slowloris, 1,100 half-open for {seconds:.0f} s",
        "descriptors bounded; phone answered",
        got,
        ok,
    )


def stalled_streams(table: Table, seconds: float) -> Attack:
    """80 event streams from 20 addresses that never read, then a new page opens one."""
    held: list[socket.socket] = []
    try:
        for number in range(80):
            client = socket.socket()
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            client.bind((_source(60 + number % 20), 0))
            client.settimeout(10)
            client.connect((HOST, table.port))
            request = f"GET /api/events HTTP/1.1\r\nHost: {HOST}:{table.port}\r\n\r\n"
            client.sendall(request.encode())
            held.append(client)
        time.sleep(1.0)
        page = _first_event(table.port)
        time.sleep(seconds)
        late = _first_event(table.port)
        closed = sum(_is_closed(client) for client in held)
    finally:
        for client in held:
            client.close()
    got = f"new page: {page}, after {seconds:.0f} s: {late}; {closed} of 80 ended by the table"
    return Attack(
        "web: 80 event streams that never read",
        "a new page still gets its stream",
        got,
        page == late == "streaming",
    )


def _first_event(port: int) -> str:
    with socket.create_connection((HOST, port), timeout=10) as client:
        client.sendall(f"GET /api/events HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
        data = b""
        with contextlib.suppress(OSError):
            while b"event: state" not in data and len(data) < 1_000_000:
                chunk = client.recv(65536)
                if not chunk:
                    break
                data += chunk
    if b"event: state" in data:
        return "streaming"
    return data.split(b"\r\n", 1)[0].decode("latin-1") or "closed"


def _is_closed(client: socket.socket) -> bool:
    """Whether the other end closed ``client`` (reads what is waiting, up to 1 MB)."""
    client.setblocking(False)
    read = 0
    try:
        while read < 1_000_000:
            chunk = client.recv(65536)
            if not chunk:
                return True
            read += len(chunk)
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:  # reset
        return True
    return False


def _open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def _counts(got: Counter[int]) -> str:
    return " ".join(f"{status or 'closed'}x{n}" for status, n in sorted(got.items())) or "none"


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank; NaN when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share / 100 * len(ordered)) - 1))]


def _timed(
    table: Table, phase: str, attack: Callable[[], Attack], phases: list[StepTimes]
) -> Attack:
    start = time.monotonic()
    outcome = attack()
    ms = table.step_times(start, time.monotonic())
    phases.append(StepTimes(phase, len(ms), percentile(ms, 50), percentile(ms, 99)))
    return outcome


def second_instance(table: Table, config: Path, env: dict[str, str]) -> Attack:
    """A second `dicekeeper run` on the same state directory, while the first runs."""
    done = subprocess.run(
        [sys.executable, "-m", "device", "run", "--config", str(config)],
        input="q",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
        check=False,
    )
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    shown = lines[-1] if lines else "(nothing on stderr)"
    ok = (
        done.returncode == 2
        and len(lines) == 1
        and f"pid {table.process.pid}" in shown
        and table.process.poll() is None
    )
    return Attack(
        "two dicekeeper run on one state directory",
        "second exits 2 naming the first",
        f"exit {done.returncode}: {shown}",
        ok,
    )


def web_attacks(
    work: Path, env: dict[str, str], *, seconds: float = 8.0
) -> tuple[list[Attack], list[StepTimes]]:
    """Start the timed table on ``work`` and run every attack against it; the outcomes and the
    step times idle and under each attack."""
    port = free_port(HOST)
    config = table_config(work, port)
    table = Table(config, work / "steps.txt", env)
    outcomes: list[Attack] = []
    phases: list[StepTimes] = []
    try:
        deadline = time.monotonic() + 90
        while asyncio.run(_request(port, "/api/state", timeout=2)) != 200:
            if time.monotonic() > deadline or table.process.poll() is not None:
                code, text = table.stop()
                got = f"exit {code}: {text.strip().splitlines()[-1:] or ''}"
                return [Attack("web attacks", "the table serves", got, False)], []
            time.sleep(0.5)
        time.sleep(3)  # past the first renders
        start = time.monotonic()
        time.sleep(seconds)
        ms = table.step_times(start, time.monotonic())
        phases.append(StepTimes("idle", len(ms), percentile(ms, 50), percentile(ms, 99)))
        outcomes.append(rebinding(table))
        outcomes.append(_timed(table, "pairing guessed", lambda: pairing(table, seconds), phases))
        outcomes.append(_timed(table, "GET flood", lambda: get_flood(table, seconds), phases))
        outcomes.append(_timed(table, "slowloris", lambda: slowloris(table, seconds), phases))
        outcomes.append(
            _timed(table, "stalled streams", lambda: stalled_streams(table, seconds), phases)
        )
        outcomes.append(second_instance(table, config, env))
    finally:
        code, text = table.stop()
    clean = code == 0 and "Traceback" not in text
    outcomes.append(
        Attack(
            "the table after the attacks",
            "stops cleanly, no traceback",
            f"exit {code}, {text.count('Traceback')} tracebacks",
            clean,
        )
    )
    return outcomes, phases


if __name__ == "__main__":
    sys.exit(_table_child(sys.argv[1], sys.argv[2]))
