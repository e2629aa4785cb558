"""The camera's calibration on disk: the throwing area, die width, checks and the empty tray.

`save_calibration` writes ``calibration.json`` and ``calibration-empty.png`` into the state
directory (each written to a temporary file and renamed over the old one, the picture first, so a
power cut leaves the old calibration or the new one). `load_calibration` reads them back; files
that are damaged (not JSON, missing keys, larger than such a file is, an area outside the frame, a
die width that is not a positive number below the frame's, a picture whose header claims another
size or that does not decode) are moved aside under a timestamped name, as the game store does
with a damaged database, and the table runs uncalibrated with a notice saying where they went.
`reader_params` turns a calibration into the reader's parameters (`vision.ReaderParams`: ``roi``
and ``empty_tray``).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

import vision
from device.bounded import read_text_bounded
from device.store import write_atomically
from hardware.image_files import MAX_IMAGE_SIDE, image_size, read_image
from vision.calibration import Calibration, Check
from vision.types import Frame

__all__ = [
    "CALIBRATION_NAME",
    "EMPTY_TRAY_NAME",
    "SavedCalibration",
    "load_calibration",
    "reader_params",
    "save_calibration",
]

CALIBRATION_NAME = "calibration.json"
EMPTY_TRAY_NAME = "calibration-empty.png"
VERSION = 1
MAX_JSON_BYTES = 64 * 1024
"""The largest calibration JSON read (a saved one is under 2 KB)."""


@dataclass(frozen=True)
class SavedCalibration:
    """A calibration as saved: the area, die width and checks, the empty tray's picture, the
    frame size it was made at (width, height), and where its JSON lies."""

    roi: tuple[tuple[int, int], ...]
    die_width_px: float | None
    checks: tuple[Check, ...]
    empty_tray: Frame
    size: tuple[int, int]
    path: Path


def save_calibration(directory: Path, calibration: Calibration, empty: Frame) -> Path:
    """Write ``calibration`` and the empty tray's picture into ``directory`` (created if
    missing); returns the JSON's path. Raises `OSError` when it cannot be written."""
    directory.mkdir(parents=True, exist_ok=True)
    picture = directory / EMPTY_TRAY_NAME
    ok, encoded = cv2.imencode(".png", empty)
    if not ok:
        raise OSError(f"cannot encode the empty tray's picture for {str(picture)!r}")
    write_atomically(picture, encoded.tobytes())
    height, width = empty.shape[:2]
    record = {
        "version": VERSION,
        "roi": [list(point) for point in calibration.roi],
        "die_width_px": (
            None if calibration.die_width_px is None else round(calibration.die_width_px, 1)
        ),
        "checks": [{"name": c.name, "ok": c.ok, "advice": c.advice} for c in calibration.checks],
        "size": [width, height],
        "empty_tray": EMPTY_TRAY_NAME,
    }
    path = directory / CALIBRATION_NAME
    write_atomically(path, (json.dumps(record, indent=1) + "\n").encode())
    return path


def load_calibration(
    directory: Path, *, clock: Callable[[], float] = time.time
) -> tuple[SavedCalibration | None, str | None]:
    """The calibration saved in ``directory`` (None when there is none) and a notice when its
    files were damaged and moved aside (None otherwise)."""
    path = directory / CALIBRATION_NAME
    if not path.exists():
        return None, None
    try:
        return _parse(path), None
    except (ValueError, KeyError, TypeError, OSError, RecursionError) as exc:
        problem = str(exc) or type(exc).__name__
    moved = _move_aside([path, directory / EMPTY_TRAY_NAME], clock)
    where = ", ".join(repr(str(p)) for p in moved) or "nowhere (it could not be moved)"
    return None, (
        f"the calibration {str(path)!r} is damaged ({problem}); moved to {where}: "
        "the table runs uncalibrated until `dicekeeper calibrate` is run again"
    )


def _parse(path: Path) -> SavedCalibration:
    record: Any = json.loads(read_text_bounded(path, MAX_JSON_BYTES, "calibration"))
    if not isinstance(record, dict) or record.get("version") != VERSION:
        raise ValueError(f"not a version {VERSION} calibration")
    width, height = (int(v) for v in record["size"])
    if not (0 < width <= MAX_IMAGE_SIDE and 0 < height <= MAX_IMAGE_SIDE):
        raise ValueError(f"its frame size {width}×{height} is not a camera's")
    roi = tuple((int(x), int(y)) for x, y in record["roi"])
    if len(roi) < 3:
        raise ValueError("its area has fewer than 3 corners")
    if not all(0 <= x <= width and 0 <= y <= height for x, y in roi):
        raise ValueError(f"its area {roi!r} is not within the {width}×{height} frame")
    width_px = record["die_width_px"]
    die_width = None if width_px is None else float(width_px)
    if die_width is not None and not (math.isfinite(die_width) and 0 < die_width < width):
        raise ValueError(f"its die width {width_px!r} is not a width in the frame")
    checks = tuple(Check(str(c["name"]), bool(c["ok"]), str(c["advice"])) for c in record["checks"])
    picture = path.with_name(str(record["empty_tray"]))
    if picture.name != EMPTY_TRAY_NAME:
        raise ValueError(f"the empty tray's picture must be {EMPTY_TRAY_NAME!r}")
    if image_size(picture) != (width, height):  # the header, before any pixel is decoded
        raise ValueError(f"{str(picture)!r} is not {width}×{height}")
    empty = read_image(picture)
    if empty.shape[:2] != (height, width):
        raise ValueError(f"{str(picture)!r} is not {width}×{height}")
    return SavedCalibration(
        roi, die_width, checks, np.asarray(empty, np.uint8), (width, height), path
    )


def _move_aside(paths: Sequence[Path], clock: Callable[[], float]) -> list[Path]:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(clock()))
    moved = []
    for path in paths:
        if not path.exists():
            continue
        target = path.with_name(f"{path.name}.damaged-{stamp}")
        number = 1
        while target.exists():
            number += 1
            target = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
        try:
            path.rename(target)
        except OSError:
            continue
        moved.append(target)
    return moved


def reader_params(
    saved: SavedCalibration | None,
    size: tuple[int, int],
    configured_roi: Sequence[tuple[int, int]] = (),
) -> tuple[vision.ReaderParams, str | None]:
    """The reader's parameters for frames of ``size`` (width, height), and a notice when the
    calibration cannot be used: the area and the empty tray from ``saved``, unless it was made
    at another frame size. An area set in the configuration (``camera.roi``) is used instead of
    the calibrated one."""
    roi = tuple(configured_roi) or None
    if saved is None:
        return vision.ReaderParams(roi=roi), None
    if saved.size != size:
        return vision.ReaderParams(roi=roi), (
            f"the calibration {str(saved.path)!r} was made at {saved.size[0]}×{saved.size[1]}, "
            f"the camera gives {size[0]}×{size[1]}: not used; run `dicekeeper calibrate` again"
        )
    return vision.ReaderParams(roi=roi or saved.roi, empty_tray=saved.empty_tray), None
