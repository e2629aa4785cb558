"""The die detector: proposals where rendered dice lie, at their widths, on frames of any size."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import vision.detect as detect_module
from vision.crops import pyramid_of
from vision.detect import MULTIPLE, Proposal, detect, detect_scales, merged, to_input
from vision.errors import ReaderUnavailable
from vision.evaluation import resized
from vision.render import render_empty_tray, render_tray, style_from_seed
from vision.types import Frame


def _found(proposals: list[Proposal], center: tuple[float, float], width: float) -> bool:
    """Whether a proposal lies within a quarter die width of ``center``, within a quarter of
    ``width`` wide."""
    return any(
        math.hypot(p.x - center[0], p.y - center[1]) < 0.25 * width
        and abs(p.width / width - 1.0) < 0.25
        for p in proposals
    )


def test_every_rendered_die_is_proposed_where_it_lies_at_its_width() -> None:
    found = total = 0
    for seed in range(10):
        values = [1 + (seed + k) % 6 for k in range(1 + seed % 6)]
        tray = render_tray(values, seed=300 + seed)
        proposals = detect(pyramid_of(tray.frame)[1], 0.1)
        found += sum(_found(proposals, d.center, d.size_px) for d in tray.dice)
        total += len(tray.dice)
    assert found >= total - 1, (found, total)


def test_proposals_come_strongest_first_and_one_per_die() -> None:
    tray = render_tray([2, 5, 6, 1], seed=41)
    proposals = detect(pyramid_of(tray.frame)[1], 0.05)
    assert [p.strength for p in proposals] == sorted((p.strength for p in proposals), reverse=True)
    for i, a in enumerate(proposals):
        for b in proposals[i + 1 :]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= detect_module.SEPARATION * a.width


def test_an_empty_tray_gives_no_strong_proposal() -> None:
    for seed in range(4):
        tray = render_empty_tray(seed=seed)
        assert all(p.strength < 0.5 for p in detect(pyramid_of(tray.frame)[1], 0.1))


def test_on_an_empty_tray_the_detector_at_every_scale_is_never_sure() -> None:
    """With no strong proposal it reads the frame itself too (for dice under 24 px), where the
    tray's corners and texture draw weak peaks (up to 0.7 on these trays): the classifier looks
    and sees no die. It is never sure of one, and proposes one at 0.5 on fewer than half."""
    half_sure = 0
    for seed in range(12):
        tray = render_empty_tray(seed=seed)
        strengths = [p.strength for p in detect_scales(pyramid_of(tray.frame), 0.1)]
        assert all(s < 0.8 for s in strengths), (seed, strengths)
        half_sure += any(s >= 0.5 for s in strengths)
    assert half_sure < 6


def test_the_input_is_padded_to_the_networks_multiple_with_its_mean() -> None:
    half = np.full((121, 161, 3), 90, np.uint8)
    half[:60] = 200
    half[:, 80:, 2] = 10  # channels told apart
    blob = to_input(half)
    assert blob.shape == (1, 3, 128, 192)
    assert blob.shape[2] % MULTIPLE == 0 and blob.shape[3] % MULTIPLE == 0
    assert np.all(blob[:, :, 121:, :] == 0.0) and np.all(blob[:, :, :, 161:] == 0.0)
    assert abs(float(blob[:, :, :121, :161].mean())) < 1e-4
    pixels = half.astype(np.float64)
    normal = (pixels - pixels.mean()) / (pixels.std() + 8.0)  # each channel, in its place
    assert np.allclose(blob[0, :, :121, :161], normal.transpose(2, 0, 1), atol=1e-5)


def _on_canvas(frame: Frame, left: int, top: int) -> Frame:
    """The frame on a larger canvas of its median colour, ``left`` and ``top`` pixels in."""
    colour = [int(c) for c in np.median(frame.reshape(-1, 3), axis=0)]
    return np.asarray(
        cv2.copyMakeBorder(frame, top, 40, left, 56, cv2.BORDER_CONSTANT, value=colour),
        dtype=np.uint8,
    )


def test_frames_of_any_size_are_read_alike() -> None:
    for seed in (14, 16, 19):
        tray = render_tray([3, 6, 4], seed=seed)
        proposals = detect(pyramid_of(_on_canvas(tray.frame, 61, 37))[1], 0.3)
        for die in tray.dice:
            assert _found(proposals, (die.center[0] + 61, die.center[1] + 37), die.size_px)
    large = render_tray([3, 6, 4], seed=12, size=(1280, 960))
    proposals = detect(pyramid_of(large.frame)[1], 0.3)
    assert all(_found(proposals, d.center, d.size_px) for d in large.dice)


def test_missing_weights_are_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(detect_module, "MODEL", "no_detector.onnx")
    tray = render_tray([3], seed=1)
    with pytest.raises(ReaderUnavailable, match=r"no_detector\.onnx"):
        detect(pyramid_of(tray.frame)[1], 0.1)


def _throw_at_width(seed: int, width: float) -> tuple[Frame, list[tuple[float, float]]]:
    """One rendered throw of four dice about 50 px wide, resized so that they are ``width`` px
    wide (cut to the dice first when enlarged), and the dice's centres in it."""
    tray = render_tray([2, 5, 3, 6], seed=seed, style=style_from_seed(seed, die_size=(48.0, 50.0)))
    size = float(np.median([d.size_px for d in tray.dice]))
    factor = width / size
    height, frame_width = tray.frame.shape[:2]
    left, top, right, bottom = 0, 0, frame_width, height
    if factor > 1.0:
        xs, ys = [d.center[0] for d in tray.dice], [d.center[1] for d in tray.dice]
        margin = 0.9 * size
        left, top = max(0, int(min(xs) - margin)), max(0, int(min(ys) - margin))
        right = min(frame_width, int(max(xs) + margin))
        bottom = min(height, int(max(ys) + margin))
    frame = resized(np.ascontiguousarray(tray.frame[top:bottom, left:right]), factor)
    centres = [
        ((d.center[0] - left + 0.5) * factor - 0.5, (d.center[1] - top + 0.5) * factor - 0.5)
        for d in tray.dice
    ]
    return frame, centres


@pytest.mark.parametrize(
    ("width", "least"), [(16, 14), (40, 28), (120, 28), (200, 28), (240, 28), (400, 28)]
)
def test_the_same_throws_are_proposed_whatever_the_die_width(width: int, least: int) -> None:
    """Eight throws of four dice, seen 16 to 400 px wide: the frame halved alone finds none of
    the 400 px dice (it takes their pips for dice), few of the 200-240 px ones, and none of the
    16 px ones. The 16 px dice, 8 px in the frame halved and read in the frame itself, are the
    weakest: 14 of 32 is their bar. Every OpenCV from 4.8 on finds 29-32 of the others and 17 of
    the 16 px dice; the bars leave room for the versions' small differences in resizing."""
    found = 0
    for seed in range(8):
        frame, centres = _throw_at_width(seed, width)
        found += sum(
            _found(detect_scales(pyramid_of(frame), 0.3), centre, width) for centre in centres
        )
    assert found >= least, (width, found)


def test_proposals_of_one_die_merge_and_of_another_size_stay_for_the_judge() -> None:
    pip = Proposal(100.0, 100.0, 30.0, 0.9)
    same_pip = Proposal(104.0, 98.0, 33.0, 0.5)
    die = Proposal(110.0, 95.0, 180.0, 0.6)
    same_die = Proposal(118.0, 90.0, 200.0, 0.4)
    elsewhere = Proposal(400.0, 100.0, 30.0, 0.2)
    kept = merged([same_die, elsewhere, pip, die, same_pip])
    assert kept == [pip, die, elsewhere]
