"""The command line's logging: one line per message on stderr, priorities for the journal.

`setup_logging` sends the ``device`` and ``hardware`` loggers (INFO, or DEBUG with ``--verbose``),
Python warnings and every library's log warnings to stderr, one line each, prefixed with the command
(``dicekeeper run: ...``; ``warning:`` for warnings). Under systemd, when stderr is the journal
(``$JOURNAL_STREAM`` names it), each line starts with its syslog priority (``<4>`` for a warning)
so the journal records the level; no timestamp is added, the journal keeps its own. A warning
repeated with the same text is written once, then again at most once every ``repeat_seconds``
with how often it recurred meanwhile, so a device that keeps failing does not fill the log.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from typing import TextIO

__all__ = ["LOGGERS", "OnceFilter", "is_journal", "setup_logging"]

LOGGERS = ("device", "hardware")
"""The loggers of dicekeeper's own packages (engine and vision do no I/O and log nothing)."""

_PRIORITIES = {
    logging.DEBUG: 7,
    logging.INFO: 6,
    logging.WARNING: 4,
    logging.ERROR: 3,
    logging.CRITICAL: 2,
}


def is_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is connected to the systemd journal (``$JOURNAL_STREAM`` is its
    ``device:inode``)."""
    env = os.environ if environ is None else environ
    device, _, inode = env.get("JOURNAL_STREAM", "").partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        stat = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):  # a StringIO, a closed stream
        return False
    return (stat.st_dev, stat.st_ino) == (int(device), int(inode))


class LineFormatter(logging.Formatter):
    """``PREFIX: [warning: ]message`` on one line; ``<N>`` syslog priority first for the journal."""

    def __init__(self, prefix: str, *, journal: bool) -> None:
        super().__init__()
        self.prefix = prefix
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line (newlines in the message and traceback become `` | ``)."""
        text = record.getMessage()
        if record.exc_info:
            text += " | " + self.formatException(record.exc_info)
        text = " | ".join(line for line in text.splitlines() if line.strip())
        word = {logging.WARNING: "warning: ", logging.DEBUG: "debug: "}.get(record.levelno, "")
        if record.levelno >= logging.CRITICAL:
            word = "critical: "
        line = f"{self.prefix}: {word}{text}"
        if self.journal:
            return f"<{_PRIORITIES.get(record.levelno, 6)}>{line}"
        return line


class OnceFilter(logging.Filter):
    """Lets a warning through once; the same text again only after ``repeat_seconds``, then
    saying how many times it recurred in between. Lower levels always pass."""

    def __init__(
        self, *, repeat_seconds: float = 600.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.repeat_seconds = repeat_seconds
        self.clock = clock
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a repeat of a warning written less than ``repeat_seconds`` ago."""
        if record.levelno < logging.WARNING:
            return True
        key = (record.name, record.levelno, record.getMessage())
        now = self.clock()
        seen = self._seen.get(key)
        if seen is not None and now - seen[0] < self.repeat_seconds:
            self._seen[key] = (seen[0], seen[1] + 1)
            return False
        if seen is not None and seen[1]:
            record.msg = f"{record.getMessage()} (again {seen[1]} times since)"
            record.args = None
        self._seen[key] = (now, 0)
        return True


class _StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is at the time (pytest and callers may swap it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


_handler: logging.Handler | None = None


def setup_logging(
    command: str,
    *,
    verbose: bool = False,
    environ: Mapping[str, str] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> logging.Handler:
    """Send dicekeeper's log to stderr for ``dicekeeper COMMAND``; returns the handler.

    Calling it again replaces the handler (tests run several commands in one process).
    """
    global _handler
    root = logging.getLogger()
    if _handler is not None:
        root.removeHandler(_handler)
    handler = _StderrHandler()
    handler.setFormatter(
        LineFormatter(f"dicekeeper {command}".strip(), journal=is_journal(sys.stderr, environ))
    )
    handler.addFilter(OnceFilter(clock=clock))
    root.addHandler(handler)
    _handler = handler
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    for name in LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG if verbose else logging.INFO)
    warnings.showwarning = _log_warning
    return handler


def _log_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """Python warnings (e.g. a library's fallback) as one log line naming their category."""
    logging.getLogger("py.warnings").warning("%s: %s", category.__name__, message)
