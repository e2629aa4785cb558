"""What the benchmarks that run the table in a child process share: a free port for its phone
page, and its memory as /proc tells it."""

from __future__ import annotations

import socket
from pathlib import Path


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port of ``host`` that no one listens on now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def status_mb(pid: int, field: str, source: str = "status") -> float | None:
    """A memory field of process ``pid``'s /proc ``source`` now (MB), None where /proc does not
    tell it: in ``status``, ``VmRSS`` resident and ``VmHWM`` its peak so far; in
    ``smaps_rollup``, ``Pss`` its proportional share (each page shared with other processes, such
    as a library's, counted as its share: the sum over processes is the memory they use)."""
    try:
        status = Path(f"/proc/{pid}/{source}").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024.0
    return None
