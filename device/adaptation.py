"""The classifier's last layer fitted to the table's own dice: fitting it from the kept photos,
and the file ``adapted.npz`` in the state directory that the reader uses while it is there.

The file holds the layer's weights and biases, the checksum of both and the fingerprint of the
shipped layer it was fitted from; loading it checks all three, so a damaged file, or one fitted
for another classifier, is refused with a message (`AdaptedFileError`) rather than read with.
Removing the file (`dicekeeper adapt --undo`) goes back to the shipped weights.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from device.photos import PhotoRing
from device.store import write_atomically
from engine.errors import DicekeeperError
from vision.adapt import AdaptParams, adapt_last_layer
from vision.classify import InvalidLastLayer, LastLayer, last_layer, shipped_last_layer
from vision.evaluation import LabelledDie
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
    """A fitted layer and what it was fitted to."""

    layer: LastLayer
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
    layer = adaptation.layer
    write_atomically(
        path,
        lambda stream: np.savez(
            stream,
            weights=np.asarray(layer.weights, np.float32),
            bias=np.asarray(layer.bias, np.float32),
            checksum=np.array(_fingerprint(layer)),
            shipped=np.array(_fingerprint(shipped_last_layer())),
            photos=np.array(adaptation.photos),
            dice=np.array(adaptation.dice),
        ),
    )
    return path


def load_last_layer(state: Path) -> Adaptation | None:
    """The adapted layer of the state directory, or None when there is none; `AdaptedFileError`
    when its file is damaged or was fitted for another classifier."""
    path = adapted_path(state)
    if not path.exists():
        return None
    fix = "`dicekeeper adapt` fits it again, `dicekeeper adapt --undo` removes it"
    try:
        with np.load(path, allow_pickle=False) as data:
            layer = LastLayer(data["weights"], data["bias"])
            checksum, shipped = str(data["checksum"]), str(data["shipped"])
            photos, dice = int(data["photos"]), int(data["dice"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, InvalidLastLayer) as exc:
        raise AdaptedFileError(f"{str(path)!r} is damaged ({exc}); {fix}") from None
    if checksum != _fingerprint(layer):
        raise AdaptedFileError(f"{str(path)!r} is damaged (its checksum does not match); {fix}")
    if shipped != _fingerprint(shipped_last_layer()):
        raise AdaptedFileError(f"{str(path)!r} was fitted for another classifier; {fix}")
    return Adaptation(layer, photos, dice)


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
        frame = cv2.imread(str(photo.image))
        if frame is not None:
            photos.append((np.asarray(frame, np.uint8), photo.dice))
    layer, fitted = adapt_last_layer(photos, params or AdaptParams())
    return Adaptation(layer, len(photos), fitted)


class TableAdapter:
    """The menu's "Adapt to these dice": `dicekeeper adapt` run as a child process while the game
    goes on (the reader's network is never shared between threads, and the main loop never
    waits); once it is done, the reader reads with the new layer."""

    def __init__(self, state: Path, current: Adaptation | None) -> None:
        self.state = state
        self.current = current
        """The adapted layer the reader uses (None: the shipped one)."""
        self._command = [sys.executable, "-m", "device", "adapt", "--state", str(state)]
        self._child: subprocess.Popen[str] | None = None

    def reading(self, read: Callable[[Frame], Reading]) -> Callable[[Frame], Reading]:
        """``read`` with the classifier's last layer the current adapted one (if any)."""

        def adapted(frame: Frame) -> Reading:
            current = self.current
            with last_layer(current.layer if current is not None else None):
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
