"""The classifiers' last layers fitted to the table's own dice (the reader's network and the
judge's, `vision.adapt`): fitting them from the kept photos, and the file ``adapted.npz`` in the
state directory that the reader uses while it is there.

The file holds each layer's weights and biases, the checksum of both and the fingerprint of the
shipped layer it was fitted from (the judge's under ``judge_``-prefixed names); loading it checks
all of them, so a damaged file, or one fitted for another classifier, is refused with a message
(`AdaptedFileError`) rather than read with. A file holding the reader's layer alone (written
before the judge's was adapted) loads with the judge's network as shipped. Removing the file
(`dicekeeper adapt --undo`) goes back to the shipped weights of both.
"""

from __future__ import annotations

import hashlib
import io
import logging
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

import numpy as np

from device.bounded import FileUnusable, is_regular
from device.photos import PhotoRing, StoredPhoto
from device.store import write_atomically
from engine.errors import DicekeeperError
from hardware.image_files import ImageUnreadable, read_image
from vision.adapt import HELD_DICE, AdaptParams, Refit, held_back, refit, wrong_values
from vision.classify import Adapted, InvalidLastLayer, LastLayer, last_layer, shipped_last_layer
from vision.evaluation import LabelledDie, Score
from vision.judge import judge_network
from vision.types import Frame, Reading

__all__ = [
    "ADAPTED",
    "MAX_PHOTOS",
    "MIN_DICE",
    "MIN_PHOTOS",
    "Adaptation",
    "AdaptedFileError",
    "RefitRefused",
    "TableAdapter",
    "TooFewPhotos",
    "adapt_from_ring",
    "adapted_bytes",
    "adapted_path",
    "checked_line",
    "load_last_layer",
    "remove_last_layer",
    "save_last_layer",
]

log = logging.getLogger(__name__)

ADAPTED = "adapted.npz"
"""The adapted layer's file in the state directory."""
MAX_ADAPTED_BYTES = 1 << 20
"""The largest adapted-layers file read, packed or unpacked (one holds about 10 KB)."""
MIN_PHOTOS = 10
"""Photos needed at least to adapt."""
MIN_DICE = 30
"""Labelled dice needed at least to adapt."""
MAX_PHOTOS = 150
"""The newest photos adapted to at most (the rest would add time on a Pi, not accuracy)."""


class AdaptedFileError(DicekeeperError):
    """The adapted layer's file cannot be used (damaged, or fitted for another classifier)."""


class TooFewPhotos(DicekeeperError):
    """Too few labelled photos kept to adapt to."""


class RefitRefused(DicekeeperError):
    """A refit read the table's newest kept photos worse than the layers in use: not used."""


@dataclass(frozen=True, slots=True)
class Adaptation:
    """The fitted layers and what they were fitted to (``refit``: how they were checked, when
    they were just fitted)."""

    layers: Adapted
    photos: int
    dice: int
    refit: Refit | None = None


def adapted_path(state: Path) -> Path:
    """The adapted layer's file of the state directory ``state``."""
    return state / ADAPTED


def _fingerprint(layer: LastLayer) -> str:
    weights = np.ascontiguousarray(layer.weights, np.float32)
    bias = np.ascontiguousarray(layer.bias, np.float32)
    digest = hashlib.sha256()
    digest.update(repr((weights.shape, bias.shape)).encode())
    digest.update(weights.tobytes())
    digest.update(bias.tobytes())
    return digest.hexdigest()


def save_last_layer(state: Path, adaptation: Adaptation) -> Path:
    """Write ``adaptation`` to the state directory (replacing any earlier one at once)."""
    path = adapted_path(state)
    state.mkdir(parents=True, exist_ok=True)
    write_atomically(path, adapted_bytes(adaptation))
    return path


def adapted_bytes(adaptation: Adaptation) -> bytes:
    """The content of the adapted layers' file for ``adaptation`` (`ADAPTED`)."""
    arrays: dict[str, Any] = _arrays("", adaptation.layers.reader, shipped_last_layer())
    if adaptation.layers.judge is not None:
        arrays |= _arrays("judge_", adaptation.layers.judge, shipped_last_layer(judge_network()))
    arrays |= {"photos": np.array(adaptation.photos), "dice": np.array(adaptation.dice)}
    stream = io.BytesIO()
    np.savez(stream, **arrays)
    return stream.getvalue()


def _arrays(prefix: str, layer: LastLayer, shipped: LastLayer) -> dict[str, Any]:
    """The arrays that store ``layer`` under ``prefix``, fitted from ``shipped``."""
    return {
        f"{prefix}weights": np.asarray(layer.weights, np.float32),
        f"{prefix}bias": np.asarray(layer.bias, np.float32),
        f"{prefix}checksum": np.array(_fingerprint(layer)),
        f"{prefix}shipped": np.array(_fingerprint(shipped)),
    }


def load_last_layer(state: Path) -> Adaptation | None:
    """The adapted layers of the state directory, or None when there are none (the judge's None
    when the file holds the reader's alone); `AdaptedFileError` when its file is damaged or was
    fitted for another classifier."""
    path = adapted_path(state)
    if not path.exists():
        return None
    fix = "`dicekeeper adapt` fits it again, `dicekeeper adapt --undo` removes it"
    try:
        _check_size(path)
        with np.load(path, allow_pickle=False) as data:
            found = {name: data[name] for name in data.files}
        reader = _stored(found, "")
        judge = _stored(found, "judge_") if "judge_weights" in found else None
        photos, dice = int(found["photos"]), int(found["dice"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, InvalidLastLayer) as exc:
        raise AdaptedFileError(f"{str(path)!r} is damaged ({exc}); {fix}") from None
    except MemoryError:
        raise AdaptedFileError(f"{str(path)!r} is damaged (too large to load); {fix}") from None
    for stored, net in ((reader, None), (judge, judge_network())):
        if stored is None:
            continue
        layer, checksum, shipped = stored
        if checksum != _fingerprint(layer):
            raise AdaptedFileError(f"{str(path)!r} is damaged (its checksum does not match); {fix}")
        if shipped != _fingerprint(shipped_last_layer(net)):
            raise AdaptedFileError(f"{str(path)!r} was fitted for another classifier; {fix}")
    return Adaptation(Adapted(reader[0], judge[0] if judge is not None else None), photos, dice)


def _check_size(path: Path) -> None:
    """`FileUnusable` unless ``path`` is a regular file whose arrays, unpacked, stay within
    `MAX_ADAPTED_BYTES` (a small file may claim a huge array)."""
    if not is_regular(path):
        raise FileUnusable("not a regular file")
    if path.stat().st_size > MAX_ADAPTED_BYTES:
        raise FileUnusable(f"larger than {MAX_ADAPTED_BYTES:,} bytes")
    with zipfile.ZipFile(path) as archive:
        unpacked = sum(info.file_size for info in archive.infolist())
    if unpacked > MAX_ADAPTED_BYTES:
        raise FileUnusable(f"its arrays unpack to {unpacked:,} bytes, over {MAX_ADAPTED_BYTES:,}")


def _stored(found: dict[str, np.ndarray], prefix: str) -> tuple[LastLayer, str, str]:
    """The layer stored under ``prefix``, its checksum and its shipped layer's fingerprint."""
    layer = LastLayer(found[f"{prefix}weights"], found[f"{prefix}bias"])
    return layer, str(found[f"{prefix}checksum"]), str(found[f"{prefix}shipped"])


def remove_last_layer(state: Path) -> bool:
    """Remove the adapted layer (back to the shipped weights); whether there was one."""
    path = adapted_path(state)
    if not path.exists():
        return False
    path.unlink()
    return True


def adapt_from_ring(
    ring: PhotoRing, current: Adapted | None = None, params: AdaptParams | None = None
) -> Adaptation:
    """The last layers refitted (`vision.adapt.refit`) to the newest `MAX_PHOTOS` photos of
    ``ring`` (those with dice the reader missed as partial ones), checked on the newest whose
    every die it saw against the ``current`` layers (None: the shipped ones). `TooFewPhotos`
    when it holds fewer than `MIN_PHOTOS` photos, `MIN_DICE` labelled dice, or too few photos
    read whole to check a refit on (`vision.adapt.held_back`); `RefitRefused` when the refit
    reads the photos it was checked on worse."""
    stored = [p for p in ring.photos() if p.dice][-MAX_PHOTOS:]
    dice = sum(len(p.dice) for p in stored)
    if len(stored) < MIN_PHOTOS or dice < MIN_DICE:
        raise TooFewPhotos(
            f"{len(stored)} photos with {dice} dice kept in {str(ring.folder)!r}; adapting "
            f"needs at least {MIN_PHOTOS} photos and {MIN_DICE} dice: play on (every throw "
            "that counts is kept) and try again"
        )
    readable = [p for p in stored if _readable(p.image)]
    photos = _Photos([p for p in readable if not p.missed])
    partial = _Photos([p for p in readable if p.missed])
    held = held_back([len(p.dice) for p in readable if not p.missed])
    if held is None:
        whole = sum(len(p.dice) for p in readable if not p.missed)
        raise TooFewPhotos(
            f"{len(photos)} kept photos with every die read ({whole} dice) in "
            f"{str(ring.folder)!r}; a refit is checked on the newest of them, at most half, "
            f"and needs {HELD_DICE} dice there: play on and try again"
        )
    checked = refit(photos, current, params or AdaptParams(), partial=partial, held=held)
    if not checked.reads_as_well:
        raise RefitRefused(
            f"not adapted: fitted to the {checked.fitted} older kept photos, it read the "
            f"{checked.held_back} newest worse than the reader in use ({_figures(checked.before)}"
            f" -> {_figures(checked.after)}); the reader in use is kept"
        )
    return Adaptation(checked.layers, checked.fitted, checked.dice, checked)


def _readable(image: Path) -> bool:
    try:  # the header checked before decoding: a kept photo may have been replaced
        read_image(image)
    except ImageUnreadable:
        return False
    return True


class _Photos(Sequence[tuple[Frame, Sequence[LabelledDie]]]):
    """Kept photos as (frame, dice), each read from its file when asked for: a refit never
    holds every frame at once (150 photos of 1080p would be 900 MB)."""

    def __init__(self, stored: Sequence[StoredPhoto]) -> None:
        self._stored = list(stored)

    def __len__(self) -> int:
        return len(self._stored)

    @overload
    def __getitem__(self, index: int) -> tuple[Frame, Sequence[LabelledDie]]: ...

    @overload
    def __getitem__(self, index: slice) -> _Photos: ...

    def __getitem__(self, index: int | slice) -> tuple[Frame, Sequence[LabelledDie]] | _Photos:
        if isinstance(index, slice):
            return _Photos(self._stored[index])
        photo = self._stored[index]
        return read_image(photo.image), photo.dice + photo.struck  # struck: value 0, no die


def _figures(score: Score) -> str:
    return (
        f"{score.correct} of {score.labelled} dice right, {wrong_values(score)} wrong, "
        f"{score.unread} not sure"
    )


def checked_line(refit: Refit) -> str:
    """How a refit read the newest kept photos against the reader in use, in one line."""
    return (
        f"checked on the {refit.held_back} newest kept photos: {_figures(refit.before)} before, "
        f"{_figures(refit.after)} after"
    )


class TableAdapter:
    """Adapts the reader to the kept photos while the game goes on: `dicekeeper adapt
    --background` run as a child process at low priority (the reader's network is never shared
    between threads, and the main loop never waits), by itself after every ``every`` throws kept
    (`kept`; 0: never) and from the menu (`start`). Once a refit is saved (it read the newest
    kept photos at least as well as the reader in use), the reader reads with it."""

    def __init__(self, state: Path, current: Adaptation | None, *, every: int = 0) -> None:
        self.state = state
        self.current = current
        """The adapted layers the reader uses (None: the shipped ones)."""
        self.every = every
        self._command = [
            sys.executable,
            "-m",
            "device",
            "adapt",
            "--background",
            "--state",
            str(state),
        ]
        self._child: subprocess.Popen[str] | None = None
        self._asked = False  # the running adaptation was asked for from the menu
        self._kept = 0  # throws kept since the table started, as last told
        self._since = 0  # ... when the last adaptation started

    def reading(self, read: Callable[[Frame], Reading]) -> Callable[[Frame], Reading]:
        """``read`` with the classifier's last layer the current adapted one (if any)."""

        def adapted(frame: Frame) -> Reading:
            current = self.current
            with last_layer(current.layers if current is not None else None):
                return read(frame)

        return adapted

    @property
    def is_running(self) -> bool:
        """Whether an adaptation is under way (its child has not ended)."""
        return self._child is not None and self._child.poll() is None

    def kept(self, count: int) -> None:
        """``count`` throws have been kept since the table started: adapt once ``every`` more
        were kept since the last adaptation started (unless one is under way)."""
        self._kept = count
        if self.every and self._child is None and count - self._since >= self.every:
            self._spawn(asked=False)

    def start(self) -> str:
        """Start adapting to the kept photos (the players asked); what to tell them."""
        if self._child is not None:
            self._asked = True
            return "already adapting to the kept photos: the game goes on"
        error = self._spawn(asked=True)
        return error or "adapting to the kept photos (the game goes on)"

    def _spawn(self, *, asked: bool) -> str:
        self._since = self._kept
        try:
            self._child = subprocess.Popen(
                self._command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as exc:
            log.warning("cannot adapt to the kept photos: %s", exc.strerror or exc)
            return f"cannot adapt: {exc.strerror or exc}"
        self._asked = asked
        return ""

    def news(self) -> str:
        """Once an adaptation ended: what to tell the players (the reader then uses it); else
        "". One the players did not ask for says only when the reader now reads with it (the
        rest is logged)."""
        child = self._child
        if child is None or child.poll() is None:
            return ""
        self._child = None
        out, errors = child.communicate()
        if child.returncode != 0:
            lines = [line for line in errors.splitlines() if line.strip()]
            why = lines[-1].split(": ", 1)[-1] if lines else f"status {child.returncode}"
            why = why.removeprefix("not adapted: ")
            log.info("not adapted to the kept photos: %s", why)
            return f"not adapted: {why}" if self._asked else ""
        log.info("%s", out.strip())
        try:
            self.current = load_last_layer(self.state)
        except AdaptedFileError as exc:
            log.warning("not adapted: %s", exc)
            return f"not adapted: {exc}" if self._asked else ""
        photos = self.current.photos if self.current is not None else 0
        return f"adapted to {photos} kept throws: the reader now knows these dice"

    def close(self) -> None:
        """Stop an adaptation under way (idempotent)."""
        child, self._child = self._child, None
        if child is not None:
            child.terminate()
            child.communicate()
