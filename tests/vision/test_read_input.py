"""The reader on input it cannot or should not read: bad frames raise, empty scenes read empty."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import DicekeeperError
from vision import InvalidFrame, InvalidParams, ReaderParams, read
from vision.validate import check_frame


@pytest.mark.parametrize(
    ("frame", "named"),
    [
        (np.zeros((0, 0, 3), dtype=np.uint8), "(0, 0, 3)"),
        (np.zeros((1, 1, 3), dtype=np.uint8), "(1, 1, 3)"),
        (np.zeros((480, 640), dtype=np.uint8), "(480, 640)"),
        (np.zeros((480, 640, 4), dtype=np.uint8), "(480, 640, 4)"),
        (np.zeros((480, 640, 3), dtype=np.float32), "'float32'"),
        (np.zeros((480, 640, 3), dtype=np.uint16), "'uint16'"),
    ],
)
def test_a_bad_frame_raises_invalid_frame_naming_its_shape_or_dtype(
    frame: np.ndarray, named: str
) -> None:
    with pytest.raises(InvalidFrame) as caught:
        read(frame)
    assert named in str(caught.value)
    assert isinstance(caught.value, DicekeeperError)
    assert isinstance(caught.value, ValueError)


def test_something_that_is_not_an_array_is_refused() -> None:
    with pytest.raises(InvalidFrame, match="list"):
        check_frame([[0, 0, 0]])


PIP_STAGES = ReaderParams(use_detector=False)
"""Without the fast path (vision.quick) tried first: the pip stages read every frame."""


@pytest.mark.parametrize("params", [ReaderParams(), PIP_STAGES])
@pytest.mark.parametrize("level", [0, 128, 255])
def test_a_uniform_frame_holds_no_dice(level: int, params: ReaderParams) -> None:
    frame = np.full((480, 640, 3), level, dtype=np.uint8)
    assert read(frame, params).is_empty


@pytest.mark.parametrize("params", [ReaderParams(), PIP_STAGES])
def test_noise_alone_holds_no_dice(params: ReaderParams) -> None:
    rng = np.random.default_rng(3)
    frame = rng.normal(128, 6, (480, 640, 3)).clip(0, 255).astype(np.uint8)
    assert read(frame, params).is_empty


@pytest.mark.parametrize("params", [ReaderParams(), PIP_STAGES])
@pytest.mark.parametrize("size", [(16, 16), (33, 70), (65, 97)])
def test_a_tiny_frame_is_read_without_error(size: tuple[int, int], params: ReaderParams) -> None:
    assert read(np.full((*size, 3), 90, dtype=np.uint8), params).dice == ()


def test_params_are_frozen() -> None:
    params = ReaderParams()
    with pytest.raises(AttributeError):
        params.block_size = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes",
    [
        {"roi": ((0, 0), (10, 10))},
        {"block_size": 20},
        {"block_size": 1},
        {"planes": 3},
        {"standout_faint_colours": (22.5, 60.0)},
        {"standout_faint_colours": (0.0,)},
    ],
)
def test_params_that_cannot_work_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(InvalidParams) as caught:
        ReaderParams(**changes)  # type: ignore[arg-type]
    assert repr(next(iter(changes.values()))) in str(caught.value)


def test_a_frame_of_many_megapixels_is_read_shrunk_and_its_dice_placed_in_it() -> None:
    import cv2

    from vision.reader import WORKING_PIXELS, working_copy
    from vision.render import render_tray

    tray = render_tray([1, 3, 6], seed=21)
    big = np.asarray(cv2.resize(tray.frame, (4000, 3000), interpolation=cv2.INTER_CUBIC))
    working, factor = working_copy(big)
    assert working.shape[0] * working.shape[1] <= WORKING_PIXELS
    assert factor == pytest.approx(working.shape[1] / 4000)
    assert working_copy(tray.frame) == (tray.frame, 1.0)
    reading = read(big)
    small = read(tray.frame)
    thrown = tuple(d.value for d in sorted(tray.dice, key=lambda d: (d.center[1], d.center[0])))
    assert small.values == thrown
    # Resampled twice, a die may be read "not sure" (None), never another value.
    assert len(reading.values) == len(thrown)
    assert all(v in (t, None) for v, t in zip(reading.values, thrown, strict=True))
    assert sum(v is None for v in reading.values) <= 1
    factor = 4000 / tray.frame.shape[1]
    for die, seen in zip(reading.dice, small.dice, strict=True):
        assert abs(die.center[0] - factor * seen.center[0]) < 0.2 * factor * seen.box.w
        assert abs(die.center[1] - factor * seen.center[1]) < 0.2 * factor * seen.box.w
        assert die.box.x + die.box.w <= 4000 and die.box.y + die.box.h <= 3000
