"""Train the die classifier on crops from make_crops.py and export it as ONNX for `cv2.dnn`.

The network reads one square crop (vision.crops; 32×32 unless the crops are cut larger with
``make_proposal_crops.py --size``, its side taken from DATA) and gives 10 numbers: scores of 8
classes (0: no die centred here, 1-6: the face value, 7: a die that cannot be read) and the offset
from the crop centre to the die centre in die widths (x, y). It is small (about 530,000 weights, 16
million multiply-adds per crop, about 0.6 ms on one desktop core) so that a Raspberry Pi reads a
tray of dice in tens of milliseconds. Each epoch sees the real photos' crops ``--real-weight``
times and a new draw of ``--synthetic-share`` of the synthetic ones: the real dice are few and
varied, the synthetic ones many.

Needs PyTorch and onnx, which the appliance does not: see training/README.md.
Usage: .venv/bin/python training/train_dice_cnn.py DATA.npz OUT.onnx [--epochs N] [--seed S]
    [--also DATA2.npz]   (more crops, from another make_crops.py run)
    [--widths A,B,C,D,E --hidden H] [--teacher ONNX]   (a narrower network taught by ONNX)
    [--start ONNX --lr L]   (the exported network ONNX trained further, at a lower rate)
    [--untaught DATA3.npz]   (more crops learnt from their labels alone, whatever --teacher says)
    [--check HELD.npz]   (crops of photos held out of training, read after every epoch)
    [--warp SHARE]   (that share of the crops foreshortened, scaled, blurred: `warp`)
    [--backbone lite0]   (EfficientNet-Lite0's first stages from ImageNet: `training.lite_net`)
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import onnx
import onnx.numpy_helper
import torch
from torch import nn

from training.lite_net import LiteDiceNet, load_pretrained, pretrained_weights
from training.make_proposal_crops import SCENES
from training.onnx_features import with_features
from vision.classify import SCORES
from vision.crops import CROP_SIZE, to_blob
from vision.network import read_onnx

CLASSES = 8


def block(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()
    )


WIDTHS = (32, 64, 96, 96, 128)
"""Channels of the five convolutions of the shipped network (``--widths``)."""
HIDDEN = 128
"""Units of the hidden layer of the shipped network (``--hidden``)."""
TEMPERATURE = 2.0
"""Learning from a teacher (``--teacher``), both its probabilities and the new network's are
softened by this temperature, so that the classes it finds alike weigh in too."""
TEACHER_SHARE = 0.8
"""The share of the teacher's probabilities in the class loss; the rest is the labels'."""


class DiceNet(nn.Module):
    def __init__(
        self, widths: tuple[int, ...] = WIDTHS, hidden: int = HIDDEN, size: int = CROP_SIZE
    ) -> None:
        super().__init__()
        self.size = size
        a, b, c, d, e = widths
        self.features = nn.Sequential(
            block(3, a),
            nn.MaxPool2d(2),
            block(a, b),
            nn.MaxPool2d(2),
            block(b, c),
            block(c, d),
            nn.MaxPool2d(2),
            block(d, e),
        )
        side = size // 8
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(e * side * side, hidden),
            nn.ReLU(),
            nn.Linear(hidden, CLASSES + 2),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def normalise(crops: torch.Tensor) -> torch.Tensor:
    """The same per-crop normalisation as vision.crops.to_blob (N×3×S×S float)."""
    mean = crops.mean(dim=(1, 2, 3), keepdim=True)
    spread = crops.std(dim=(1, 2, 3), keepdim=True, unbiased=False) + 8.0
    return (crops - mean) / spread


def turn(
    crops: torch.Tensor, offsets: torch.Tensor, gen: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Each crop turned by a random multiple of 90 degrees and perhaps mirrored, its offset
    with it: a die shows the same value whichever way it lies."""
    crops, offsets = crops.clone(), offsets.clone()
    turns = torch.randint(0, 4, (crops.shape[0],), generator=gen)
    for k in range(1, 4):
        pick = turns == k
        crops[pick] = torch.rot90(crops[pick], k, dims=(2, 3))
        for _ in range(k):  # rot90 moves the pixel at (x, y) from the centre to (y, -x)
            offsets[pick] = torch.stack((offsets[pick, 1], -offsets[pick, 0]), dim=1)
    mirror = torch.rand(crops.shape[0], generator=gen) < 0.5
    crops[mirror] = torch.flip(crops[mirror], dims=(3,))
    offsets[mirror, 0] = -offsets[mirror, 0]
    return crops, offsets


def warp(
    crops: torch.Tensor, offsets: torch.Tensor, gen: torch.Generator, share: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """A ``share`` of the crops foreshortened along a random direction (to 0.6-1 of their
    length, as a face seen from the side), scaled by 0.85-1.15 and perhaps blurred, their
    offsets moved with them: a die seen obliquely or out of focus shows the same value."""
    n = crops.shape[0]
    picked = torch.rand(n, generator=gen) < share
    if not picked.any():
        return crops, offsets
    k = int(picked.sum())
    angle = torch.rand(k, generator=gen) * torch.pi
    squash = 0.6 + 0.4 * torch.rand(k, generator=gen)
    scale = 0.85 + 0.3 * torch.rand(k, generator=gen)
    c, s = torch.cos(angle), torch.sin(angle)
    turn_to = torch.stack((torch.stack((c, -s), 1), torch.stack((s, c), 1)), 1)
    squashed = torch.diag_embed(torch.stack((torch.ones(k), squash), 1))
    forward = scale[:, None, None] * (turn_to @ squashed @ turn_to.transpose(1, 2))
    theta = torch.cat((torch.linalg.inv(forward), torch.zeros(k, 2, 1)), 2)
    grid = nn.functional.affine_grid(theta, [k, *crops.shape[1:]], align_corners=False)
    moved = nn.functional.grid_sample(
        crops[picked], grid, padding_mode="border", align_corners=False
    )
    blurred = torch.rand(k, generator=gen) < 0.3
    kernel = torch.tensor([1.0, 2.0, 1.0]) / 4.0
    kernel = (kernel[:, None] * kernel[None, :]).expand(3, 1, 3, 3)
    moved[blurred] = nn.functional.conv2d(
        nn.functional.pad(moved[blurred], (1, 1, 1, 1), mode="replicate"), kernel, groups=3
    )
    crops, offsets = crops.clone(), offsets.clone()
    crops[picked] = moved
    offsets[picked] = (forward @ offsets[picked][:, :, None])[:, :, 0]
    return crops, offsets


def augment(crops: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Colour changes a crop does not tell the class by: swapped channels, grey, noise, contrast."""
    n = crops.shape[0]
    perms = torch.tensor([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    pick = perms[torch.randint(0, 6, (n,), generator=gen)]
    crops = torch.gather(crops, 1, pick[:, :, None, None].expand(-1, -1, *crops.shape[2:]))
    grey = torch.rand(n, generator=gen) < 0.2
    crops[grey] = crops[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    gain = torch.exp(torch.randn(n, 1, 1, 1, generator=gen) * 0.25)
    crops = crops * gain
    crops = (
        crops
        + torch.randn(crops.shape, generator=gen) * torch.rand(n, 1, 1, 1, generator=gen) * 8.0
    )
    return crops


def augment_more(crops: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Stronger changes a crop does not tell the class by: a quarter inverted (dark dice with
    light pips as light dice with dark pips), half turned in hue about the grey axis and changed
    in saturation, a third shrunk to 0.4-0.8 of their pixels and enlarged again (blur)."""
    n = crops.shape[0]
    crops = crops.clone()
    invert = torch.rand(n, generator=gen) < 0.25
    crops[invert] = 255.0 - crops[invert]
    hue = torch.rand(n, generator=gen) < 0.5
    k = int(hue.sum())
    if k:
        angle = torch.rand(k, generator=gen) * 2 * torch.pi
        axis = torch.ones(3) / math.sqrt(3.0)
        cross = torch.tensor(
            [[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]], [-axis[1], axis[0], 0.0]]
        )
        outer = torch.outer(axis, axis)
        c, s = torch.cos(angle)[:, None, None], torch.sin(angle)[:, None, None]
        rot = c * torch.eye(3) + s * cross + (1 - c) * outer
        sat = (0.3 + 1.2 * torch.rand(k, generator=gen))[:, None, None]
        mix = outer + sat * (rot - outer)
        picked = crops[hue]
        crops[hue] = torch.einsum("nij,njhw->nihw", mix, picked)
    small = torch.rand(n, generator=gen) < 0.33
    if small.any():
        size = crops.shape[-1]
        factor = float(0.4 + 0.4 * torch.rand(1, generator=gen))
        side = max(8, round(size * factor))
        shrunk = nn.functional.interpolate(crops[small], size=(side, side), mode="area")
        crops[small] = nn.functional.interpolate(
            shrunk, size=(size, size), mode="bilinear", align_corners=False
        )
    return crops


def teacher_scores(path: Path, crops: np.ndarray, threads: int) -> torch.Tensor:
    """The class scores (logits) of an exported network on every crop, run as the reader runs
    it (cv2.dnn): the soft targets a smaller network learns from."""
    cv2.setNumThreads(threads)
    net = read_onnx(str(path))
    scores = np.zeros((len(crops), CLASSES), np.float32)
    for i in range(0, len(crops), 512):
        net.setInput(to_blob(list(crops[i : i + 512])))
        scores[i : i + 512] = net.forward(SCORES).reshape(-1, CLASSES + 2)[:, :CLASSES]
    return torch.from_numpy(scores)


def class_loss(
    out: torch.Tensor, classes: torch.Tensor, taught: torch.Tensor | None, is_taught: torch.Tensor
) -> torch.Tensor:
    """Cross-entropy with the labels; with a teacher's scores, on the crops it teaches
    (``is_taught``) mostly the divergence from its probabilities softened by TEMPERATURE, which
    say how alike the classes look to it."""
    hard = nn.functional.cross_entropy(out, classes, label_smoothing=0.02, reduction="none")
    if taught is None:
        return hard.mean()
    soft = nn.functional.kl_div(
        nn.functional.log_softmax(out / TEMPERATURE, dim=1),
        nn.functional.log_softmax(taught / TEMPERATURE, dim=1),
        log_target=True,
        reduction="none",
    ).sum(dim=1)
    mixed = TEACHER_SHARE * TEMPERATURE**2 * soft + (1 - TEACHER_SHARE) * hard
    return torch.where(is_taught, mixed, hard).mean()


def load_crops(paths: list[Path]) -> dict[str, np.ndarray]:
    """The crops of one or more make_crops.py runs, as one set."""
    parts = [np.load(path) for path in paths]
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0].files}


def checked(model: nn.Module, held_out: tuple[torch.Tensor, ...]) -> str:
    """How well the network reads the crops held out of training."""
    crops, classes, offsets, has_offset, is_real = held_out
    model.eval()
    with torch.no_grad():
        out = model(normalise(crops.float()))
    right = (out[:, :CLASSES].argmax(1) == classes).float().mean()
    on = classes > 0
    right_on = (out[on, :CLASSES].argmax(1) == classes[on]).float().mean()
    on_real = on & is_real
    right_real = (out[on_real, :CLASSES].argmax(1) == classes[on_real]).float().mean()
    err = (out[has_offset, CLASSES:] - offsets[has_offset]).norm(dim=1).median()
    return (
        f"held-out crops right {right:.4f}, dice right {right_on:.4f} (real photos"
        f" {right_real:.4f}), median offset error {err:.3f} die widths"
    )


def checked_photos(model: nn.Module, data: dict[str, np.ndarray]) -> str:
    """How well the network reads the crops of ``--check`` (photos held out of training, from
    `make_proposal_crops.py --held-out`), for each kind of scene (``source``, `SCENES`): the
    dice read right, the crops of no die read so, and the dice that can be given a value with
    at most 1 % of those given wrong (`given_at_risk`, what the judge needs of the network)."""
    model.eval()
    scores = []
    with torch.no_grad():
        for start in range(0, len(data["classes"]), 4096):
            batch = torch.from_numpy(data["crops"][start : start + 4096]).permute(0, 3, 1, 2)
            out = model(normalise(batch.float()))[:, :CLASSES]
            scores.append(torch.softmax(out, dim=1).numpy())
    probabilities = np.concatenate(scores)
    classes = data["classes"]
    right = probabilities.argmax(1) == classes
    parts = []
    for source in np.unique(data["source"]):
        mine = data["source"] == source
        dice, empty = mine & (classes > 0), mine & (classes == 0)
        shares = [f"{right[m].mean():.3f}" if m.any() else "-" for m in (dice, empty)]
        given = given_at_risk(probabilities[dice], classes[dice]) if dice.any() else 0.0
        name = SCENES[source - 1] if 0 < source <= len(SCENES) else str(source)
        parts.append(
            f"  {name}: dice {shares[0]} of {dice.sum()}, no die {shares[1]},"
            f" given at 1 % risk {given:.3f}"
        )
    return "held-out photos by scene:\n" + "\n".join(parts)


def given_at_risk(probabilities: np.ndarray, classes: np.ndarray, risk: float = 0.01) -> float:
    """Of dice crops whose class probabilities are ``probabilities`` (N×CLASSES) and whose
    values are ``classes``, the largest share that can be given their likeliest value, taken
    the most probable first (by that value's share of the die probability), with at most
    ``risk`` of those given wrong."""
    values = probabilities[:, 1:7]
    share = values.max(axis=1) / np.maximum(1.0 - probabilities[:, 0], 1e-9)
    right = (values.argmax(axis=1) + 1 == classes)[np.argsort(-share, kind="stable")]
    wrong_share = np.cumsum(~right) / np.arange(1, len(right) + 1)
    within = np.flatnonzero(wrong_share <= risk)
    return float(within[-1] + 1) / len(right) if len(within) else 0.0


def load_exported(model: DiceNet | LiteDiceNet, path: Path) -> None:
    """Set ``model`` to the weights of a network this script exported (same kind and widths).
    The export folded each batch normalisation into its convolution's bias: here each
    normalisation is made to pass its input on plus that bias, so it must stay in eval mode
    while training. A network exported for another crop size gives its hidden layer's weights
    resampled to this size's places (`resampled`)."""
    graph = onnx.load(str(path)).graph
    weights = {
        i.name: torch.from_numpy(onnx.numpy_helper.to_array(i).copy()) for i in graph.initializer
    }
    convs = [n for n in graph.node if n.op_type == "Conv"]
    pairs = conv_norms(model)
    if len(convs) != len(pairs):
        raise SystemExit(f"{path}: {len(convs)} convolutions, the network has {len(pairs)}")
    with torch.no_grad():
        for node, (conv, norm) in zip(convs, pairs, strict=True):
            conv.weight.copy_(weights[node.input[1]])
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.weight.fill_(1.0)
            norm.bias.copy_(weights[node.input[2]])
        gemms = [n for n in graph.node if n.op_type == "Gemm"]
        linears = [m for m in model.head if isinstance(m, nn.Linear)]
        for node, linear in zip(gemms, linears, strict=True):
            channels = pairs[-1][0].out_channels if linear is linears[0] else 1
            linear.weight.copy_(resampled(weights[node.input[1]], linear.weight.shape, channels))
            linear.bias.copy_(weights[node.input[2]])


def conv_norms(model: DiceNet | LiteDiceNet) -> list[tuple[nn.Conv2d, nn.BatchNorm2d]]:
    """Each convolution of ``model``'s features with the normalisation after it, in order."""
    layers = [m for m in model.features.modules() if isinstance(m, nn.Conv2d | nn.BatchNorm2d)]
    pairs = list(zip(layers[0::2], layers[1::2], strict=True))
    if not all(isinstance(c, nn.Conv2d) and isinstance(n, nn.BatchNorm2d) for c, n in pairs):
        raise SystemExit("a convolution without its normalisation after it")
    return pairs  # type: ignore[return-value]


def resampled(weight: torch.Tensor, shape: torch.Size, channels: int) -> torch.Tensor:
    """A hidden layer's weights (outputs × channels·side·side) made to fit ``shape``: the same
    when they do, else each channel's square of places resized bilinearly and scaled so that a
    feature spread evenly over the crop weighs as much as before."""
    if weight.shape == shape:
        return weight
    old, new = (math.isqrt(n // channels) for n in (weight.shape[1], shape[1]))
    if weight.shape[0] != shape[0] or channels * old * old != weight.shape[1]:
        raise SystemExit(f"hidden layer {tuple(weight.shape)} cannot be made {tuple(shape)}")
    square = weight.reshape(weight.shape[0], channels, old, old)
    resized = nn.functional.interpolate(square, size=(new, new), mode="bilinear")
    return (resized * (old * old) / (new * new)).reshape(shape)


def export(model: DiceNet | LiteDiceNet, out: Path) -> None:
    """Write the network as ONNX (one input "crops" N×3×S×S; outputs "scores" N×10 and
    "features", what its last layer takes: `training.onnx_features`); a `LiteDiceNet` also as
    its PyTorch weights beside it (``.pt``, what ``--start`` trains further)."""
    model.eval()
    dummy = torch.zeros(1, 3, model.size, model.size)
    torch.onnx.export(
        model,
        (dummy,),
        str(out),
        input_names=["crops"],
        output_names=["scores"],
        dynamic_axes={"crops": {0: "n"}, "scores": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )
    onnx.save(with_features(onnx.load(str(out))), str(out))
    print(f"-> {out} ({out.stat().st_size} bytes)", flush=True)
    if isinstance(model, LiteDiceNet):
        torch.save(model.state_dict(), out.with_suffix(".pt"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--also", type=Path, action="append", default=[], help="more crops (another DATA.npz)"
    )
    parser.add_argument(
        "--untaught",
        type=Path,
        action="append",
        default=[],
        help="more crops learnt from their labels alone, whatever --teacher says (what it reads"
        " wrong)",
    )
    parser.add_argument(
        "--check", type=Path, help="crops of photos held out of training, read after every epoch"
    )
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--real-weight",
        type=int,
        default=3,
        help="each epoch sees the real photos' crops this often",
    )
    parser.add_argument(
        "--synthetic-share",
        type=float,
        default=0.5,
        help="the fraction of the synthetic crops each epoch sees (a new draw every epoch)",
    )
    parser.add_argument(
        "--widths",
        default=",".join(map(str, WIDTHS)),
        help="channels of the five convolutions, comma-separated",
    )
    parser.add_argument("--hidden", type=int, default=HIDDEN, help="units of the hidden layer")
    parser.add_argument(
        "--teacher",
        type=Path,
        help="an exported network whose probabilities the new one learns (distillation)",
    )
    parser.add_argument(
        "--start",
        type=Path,
        help="an exported network (same widths) to train further instead of from scratch",
    )
    parser.add_argument("--lr", type=float, default=3e-3, help="the highest learning rate")
    parser.add_argument(
        "--strong", action="store_true", help="stronger augmentation (augment_more)"
    )
    parser.add_argument(
        "--backbone",
        choices=("lite0",),
        help="start from EfficientNet-Lite0's ImageNet weights (training.lite_net), not DiceNet",
    )
    parser.add_argument(
        "--warp",
        type=float,
        default=0.0,
        help="the share of crops foreshortened, scaled and perhaps blurred (`warp`)",
    )
    args = parser.parse_args()
    if not 0.0 <= args.warp <= 1.0:
        parser.error(f"--warp {args.warp}: a share between 0 and 1")
    for path in (args.data, *args.also, *args.untaught, *([args.check] if args.check else [])):
        if not path.is_file():
            parser.error(f"{path}: no such crops file")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    gen = torch.Generator().manual_seed(args.seed)
    data = load_crops([args.data, *args.also, *args.untaught])
    # The crops before this index are the teacher's to teach (with --teacher); the rest are not.
    taught_count = len(data["classes"]) - sum(len(np.load(p)["classes"]) for p in args.untaught)
    crops = torch.from_numpy(data["crops"]).permute(0, 3, 1, 2).contiguous()
    classes = torch.from_numpy(data["classes"])
    offsets = torch.from_numpy(data["offsets"])
    has_offset = torch.from_numpy(data["has_offset"])
    is_real = torch.from_numpy(data["source"]) > 0
    taught = None
    if args.teacher is not None:
        taught = teacher_scores(args.teacher, data["crops"][:taught_count], args.threads)
        agree = (taught.argmax(1) == classes[:taught_count]).float().mean()
        taught = torch.cat([taught, torch.zeros(len(classes) - taught_count, CLASSES)])
        print(f"teacher {args.teacher}: agrees with {agree:.4f} of the labels", flush=True)
    n = len(classes)
    order = torch.randperm(n, generator=gen)
    check, train = order[: n // 20], order[n // 20 :]
    real, synthetic = train[is_real[train]], train[~is_real[train]]
    per_epoch = args.real_weight * len(real) + int(args.synthetic_share * len(synthetic))
    print(
        f"{n} crops ({int(is_real.sum())} real), classes "
        f"{torch.bincount(classes, minlength=CLASSES).tolist()}, {per_epoch} an epoch"
    )
    model: DiceNet | LiteDiceNet
    if args.backbone == "lite0":
        model = LiteDiceNet(crops.shape[-1], args.hidden)
        if args.start is not None:
            model.load_state_dict(torch.load(args.start.with_suffix(".pt"), weights_only=True))
        else:
            print(f"{load_pretrained(model, pretrained_weights())} tensors from ImageNet")
    else:
        widths = tuple(int(w) for w in args.widths.split(","))
        model = DiceNet(widths, args.hidden, crops.shape[-1])
        if args.start is not None:
            load_exported(model, args.start)
    held_out = (crops[check], classes[check], offsets[check], has_offset[check], is_real[check])
    check_photos = dict(np.load(args.check)) if args.check is not None else None
    if args.start is not None:
        print(f"{args.start}: {checked(model, held_out)}", flush=True)
        if check_photos is not None:
            print(f"{args.start}: {checked_photos(model, check_photos)}", flush=True)
    if isinstance(model, LiteDiceNet):
        model = model.to(memory_format=torch.channels_last)
    steps = args.epochs * (per_epoch // 256)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=steps)
    for epoch in range(args.epochs):
        # A DiceNet trained further keeps its (folded) normalisations as they are: eval mode.
        model.train(args.start is None or isinstance(model, LiteDiceNet))
        start = time.time()
        drawn = synthetic[torch.randperm(len(synthetic), generator=gen)]
        epoch_crops = torch.cat(
            [real.repeat(args.real_weight), drawn[: per_epoch - args.real_weight * len(real)]]
        )
        shuffled = epoch_crops[torch.randperm(len(epoch_crops), generator=gen)]
        total = 0.0
        for i in range(per_epoch // 256):
            idx = shuffled[i * 256 : (i + 1) * 256]
            x, target = warp(*turn(crops[idx].float(), offsets[idx], gen), gen, args.warp)
            if args.strong:
                x = augment_more(x, gen)
            x = normalise(augment(x, gen))
            if isinstance(model, LiteDiceNet):  # depthwise convolutions run 2-3x faster so
                x = x.contiguous(memory_format=torch.channels_last)
            out = model(x)
            loss = class_loss(
                out[:, :CLASSES],
                classes[idx],
                None if taught is None else taught[idx],
                idx < taught_count,
            )
            mask = has_offset[idx]
            if mask.any():
                loss = loss + 2.0 * nn.functional.smooth_l1_loss(
                    out[mask, CLASSES:], target[mask], beta=0.1
                )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        mean_loss = total / (per_epoch // 256)
        print(
            f"epoch {epoch + 1}: loss {mean_loss:.4f}, {checked(model, held_out)},"
            f" {time.time() - start:.0f} s",
            flush=True,
        )
        if check_photos is not None:
            print(f"epoch {epoch + 1}: {checked_photos(model, check_photos)}", flush=True)
        export(model, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
