"""A camera with no hardware: throws rendered by an injected function, and an unplugged camera.

The renderer is injected (the device passes vision's synthetic tray renderer) because hardware
must not import vision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence

from hardware.backends import Closing
from hardware.camera import Frame
from hardware.errors import CameraUnavailable, InvalidOption

SIMULATED_HINT = 'to play without a camera, set backend = "simulated" under [camera] in the config'
"""The hint every camera error ends with, written as the configuration file says it."""

RenderThrow = Callable[[Sequence[int], int], Sequence[Frame]]
"""``render_throw(values, seed)``: the frames of one throw, tumbling first, the settled tray last.

Called with no values for the empty tray.
"""


class SimulatedCamera(Closing):
    """Frames of simulated throws.

    Before the first throw `read()` shows the empty tray. After `expect_throw(n)` it returns the
    tumbling frames of a throw one per read, then the settled frame for ever after. The values of
    a throw are the next of the scripted throws in ``script`` (each used as given whatever ``n``
    is, so a script can show the wrong number of dice), and once the script is used up ``n`` fair
    dice from ``rng`` (default ``random.Random(seed)``). `unplug()` makes `read()` fail as an
    unplugged camera does.
    """

    def __init__(
        self,
        render_throw: RenderThrow,
        *,
        script: Iterable[Sequence[int]] = (),
        seed: int = 0,
        rng: random.Random | None = None,
    ) -> None:
        self._render = render_throw
        self._script: Iterator[Sequence[int]] = iter(script)
        self._random = random.Random(seed) if rng is None else rng
        self._seed = seed
        self._throws = 0
        self._frames: Sequence[Frame] = ()
        self._position = 0
        self._is_unplugged = False
        self.last_values: tuple[int, ...] = ()
        """The values of the most recent throw (what the dice really show)."""

    def expect_throw(self, n: int) -> None:
        """Start a throw of ``n`` dice (or the next scripted throw)."""
        if n < 0:
            raise InvalidOption(f"cannot throw {n!r} dice")
        scripted = next(self._script, None)
        if scripted is not None:
            values = tuple(scripted)
        else:
            values = tuple(self._random.randint(1, 6) for _ in range(n))
        self._throws += 1
        self.last_values = values
        self._show(values)

    def _show(self, values: Sequence[int]) -> None:
        frames = self._render(values, self._seed + self._throws)
        if not frames:
            raise CameraUnavailable(f"the renderer returned no frames for the throw {values!r}")
        self._frames = frames
        self._position = 0

    def read(self) -> Frame:
        """The next frame: tumbling frames of the current throw, then its settled tray."""
        if self._is_unplugged:
            raise CameraUnavailable(_unplugged_message(0))
        if not self._frames:  # before the first throw: the empty tray, still
            self._show(())
            self._frames = self._frames[-1:]
        frame = self._frames[min(self._position, len(self._frames) - 1)]
        self._position += 1
        return frame.copy()

    def unplug(self) -> None:
        """Simulate pulling the cable: `read()` raises `CameraUnavailable` until `replug()`."""
        self._is_unplugged = True

    def replug(self) -> None:
        """Undo `unplug()`."""
        self._is_unplugged = False

    def close(self) -> None:
        """Forget the frames (idempotent)."""
        self._frames = ()


class UnpluggedCamera(Closing):
    """A camera whose cable is out: every `read()` raises `CameraUnavailable` (for tests)."""

    def __init__(self, source: int | str = 0) -> None:
        self.source = source

    def read(self) -> Frame:
        """Always fails, like a camera that was unplugged."""
        raise CameraUnavailable(_unplugged_message(self.source))

    def expect_throw(self, n: int) -> None:
        """Nothing to do."""


def _unplugged_message(source: int | str) -> str:
    where = f"index {source}" if isinstance(source, int) else repr(source)
    return f"no camera at {where}: is it plugged in? {SIMULATED_HINT}"
