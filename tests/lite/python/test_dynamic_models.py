"""The dynamic example models (models/bert_dynamic, models/llama_dynamic): one file each
that serves every batch and sequence length in its range, and the static models' files
untouched by version 2.

Torch-free checks (run under Bazel): the files are version 2 with symbols `batch` [0, 8]
and `seq` [2, 64] on dimensions 0 and 1 of every input; ops.txt and shapes.txt, read
from the ExportedProgram by models/make_models.py, agree with the model's operators and
value_info; each size's .npy files have the shapes sizes.txt says. The static models
stay version 1. With torch (python3 -m pytest tests/lite/python): the oracle,
torch_reference.py, runs each model at each stored size and must reach eager PyTorch's
outputs (size<N>_expected<K>.npy) within 1e-5 relative.
"""

import os
import re
import struct
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lite_model import SYM_PREFIX, Symbol, Tag, parse  # noqa: E402
from test_models import MODELS as STATIC_MODELS  # noqa: E402
from test_models import npy_header  # noqa: E402

DYNAMIC = {"bert_dynamic": ("tokens", "attention_mask"), "llama_dynamic": ("tokens",)}
SIZES = [(1, 2), (3, 17), (8, 64)]


def folder(name: str) -> str:
    return os.path.join(ROOT, "models", name)


def load(name: str):
    with open(os.path.join(folder(name), "model.sopsm"), "rb") as f:
        data = f.read()
    return data, parse(data)


def lines(name: str, file: str) -> list:
    with open(os.path.join(folder(name), file), encoding="utf-8") as f:
        return f.read().splitlines()


def sizes(name: str) -> list:
    """[(N, batch, seq)] from sizes.txt."""
    found = []
    for line in lines(name, "sizes.txt"):
        match = re.fullmatch(r"size(\d+) batch=(\d+) seq=(\d+)", line)
        assert match, f"{name}/sizes.txt: {line!r}"
        found.append(tuple(int(g) for g in match.groups()))
    return found


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_version_2_with_batch_and_seq_symbols(name):
    data, model = load(name)
    assert struct.unpack_from("<I", data, 8)[0] == 2
    assert model.symbols == [Symbol("batch", 0, 8), Symbol("seq", 2, 64)]
    assert [i.name for i in model.inputs] == list(DYNAMIC[name])
    for inp in model.inputs:
        assert inp.desc.sizes == (-1, -2), inp.name  # batch, seq
    assert dict(model.metadata)["source"] == "model.pt2"


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_operators_match_ops_txt(name):
    _, model = load(name)
    aten = sorted(op for op in model.operators if not op.startswith(SYM_PREFIX))
    assert aten == lines(name, "ops.txt")
    assert "aten::sym_size.int" in aten
    assert "sym::mul" in model.operators  # batch*seq, the rows of each Linear's matmul
    assert {model.operators[n.op] for n in model.nodes} == set(model.operators)


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_shapes_txt_matches_value_info_and_scalar_nodes(name):
    """shapes.txt lists each operator node's outputs: tensors' symbolic shapes (as in the
    model's value_info), and the SymInts of aten::sym_size.int."""
    _, model = load(name)
    listed = {}
    for line in lines(name, "shapes.txt"):
        node, kind, shape = line.split(" ", 2)
        listed[node] = (kind, shape)
    info = dict(model.value_info)
    written = 0
    for node in model.nodes:
        op = model.operators[node.op]
        if op.startswith(SYM_PREFIX):
            assert node.name not in listed
            continue
        several = len(node.outs) != 1 or node.unpack
        for k, slot in enumerate(node.outs):
            kind, shape = listed[f"{node.name}.{k}" if several else node.name]
            written += 1
            if op == "aten::sym_size.int":
                assert (kind, shape) == ("SymInt", ("batch", "seq")[node.args[1].value])
            else:
                assert info[slot] == shape, node.name
    assert written == len(listed)
    assert "[batch*seq, 64]" in info.values()


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_sizes_cover_the_bounds_and_their_files_have_those_shapes(name):
    _, model = load(name)
    assert [(b, s) for _, b, s in sizes(name)] == SIZES
    for n, b, s in sizes(name):
        for k in range(len(model.inputs)):
            assert npy_header(os.path.join(folder(name), f"size{n}_input{k}.npy")) == (
                "int64",
                (b, s),
            )
        first = npy_header(os.path.join(folder(name), f"size{n}_expected0.npy"))
        assert first == ("float32", (b, s, 64 if name == "bert_dynamic" else 100))


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_shape_arguments_mix_constants_and_symbols(name):
    _, model = load(name)
    views = [n for n in model.nodes if model.operators[n.op] == "aten::view"]
    assert views and all(v.args[1].tag in (Tag.SYM_INTS, Tag.INTS) for v in views)
    assert any(v.args[1].tag == Tag.SYM_INTS for v in views)


@pytest.mark.parametrize("name", STATIC_MODELS)
def test_static_models_stay_version_1(name):
    data, model = load(name)
    assert struct.unpack_from("<I", data, 8)[0] == 1
    assert not model.symbols and not model.value_info


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_each_size_reproduces_eager_outputs(name):
    torch = pytest.importorskip("torch", reason="needs torch (pip install torch==2.13.0)")
    np = pytest.importorskip("numpy")
    import torch_reference  # pylint: disable=import-outside-toplevel

    _, model = load(name)
    for n, _, _ in sizes(name):
        inputs = [
            torch.from_numpy(np.load(os.path.join(folder(name), f"size{n}_input{k}.npy")))
            for k in range(len(model.inputs))
        ]
        outputs = torch_reference.run(model, inputs)
        assert len(outputs) == (2 if name == "bert_dynamic" else 1)
        for k, out in enumerate(outputs):
            expected = np.load(os.path.join(folder(name), f"size{n}_expected{k}.npy"))
            assert out.shape == expected.shape
            np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_inconsistent_and_out_of_range_inputs_are_refused(name):
    torch = pytest.importorskip("torch", reason="needs torch (pip install torch==2.13.0)")
    import torch_reference  # pylint: disable=import-outside-toplevel

    _, model = load(name)
    tokens = torch.ones(2, 65, dtype=torch.int64)
    with pytest.raises(torch_reference.BindError, match=r"symbol 'seq' must be in \[2, 64\]"):
        torch_reference.run(model, [tokens] * len(model.inputs))
    if name == "bert_dynamic":
        with pytest.raises(torch_reference.BindError, match="but symbol 'seq' is 17"):
            torch_reference.run(model, [tokens[:, :17], tokens[:, :16]])
