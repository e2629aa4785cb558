"""Train the die detector on trays from make_trays.py and export it as ONNX for `cv2.dnn`.

The network (vision.detect) reads a whole frame halved and gives 4 maps at a stride of 8 frame
pixels: the logit that a die's centre lies in the cell, the centre's offset from the cell (x, y, in
cells) and the logarithm of the die's width over 32 frame pixels. It is a patchify stem (4×4, stride
4) and a small pyramid (3 max-pooled scales, each added back upsampled), about 51,000 weights, a few
milliseconds a 640×480 frame on one desktop core. The centre map is learnt with CenterNet's focal
loss on Gaussian peaks (narrow: the centre of a die, not the die), the offsets and width by L1 at
the centre cell and, at 0.3 of its weight, at the 8 cells around it (a peak a cell off still tells
the die). Trays are mirrored, turned (square ones) and their colour channels shuffled.

Exported for any frame size: the upsampling doubles each scale, so the input is padded to a
multiple of 32 (vision.detect.to_input); training pads its trays the same way (the smallest, a
photo shrunk by 4 and halved, would otherwise vanish in the coarsest scale) and learns from the
cells of the tray itself.

Needs PyTorch and onnx, which the appliance does not: see training/README.md.
Usage: .venv/bin/python training/train_dice_det.py OUT.onnx SYNTHETIC.npz [...] --real REAL.npz
    [--epochs N] [--real-weight K] [--seed S] [--shift PIXELS]
       .venv/bin/python training/train_dice_det.py OUT.onnx --weights OUT.onnx.pt   (export alone)
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.detect import CELL, STRIDE, WIDTH_UNIT, to_input

BATCH = 32


def cbr(cin: int, cout: int, kernel: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, padding=kernel // 2, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(),
    )


class DiceDetector(nn.Module):
    def __init__(self, widths: tuple[int, int, int] = (24, 32, 48)) -> None:
        super().__init__()
        b, c, d = widths
        self.stem = nn.Sequential(
            nn.Conv2d(3, b, CELL, CELL, bias=False), nn.BatchNorm2d(b), nn.ReLU()
        )
        self.s1 = cbr(b, b)
        self.s2 = nn.Sequential(nn.MaxPool2d(2), cbr(b, c))
        self.s3 = nn.Sequential(nn.MaxPool2d(2), cbr(c, d))
        self.s4 = nn.Sequential(nn.MaxPool2d(2), cbr(d, d))
        self.l3 = cbr(d, c, 1)
        self.l2 = cbr(c, b, 1)
        self.head = nn.Conv2d(b, 4, 1)
        self.padded = False
        """Exported: the input is padded to a multiple of 32 and each scale doubled."""

    def _up(self, x: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
        if self.padded:
            return F.interpolate(x, scale_factor=2.0, mode="nearest")
        return F.interpolate(x, size=like.shape[2:], mode="nearest")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.s1(self.stem(x))
        x2 = self.s2(x1)
        x3 = self.s3(x2)
        x4 = self.s4(x3)
        y3 = x3 + self._up(x4, x3)
        y2 = x2 + self._up(self.l3(y3), x2)
        y1 = x1 + self._up(self.l2(y2), x1)
        return self.head(y1)


def load(path: str) -> list[tuple[np.ndarray, np.ndarray]]:
    data = np.load(path, allow_pickle=True)
    return list(zip(data["images"], data["dice"], strict=True))


def targets(shape: tuple[int, int], dice: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centre map, the offset and width maps and their weights, for a halved tray of
    ``shape`` with ``dice`` (x, y, width in frame pixels)."""
    rows, columns = shape[0] // CELL, shape[1] // CELL
    heat = np.zeros((rows, columns), np.float32)
    reg = np.zeros((3, rows, columns), np.float32)
    mask = np.zeros((rows, columns), np.float32)
    ys, xs = np.mgrid[0:rows, 0:columns]
    for cx, cy, width in dice:
        gx, gy = (cx + 0.5) / STRIDE - 0.5, (cy + 0.5) / STRIDE - 0.5
        sigma = max(0.6, 0.16 * width / STRIDE)
        heat = np.maximum(heat, np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma * sigma)))
        ix, iy = round(gx), round(gy)
        if 0 <= ix < columns and 0 <= iy < rows:
            heat[iy, ix] = 1.0
        for jy in range(iy - 1, iy + 2):
            for jx in range(ix - 1, ix + 2):
                centre = jx == ix and jy == iy
                if 0 <= jx < columns and 0 <= jy < rows and (centre or mask[jy, jx] < 1.0):
                    reg[:, jy, jx] = (gx - jx, gy - jy, math.log(width / WIDTH_UNIT))
                    mask[jy, jx] = 1.0 if centre else 0.3
    return heat, reg, mask


def focal(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    positive = heat.eq(1).float()
    gained = -(torch.log(p) * (1 - p) ** 2 * positive).sum()
    lost = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - positive)).sum()
    return (gained + lost) / positive.sum().clamp(min=1)


def batches(
    items: list[tuple[np.ndarray, np.ndarray]], rng: np.random.Generator
) -> list[list[int]]:
    """Batches of trays of one size, in a random order."""
    by_shape: dict[tuple[int, ...], list[int]] = {}
    for i, (image, _) in enumerate(items):
        by_shape.setdefault(image.shape, []).append(i)
    out = []
    for indices in by_shape.values():
        shuffled = list(rng.permutation(indices))
        out += [shuffled[k : k + BATCH] for k in range(0, len(shuffled), BATCH)]
    rng.shuffle(out)
    return out


def augment(
    image: np.ndarray, dice: np.ndarray, rng: np.random.Generator, shift: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The tray mirrored, turned (when square) and its channels shuffled at random; and with
    ``shift``, cut ``shift`` pixels smaller each way at a random place (the network's cells then
    fall anywhere on a die, not only where the frame's corner puts them)."""
    d = np.array(dice, np.float32).reshape(-1, 3).copy()
    if shift:
        left, top = (int(v) for v in rng.integers(0, shift + 1, 2))
        image = image[top : top + image.shape[0] - shift, left : left + image.shape[1] - shift]
        d[:, 0] -= 2 * left
        d[:, 1] -= 2 * top
    height, width = image.shape[0] * 2, image.shape[1] * 2
    if rng.random() < 0.5:
        image = image[:, ::-1]
        d[:, 0] = width - 1 - d[:, 0]
    if rng.random() < 0.5:
        image = image[::-1]
        d[:, 1] = height - 1 - d[:, 1]
    if image.shape[0] == image.shape[1] and rng.random() < 0.5:
        image = image.transpose(1, 0, 2)
        d[:, [0, 1]] = d[:, [1, 0]]
    image = np.ascontiguousarray(image)
    if rng.random() < 0.3:
        image = np.ascontiguousarray(image[:, :, rng.permutation(3)])
    return image, d


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("synthetic", nargs="*")
    parser.add_argument("--real")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--real-weight", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--shift", type=int, default=0, help="cut trays this much smaller")
    parser.add_argument("--weights", help="export these trained weights (OUT.onnx.pt) alone")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    if args.weights:
        model = DiceDetector()
        model.load_state_dict(torch.load(args.weights))
        export(model, args.out)
        return 0
    if not args.synthetic or not args.real:
        parser.error("give SYNTHETIC.npz and --real REAL.npz, or --weights")
    items = [item for path in args.synthetic for item in load(path)]
    real = load(args.real)
    print(f"{len(items)} synthetic trays, {len(real)} real", flush=True)
    model = DiceDetector()
    with torch.no_grad():
        model.head.bias[0] = -2.19  # a centre in about 1 cell of 10 at the start
    optimiser = torch.optim.AdamW(model.parameters(), 2e-3, weight_decay=1e-4)
    rng = np.random.default_rng(args.seed)
    data = items + real * args.real_weight
    steps = len(batches(data, rng))
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, 3e-3, total_steps=args.epochs * steps + 10
    )
    for epoch in range(args.epochs):
        model.train()
        start, total, count = time.time(), 0.0, 0
        for batch in batches(data, rng):
            images, heats, regs, masks = [], [], [], []
            for i in batch:
                image, dice = augment(*data[i], rng, args.shift)
                heat, reg, mask = targets(image.shape[:2], dice)
                images.append(to_input(image)[0])
                heats.append(heat)
                regs.append(reg)
                masks.append(mask)
            rows, columns = heats[0].shape
            y = model(torch.from_numpy(np.stack(images)))[:, :, :rows, :columns]
            mask = torch.from_numpy(np.stack(masks))[:, None]
            located = F.l1_loss(y[:, 1:], torch.from_numpy(np.stack(regs)), reduction="none")
            loss = focal(y[:, 0], torch.from_numpy(np.stack(heats))) + (
                (located * mask).sum() / mask.sum().clamp(min=1)
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
            count += 1
        print(f"epoch {epoch + 1} loss {total / count:.4f} {time.time() - start:.0f}s", flush=True)
        torch.save(model.state_dict(), args.out + ".pt")
    export(model, args.out)
    return 0


def export(model: DiceDetector, out: str) -> None:
    """The network as ONNX with no shape of its own (padded input, each scale doubled)."""
    model.eval()
    model.padded = True
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, 256, 320),),
        out,
        input_names=["x"],
        output_names=["y"],
        opset_version=17,
        dynamo=False,
    )
    print("saved", out)


if __name__ == "__main__":
    sys.exit(main())
