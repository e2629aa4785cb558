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


def status_mb(pid: int, field: str) -> float | None:
    """A memory field of process ``pid``'s /proc status now (MB: ``VmRSS`` resident, ``VmHWM``
    its peak so far), None where /proc does not tell it."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024.0
    return None
