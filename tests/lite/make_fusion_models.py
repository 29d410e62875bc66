"""Writes testdata/fusion/NAME/{model.sopsm, input0.npy, expected0.npy}: small models,
exported with torch.export and converted by lite/python/export_model.py, whose graphs hold
the patterns the lite runtime's load-time optimization (lite/optimize.h) folds and fuses,
and the ones it must leave alone; expected0.npy is eager PyTorch's output, the oracle of
tests/lite/optimize_test.cc. Batch norms get non-trivial running statistics (train-mode
passes over shifted, scaled data), weights and biases, and eps. Run with torch 2.13:

    python tests/lite/make_fusion_models.py
"""

import os
import sys

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "testdata", "fusion")
sys.path.insert(0, os.path.join(HERE, "..", "..", "lite", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "models"))

import export_model  # noqa: E402  (after the paths above)
from portable_archives import export_without_stack_traces  # noqa: E402


class ConvBn(nn.Module):
    """conv -> batch norm -> activation (or none)."""

    def __init__(self, act, bias=True, affine=True, groups=1, eps=1e-3):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1, bias=bias, groups=groups)
        self.bn = nn.BatchNorm2d(8, eps=eps, affine=affine)
        self.act = act

    def forward(self, x):
        y = self.bn(self.conv(x))
        return self.act(y) if self.act is not None else y


class SharedConv(nn.Module):
    """The convolution's result is read twice: nothing may be folded or fused."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)

    def forward(self, x):
        y = self.conv(x)
        return torch.relu(self.bn(y)) + y


class ConvOutput(nn.Module):
    """The convolution's result is also a model output: nothing may be folded."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)

    def forward(self, x):
        y = self.conv(x)
        return self.bn(y), y


class ResidualBlock(nn.Module):
    """ResNet's basic block: conv -> bn -> relu -> conv -> bn, + the input, -> relu."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(4)

    def forward(self, x):
        y = self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x)))))
        return torch.relu(y + x)


class BroadcastAdd(nn.Module):
    """conv -> bn, + a [8, 1, 1] parameter (broadcast: not added in place), -> relu."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.shift = nn.Parameter(torch.zeros(8, 1, 1))

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)) + self.shift)


class LinearAct(nn.Module):
    """linear on a 3-d input (view -> addmm -> view) -> activation, then linear -> relu."""

    def __init__(self, act):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 8)
        self.act = act

    def forward(self, x):
        return torch.relu(self.fc2(self.act(self.fc1(x))))


def with_stats(model, shape, dtype):
    """Train-mode passes give the batch norms running statistics far from (0, 1)."""
    model.train()
    with torch.no_grad():
        for bn in [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]:
            if bn.affine:
                bn.weight.uniform_(0.5, 2.0)
                bn.bias.uniform_(-1.0, 1.0)
        for _ in range(4):
            model((torch.randn(*shape) * 3 + 1.5).to(dtype))
    return model.eval()


def models():
    conv_in = (2, 4, 10, 10)
    acts = {
        "relu": nn.ReLU(),
        "relu6": nn.ReLU6(),  # hardtanh(0, 6)
        "hardtanh": nn.Hardtanh(-0.5, 0.75),
        "hardswish": nn.Hardswish(),
        "silu": nn.SiLU(),
        "sigmoid": nn.Sigmoid(),
        "gelu": nn.GELU(),
        "gelu_tanh": nn.GELU(approximate="tanh"),
    }
    for name, act in acts.items():
        yield f"conv_bn_{name}", ConvBn(act), conv_in
    yield "conv_bn", ConvBn(None), conv_in
    yield "conv_nobias_bn_relu", ConvBn(nn.ReLU(), bias=False, eps=0.1), conv_in
    yield "conv_bn_noaffine_relu", ConvBn(nn.ReLU(), affine=False), conv_in
    yield "depthwise_bn_relu6", DepthwiseBn(), conv_in
    yield "residual_block", ResidualBlock(), conv_in
    yield "broadcast_add", BroadcastAdd(), conv_in
    yield "shared_conv", SharedConv(), conv_in
    yield "conv_output", ConvOutput(), conv_in
    yield "linear_gelu", LinearAct(nn.GELU()), (2, 5, 16)
    yield "linear_silu", LinearAct(nn.SiLU()), (2, 5, 16)
    yield "linear_clamp", LinearAct(lambda t: torch.clamp(t, min=-0.25)), (2, 5, 16)


class DepthwiseBn(nn.Module):
    """A depthwise convolution (MobileNet's) -> batch norm -> relu6, in float64."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1, groups=4)
        self.bn = nn.BatchNorm2d(4, eps=1e-5)
        self.act = nn.ReLU6()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


def main():
    for name, model, shape in models():
        torch.manual_seed(sum(map(ord, name)))
        dtype = torch.float64 if name.startswith("depthwise") else torch.float32
        model = model.to(dtype)
        for p in model.parameters():  # re-drawn under this model's seed
            with torch.no_grad():
                p.uniform_(-0.5, 0.5)
        has_bn = any(isinstance(m, nn.BatchNorm2d) for m in model.modules())
        model = with_stats(model, shape, dtype) if has_bn else model.eval()
        x = (torch.randn(*shape) * 2).to(dtype)
        folder = os.path.join(OUT, name)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "model.pt2")
        torch.export.save(export_without_stack_traces(torch.export.export(model, (x,))), path)
        with open(os.path.join(folder, "model.sopsm"), "wb") as f:
            f.write(export_model.convert(path))
        os.remove(path)
        with torch.no_grad():
            out = model(x)
        outs = out if isinstance(out, tuple) else (out,)
        np.save(os.path.join(folder, "input0.npy"), x.numpy())
        for k, o in enumerate(outs):
            np.save(os.path.join(folder, f"expected{k}.npy"), o.numpy())
        print(name)


if __name__ == "__main__":
    main()
