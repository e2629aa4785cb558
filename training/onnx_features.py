"""Give an exported classifier network a second output, "features": what its last layer takes.

`vision.classify` refits the last layer at a table (`dicekeeper adapt`) from these features. A
graph output is kept by every engine of every OpenCV, whereas the layer that computes it inside the
network may be fused into another (OpenCV 5.1 fuses each ReLU into its convolution or Gemm), so the
features are asked for by this name and never by a layer's.

Needs onnx (a training dependency, see training/README.md).
Usage: python -m training.onnx_features NETWORK.onnx [NETWORK.onnx ...]   (rewritten in place)
"""

from __future__ import annotations

import argparse
from pathlib import Path

import onnx
from onnx import TensorProto, helper

SCORES = "scores"
FEATURES = "features"


def with_features(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` with the input of the Gemm that writes `SCORES` also given as the output
    `FEATURES` (N × the Gemm's input width); unchanged if it has that output already."""
    graph = model.graph
    if any(output.name == FEATURES for output in graph.output):
        return model
    (last,) = [node for node in graph.node if SCORES in node.output] or [None]
    if last is None or last.op_type != "Gemm":
        raise ValueError(f"no Gemm writes the output {SCORES!r}: not a classifier network")
    weights = {init.name: init for init in graph.initializer}
    weight = weights.get(last.input[1])
    if weight is None:
        raise ValueError(f"the weights of {last.name!r} are not stored in the network")
    transposed = any(a.name == "transB" and a.i == 1 for a in last.attribute)
    width = weight.dims[1] if transposed else weight.dims[0]
    graph.node.append(helper.make_node("Identity", [last.input[0]], [FEATURES], name=FEATURES))
    graph.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["n", width]))
    onnx.checker.check_model(model)
    return model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("networks", type=Path, nargs="+")
    args = parser.parse_args()
    for path in args.networks:
        onnx.save(with_features(onnx.load(str(path))), str(path))
        print(f"{path}: outputs {SCORES!r} and {FEATURES!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
