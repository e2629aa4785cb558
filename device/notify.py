"""Telling systemd how the appliance is doing (``Type=notify``): READY, WATCHDOG, STATUS, STOPPING.

Messages go through the ``sdnotify`` package, and only when systemd asked for them by setting
``NOTIFY_SOCKET``; elsewhere every call does nothing. The watchdog is pinged at half the interval
systemd gives in ``WATCHDOG_USEC`` (the unit's ``WatchdogSec=``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from typing import Protocol

__all__ = ["Notifier"]

log = logging.getLogger(__name__)


class _Sink(Protocol):
    def notify(self, state: str) -> None: ...


def _sdnotify() -> _Sink:
    import sdnotify

    sink: _Sink = sdnotify.SystemdNotifier()
    return sink


class Notifier:
    """systemd notifications, sent only under systemd (``NOTIFY_SOCKET`` set)."""

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        *,
        connect: Callable[[], _Sink] = _sdnotify,
    ) -> None:
        env = os.environ if environ is None else environ
        self.is_enabled = bool(env.get("NOTIFY_SOCKET"))
        self._sink = connect() if self.is_enabled else None
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2_000_000 if usec.isdigit() and int(usec) > 0 else None
        self._last_ping = float("-inf")
        self.sent: list[str] = []

    def _send(self, message: str) -> None:
        if self._sink is not None:
            self._sink.notify(message)
            self.sent.append(message)
            if message != "WATCHDOG=1":  # the watchdog pings would drown the rest
                log.debug("told systemd %s", message.replace("\n", ", "))

    def ready(self, status: str = "") -> None:
        """The appliance is up: devices open, game loaded."""
        self._send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> None:
        """A one-line status for ``systemctl status``."""
        self._send(f"STATUS={text}")

    def watchdog(self, now: float) -> None:
        """Ping the watchdog if half its interval has passed since the last ping."""
        if self.interval is not None and now - self._last_ping >= self.interval:
            self._last_ping = now
            self._send("WATCHDOG=1")

    def stopping(self) -> None:
        """The appliance is shutting down on purpose."""
        self._send("STOPPING=1")
