"""Faces, pips and a stand-in classifier for the tests of the whole dice seen as blobs
(`vision.blob_dice`) and of the die widths (`vision.widths`)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest

from vision import blob_dice
from vision.blobs import ROUND
from vision.classify import Verdict
from vision.crops import Pyramid, pyramid_of
from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip

PARAMS = ReaderParams(use_detector=False, use_judge=False)
"""The pip stages alone, as the tests that use it are about them (the judge is
tests/vision/test_judge.py's)."""

STAGE: tuple[ModuleType, ...] = (blob_dice,)
"""The modules that cut crops and call the classifier on them that the stand-ins replace."""


def stand_in(monkeypatch: pytest.MonkeyPatch, name: str, value: object) -> None:
    """Make every module of `STAGE` that calls ``name`` (``classify``, ``die_crop``) call
    ``value`` instead."""
    users = [module for module in STAGE if hasattr(module, name)]
    assert users, f"no module of the stand-ins' stage has {name!r}"
    for module in users:
        monkeypatch.setattr(module, name, value)


def face_at(x: float, y: float, width: float, value: int | None) -> Face:
    step = width / PARAMS.die_width_per_spacing
    return Face(x, y, (step, 0.0), (0.0, step), (), value, width, 0.6)


def pip_at(x: float, y: float, diameter: float) -> Pip:
    return Pip(x, y, diameter, True, 80.0, 0.9, 1.0, ROUND, (230.0, 230.0, 230.0), 230.0)


def verdict_of(**probabilities: float) -> Verdict:
    """A centred verdict giving ``none`` to no die, ``v1``... ``v6`` to the values and ``v7``
    to an unreadable die."""
    row = [probabilities.get("none", 0.0)] + [probabilities.get(f"v{k}", 0.0) for k in range(1, 8)]
    return Verdict(tuple(row), (0.0, 0.0))


def marked_crop(
    pyramid: Pyramid, center: tuple[float, float], width: float, angle: float = 0.0
) -> np.ndarray:
    """A stand-in crop that is only where it was cut and how wide: (x, y, width)."""
    return np.array([center[0], center[1], width])


def classify_by_place(
    monkeypatch: pytest.MonkeyPatch, verdict: Callable[[float, float, float], Verdict]
) -> None:
    """Make `STAGE` cut stand-in crops (`marked_crop`) and classify each as ``verdict``
    (x, y, width) tells."""
    stand_in(monkeypatch, "die_crop", marked_crop)
    stand_in(monkeypatch, "classify", lambda crops: [verdict(*crop) for crop in crops])


def blank_pyramid() -> Pyramid:
    """The pyramid of a plain 500×400 frame: nothing stands out where a stand-in classifier
    (`classify_by_place`) is asked about."""
    return pyramid_of(np.full((400, 500, 3), 128, dtype=np.uint8))
