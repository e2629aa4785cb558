"""A die face found in a frame: the value that flows between the grouping stages."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Face:
    """A die face found from its pips: centre (x, y), the two grid steps ``u`` and ``v`` in pixels
    (grid point (gx, gy) lies at centre + gx·u + gy·v), the indices of its pips, its value (None:
    a die seen but not read), the die width in pixels, a confidence in [0, 1], and for a die not
    read the value the judge found likeliest though not sure enough to give (None: no guess)."""

    x: float
    y: float
    u: tuple[float, float]
    v: tuple[float, float]
    pips: tuple[int, ...]
    value: int | None
    width: float
    confidence: float
    likely: int | None = None
