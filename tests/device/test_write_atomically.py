"""`device.store.write_atomically`: the new file whole, or the old one, and no temporary left."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import pytest

from device.store import write_atomically


def test_bytes_or_a_writer_replace_the_file(tmp_path: Path) -> None:
    path = tmp_path / "table.bin"
    write_atomically(path, b"old")
    write_atomically(path, lambda stream: stream.write(b"new"))
    assert path.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["table.bin"]


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "table.bin"
    write_atomically(path, b"old")

    def broken(stream: BinaryIO) -> None:
        stream.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        write_atomically(path, broken)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["table.bin"]
