"""The memory `dicekeeper run` holds at the table, against the Pi's bar of 400 MB.

The table runs in a child process as the Pi runs it (`dicekeeper run --config FILE`): the
simulated camera throws for two computer players (``computer_throws = "person"``, so every throw
is rendered, watched until it settles and read by the reader), the engine scores it, the game is
stored, the terminal shows it, the phone page is served on 127.0.0.1, and every ``--adapt-every``
kept throws the table refits its reader to them in the background (`device.adaptation`). After
``--seconds`` it is stopped as systemd stops it (SIGTERM). Printed: the table process's resident
memory a few seconds after it started and its peak (from /proc, where there is one); the largest
of it and the refits' own processes (``dicekeeper adapt --background``, ``ru_maxrss`` from
`os.wait4`), and the most they held at once (sampled every half second), resident and
proportional (/proc's Pss: the libraries both processes map, OpenCV's and numpy's, counted once,
as the Pi's memory holds them); its exit status, the
throws the camera made and the refits the table logged. The game's target is never reached, so
the table plays all the while.

Usage: .venv/bin/python benchmarks/run_memory.py [--seconds 240] [--style random] [--seed 3]
           [--adapt-every 10]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.children import free_port, status_mb
from device.config import SIMULATED_STYLES

ROOT = Path(__file__).resolve().parents[1]
BAR_MB = 400
"""The most resident memory the table may hold on the Pi (issue 67)."""
STARTED_SECONDS = 5.0
"""The resident memory "after start" is read this long after the child started."""


def config_text(state: Path, port: int, style: str, seed: int, adapt_every: int) -> str:
    """The table's configuration: the simulated camera in ``style`` (seed ``seed``) throwing for
    two computer players, farkle to a target never reached, the phone page on 127.0.0.1:``port``,
    the store in ``state``, refits every ``adapt_every`` kept throws."""
    return (
        '[game]\nrules = "farkle"\nplayers = ["cpu:expert", "cpu:bold"]\ntarget = 1000000\n'
        '[players]\ncomputer_throws = "person"\n'
        f'[camera]\nbackend = "simulated"\nstyle = "{style}"\nseed = {seed}\n'
        '[buttons]\nbackend = "keyboard"\n[[display]]\nkind = "terminal"\n'
        f'[web]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\n'
        f'[state]\ndirectory = "{state}"\n'
        f"[reader]\nadapt_every = {adapt_every}\n"
    )


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc; none where there is no /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = entry.read_text(encoding="utf-8")
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1] == str(pid):
            found.append(int(entry.parent.name))
    return found


class Together:
    """The most memory a process and its children held at once, sampled every ``every`` seconds
    on a thread of its own (0 where /proc does not tell it): ``most`` resident (each counting
    the libraries they share), ``most_shared`` proportional (the libraries counted once)."""

    def __init__(self, pid: int, every: float = 0.5) -> None:
        self.pid, self.every, self.most, self.most_shared = pid, every, 0.0, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(self.every):
            pids = [self.pid, *children_of(self.pid)]
            self.most = max(self.most, sum(status_mb(p, "VmRSS") or 0.0 for p in pids))
            shared = sum(status_mb(p, "Pss", "smaps_rollup") or 0.0 for p in pids)
            self.most_shared = max(self.most_shared, shared)

    def stop(self) -> tuple[float, float]:
        """Stop sampling; the most held at once (MB), resident and proportional."""
        self._stop.set()
        self._thread.join()
        return self.most, self.most_shared


def _drain(stream: object, into: bytearray) -> None:
    """Keep what the child writes to ``stream`` (its last 2 MB)."""
    while chunk := stream.read1(65536):  # type: ignore[attr-defined]
        into += chunk
        del into[: max(0, len(into) - 2_000_000)]


def measure(seconds: float, style: str, seed: int, adapt_every: int) -> dict[str, object]:
    """Run the table for ``seconds`` and return what it held and did (module docstring)."""
    with tempfile.TemporaryDirectory(prefix="dicekeeper-memory-") as work:
        config = Path(work) / "config.toml"
        config.write_text(
            config_text(Path(work) / "state", free_port(), style, seed, adapt_every),
            encoding="utf-8",
        )
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
        env.pop("DISPLAY", None)
        child = subprocess.Popen(
            [sys.executable, "-m", "device", "run", "--config", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
        )
        out, err = bytearray(), bytearray()
        readers = [
            threading.Thread(target=_drain, args=(child.stdout, out), daemon=True),
            threading.Thread(target=_drain, args=(child.stderr, err), daemon=True),
        ]
        for reader in readers:
            reader.start()
        start = time.monotonic()
        together = Together(child.pid)
        time.sleep(min(STARTED_SECONDS, seconds))
        after_start = status_mb(child.pid, "VmRSS")
        time.sleep(max(0.0, seconds - STARTED_SECONDS))
        own_peak = status_mb(child.pid, "VmHWM")
        most_together, most_shared = together.stop()
        child.send_signal(signal.SIGTERM)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        for reader in readers:
            reader.join(10)
        text, log = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        return {
            "seconds": round(time.monotonic() - start, 1),
            "after_start_mb": after_start,
            "own_peak_mb": own_peak,
            "largest_mb": usage.ru_maxrss / 1024.0,
            "together_mb": most_together or None,
            "together_pss_mb": most_shared or None,
            "exit": child.returncode,
            "throws": text.count("the simulated camera throws"),
            "refits": sum("adapted the classifier" in line for line in log.splitlines()),
            "last_log": next((line for line in reversed(log.splitlines()) if line.strip()), ""),
        }


def _mb(value: object) -> str:
    return "-" if value is None else f"{value:.0f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=240.0, help="how long the table plays")
    parser.add_argument("--style", choices=SIMULATED_STYLES, default="random")
    parser.add_argument("--seed", type=int, default=3, help="the simulated camera's seed")
    parser.add_argument(
        "--adapt-every", type=int, default=10, help="kept throws between refits (0: none)"
    )
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error(f"--seconds must be more than 0, not {args.seconds:g}")
    if args.adapt_every < 0:
        parser.error(f"--adapt-every must be 0 or more, not {args.adapt_every}")
    found = measure(args.seconds, args.style, args.seed, args.adapt_every)
    print(
        f"dicekeeper run, {found['seconds']} s (style {args.style}, seed {args.seed}, "
        f"refits every {args.adapt_every} kept throws): {found['throws']} throws, "
        f"{found['refits']} refits, exit status {found['exit']}"
    )
    print(
        f"  resident memory of the table's process: {_mb(found['after_start_mb'])} after "
        f"{STARTED_SECONDS:g} s, peak {_mb(found['own_peak_mb'])} (bar {BAR_MB} MB)"
    )
    print(
        f"  the largest of it and its refits' processes {_mb(found['largest_mb'])}; "
        f"the most they held at once (sampled) {_mb(found['together_mb'])} resident, "
        f"{_mb(found['together_pss_mb'])} proportional (shared libraries counted once; bar "
        f"{BAR_MB} MB)"
    )
    if found["exit"] != 0:
        print(f"  the table's last log line: {found['last_log']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
