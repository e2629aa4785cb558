"""The errors hardware raises: library and OS failures turned into domain errors with a hint."""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import DicekeeperError


class UnknownBackend(DicekeeperError, ValueError):
    """A backend name that does not exist; the message lists the valid ones."""

    def __init__(self, kind: str, name: str, valid: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.valid = tuple(sorted(valid))
        super().__init__(
            f"unknown {kind} backend {name!r}: choose one of {', '.join(map(repr, self.valid))}"
        )


class BackendMissing(DicekeeperError, ImportError):
    """A backend's library is not installed (e.g. picamera2 on a desktop)."""


class CameraUnavailable(DicekeeperError, OSError):
    """The camera cannot be opened or stopped delivering frames (unplugged, busy, no permission)."""


class ReplayEnded(DicekeeperError, EOFError):
    """A replay camera has shown its last frame and does not loop."""


class ButtonsUnavailable(DicekeeperError, OSError):
    """The buttons cannot be read (no GPIO on this machine, pin busy, no permission)."""


class DisplayUnavailable(DicekeeperError, OSError):
    """A display cannot be opened (no I2C device at the address, no video driver...)."""


class InvalidBackendOption(DicekeeperError, TypeError):
    """An option that a backend does not take, or a missing required one."""


class InvalidOption(DicekeeperError, ValueError):
    """A backend option with a value it cannot use (a negative repeat, an unknown driver...)."""
