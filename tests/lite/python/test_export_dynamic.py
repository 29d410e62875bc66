"""The converter on programs exported with `dynamic_shapes=` (lite model format version 2).

Each case exports a small module with torch.export Dims, converts it, writes and re-reads
the bytes, and runs them at several sizes with PyTorch's own operators
(torch_reference.py, which binds the symbols from the inputs' shapes and evaluates the
`sym::` nodes itself): the outputs must equal eager PyTorch's at every size. Needs torch;
skipped without it (the Bazel python).
"""

import os
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

torch = pytest.importorskip("torch", reason="needs torch (pip install torch==2.13.0)")

import torch_reference  # noqa: E402
from decompose import decompose  # noqa: E402
from exported_graph import convert_program  # noqa: E402
from lite_model import INT64_MAX, SYM_CONST, SYM_SLOT, Tag, parse, serialize  # noqa: E402
from schema_args import ConvertError  # noqa: E402
from torch.export import Dim  # noqa: E402


def convert(module, inputs, dynamic_shapes):
    ep = torch.export.export(module.eval(), inputs, dynamic_shapes=dynamic_shapes)
    return parse(serialize(convert_program(decompose(ep), [("producer", "test")])))


def check_sizes(module, model, sized_inputs):
    """The model equals eager PyTorch at every size of `sized_inputs`."""
    for inputs in sized_inputs:
        with torch.no_grad():
            expected = module(*inputs)
        expected = expected if isinstance(expected, (tuple, list)) else (expected,)
        got = torch_reference.run(model, list(inputs))
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype and g.shape == e.shape, (g.shape, e.shape)
            torch.testing.assert_close(g, e, rtol=1e-6, atol=1e-6)


def ops_of(model):
    return [model.operators[n.op] for n in model.nodes]


class ViewSeq(torch.nn.Module):
    """A view whose size multiplies two symbols (batch*seq), then back."""

    def forward(self, x):
        b, s, h = x.shape
        return (x.view(b * s, h) * 2).view(b, s, h)


def test_view_with_a_symbolic_size():
    batch, seq = Dim("batch", max=8), Dim("seq", min=2, max=64)
    model = convert(ViewSeq(), (torch.randn(2, 5, 4),), {"x": {0: batch, 1: seq}})
    assert [(s.name, s.min, s.max) for s in model.symbols] == [("batch", 0, 8), ("seq", 2, 64)]
    assert model.inputs[0].desc.sizes == (-1, -2, 4)
    assert "sym::mul" in model.operators and "aten::sym_size.int" in model.operators
    views = [n for n in model.nodes if model.operators[n.op] == "aten::view"]
    first = views[0].args[1]
    assert first.tag == Tag.SYM_INTS
    assert [kind for kind, _ in first.value] == [SYM_SLOT, SYM_CONST]
    assert first.value[1] == (SYM_CONST, 4)
    shapes = dict(model.value_info)
    assert shapes[views[0].outs[0]] == "[batch*seq, 4]"
    assert shapes[views[1].outs[0]] == "[batch, seq, 4]"
    sizes = [(torch.randn(b, s, 4),) for b, s in ((1, 2), (3, 7), (8, 64))]
    check_sizes(ViewSeq(), model, sizes)


class Positions(torch.nn.Module):
    """arange(seq) as positions; floordiv of the sequence; sym_max of two inputs' sizes."""

    def forward(self, tokens, other):
        s = tokens.shape[1]
        positions = torch.arange(s)
        half = torch.arange(s // 2)
        longest = torch.sym_max(s, other.shape[0])
        return tokens + positions, half * 3, torch.ones(longest)


def test_arange_floordiv_and_sym_max():
    seq, n = Dim("seq", min=4, max=64), Dim("n")  # s // 2 is specialized below 4
    model = convert(
        Positions(),
        (torch.randint(0, 9, (3, 6)), torch.randn(5)),
        {"tokens": {1: seq}, "other": {0: n}},
    )
    assert [(s.name, s.min, s.max) for s in model.symbols] == [("seq", 4, 64), ("n", 0, INT64_MAX)]
    ops = ops_of(model)
    assert {"sym::floordiv", "sym::max", "aten::arange.start_step"} <= set(ops)
    arange = next(n for n in model.nodes if model.operators[n.op] == "aten::arange.start_step")
    assert arange.args[1].tag == Tag.VALUE  # the end: a scalar slot
    sized = [
        (torch.randint(0, 9, (3, s)), torch.randn(m)) for s, m in ((4, 0), (7, 9), (64, 100000))
    ]
    check_sizes(Positions(), model, sized)


class ScaledBySize(torch.nn.Module):
    """A SymInt (and a ceil of a SymFloat) given for a Tensor argument."""

    def forward(self, x):
        import math

        return x * x.shape[0] + math.ceil(x.shape[1] / 3)


def test_scalars_given_for_tensors_become_scalar_tensors():
    model = convert(
        ScaledBySize(), (torch.randn(4, 5),), {"x": {0: Dim("rows"), 1: Dim("cols", max=30)}}
    )
    assert "aten::scalar_tensor" in model.operators
    assert "sym::ceil" in model.operators and "sym::truediv" in model.operators
    check_sizes(ScaledBySize(), model, [(torch.randn(r, c),) for r, c in ((2, 2), (9, 30))])


def test_bounds_are_checked_when_symbols_bind():
    model = convert(ViewSeq(), (torch.randn(2, 5, 4),), {"x": {0: Dim("b", max=8), 1: Dim("s")}})
    with pytest.raises(torch_reference.BindError, match=r"symbol 'b' must be in \[0, 8\]"):
        torch_reference.run(model, [torch.randn(9, 5, 4)])


def test_derived_dims_are_refused_naming_the_input():
    class Two(torch.nn.Module):
        def forward(self, x, y):
            return torch.cat([x, x]) + y

    b = Dim("b", max=10)
    ep = torch.export.export(
        Two(), (torch.randn(3, 4), torch.randn(6, 4)), dynamic_shapes={"x": {0: b}, "y": {0: 2 * b}}
    )
    with pytest.raises(ConvertError) as error:
        convert_program(decompose(ep), [])
    message = str(error.value)
    assert message.startswith("node 'y' (user input): dimension 0 is 2*b"), message
    assert "derived Dim" in message and "give this dimension a Dim of its own" in message


def test_symbols_are_named_after_inputs_without_the_dims_names():
    ep = torch.export.export(
        ViewSeq(), (torch.randn(2, 5, 4),), dynamic_shapes={"x": {1: Dim("seq")}}
    )
    model = convert_program(decompose(ep), [], dim_names={})
    assert [s.name for s in model.symbols] == ["x.1"]


def test_a_data_dependent_size_from_a_node_converts():
    class Nonzero(torch.nn.Module):
        def forward(self, x):
            return torch.zeros(x.nonzero().shape[0])

    x = torch.tensor([[1.0, 0.0], [2.0, 3.0]])
    ep = torch.export.export(Nonzero(), (x,))
    model = parse(serialize(convert_program(decompose(ep), [])))
    assert not model.symbols
    assert "sym::assert" in model.operators  # torch.export's u0 >= 0 check
    full = next(n for n in model.nodes if model.operators[n.op] == "aten::full")
    assert full.args[0].tag == Tag.SYM_INTS
    check_sizes(Nonzero(), model, [(x,)])
