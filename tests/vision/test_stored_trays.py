"""The stored trays (tests/vision/trays) are the renderer's frames, give or take rounding."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.stored_trays import STORED, WRITTEN_WITH, stored_tray
from vision.render import render_tray


@pytest.mark.parametrize(("seed", "values"), STORED, ids=[str(seed) for seed, _ in STORED])
def test_stored_trays_are_what_the_renderer_draws(seed: int, values: tuple[int, ...]) -> None:
    stored = stored_tray(values, seed=seed)
    rendered = render_tray(list(values), seed=seed).frame
    assert stored.shape == rendered.shape == (480, 640, 3)
    if cv2.__version__ == WRITTEN_WITH:
        assert np.array_equal(stored, rendered), "the renderer changed: write the trays again"
    else:
        # Another OpenCV rounds the renderer's float stages otherwise: under half a level on
        # average (4.8, 4.11); another tray is about 160 levels off.
        difference = np.abs(stored.astype(np.int16) - rendered.astype(np.int16))
        assert float(difference.mean()) < 1.5


def test_a_tray_not_stored_is_a_clear_error() -> None:
    with pytest.raises(KeyError, match="seed 4255"):
        stored_tray([5], seed=4255)
