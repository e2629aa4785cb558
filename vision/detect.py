"""The die detector: where dice lie in a frame and how wide, from one pass of a small network.

A fully convolutional network (`vision/dice_det.onnx`, about 51,000 weights) reads the frame
halved (level 1 of `vision.crops.pyramid_of`) and gives, for every cell of `STRIDE` × `STRIDE`
pixels of what it reads, how likely a die's centre lies in it, where in it, and the die's width.
Its peaks are the proposals (`Proposal`) that the fast path (`vision.quick`) hands to the die
classifier. The network holds no size of its own: the image is padded to a multiple of
`MULTIPLE` pixels, so frames of any size are read alike.

`detect_scales` reads dice of 16-580 px, each at the scale it needs, with a network of the same
shape trained on the varied photos at several scales (`vision/dice_det_scales.onnx`). It finds
more of the dice of scenes the reader never saw, but the fast path, whose rules were set with the
first network, reads fewer frames with it alone (training/README.md): it is measured by
benchmarks/vision_detector.py until the reader is rebuilt on it (detector, classifier, judge).
training/train_dice_det.py makes both networks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.network import load_network
from vision.types import Frame

MODEL = "dice_det.onnx"
SCALES_MODEL = "dice_det_scales.onnx"
STRIDE = 8
"""Frame pixels per output cell."""
CELL = STRIDE // 2
"""Pixels of the halved frame per output cell."""
MULTIPLE = 32
"""The halved frame is padded to a multiple of this many pixels each way (its coarsest scale)."""
WIDTH_UNIT = 32.0
"""The network tells a die's width as the logarithm of its width over this many frame pixels."""
SEPARATION = 0.5
"""A peak within this many die widths of a stronger one is the same die."""
WIDE = 150.0
"""Dice wider than this (frame pixels) are also looked for in the frame quartered
(`detect_scales`): in the frame halved the detector finds every die of 100-160 px of the held-out
close-up photos, 0.91 of those of 160-220 px and 0.34 of wider ones; in the frame quartered 0.95
and 0.76 (training/README.md)."""
WIDEST = 256.0
"""Dice wider than this (frame pixels) are also looked for on a coarse level (`detect_scales`): the
detector learnt dice up to about 300 px wide in the frame halved (training/make_trays.py) and
takes the pips of wider dice for dice there."""
NARROWEST = 24.0
"""Dice narrower than this (frame pixels) are also looked for in the frame itself (read as if it
were the frame halved), where they are as wide as 16-32 px dice are in the frame halved of a frame
twice as large: when the dice proposed strongly (`STRONG`) are at the median narrower, or none
is."""
STRONG = 0.4
"""A proposal this strong or more tells the frame's die width."""
ALIKE = 1.5
"""Two proposals at one place whose widths differ by more than this factor may be a die and its
pip: both are kept (`merged`), for the judge to weigh."""
PROBE_LEVEL = 3
"""The pyramid level (the frame shrunk 8 times) on which dice over `WIDEST` are looked for."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """A place the detector takes for a die: its centre (x, y) and width in frame pixels, and how
    sure the detector is (``strength``, in [0, 1])."""

    x: float
    y: float
    width: float
    strength: float


def detect(half: Frame, least: float, net: cv2.dnn.Net | None = None) -> list[Proposal]:
    """The dice the detector proposes in ``half`` (the frame halved, H×W×3 BGR uint8), each at
    least ``least`` strong, the strongest first; a weaker peak within `SEPARATION` die widths of
    a stronger one is left out. ``net`` is the network (default: `MODEL`)."""
    net = net if net is not None else load_network(MODEL)
    net.setInput(to_input(half))
    output = np.asarray(net.forward(), dtype=np.float64)[0]
    rows, columns = -(-half.shape[0] // CELL), -(-half.shape[1] // CELL)
    return _separate(_peaks(output[:, :rows, :columns], least))


def detect_scales(
    pyramid: Sequence[Frame], least: float, net: cv2.dnn.Net | None = None
) -> list[Proposal]:
    """The dice the detector proposes in a frame whose pyramid (`vision.crops.pyramid_of`) is
    ``pyramid``, in frame pixels, as `detect` gives them, by the network ``net`` (default:
    `SCALES_MODEL`). The frame halved is read; the frame itself too for dice under `NARROWEST`
    when the strong proposals (`STRONG`) are at the median narrower, or there are none; the
    frame quartered for dice over `WIDE` and the coarsest level (up to `PROBE_LEVEL`) for dice
    over `WIDEST`, where they look as dice and not as pips. The levels' proposals are merged
    (`merged`): a finer level takes the pips of a wide die for dice where a coarser one sees
    the die."""
    if len(pyramid) < 2:
        return []
    net = net if net is not None else load_network(SCALES_MODEL)
    found = _detect_level(pyramid, 1, least, net)
    strong = sorted(p.width for p in found if p.strength >= STRONG)
    if not strong or strong[len(strong) // 2] < NARROWEST:
        narrow = [p for p in _detect_level(pyramid, 0, least, net) if p.width < NARROWEST]
        found = _separate(found + narrow) if narrow else found
    wide = wide_proposals(pyramid, least, net)
    return merged(found + wide) if wide else found


def wide_proposals(
    pyramid: Sequence[Frame], least: float, net: cv2.dnn.Net | None = None
) -> list[Proposal]:
    """The dice over `WIDE` the detector proposes in the frame quartered, and those over
    `WIDEST` on the coarsest level (up to `PROBE_LEVEL`), in frame pixels, each at least
    ``least`` strong, by the network ``net`` (default: `SCALES_MODEL`)."""
    net = net if net is not None else load_network(SCALES_MODEL)
    wide: list[Proposal] = []
    for level, least_width in ((2, WIDE), (PROBE_LEVEL, WIDEST)):
        if level < len(pyramid):
            wide += [p for p in _detect_level(pyramid, level, least, net) if p.width > least_width]
    return wide


def merged(proposals: list[Proposal]) -> list[Proposal]:
    """The proposals, strongest first, without those near a stronger one about as wide (within
    `SEPARATION` of the wider's width, widths within `ALIKE`): the same die. Proposals of other
    widths at one place are kept, for the judge to weigh which is the die."""

    def same_die(weaker: Proposal, stronger: Proposal) -> bool:
        near = _distance(weaker, stronger) < SEPARATION * max(stronger.width, weaker.width)
        return near and 1 / ALIKE <= weaker.width / stronger.width <= ALIKE

    return _strongest_apart(proposals, same_die)


def _detect_level(
    pyramid: Sequence[Frame], level: int, least: float, net: cv2.dnn.Net
) -> list[Proposal]:
    """`detect` on the pyramid's ``level`` (1: the frame halved), in frame pixels."""
    found = detect(pyramid[level], least, net)
    if level == 1:
        return found
    factor = 2.0 ** (level - 1)  # the level is read as the frame halved: 0.5 for the frame itself
    return [
        Proposal(
            (p.x + 0.5) * factor - 0.5, (p.y + 0.5) * factor - 0.5, p.width * factor, p.strength
        )
        for p in found
    ]


def to_input(half: Frame) -> npt.NDArray[np.float32]:
    """The network's input: `normalised`, padded with zeros (the image's mean) on the right and
    below to multiples of `MULTIPLE`."""
    blob = normalised(half)
    height, width = blob.shape[2:]
    padded = np.zeros((1, 3, height + -height % MULTIPLE, width + -width % MULTIPLE), np.float32)
    padded[:, :, :height, :width] = blob
    return padded


def normalised(image: Frame) -> npt.NDArray[np.float32]:
    """The image (H×W×3 BGR uint8) as the network reads it, unpadded: 1×3×H×W float32, centred
    on its mean and scaled by its spread (training/train_dice_det.py reads its trays so)."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    mean, spread = (float(v[0, 0]) for v in cv2.meanStdDev(image.reshape(-1, 1)))
    blob = cv2.dnn.blobFromImage(image, scalefactor=1.0 / (spread + 8.0), mean=(mean, mean, mean))
    return np.asarray(blob, dtype=np.float32)


def _peaks(output: npt.NDArray[np.float64], least: float) -> list[Proposal]:
    """The cells whose die-centre probability is at least ``least`` and the highest of their 3×3
    neighbourhood, each read as a proposal."""
    heat = 1.0 / (1.0 + np.exp(-output[0]))
    highest = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, columns = np.nonzero((heat >= highest) & (heat >= least))
    proposals = []
    for row, column in zip(rows.tolist(), columns.tolist(), strict=True):
        dx, dy, log_width = (float(v) for v in output[1:4, row, column])
        proposals.append(
            Proposal(
                (column + dx + 0.5) * STRIDE - 0.5,
                (row + dy + 0.5) * STRIDE - 0.5,
                WIDTH_UNIT * math.exp(min(log_width, 5.0)),
                float(heat[row, column]),
            )
        )
    return proposals


def _separate(proposals: list[Proposal]) -> list[Proposal]:
    """The proposals, strongest first, without those near a stronger one (the same die)."""

    def same_die(weaker: Proposal, stronger: Proposal) -> bool:
        return _distance(weaker, stronger) < SEPARATION * stronger.width

    return _strongest_apart(proposals, same_die)


def _strongest_apart(
    proposals: list[Proposal], same_die: Callable[[Proposal, Proposal], bool]
) -> list[Proposal]:
    """The proposals, strongest first, each left out when ``same_die(it, k)`` for a stronger
    one ``k`` kept."""
    kept: list[Proposal] = []
    for proposal in sorted(proposals, key=lambda p: -p.strength):
        if not any(same_die(proposal, k) for k in kept):
            kept.append(proposal)
    return kept


def _distance(a: Proposal, b: Proposal) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)
