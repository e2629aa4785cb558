"""The settle tracker on synthetic frame sequences from the renderer, read from ground truth."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.render import RenderedTray, TrayStyle, render_hand_pass, render_throw, style_from_seed
from vision.settle import InvalidSettleInput, SettleParams, SettleState, SettleTracker
from vision.types import DieReading, Reading

DT = 0.125  # seconds between frames (8 fps; a binary fraction, so times add up exactly)
PARAMS = SettleParams(settle_seconds=0.5)
STILL_NEEDED = 4  # still frames after the first one: 4 × DT = settle_seconds


def truth_reading(tray: RenderedTray) -> Reading:
    """What a perfect reader would report: every die not hidden by a hand, with its true value."""
    return Reading(
        tuple(DieReading(d.value, d.center, d.box, 1.0) for d in tray.dice if not d.is_covered)
    )


def run(
    tracker: SettleTracker, frames: list[RenderedTray], start: float = 0.0
) -> list[SettleState]:
    return [tracker.update(f.frame, truth_reading(f), start + i * DT) for i, f in enumerate(frames)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_throw_settles_only_after_settle_seconds_of_still_frames(seed: int) -> None:
    frames = render_throw([1, 3, 5, 6], seed=seed, moving_frames=6, still_frames=9)
    states = run(SettleTracker(PARAMS), frames)
    assert SettleState.SETTLED not in states[:6]
    still = states[6:]
    assert still[:STILL_NEEDED] == [SettleState.MOVING] * STILL_NEEDED
    assert still[STILL_NEEDED:] == [SettleState.SETTLED] * (len(still) - STILL_NEEDED)


def test_settled_reading_is_the_thrown_dice() -> None:
    frames = render_throw([2, 2, 4], seed=9, moving_frames=4, still_frames=8)
    tracker = SettleTracker(PARAMS)
    run(tracker, frames)
    assert tracker.state is SettleState.SETTLED
    assert tracker.settled_reading is not None
    assert tracker.settled_reading.sorted_values() == (2, 2, 4)


def test_a_hand_passing_over_is_never_settled() -> None:
    values = [1, 5, 5]
    seed = 12
    rest = render_throw(values, seed=seed, moving_frames=0, still_frames=6)
    hand = render_hand_pass(values, seed=seed, frames=8)
    # The same dice as `rest` after the hand left (same layout, fresh sensor noise).
    after = render_throw(values, seed=seed, moving_frames=0, still_frames=12)[6:]
    tracker = SettleTracker(PARAMS)
    states = run(tracker, rest + hand + after)
    assert states[5] is SettleState.SETTLED
    assert any(f.hand_visible for f in hand)
    for frame, state in zip(hand, states[6:14], strict=True):
        if frame.hand_visible:
            assert state is SettleState.MOVING
    tail = states[14:]
    assert SettleState.MOVING in tail[:STILL_NEEDED]
    assert tail[-1] is SettleState.SETTLED


def test_empty_tray_is_empty_and_a_hand_over_it_is_moving() -> None:
    frames = render_throw([], seed=4, moving_frames=6, still_frames=5, hand=True)
    states = run(SettleTracker(PARAMS), frames)
    assert states[-4:] == [SettleState.EMPTY] * 4
    for frame, state in zip(frames[1:6], states[1:6], strict=True):
        if frame.hand_visible:
            assert state is SettleState.MOVING


def test_image_motion_alone_keeps_it_moving() -> None:
    # Dice still rolling while a (wrong) reader keeps reporting the same thing: the first two
    # thirds of a long throw, where the dice still travel several pixels a frame.
    frames = [
        f
        for f in render_throw([3, 6], seed=21, moving_frames=40, still_frames=0)[:28]
        if all(0 <= d.center[0] < 640 and 0 <= d.center[1] < 480 for d in f.dice)
    ]
    assert len(frames) >= 8
    fixed = truth_reading(render_throw([3, 6], seed=21, moving_frames=0, still_frames=1)[0])
    tracker = SettleTracker(PARAMS)
    states = [tracker.update(f.frame, fixed, i * DT) for i, f in enumerate(frames)]
    assert SettleState.SETTLED not in states


def test_reading_changes_alone_keep_it_moving_and_undo_settled() -> None:
    frames = render_throw([4, 4, 1], seed=5, moving_frames=0, still_frames=14)
    tracker = SettleTracker(PARAMS)
    states = run(tracker, frames[:7])
    assert states[-1] is SettleState.SETTLED
    good = truth_reading(frames[7])
    flicker = Reading(
        tuple(dataclasses.replace(d, value=None) if i == 0 else d for i, d in enumerate(good.dice))
    )
    assert tracker.update(frames[7].frame, flicker, 7 * DT) is SettleState.MOVING
    assert tracker.settled_reading is None
    moved = Reading(
        tuple(
            dataclasses.replace(d, center=(d.center[0] + d.box.w, d.center[1])) if i == 0 else d
            for i, d in enumerate(good.dice)
        )
    )
    states = [
        tracker.update(frames[8 + i].frame, moved if i % 2 else good, (8 + i) * DT)
        for i in range(6)
    ]
    assert SettleState.SETTLED not in states


@pytest.mark.parametrize("seed", [31, 32])
def test_heavy_sensor_noise_and_an_exposure_step_still_settle(seed: int) -> None:
    style = dataclasses.replace(style_from_seed(seed), noise=8.0, jpeg_quality=60)
    frames = render_throw([6, 2], seed=seed, moving_frames=0, still_frames=8, style=style)
    tracker = SettleTracker(PARAMS)
    states = []
    for i, f in enumerate(frames):
        img = f.frame if i < 3 else np.clip(f.frame.astype(np.int16) + 6, 0, 255).astype(np.uint8)
        states.append(tracker.update(img, truth_reading(f), i * DT))
    assert states[-1] is SettleState.SETTLED


def test_reset_and_bad_input() -> None:
    frames = render_throw([5], seed=2, moving_frames=0, still_frames=6, style=TrayStyle())
    tracker = SettleTracker(PARAMS)
    assert run(tracker, frames)[-1] is SettleState.SETTLED
    tracker.reset()
    assert tracker.state is SettleState.MOVING and tracker.settled_reading is None
    tracker.update(frames[0].frame, truth_reading(frames[0]), 10.0)
    with pytest.raises(InvalidSettleInput, match="backwards"):
        tracker.update(frames[0].frame, truth_reading(frames[0]), 9.0)
    with pytest.raises(InvalidSettleInput, match="uint8"):
        tracker.update(frames[0].frame.astype(np.float32), Reading(), 11.0)
    with pytest.raises(InvalidSettleInput, match="settle_seconds"):
        SettleParams(settle_seconds=-1.0)
