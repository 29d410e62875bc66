#!/usr/bin/env python3
"""Writes the example models of the lite runtime into models/<name>/ (needs torch 2.13).

    python3 models/make_models.py [NAME ...]      (default: mlp cnn transformer)

Each model is built with a fixed seed, put in eval mode and exported with
`torch.export.export`; the folder gets:

    model.pt2        torch.export.save of the exported program
    model.sopsm      the lite model file (lite/python/export_model.py's converter)
    input0.npy ...   the example inputs
    expected0.npy    eager PyTorch's outputs, model(*inputs) under torch.no_grad()
    ops.txt          the decomposed graph's operators (decomposed as the converter does,
                     decompose.py), sorted, one per line
    shapes.txt       every operator node's outputs: `name dtype [sizes]` (`name.K` when
                     a node has several outputs); operator.getitem nodes are left out
    torchscript.pt   torch.jit.trace of the model, for the libtorch baseline

Running it twice gives byte-identical files. The archives hold no stack traces or
source ranges (portable_archives.py), so no paths of the machine that made them.
"""

import os
import sys
import warnings

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lite", "python"))

import export_model  # noqa: E402  (after the path above)
from decompose import decompose  # noqa: E402
from exported_graph import op_name  # noqa: E402
from portable_archives import export_without_stack_traces, strip_debug_info  # noqa: E402
from schema_args import TORCH_DTYPES  # noqa: E402

DTYPE_NAMES = {dtype: str(dtype).replace("torch.", "") for dtype in TORCH_DTYPES}


class Cnn(nn.Module):
    """Conv-BN-ReLU-MaxPool, Conv-Sigmoid-AvgPool, flatten, Linear, Softmax."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.pool2 = nn.AvgPool2d(2)
        self.fc = nn.Linear(32 * 8 * 8, 10)

    def forward(self, x):
        x = self.pool1(torch.relu(self.bn(self.conv1(x))))
        x = self.pool2(torch.sigmoid(self.conv2(x)))
        return torch.softmax(self.fc(torch.flatten(x, 1)), dim=1)


class Block(nn.Module):
    """A pre-norm transformer block over embedded tokens; token 0 is padding.

    The key padding mask is built from the tokens as an additive float mask (where(pad,
    -inf, 0)), which keeps eq, where, full_like, any and logical_not in the graph. A bool
    mask works too (nn.MultiheadAttention turns it into a float one with masked_fill,
    which decomposes to aten::scalar_tensor).
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 64)
        self.ln1 = nn.LayerNorm(64)
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
        self.ln2 = nn.LayerNorm(64)
        self.fc1 = nn.Linear(64, 256)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(256, 64)

    def forward(self, tokens):
        x = self.emb(tokens)
        zeros = torch.zeros_like(tokens, dtype=x.dtype)
        mask = torch.where(tokens == 0, torch.full_like(zeros, float("-inf")), zeros)
        h = self.ln1(x)
        a, _ = self.attn(h, h, h, key_padding_mask=mask, need_weights=False)
        x = x + a
        return x + self.fc2(self.act(self.fc1(self.ln2(x))))


def make_mlp():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10), nn.LogSoftmax(dim=1))
    return model.eval(), (torch.randn(4, 32),)


def make_cnn():
    torch.manual_seed(2)
    model = Cnn()
    model.train()
    with torch.no_grad():  # non-trivial running statistics for BatchNorm
        for _ in range(4):
            model(torch.randn(8, 3, 32, 32) * 2 + 0.5)
    return model.eval(), (torch.randn(2, 3, 32, 32),)


def make_transformer():
    torch.manual_seed(3)
    model = Block()
    tokens = torch.randint(1, 100, (2, 16))
    tokens[0, 11:] = 0  # padding at the ends; no row is all padding
    tokens[1, 14:] = 0
    return model.eval(), (tokens,)


MODELS = {"mlp": make_mlp, "cnn": make_cnn, "transformer": make_transformer}


def _describe(val) -> list:
    """`dtype [sizes]` of each tensor in a node's meta['val']."""
    vals = val if isinstance(val, (list, tuple)) else [val]
    return [f"{DTYPE_NAMES[v.dtype]} [{', '.join(str(int(s)) for s in v.shape)}]" for v in vals]


def graph_listing(ep) -> tuple:
    """ops.txt's and shapes.txt's text for a decomposed program (not our converter)."""
    ops, lines = set(), []
    for node in ep.graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        ops.add(op_name(node.target))
        described = _describe(node.meta["val"])
        multi = isinstance(node.meta["val"], (list, tuple))
        for k, text in enumerate(described):
            lines.append(f"{node.name}.{k} {text}" if multi else f"{node.name} {text}")
    return "".join(op + "\n" for op in sorted(ops)), "".join(line + "\n" for line in lines)


def write_model(name: str, model: nn.Module, inputs: tuple) -> None:
    folder = os.path.join(HERE, name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "model.pt2")
    torch.export.save(export_without_stack_traces(torch.export.export(model, inputs)), path)
    with open(os.path.join(folder, "model.sopsm"), "wb") as f:
        f.write(export_model.convert(path))
    with torch.no_grad():
        outputs = model(*inputs)
    outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    for k, tensor in enumerate(inputs):
        np.save(os.path.join(folder, f"input{k}.npy"), tensor.numpy())
    for k, tensor in enumerate(outputs):
        np.save(os.path.join(folder, f"expected{k}.npy"), tensor.numpy())
    ops, shapes = graph_listing(decompose(torch.export.load(path)))
    for file, text in (("ops.txt", ops), ("shapes.txt", shapes)):
        with open(os.path.join(folder, file), "w", encoding="utf-8") as f:
            f.write(text)
    with torch.no_grad():
        torch.jit.save(torch.jit.trace(model, inputs), os.path.join(folder, "torchscript.pt"))
    strip_debug_info(os.path.join(folder, "torchscript.pt"))


def main(argv) -> int:
    names = argv or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        print(
            f"make_models.py: error: unknown model(s) {unknown}; known: {list(MODELS)}",
            file=sys.stderr,
        )
        return 1
    for name in names:
        model, inputs = MODELS[name]()
        write_model(name, model, inputs)
        print(f"models/{name}: written")
    return 0


if __name__ == "__main__":
    warnings.filterwarnings("ignore", category=FutureWarning)  # torch.export.load's pytree notices
    sys.exit(main(sys.argv[1:]))
