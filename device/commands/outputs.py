"""Checking the files and folders a command will write, before it does the work.

The rule everywhere: an existing folder is written into and an existing file of the right kind
is overwritten; a path of the wrong kind (a file where a folder is wanted, a folder where an image
is wanted), a folder that does not exist for an output file, or an extension no image format has is
refused at once with one line naming it (exit status 2), before any game is played or image read.
"""

from __future__ import annotations

from pathlib import Path

from engine.errors import DicekeeperError

__all__ = ["BadOutput", "output_directory", "output_image"]


class BadOutput(DicekeeperError, ValueError):
    """A path to write that cannot be written as asked."""


def output_directory(option: str, path: Path) -> Path:
    """``path`` as a folder to write into (created if missing); `BadOutput` for a file."""
    text = str(path)
    if path.exists() and not path.is_dir():
        raise BadOutput(f"{option} {text!r} is a file, not a folder")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise BadOutput(f"{option} {text!r}: {str(parent)!r} is a file, not a folder")
    path.mkdir(parents=True, exist_ok=True)
    return path


def output_image(option: str, path: Path) -> Path:
    """``path`` as an image file to write (overwritten if present); `BadOutput` unless its folder
    exists and Pillow writes its extension."""
    from PIL import Image

    text = str(path)
    if path.is_dir():
        raise BadOutput(f"{option} {text!r} is a folder, not an image file")
    if not path.parent.is_dir():
        raise BadOutput(f"{option} {text!r}: the folder {str(path.parent)!r} does not exist")
    Image.init()
    writable = sorted(
        ext for ext, kind in Image.registered_extensions().items() if kind in Image.SAVE
    )
    if path.suffix.lower() not in writable:
        shown = ", ".join(e for e in writable if e in (".png", ".jpg", ".gif", ".bmp", ".webp"))
        raise BadOutput(
            f"{option} {text!r}: {path.suffix or 'no extension'!r} is no image format; use {shown}"
        )
    return path
