"""The converter stores a tensor shared by several names once (lite/FORMAT.md, `constant`).

torch.export keeps a tied parameter (a language model's lm head tied to its embedding,
`head.weight = emb.weight`) as one placeholder per name, whose state_dict tensors are the
same view of one storage, and torch.export.save/load keeps them so. Each case saves a
small module, converts the archive as `export_model.py` does, and checks the data blob
(one copy of the tied bytes, both constants at its offset), then runs the file with
PyTorch's own operators (torch_reference.py) against eager. Needs torch; skipped
without it (the Bazel python).
"""

import os
import struct
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

torch = pytest.importorskip("torch", reason="needs torch (pip install torch==2.13.0)")

import torch_reference  # noqa: E402
from export_model import convert  # noqa: E402
from lite_model import parse  # noqa: E402


class TiedLm(torch.nn.Module):
    """Embedding and lm head over one weight, as Hugging Face's tie_weights() leaves them."""

    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 4)
        self.head = torch.nn.Linear(4, 10, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, tokens):
        return self.head(self.emb(tokens))


class RowBuffer(torch.nn.Module):
    """A buffer that is a row of a parameter: another view of the parameter's storage."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.arange(12.0).reshape(3, 4))
        self.register_buffer("row", self.w.data[1])

    def forward(self, x):
        return x @ self.w.t() + self.row.sum()


def converted(module, inputs, tmp_path):
    """(file bytes, parsed model, eager outputs) of `module` saved and converted."""
    torch.manual_seed(0)
    ep = torch.export.export(module.eval(), inputs)
    path = str(tmp_path / "model.pt2")
    torch.export.save(ep, path)
    data = convert(path)
    with torch.no_grad():
        eager = module(*inputs)
    return data, parse(data), eager


def data_size(data: bytes) -> int:
    return struct.unpack_from("<Q", data, 24)[0]


def constant(model, name):
    return next(c for c in model.constants if c.name == name)


def test_a_tied_weight_is_stored_once(tmp_path):
    torch.manual_seed(0)
    module = TiedLm()
    tokens = torch.tensor([[1, 2, 9], [0, 5, 5]])
    data, model, eager = converted(module, (tokens,), tmp_path)
    emb, head = constant(model, "emb.weight"), constant(model, "head.weight")
    assert emb.offset == head.offset
    assert emb.data == head.data == module.emb.weight.detach().numpy().tobytes()
    # One copy: the blob holds 10 x 4 float32, nothing else.
    assert len(model.constants) == 2 and data_size(data) == 10 * 4 * 4
    (got,) = torch_reference.run(model, [tokens])
    torch.testing.assert_close(got, eager, rtol=1e-5, atol=1e-6)


def test_another_view_of_a_storage_keeps_its_own_bytes(tmp_path):
    module = RowBuffer()
    x = torch.randn(2, 4)
    data, model, eager = converted(module, (x,), tmp_path)
    w, row = constant(model, "w"), constant(model, "row")
    assert w.data == struct.pack("<12f", *range(12))
    assert row.data == struct.pack("<4f", 4, 5, 6, 7)  # the row, not the start of w
    assert w.offset != row.offset
    (got,) = torch_reference.run(model, [x])
    torch.testing.assert_close(got, eager, rtol=1e-5, atol=1e-5)
