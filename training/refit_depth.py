"""How far a table's refit of the judge's network could go: its layers from the last to the last
convolution block fitted to one kind of scene's photos, and that scene's held-out photos read.

A probe of `vision.adapt` (issue 62), not what the table runs: the table fits the last layers in
numpy (`vision.adapt.adapt_last_layer`); here PyTorch fits deeper, to the same crops
(`vision.adapt.cut_crops` and `judged_crops` of the scene's first ``--kept`` training photos, one
copy of each original, every die labelled; the judge's candidates on no die among them as "no
die": without those a refit deeper than the last layer finds dice where none lie), held to the
shipped network's verdicts on the same rendered trays of ordinary dice (`rehearsal_crops`); the
whole reader then reads the scene's held-out photos with the refit network as the judge's, the
judge's model as shipped. Depths:

- ``numpy``: the table's own refit (both networks' last layers), for comparison;
- ``last``: the judge network's class scores only (as the table, by gradient steps here);
- ``head``: its hidden layer too (what the last convolution gives in: 1,792 numbers a crop from
  EfficientNet-Lite0's stages, 2,048 from a DiceNet);
- ``block``: its last convolution block too (Lite0's last inverted bottleneck).

The network is the judge's as shipped, of the kind its file holds (`shipped_network`).

``--ceiling`` fits to the held-out photos themselves (the most any refit of that depth can
give the judge on them: what its inputs cannot tell apart stays unread).

Needs PyTorch and onnx (training dependencies, README) and ../shared/datasets.
Usage: python -m training.refit_depth [--scenes nell,epanemu] [--depths numpy,last,head,block]
                                      [--kept 50] [--epochs 4] [--ceiling]
"""

from __future__ import annotations

import argparse
import copy
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
import torch
from torch import nn

import vision.judge
from benchmarks.adaptation import scene_photos
from training.lite_net import LiteDiceNet
from training.train_dice_cnn import CLASSES, DiceNet, conv_norms, export, load_exported
from vision.adapt import (
    AdaptParams,
    Photo,
    adapt_last_layer,
    cut_crops,
    judged_crops,
    rehearsal_crops,
    score_with,
    wrong_values,
)
from vision.crops import to_blob
from vision.evaluation import Score
from vision.network import read_onnx
from vision.types import Frame

SHIPPED = Path(__file__).resolve().parents[1] / "vision" / "judge_cnn.onnx"
REHEARSE = 3.0
"""The rehearsal's weight beside the table's crops (`vision.adapt.AdaptParams.rehearse`)."""


def table_crops(photos: Sequence[Photo], params: AdaptParams) -> tuple[list[Frame], list[int]]:
    """The crops a table's refit is fitted to, and their classes."""
    rng = np.random.default_rng(params.seed)
    crops: list[Frame] = []
    classes: list[int] = []
    for frame, dice in photos:
        for cut, kinds in (
            cut_crops(frame, dice, rng, params),
            judged_crops(frame, dice, rng, params, unlabelled=True),
        ):
            crops += cut
            classes += kinds
    return crops, classes


def _blob(crops: Sequence[Frame]) -> torch.Tensor:
    return torch.from_numpy(to_blob(crops))


def shipped_network() -> DiceNet | LiteDiceNet:
    """The judge's network as shipped (`SHIPPED`), of the kind its file holds (EfficientNet-Lite0's
    stages or DiceNet's five convolutions), in eval mode: the exported normalisations are folded
    into the convolutions and stay as they are."""
    convs = sum(node.op_type == "Conv" for node in onnx.load(SHIPPED).graph.node)
    for kind in (LiteDiceNet, DiceNet):
        model = kind()
        if len(conv_norms(model)) == convs:
            load_exported(model, SHIPPED)
            return model.eval()
    raise SystemExit(f"{SHIPPED}: neither a LiteDiceNet nor a DiceNet")


def fitted(
    crops: Sequence[Frame], classes: Sequence[int], known: Sequence[Frame], depth: str, epochs: int
) -> DiceNet | LiteDiceNet:
    """The judge's network with its layers down to ``depth`` fitted to the table's crops (each
    class weighing the same), held to the shipped network's class probabilities and die-centre
    offsets on the ``known`` crops of ordinary dice."""
    torch.manual_seed(0)
    model = shipped_network()
    shipped = copy.deepcopy(model)
    x, y, k = _blob(crops), torch.tensor(classes, dtype=torch.long), _blob(known)
    with torch.no_grad():
        held = shipped(k)
    last = [m for m in model.head if isinstance(m, nn.Linear)][-1]
    trained = {
        "last": [last],
        "head": [model.head],
        "block": [model.features[-1], model.head],
    }[depth]
    for p in model.parameters():
        p.requires_grad = False
    params = [p for part in trained for p in part.parameters()]
    for p in params:
        p.requires_grad = True
    counts = torch.bincount(y, minlength=CLASSES).float()
    weight = 1.0 / counts[y]
    optimiser = torch.optim.Adam(params, lr=1e-3)
    for _ in range(epochs):
        for batch in torch.randperm(len(x)).split(256):
            rehearsed = torch.randint(0, len(k), (256,))
            crops_in = x[batch].flip(3) if bool(torch.rand(()) < 0.5) else x[batch]
            out, kept = model(crops_in), model(k[rehearsed])
            w = weight[batch]
            loss = (
                nn.functional.cross_entropy(out[:, :CLASSES], y[batch], reduction="none") * w
            ).sum() / w.sum()
            loss = loss + REHEARSE * nn.functional.kl_div(
                nn.functional.log_softmax(kept[:, :CLASSES], 1),
                nn.functional.log_softmax(held[rehearsed, :CLASSES], 1),
                log_target=True,
                reduction="batchmean",
            )
            loss = loss + ((kept[:, CLASSES:] - held[rehearsed, CLASSES:]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return model


def scored_with(model: DiceNet | LiteDiceNet, photos: Sequence[Photo]) -> Score:
    """How the reader reads ``photos`` with ``model`` as the judge's network."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "refit.onnx"
        export(model, path)
        net = read_onnx(str(path))
    shipped = vision.judge.judge_network
    vision.judge.judge_network = lambda: net  # type: ignore[assignment]
    try:
        return score_with(photos, None)
    finally:
        vision.judge.judge_network = shipped  # type: ignore[assignment]


def line(name: str, score: Score) -> str:
    """Per die right, not sure, wrong (given a value not theirs, or found where none lies) and
    throws misread silently."""
    return (
        f"  {name}: right {score.recall:.3f}, not sure {score.unread}, wrong "
        f"{wrong_values(score)}, silent {score.silent} of {score.images}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="nell,epanemu", help="scenes whose names hold these")
    parser.add_argument("--depths", default="numpy,last,head,block")
    parser.add_argument("--kept", type=int, default=50, help="training photos fitted to")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--ceiling", action="store_true", help="fit to the held-out photos")
    args = parser.parse_args()
    torch.set_num_threads(1)
    params = AdaptParams()
    known = [crop for tray in rehearsal_crops(params) for crop in tray]
    for name, (training, held) in scene_photos().items():
        if not any(w in name for w in args.scenes.split(",")):
            continue
        fit_to = held if args.ceiling else training[: args.kept]
        print(f"{name}: fitted to {len(fit_to)} photos, read {len(held)} held out", flush=True)
        print(line("shipped", score_with(held, None)), flush=True)
        crops, classes = table_crops(fit_to, params)
        for depth in args.depths.split(","):
            start = time.process_time()
            if depth == "numpy":
                layers, _ = adapt_last_layer(fit_to, params)
                score = score_with(held, layers)
            else:
                score = scored_with(fitted(crops, classes, known, depth, args.epochs), held)
            took = time.process_time() - start
            print(line(f"{depth} ({took:.0f} s CPU)", score), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
