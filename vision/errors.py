"""The errors the dice reader raises."""

from __future__ import annotations

from engine.errors import DicekeeperError


class InvalidFrame(DicekeeperError, ValueError):
    """A frame the reader cannot work on: empty, too small, wrong dtype or wrong channels."""


class InvalidParams(DicekeeperError, ValueError):
    """Reader parameters that cannot work: a region of interest with fewer than three corners, an
    even or tiny threshold block, an unknown number of planes."""


class ReaderUnavailable(DicekeeperError, RuntimeError):
    """The reader cannot work at all: its classifier's weights are missing or broken."""
