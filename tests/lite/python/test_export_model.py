"""The converter (lite/python/exported_graph.py, schema_args.py) keeps each model's meaning.

Every case exports a small module, converts it, writes and re-reads the lite bytes, and
runs them with PyTorch's own operators (torch_reference.py): the outputs must match the
exported program's. Needs torch and numpy; skipped without them (the Bazel python).
"""

import os
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

torch = pytest.importorskip("torch", reason="needs torch (pip install torch==2.13.0)")
np = pytest.importorskip("numpy")

import torch_reference  # noqa: E402
from decompose import decompose, views_as_reshapes  # noqa: E402
from exported_graph import convert_program  # noqa: E402
from lite_model import Tag, parse, serialize  # noqa: E402
from schema_args import ConvertError  # noqa: E402


def convert(module, inputs):
    """(parsed lite model, decomposed program) of `module` exported for `inputs`."""
    ep = decompose(torch.export.export(module.eval(), inputs))
    return parse(serialize(convert_program(ep, [("producer", "test")]))), ep


def check_same_outputs(module, inputs):
    model, ep = convert(module, inputs)
    with torch.no_grad():
        expected = ep.module()(*inputs)
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    got = torch_reference.run(model, inputs)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        torch.testing.assert_close(g, e, rtol=0, atol=0)
    return model


def nodes_of(model, op):
    return [n for n in model.nodes if model.operators[n.op] == op]


@pytest.mark.parametrize(
    "name", ["mlp", "cnn", "transformer", "bert", "llama", "vit_swin", "convgn"]
)
def test_checked_in_models_reproduce_eager_outputs(name):
    folder = os.path.join(ROOT, "models", name)
    with open(os.path.join(folder, "model.sopsm"), "rb") as f:
        model = parse(f.read())
    inputs = [
        torch.from_numpy(np.load(os.path.join(folder, f"input{k}.npy")))
        for k in range(len(model.inputs))
    ]
    for k, out in enumerate(torch_reference.run(model, inputs)):
        expected = np.load(os.path.join(folder, f"expected{k}.npy"))
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)


class SplitCat(torch.nn.Module):
    def forward(self, x):
        a, b, c = torch.split(x, 2, dim=1)
        parts = torch.split(x, [1, 5], dim=1)
        return torch.cat([c, a], 1), b.to(torch.float64), parts[1] * 2


def test_tensor_list_returns_unpack_and_getitem_is_folded():
    model = check_same_outputs(SplitCat(), (torch.randn(4, 6),))
    splits = nodes_of(model, "aten::split_with_sizes")
    assert [(n.unpack, len(n.outs)) for n in splits] == [(True, 3), (True, 2)]
    cat = nodes_of(model, "aten::cat")[0]
    assert cat.args[0].tag == Tag.TENSORS and cat.args[0].value == (
        splits[0].outs[2],
        splits[0].outs[0],
    )
    assert not nodes_of(model, "aten::_assert_tensor_metadata")  # .to()'s static check is left out
    mul = nodes_of(model, "aten::mul.Tensor")[0]  # parts[1] * 2: the 2 is a 0-dim int64 constant
    constant = next(c for c in model.constants if c.slot == mul.args[1].value)
    assert (constant.name, constant.desc.dtype, constant.desc.sizes, constant.data) == (
        "mul.other",
        4,
        (),
        bytes([2]) + bytes(7),
    )
    to_copy = nodes_of(model, "aten::_to_copy")[0]
    assert to_copy.args[1].tag == Tag.SCALAR_TYPE and to_copy.args[1].value == 7


class WrappedNumbers(torch.nn.Module):
    """Python numbers where the schema wants a Tensor (mul.Tensor(x, 2.5), ...)."""

    def forward(self, i, d, h):
        return (
            i * 2.5,
            i + 3,
            d * 0.1,
            h / 3.3,
            torch.eq(d, 0.1),
            torch.where(i > 2, i, 7),
            torch.where(d > 0.15, d, 0.3),
        )


def test_numbers_given_for_tensors_become_0_dim_constants_with_wrapped_number_dtypes():
    # Many float16 values: x / 3.3 rounds differently when 3.3 is first rounded to float16.
    inputs = (
        torch.arange(6).reshape(2, 3),
        torch.tensor([0.1, 0.2], dtype=torch.float64),
        torch.linspace(-30, 30, 999).to(torch.float16),
    )
    model = check_same_outputs(WrappedNumbers(), inputs)
    lifted = {c.name: c.desc for c in model.constants}
    assert all(desc.sizes == () for desc in lifted.values()) and len(lifted) >= 4, lifted
    # int64 (i + 3), float32 (i * 2.5: an int tensor promotes to the default dtype), float64
    # (a float beside a floating tensor keeps its precision, as a wrapped number does).
    assert sorted({desc.dtype for desc in lifted.values()}) == [4, 6, 7]


class Pool(torch.nn.Module):
    def forward(self, x):
        y, indices = torch.nn.functional.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
        return (
            y,
            indices,
            torch.nn.functional.avg_pool2d(x, 2, ceil_mode=True, count_include_pad=False),
        )


def test_multi_output_nodes_and_defaults_in_gaps():
    model = check_same_outputs(Pool(), (torch.randn(1, 2, 7, 7),))
    pool = nodes_of(model, "aten::max_pool2d_with_indices")[0]
    assert not pool.unpack and len(pool.outs) == 2
    assert [a.value for a in pool.args[1:4]] == [(3, 3), (2, 2), (1, 1)]
    assert model.outputs[1].slot == pool.outs[1]


class Buffers(torch.nn.Module):
    """A bfloat16 parameter, a bool buffer, a non-persistent buffer and a lifted constant."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3, 5).to(torch.bfloat16))
        self.register_buffer("keep", torch.tensor([True, False, True, True, False]))
        self.register_buffer("scale", torch.full((5,), 0.5), persistent=False)
        self.offset = torch.arange(5.0)  # neither parameter nor buffer: a lifted tensor constant

    def forward(self, x):
        y = (x.to(torch.bfloat16) @ self.w).float()
        y = torch.where(self.keep, y * self.scale, torch.zeros_like(y)) + self.offset
        return y.clamp(min=-1.0), x, self.w


def test_constants_of_every_kind_and_outputs_that_are_not_nodes():
    model = check_same_outputs(Buffers(), (torch.randn(2, 3),))
    names = {c.name: c.desc for c in model.constants}
    assert (names["w"].dtype, names["keep"].dtype, names["scale"].dtype) == (15, 11, 6)
    assert any(name.startswith("lifted_tensor") or name == "offset" for name in names), names
    assert [o.slot for o in model.outputs[1:]] == [
        model.inputs[0].slot,
        next(c.slot for c in model.constants if c.name == "w"),
    ]


class Mask(torch.nn.Module):
    def forward(self, tokens, x):
        pad = tokens == 0
        filled = x.masked_fill(pad.unsqueeze(-1), 0.0)
        picked = x[:, torch.tensor([0, 2])]
        return (
            filled.sum(dim=(0, 1), keepdim=True),
            torch.logical_or(pad, tokens > 3).any(dim=1),
            picked,
        )


def test_masks_indexing_and_int_lists():
    tokens = torch.tensor([[1, 0, 4], [0, 2, 3]])
    model = check_same_outputs(Mask(), (tokens, torch.randn(2, 3, 4)))
    index = nodes_of(model, "aten::index.Tensor")[0]
    assert index.args[1].tag == Tag.OPT_TENSORS and index.args[1].value[0] is None


def test_converter_errors_name_the_node():
    class Complex(torch.nn.Module):
        def forward(self, x):
            return torch.view_as_real(x.to(torch.complex64) * 2)

    ep = torch.export.export(Complex(), (torch.randn(3),)).run_decompositions()
    with pytest.raises(ConvertError, match=r"node '\w+' \(aten::[\w.]+\): .*complex64"):
        convert_program(ep, [])


class Gpt2Attention(torch.nn.Module):
    """GPT-2's attention as Hugging Face writes it: Conv1D (addmm on a view), sdpa, then
    `transpose(1, 2).contiguous()`, reshape and Conv1D's view again."""

    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.heads = heads
        self.w_attn = torch.nn.Parameter(torch.randn(hidden, 3 * hidden) * 0.2)
        self.b_attn = torch.nn.Parameter(torch.randn(3 * hidden) * 0.2)
        self.w_proj = torch.nn.Parameter(torch.randn(hidden, hidden) * 0.2)
        self.b_proj = torch.nn.Parameter(torch.randn(hidden) * 0.2)

    def forward(self, x):
        b, s, h = x.shape
        qkv = torch.addmm(self.b_attn, x.view(-1, h), self.w_attn).view(b, s, 3 * h)
        q, k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in qkv.split(h, dim=2))
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        o = o.transpose(1, 2).contiguous().reshape(b, s, h)
        return torch.addmm(self.b_proj, o.view(-1, h), self.w_proj).view(b, s, h)


def test_views_whose_strides_decomposing_changes_become_reshapes():
    # The CPU sdpa kernel lays its output out as (N, L, H, E), so `.contiguous()` was a
    # no-op when tracing and is not in the graph; the decomposition lays it out as
    # (L, N, H, E), on which the last view is impossible.
    torch.manual_seed(0)
    module, x = Gpt2Attention().eval(), torch.randn(2, 16, 32)
    with pytest.raises(Exception, match="Cannot view a tensor with shape"):
        torch.export.export(module, (x,)).run_decompositions()
    model = check_same_outputs(module, (x,))
    with torch.no_grad():
        expected = module(x)
    torch.testing.assert_close(torch_reference.run(model, (x,))[0], expected)
    assert {"aten::clone", "aten::view"} <= set(model.operators)


class WrittenThroughViews(torch.nn.Module):
    def forward(self, x):
        y = x.clone()
        y.view(-1).add_(1)  # writes y through a view: the other view must see it
        return y.view(2, -1) * 2, x.view(-1) + 1


def test_views_that_a_write_reaches_stay_views():
    ep = torch.export.export(WrittenThroughViews(), (torch.randn(4, 4),))
    views = [n for n in ep.graph.nodes if n.target is torch.ops.aten.view.default]
    assert views_as_reshapes(ep) == 1  # x.view(-1) only; x is never written
    assert [n.target for n in views] == [torch.ops.aten.view.default] * 2 + [
        torch.ops.aten.reshape.default
    ]
    x = torch.randn(4, 4)
    model = check_same_outputs(WrittenThroughViews(), (x,))
    got = torch_reference.run(model, (x,))
    torch.testing.assert_close(got[0], (x + 1).view(2, -1) * 2, rtol=0, atol=0)


class WrittenThroughSplit(torch.nn.Module):
    def forward(self, x):
        y = x.clone()
        first, _ = y.split(2)  # a Tensor(a -> *)[] return, then operator.getitem
        first.mul_(3)
        return y.view(-1) + 1


def test_views_of_a_tensor_written_through_a_split_stay_views():
    x = torch.randn(4, 3)
    ep = torch.export.export(WrittenThroughSplit(), (x,))
    assert views_as_reshapes(ep) == 0
    model = check_same_outputs(WrittenThroughSplit(), (x,))
    expected = torch.cat([x[:2] * 3, x[2:]]).view(-1) + 1
    torch.testing.assert_close(torch_reference.run(model, (x,))[0], expected, rtol=0, atol=0)


class Norms(torch.nn.Module):
    def forward(self, x):
        return (
            torch.nn.functional.normalize(x, dim=-1),
            torch.linalg.vector_norm(x, 3.0, dim=0),
            torch.norm(x),
        )


def test_operators_outside_core_aten_are_decomposed():
    # The default table leaves aten::linalg_vector_norm; torch._decomp has a decomposition.
    x = torch.randn(4, 8)
    plain = torch.export.export(Norms(), (x,)).run_decompositions()
    assert torch.ops.aten.linalg_vector_norm.default in {n.target for n in plain.graph.nodes}
    model = check_same_outputs(Norms(), (x,))
    for name in model.operators:
        assert torch.Tag.core in torch_reference.resolve(name).tags, name
    for got, expected in zip(torch_reference.run(model, (x,)), Norms()(x)):
        torch.testing.assert_close(got, expected)
