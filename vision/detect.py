"""The die detector: where dice lie in a frame and how wide, from one pass of a small network.

A fully convolutional network (`vision/dice_det.onnx`, about 51,000 weights) reads the frame
halved (level 1 of `vision.crops.pyramid_of`) and gives, for every cell of `STRIDE` × `STRIDE`
frame pixels, how likely a die's centre lies in it, where in it, and the die's width. Its peaks are
the proposals (`Proposal`) that the fast path (`vision.quick`) hands to the die classifier.
training/train_dice_det.py makes the weights from synthetic trays and the training half of the
labelled photos. The network holds no size of its own: the image is padded to a multiple of
`MULTIPLE` pixels, so frames of any size are read alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.network import load_network
from vision.types import Frame

MODEL = "dice_det.onnx"
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


@dataclass(frozen=True, slots=True)
class Proposal:
    """A place the detector takes for a die: its centre (x, y) and width in frame pixels, and how
    sure the detector is (``strength``, in [0, 1])."""

    x: float
    y: float
    width: float
    strength: float


def detect(half: Frame, least: float) -> list[Proposal]:
    """The dice the detector proposes in ``half`` (the frame halved, H×W×3 BGR uint8), each at
    least ``least`` strong, the strongest first; a weaker peak within `SEPARATION` die widths of
    a stronger one is left out."""
    net = load_network(MODEL)
    net.setInput(to_input(half))
    output = np.asarray(net.forward(), dtype=np.float64)[0]
    rows, columns = -(-half.shape[0] // CELL), -(-half.shape[1] // CELL)
    return _separate(_peaks(output[:, :rows, :columns], least))


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
    kept: list[Proposal] = []
    for proposal in sorted(proposals, key=lambda p: -p.strength):
        if all(
            math.hypot(proposal.x - k.x, proposal.y - k.y) >= SEPARATION * k.width for k in kept
        ):
            kept.append(proposal)
    return kept
