"""Image files that lie or break, for the tests and benchmarks/faults.py.

PNGs whose header claims a huge size, real huge PNGs made without holding their pixels, files whose
header is damaged, and files that are no image at all.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _header(width: int, height: int) -> bytes:
    # 8-bit greyscale, deflate, no filter method quirks, no interlace.
    return _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))


def claimed_png(path: Path, width: int, height: int) -> Path:
    """A PNG of a few dozen bytes whose header says ``width``×``height`` (its data is one row)."""
    data = zlib.compress(b"\x00" + bytes(min(width, 64)))
    path.write_bytes(
        PNG_SIGNATURE + _header(width, height) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")
    )
    return path


def blank_png(path: Path, width: int, height: int) -> Path:
    """A valid black greyscale PNG of ``width``×``height``, compressed row by row (a 20000×20000
    one is about 400 KB on disk and never held in memory here)."""
    compressor = zlib.compressobj(9)
    row = b"\x00" + bytes(width)
    parts = [compressor.compress(row) for _ in range(height)]
    parts.append(compressor.flush())
    path.write_bytes(
        PNG_SIGNATURE
        + _header(width, height)
        + _chunk(b"IDAT", b"".join(parts))
        + _chunk(b"IEND", b"")
    )
    return path


def damaged_header_png(path: Path) -> Path:
    """A PNG whose header chunk fails its checksum (the rest is a plausible small image)."""
    good = _header(64, 48)
    bad = good[:-4] + bytes(4)
    data = zlib.compress((b"\x00" + bytes(64)) * 48)
    path.write_bytes(PNG_SIGNATURE + bad + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))
    return path


def truncated_jpeg(path: Path) -> Path:
    """The first bytes of a JPEG: its start marker and nothing after."""
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
    return path


def bad_images(directory: Path) -> dict[str, Path]:
    """Every kind of bad image file, by name."""
    directory.mkdir(parents=True, exist_ok=True)
    return {
        "header says 40000x40000": claimed_png(directory / "claims-40000.png", 40_000, 40_000),
        "20000x20000 image": blank_png(directory / "big-20000.png", 20_000, 20_000),
        "damaged PNG header": damaged_header_png(directory / "damaged.png"),
        "truncated JPEG": truncated_jpeg(directory / "truncated.jpg"),
        "text named .png": _text(directory / "text.png"),
        "empty .png": empty_file(directory / "empty.png"),
    }


def _text(path: Path) -> Path:
    """A text file."""
    path.write_text("not an image\n")
    return path


def empty_file(path: Path) -> Path:
    """An empty file."""
    path.write_bytes(b"")
    return path
