"""A simulated camera whose dice are known: the renderer remembers what each frame shows.

With ``camera.read_truth = true`` (simulated camera only) the table takes the dice from the
simulator instead of reading the frames, so the controller, the store and the screens can be tried
(and tested) apart from the dice reader's accuracy. Frames are still rendered, tumbling and
settling, and the settle tracker still watches them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from vision.types import Box, DieReading, Frame, Reading

__all__ = ["TruthReader"]


class TruthReader:
    """Wraps a renderer; `read` answers with the values of the frame it rendered."""

    def __init__(self, render: Callable[[Sequence[int], int], Sequence[Frame]]) -> None:
        self._render = render
        self._truth: dict[bytes, tuple[int, ...]] = {}

    def render(self, values: Sequence[int], seed: int) -> list[Frame]:
        """Render a throw; the settled (last) frame is remembered as showing ``values``."""
        frames = list(self._render(values, seed))
        if frames:
            self._truth[_key(frames[-1])] = tuple(values)
        return frames

    def read(self, frame: Frame) -> Reading:
        """The dice of a settled frame this renderer made; nothing for tumbling frames."""
        values = self._truth.get(_key(frame), ())
        height, width = frame.shape[:2]
        side = max(8, min(width, height) // 8)
        return Reading(
            tuple(
                DieReading(v, (side * (i + 0.5), height / 2), Box(side * i, 0, side, side), 1.0)
                for i, v in enumerate(values)
            )
        )


def _key(frame: Frame) -> bytes:
    return hashlib.blake2b(frame.tobytes(), digest_size=16).digest()
