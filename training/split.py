"""Which labelled real photos train the reader's networks and which are held out to measure it."""

from __future__ import annotations

import re
import zlib
from pathlib import PurePosixPath

_AUGMENTED = re.compile(r"^(?P<original>.+?)_(?:jpg|jpeg|png)\.rf\.[0-9a-f]+\.\w+$", re.IGNORECASE)
"""A file name of an augmented copy exported by Roboflow: the original photo's name, then
``_jpg.rf.<hash>.jpg``. Every copy of one original photo must fall on the same side."""


_CROP = re.compile(r"^(?P<original>.+?)_detection_\d+\.\w+$")
"""A file name of a die cut from a photo (chase-casino-crops): the photo's name, then
``_detection_<n>.jpg``. The crops of one photo must fall on the same side."""


def original_photo(name: str) -> str:
    """The photo that ``name`` ("folder/images/file.jpg") is a copy of or was cut from: for an
    augmented copy or a die's crop, "folder/<original name>" (whatever sub-folder it lies in);
    else ``name`` itself."""
    path = PurePosixPath(name)
    match = _AUGMENTED.match(path.name) or _CROP.match(path.name)
    if match is None:
        return name
    return f"{path.parts[0]}/{match['original']}"


def is_training(name: str) -> bool:
    """Whether the photo ``name`` ("folder/images/file.jpg") is in the training part (about 60 %):
    a fixed hash of the original photo's name (`original_photo`), so the split never changes
    between runs or machines and augmented copies of one photo are never on both sides."""
    return zlib.crc32(original_photo(name).encode("utf-8")) % 5 < 3


def in_share(name: str, share: float) -> bool:
    """Whether the photo ``name`` is among a ``share`` (0-1) of the photos, drawn by a fixed hash
    of its original photo (`original_photo`) independent of `is_training`'s: a smaller share's
    photos are all in every larger one's, for training on part of the training photos (a
    learning curve) with every copy of one original on the same side."""
    digest = zlib.crc32(f"share:{original_photo(name)}".encode())
    return digest / 2**32 < share
