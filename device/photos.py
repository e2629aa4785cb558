"""The table's own dice, kept as labelled photos: every throw that counted, with its dice.

`PhotoKeeper` decides what is kept. The controller tells it when a reading settled, when a read
throw counted, when the players corrected one, and after every step; the watcher's reader is
wrapped (`PhotoKeeper.watching`) so that the frame a reading came from is at hand. A throw read
from the camera is kept once the table moved on from it without a correction (keeps chosen,
banked, busted and the next throw counted), and at once when corrected (again when corrected
again): its frame and its dice (each die's box as read, its value as confirmed or corrected; a
box struck as "not a die" is kept as such, `StoredPhoto.struck`: what the reader took for a
die there is an example of no die). A throw whose correction added dice the reader missed
is kept with those dice by value alone (no box: `StoredPhoto.missed`), so the dice it did see
are examples too; where the players pointed at a missed die on the tray's picture (the web
page), it is labelled there, with a box as wide as the dice read. Computer players' virtual
dice are drawn, not photographed, and never kept.

`PhotoRing` is the folder ``photos/`` in the state directory: ``NNNNNNNN.jpg`` (the frame) and
``NNNNNNNN.csv`` (``x_min,y_min,x_max,y_max,value,as_read`` per die: ``as_read`` 1 when the reader
gave the die that value, 0 when the players corrected it or the reader was not sure; files kept
before it was written have no such column; a die the reader missed, added by the players by its
value, has no box: ``,,,,value,0``; a box struck out has value 0), at most ``max_bytes`` in all
(200 MB),
the oldest removed first. Photos are written by one background thread, so the game never waits
for the disk; a write that fails (a full disk) is logged once and the game goes on. `export` writes
the datasets' layout (``images/``, ``labels.csv``) that the benchmarks and training scripts read.
"""

from __future__ import annotations

import csv
import io
import logging
import queue
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from device.bounded import read_bounded, read_text_bounded
from device.correction import NOT_A_DIE, Correction, Point
from device.store import write_atomically
from engine.state import GameState, OpenThrow
from vision.evaluation import LabelledDie
from vision.types import Frame, Reading

__all__ = ["MAX_BYTES", "PhotoKeeper", "PhotoRing", "StoredPhoto"]

log = logging.getLogger(__name__)

MAX_BYTES = 200_000_000
"""The ring's bound by default: 200 MB."""
FOLDER = "photos"
"""The ring's folder in the state directory."""
MAX_PHOTO_BYTES = 32_000_000
"""The largest kept photo read back (a 12 MP JPEG at quality 95 is under 10 MB)."""
MAX_LABELS_BYTES = 64 * 1024
"""The largest labels file of one photo read back (a row per die, some 30 bytes each)."""
JPEG_QUALITY = 95
_QUEUE = 8
"""Photos waiting for the writer at most; more are dropped (with a warning) rather than wait."""
_NAME = re.compile(r"^(\d{8})\.(jpg|csv)$")
_HEADER = ["x_min", "y_min", "x_max", "y_max", "value"]
_AS_READ = "as_read"


@dataclass(frozen=True, slots=True)
class StoredPhoto:
    """One photo in the ring: its number, image path and labelled dice, and for each die whether
    the reader gave it that value (False: the players corrected it; empty: not recorded)."""

    number: int
    image: Path
    dice: tuple[LabelledDie, ...]
    as_read: tuple[bool, ...] = ()
    missed: tuple[int, ...] = ()
    """The values of the dice the reader missed (the players added them; their boxes unknown)."""
    struck: tuple[LabelledDie, ...] = ()
    """Boxes the players struck out as "not a die" (value 0)."""

    @property
    def corrected(self) -> int | None:
        """How many of its dice the players corrected or added (None: not recorded)."""
        if len(self.as_read) != len(self.dice):
            return None
        return self.as_read.count(False) + len(self.missed)


class PhotoRing:
    """The labelled photos in ``folder``, at most ``max_bytes`` in all, oldest removed first."""

    def __init__(self, folder: Path, *, max_bytes: int = MAX_BYTES) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._sizes: dict[int, int] | None = None  # bytes of each photo (image + labels)
        self._next: int | None = None

    @classmethod
    def in_directory(cls, state: Path, *, max_bytes: int = MAX_BYTES) -> PhotoRing:
        """The ring of the state directory ``state``."""
        return cls(state / FOLDER, max_bytes=max_bytes)

    def new_number(self) -> int:
        """A number no photo in the ring has had yet (increasing: older photos have smaller)."""
        with self._lock:
            self._scan()
            assert self._next is not None
            number = self._next
            self._next += 1
            return number

    def write(
        self,
        number: int,
        frame: Frame | None,
        dice: Sequence[LabelledDie],
        as_read: Sequence[bool] = (),
        missed: Sequence[int] = (),
        struck: Sequence[LabelledDie] = (),
    ) -> None:
        """Write photo ``number`` (``frame`` None: its labels alone, the image is written), with
        whether the reader gave each die its value (``as_read``: one per die, or empty: not
        recorded), the values of the dice it ``missed`` and the boxes ``struck`` out, then remove
        the oldest photos until the ring fits. Raises OSError (a full disk...)."""
        if (as_read or missed) and len(as_read) != len(dice):
            raise ValueError(f"{len(as_read)} as_read marks for {len(dice)} dice")
        self.folder.mkdir(parents=True, exist_ok=True)
        image = self.folder / f"{number:08d}.jpg"
        labels = self.folder / f"{number:08d}.csv"
        try:
            if frame is not None:
                ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
                if not ok:
                    raise OSError(f"cannot encode photo {number} as JPEG")
                write_atomically(image, encoded.tobytes())
            marks: list[list[object]] = [[int(m)] for m in as_read] if as_read else [[]] * len(dice)
            rows: list[list[object]] = [[*_HEADER, *([_AS_READ] if as_read else [])]]
            rows += [[*_box(d), d.value, *mark] for d, mark in zip(dice, marks, strict=True)]
            rows += [["", "", "", "", value, 0] for value in missed]
            rows += [[*_box(d), 0, 0] for d in struck]
            text = "".join(",".join(map(str, row)) + "\n" for row in rows)
            write_atomically(labels, text.encode("ascii"))
        except OSError:
            if frame is not None:
                image.unlink(missing_ok=True)
            labels.unlink(missing_ok=True)
            raise
        size = _size(image) + _size(labels)
        with self._lock:
            self._scan()
            assert self._sizes is not None
            self._sizes[number] = size
            self._trim()

    def photos(self) -> list[StoredPhoto]:
        """Every whole photo (image and labels) in the ring, oldest first; a labels file that
        cannot be read (or is not a regular file of at most `MAX_LABELS_BYTES`) is skipped."""
        found = []
        for number in self._numbers():
            image = self.folder / f"{number:08d}.jpg"
            try:
                dice, as_read, missed, struck = _read_labels(self.folder / f"{number:08d}.csv")
            except (OSError, ValueError, KeyError):
                continue
            if image.is_file():
                found.append(StoredPhoto(number, image, dice, as_read, missed, struck))
        return found

    def usage(self) -> tuple[int, int]:
        """How many photos the ring holds and their bytes."""
        with self._lock:
            self._sizes = None
            self._scan()
            assert self._sizes is not None
            return len(self._sizes), sum(self._sizes.values())

    def export(self, out: Path) -> int:
        """Write the photos in the datasets' layout into the folder ``out`` (which must be new
        or empty): ``images/NNNNNNNN.jpg`` and ``labels.csv`` (``image,x_min,y_min,x_max,y_max,
        value``); a photo with dice the reader missed is left out (their boxes are not known).
        Returns how many photos were written."""
        images = out / "images"
        images.mkdir(parents=True, exist_ok=True)
        count = 0
        with (out / "labels.csv").open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["image", *_HEADER])
            for photo in self.photos():
                if not photo.dice or photo.missed:  # a missed die's box is not known
                    continue
                name = f"images/{photo.image.name}"
                try:
                    data = read_bounded(photo.image, MAX_PHOTO_BYTES, "kept photo")
                except (OSError, ValueError) as exc:  # replaced or damaged since: left out
                    log.warning("%s; left out of the export", exc)
                    continue
                (out / name).write_bytes(data)
                for d in photo.dice:
                    writer.writerow([name, d.x_min, d.y_min, d.x_max, d.y_max, d.value])
                count += 1
        return count

    def _numbers(self) -> list[int]:
        if not self.folder.is_dir():
            return []
        numbers = set()
        for path in self.folder.iterdir():
            match = _NAME.match(path.name)
            if match:
                numbers.add(int(match[1]))
        return sorted(numbers)

    def _scan(self) -> None:
        if self._sizes is not None:
            return
        sizes = {}
        for number in self._numbers():
            base = self.folder / f"{number:08d}"
            sizes[number] = _size(base.with_suffix(".jpg")) + _size(base.with_suffix(".csv"))
        self._sizes = sizes
        newest = max(sizes, default=0)
        self._next = max(self._next or 1, newest + 1)

    def _trim(self) -> None:
        assert self._sizes is not None
        total = sum(self._sizes.values())
        for number in sorted(self._sizes):
            if total <= self.max_bytes or len(self._sizes) <= 1:
                break
            base = self.folder / f"{number:08d}"
            for path in (base.with_suffix(".csv"), base.with_suffix(".jpg")):
                path.unlink(missing_ok=True)
            total -= self._sizes.pop(number)


def _box(die: LabelledDie) -> list[object]:
    """A labels row's box cells."""
    return [f"{die.x_min:.1f}", f"{die.y_min:.1f}", f"{die.x_max:.1f}", f"{die.y_max:.1f}"]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _read_labels(
    path: Path,
) -> tuple[tuple[LabelledDie, ...], tuple[bool, ...], tuple[int, ...], tuple[LabelledDie, ...]]:
    """A labels file's dice with boxes, their as-read marks (empty: not recorded), the values
    of the dice without a box and the boxes struck out."""
    text = read_text_bounded(path, MAX_LABELS_BYTES, "labels file")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    struck = tuple(
        LabelledDie.from_row(row) for row in rows if row["x_min"] != "" and row["value"] == "0"
    )
    boxed = [row for row in rows if row["x_min"] != "" and row["value"] != "0"]
    missed = tuple(int(row["value"]) for row in rows if row["x_min"] == "")
    if any(not 1 <= value <= 6 for value in missed):
        raise ValueError(f"{path}: a die without a box has no die's value")
    dice = tuple(LabelledDie.from_row(row) for row in boxed)
    if boxed and all(row.get(_AS_READ) in ("0", "1") for row in boxed):
        return dice, tuple(row[_AS_READ] == "1" for row in boxed), missed, struck
    return dice, (), missed, struck


_Job = tuple[
    int,
    "Frame | None",
    tuple[LabelledDie, ...],
    tuple[bool, ...],
    tuple[int, ...],
    tuple[LabelledDie, ...],
]
"""A photo for the writer: its number, frame (None: labels alone), dice, their marks, the
values of the dice missed and the boxes struck out."""


@dataclass
class _Pending:
    """A read throw that counted, not yet confirmed: its frame, reading and dice as they stand."""

    frame: Frame
    reading: Reading
    values: tuple[int | None, ...]
    open: OpenThrow | None
    points: tuple[Point | None, ...] = ()  # where missed dice were pointed at, by die
    number: int | None = None  # set once written (a corrected throw is written at once)
    written: tuple[object, ...] = field(default=())  # values and points as last written


class PhotoKeeper:
    """Keeps the frames of the throws that counted, labelled, in a `PhotoRing` (see the module)."""

    def __init__(self, ring: PhotoRing, *, background: bool = True) -> None:
        self.ring = ring
        self._last: tuple[Reading, Frame] | None = None  # the latest reading and its frame
        self._settled: tuple[Reading, Frame] | None = None
        self._pending: _Pending | None = None
        self._failed = False
        self._queue: queue.Queue[_Job | None] = queue.Queue(maxsize=_QUEUE)
        self._thread: threading.Thread | None = None
        self._background = background
        self.kept = 0
        """Photos handed to the writer (corrected twice: counted once)."""

    # --- what the controller tells it ------------------------------------------------------

    def watching(self, read: Callable[[Frame], Reading]) -> Callable[[Frame], Reading]:
        """``read`` that also remembers the frame of its latest reading."""

        def reading(frame: Frame) -> Reading:
            result = read(frame)
            self._last = (result, frame)
            return result

        return reading

    def settled(self, reading: Reading) -> None:
        """A reading settled (it may count, or be refused and corrected)."""
        last = self._last
        if last is not None and last[0] is reading:
            self._settled = (reading, np.array(last[1], copy=True))  # the camera may reuse it
        else:
            self._settled = None

    def counted(self, state: GameState) -> None:
        """The settled reading counted as the open throw of ``state``."""
        self.check(state)
        if self._settled is None:
            return
        reading, frame = self._settled
        self._pending = _Pending(frame, reading, reading.values, state.open_throw)

    def corrected(
        self, correction: Correction, state: GameState, *, at: Sequence[Point | None] = ()
    ) -> None:
        """The players confirmed ``correction``, which now stands as the open throw of
        ``state``: label the photo with the corrected dice and keep it now. Dice added for dice
        the reader missed (more dice than the reading has) are labelled where ``at`` points at
        them (by die), else kept by value alone (no box)."""
        pending = self._pending
        if not correction.replaces or pending is None:
            self._settle_pending()
            if self._settled is None:
                return
            reading, frame = self._settled
            pending = _Pending(frame, reading, reading.values, None)
        if len(correction.values) < len(pending.reading.dice):
            return  # another reading (a resumed game)
        pending.values = correction.values
        pending.points = tuple(at)
        pending.open = state.open_throw
        self._pending = pending
        self._write(pending)

    def check(self, state: GameState) -> None:
        """Keep the pending throw once ``state`` moved on from it (it can no longer be
        corrected: the players confirmed it)."""
        pending = self._pending
        if pending is not None and state.open_throw is not pending.open:
            self._settle_pending()

    def confirm(self) -> None:
        """Keep the pending throw as it stands (the players checked it: e.g. the game's last)."""
        self._settle_pending()

    def close(self) -> None:
        """Wait for the photos being written (idempotent). An unconfirmed throw is not kept."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    def wait(self) -> None:
        """Wait until every photo handed to the writer is written."""
        self._queue.join()

    # --- writing ---------------------------------------------------------------------------

    def _settle_pending(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None and (*pending.values, *pending.points) != pending.written:
            self._write(pending)

    def _write(self, pending: _Pending) -> None:
        dice, as_read, missed, struck = _labels(
            pending.reading, pending.values, pending.points, pending.frame
        )
        first = pending.number is None
        if first:
            if not dice:
                return
            pending.number = self.ring.new_number()
            self.kept += 1
        assert pending.number is not None
        pending.written = (*pending.values, *pending.points)
        job = (pending.number, pending.frame if first else None, dice, as_read, missed, struck)
        if not self._background:
            self._run(job)
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._writer, name="photos", daemon=True)
            self._thread.start()
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            log.warning("photos: the disk is slow; a throw's photo was not kept")

    def _writer(self) -> None:
        while True:
            job = self._queue.get()
            try:
                if job is None:
                    return
                self._run(job)
            finally:
                self._queue.task_done()

    def _run(self, job: _Job) -> None:
        number, frame, dice, as_read, missed, struck = job
        try:
            self.ring.write(number, frame, dice, as_read, missed, struck)
        except OSError as exc:
            if not self._failed:
                self._failed = True
                log.warning(
                    "photos: cannot keep the throw's photo in %s (%s); the game goes on "
                    "without keeping photos",
                    self.ring.folder,
                    exc.strerror or exc,
                )
        except Exception:  # a photo must never stop the game
            log.exception("photos: a throw's photo could not be kept")
        else:
            self._failed = False


def _labels(
    reading: Reading,
    values: Sequence[int | None],
    points: Sequence[Point | None],
    frame: Frame,
) -> tuple[tuple[LabelledDie, ...], tuple[bool, ...], tuple[int, ...], tuple[LabelledDie, ...]]:
    """The dice of ``reading`` labelled with the first of ``values`` (unknown ones left out) and
    for each whether the reader gave it that value; the values after those are dice the reader
    missed, added by the players: labelled where ``points`` (by die) point at them (a box as
    wide as the dice read), else returned by value alone; last, the boxes struck out."""
    seen = len(reading.dice)
    out = []
    as_read = []
    struck = []
    for die, value in zip(reading.dice, values[:seen], strict=True):
        box = die.box
        if value == NOT_A_DIE:
            struck.append(LabelledDie(box.x, box.y, box.x + box.w, box.y + box.h, NOT_A_DIE))
        if value is None or value == NOT_A_DIE:
            continue
        out.append(LabelledDie(box.x, box.y, box.x + box.w, box.y + box.h, int(value)))
        as_read.append(die.value == value)
    height, width = frame.shape[:2]
    sides = [max(d.box.w, d.box.h) for d in reading.dice]
    half = (float(np.median(sides)) if sides else width / 10) / 2
    missed = []
    for index in range(seen, len(values)):
        value = values[index]
        if value is None or not 1 <= value <= 6:
            continue
        point = points[index] if index < len(points) else None
        if point is None:
            missed.append(int(value))
            continue
        x, y = point[0] * width, point[1] * height
        out.append(LabelledDie(x - half, y - half, x + half, y + half, int(value)))
        as_read.append(False)
    return tuple(out), tuple(as_read), tuple(missed), tuple(struck)
