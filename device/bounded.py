"""Reading files with a size bound: what the appliance reads from disk is a regular file of at most
a stated size, so a FIFO (which would block), a device such as ``/dev/zero`` (endless) or a file far
larger than its kind ever is fails at once with `FileUnusable` naming the file, never hangs or
fills the memory."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from engine.errors import DicekeeperError

__all__ = ["FileUnusable", "is_regular", "read_bounded", "read_text_bounded"]


class FileUnusable(DicekeeperError, ValueError):
    """A file that is not a regular file, or larger than the kind of file it should be."""


def read_bounded(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path`` of at most ``limit`` bytes.

    Raises `FileUnusable` (naming ``what`` and the path) for anything else, and the `OSError`
    of a file that cannot be opened (e.g. `FileNotFoundError`) as it is.
    """
    where = repr(os.fspath(path))
    # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just after).
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileUnusable(f"the {what} {where} is not a regular file")
        if info.st_size > limit:
            raise FileUnusable(_too_large(what, where, limit))
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise FileUnusable(_too_large(what, where, limit))
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_bounded(path: str | os.PathLike[str], limit: int, what: str = "file") -> str:
    """`read_bounded` decoded as UTF-8 (`UnicodeDecodeError` when it is not)."""
    return read_bounded(path, limit, what).decode("utf-8")


def _too_large(what: str, where: str, limit: int) -> str:
    return f"the {what} {where} is larger than a {what} can be (at most {limit:,} bytes)"


def is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (not following a FIFO or device; False if missing)."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False
