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
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from device.bounded import FileUnusable, is_regular
from device.photos import PhotoRing
from device.store import write_atomically
from engine.errors import DicekeeperError
from hardware.image_files import ImageUnreadable, read_image
from vision.adapt import AdaptParams, adapt_last_layer
from vision.classify import Adapted, InvalidLastLayer, LastLayer, last_layer, shipped_last_layer
from vision.evaluation import LabelledDie
from vision.judge import judge_network
from vision.types import Frame, Reading

__all__ = [
    "ADAPTED",
    "MAX_PHOTOS",
    "MIN_DICE",
    "MIN_PHOTOS",
    "Adaptation",
    "AdaptedFileError",
    "TableAdapter",
    "TooFewPhotos",
    "adapt_from_ring",
    "adapted_path",
    "load_last_layer",
    "remove_last_layer",
    "save_last_layer",
]

ADAPTED = "adapted.npz"
MAX_ADAPTED_BYTES = 1 << 20
"""The largest adapted-layers file read, packed or unpacked (one holds about 10 KB)."""
"""The adapted layer's file in the state directory."""
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


@dataclass(frozen=True, slots=True)
class Adaptation:
    """The fitted layers and what they were fitted to."""

    layers: Adapted
    photos: int
    dice: int


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
    arrays: dict[str, Any] = _arrays("", adaptation.layers.reader, shipped_last_layer())
    if adaptation.layers.judge is not None:
        arrays |= _arrays("judge_", adaptation.layers.judge, shipped_last_layer(judge_network()))
    arrays |= {"photos": np.array(adaptation.photos), "dice": np.array(adaptation.dice)}
    write_atomically(path, lambda stream: np.savez(stream, **arrays))
    return path


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


def adapt_from_ring(ring: PhotoRing, params: AdaptParams | None = None) -> Adaptation:
    """The last layer fitted to the newest `MAX_PHOTOS` photos of ``ring``; `TooFewPhotos`
    when it holds fewer than `MIN_PHOTOS` photos or `MIN_DICE` labelled dice."""
    stored = [p for p in ring.photos() if p.dice][-MAX_PHOTOS:]
    dice = sum(len(p.dice) for p in stored)
    if len(stored) < MIN_PHOTOS or dice < MIN_DICE:
        raise TooFewPhotos(
            f"{len(stored)} photos with {dice} dice kept in {str(ring.folder)!r}; adapting "
            f"needs at least {MIN_PHOTOS} photos and {MIN_DICE} dice: play on (every throw "
            "that counts is kept) and try again"
        )
    photos: list[tuple[Frame, Sequence[LabelledDie]]] = []
    for photo in stored:
        try:  # the header checked before decoding: a kept photo may have been replaced
            frame = read_image(photo.image)
        except ImageUnreadable:
            continue
        photos.append((frame, photo.dice))
    layers, fitted = adapt_last_layer(photos, params or AdaptParams())
    return Adaptation(layers, len(photos), fitted)


class TableAdapter:
    """The menu's "Adapt to these dice": `dicekeeper adapt` run as a child process while the game
    goes on (the reader's network is never shared between threads, and the main loop never
    waits); once it is done, the reader reads with the new layer."""

    def __init__(self, state: Path, current: Adaptation | None) -> None:
        self.state = state
        self.current = current
        """The adapted layers the reader uses (None: the shipped ones)."""
        self._command = [sys.executable, "-m", "device", "adapt", "--state", str(state)]
        self._child: subprocess.Popen[str] | None = None

    def reading(self, read: Callable[[Frame], Reading]) -> Callable[[Frame], Reading]:
        """``read`` with the classifier's last layer the current adapted one (if any)."""

        def adapted(frame: Frame) -> Reading:
            current = self.current
            with last_layer(current.layers if current is not None else None):
                return read(frame)

        return adapted

    @property
    def is_running(self) -> bool:
        """Whether an adaptation is under way."""
        return self._child is not None

    def start(self) -> str:
        """Start adapting to the kept photos; what to tell the players."""
        if self._child is not None:
            return "already adapting to the kept photos: the game goes on"
        try:
            self._child = subprocess.Popen(
                self._command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as exc:
            return f"cannot adapt: {exc.strerror or exc}"
        return "adapting to the kept photos (the game goes on)"

    def news(self) -> str:
        """Once the adaptation ended: what to tell the players (the reader then uses it); else
        ""."""
        child = self._child
        if child is None or child.poll() is None:
            return ""
        self._child = None
        _, errors = child.communicate()
        if child.returncode != 0:
            lines = [line for line in errors.splitlines() if line.strip()]
            why = lines[-1].split(": ", 1)[-1] if lines else f"status {child.returncode}"
            return f"not adapted: {why}"
        try:
            self.current = load_last_layer(self.state)
        except AdaptedFileError as exc:
            return f"not adapted: {exc}"
        photos = self.current.photos if self.current is not None else 0
        return f"adapted to {photos} photos: the reader now knows these dice"

    def close(self) -> None:
        """Stop an adaptation under way (idempotent)."""
        child, self._child = self._child, None
        if child is not None:
            child.terminate()
            child.communicate()
