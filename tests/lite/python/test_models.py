"""The checked-in models/*/model.sopsm parse and agree with the files written beside them.

Torch-free: ops.txt and shapes.txt were read from the ExportedProgram by
models/make_models.py, independently of the converter; the .npy headers are read here
with a few lines (the Bazel python has no numpy).
"""

import ast
import glob
import os
import struct
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

from lite_model import DTYPES, Tag, parse  # noqa: E402

MODELS = ("mlp", "cnn", "transformer", "bert", "llama", "vit_swin", "convgn")
INT64_BUFFERS = ("bert", "vit_swin")  # position and token-type ids; relative position index
NPY_DTYPES = {
    "<f4": "float32",
    "<f8": "float64",
    "<i8": "int64",
    "<i4": "int32",
    "|b1": "bool",
    "|u1": "uint8",
    "|i1": "int8",
    "<f2": "float16",
}


def npy_header(path: str):
    """(dtype name, shape) from a .npy file's header (format versions 1 to 3)."""
    with open(path, "rb") as f:
        raw = f.read(16 + 65536)
    assert raw[:6] == b"\x93NUMPY", f"{path}: not a .npy file"
    if raw[6] == 1:
        length, start = struct.unpack_from("<H", raw, 8)[0], 10
    else:
        length, start = struct.unpack_from("<I", raw, 8)[0], 12
    header = ast.literal_eval(raw[start : start + length].decode("latin1"))
    assert not header["fortran_order"], f"{path}: Fortran order"
    return NPY_DTYPES[header["descr"]], tuple(header["shape"])


def load(name: str):
    with open(os.path.join(ROOT, "models", name, "model.sopsm"), "rb") as f:
        return parse(f.read())


def lines(name: str, file: str) -> list:
    with open(os.path.join(ROOT, "models", name, file), encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.mark.parametrize("name", MODELS)
def test_operators_match_ops_txt(name):
    model = load(name)
    assert sorted(model.operators) == lines(name, "ops.txt")
    assert {model.operators[n.op] for n in model.nodes} == set(model.operators)


@pytest.mark.parametrize("name", MODELS)
def test_inputs_match_the_npy_files(name):
    model = load(name)
    files = sorted(glob.glob(os.path.join(ROOT, "models", name, "input*.npy")))
    assert len(files) == len(model.inputs)
    for k, inp in enumerate(model.inputs):
        dtype, shape = npy_header(os.path.join(ROOT, "models", name, f"input{k}.npy"))
        assert (DTYPES[inp.desc.dtype][0], inp.desc.sizes) == (dtype, shape), inp.name


@pytest.mark.parametrize("name", MODELS)
def test_outputs_match_the_expected_files(name):
    model = load(name)
    files = glob.glob(os.path.join(ROOT, "models", name, "expected*.npy"))
    assert len(files) == len(model.outputs) >= 1
    shapes = {}
    for line in lines(name, "shapes.txt"):
        node, dtype, sizes = line.split(" ", 2)
        shapes[node] = (dtype, tuple(ast.literal_eval(sizes)))
    slot_shapes = {}
    for node in model.nodes:
        for k, slot in enumerate(node.outs):
            slot_shapes[slot] = shapes[
                node.name if len(node.outs) == 1 and not node.unpack else f"{node.name}.{k}"
            ]
    for k, out in enumerate(model.outputs):
        assert slot_shapes[out.slot] == npy_header(
            os.path.join(ROOT, "models", name, f"expected{k}.npy")
        ), out.name


@pytest.mark.parametrize("name", MODELS)
def test_nodes_match_shapes_txt(name):
    model = load(name)
    listed = [line.split(" ", 1)[0] for line in lines(name, "shapes.txt")]
    written = []
    for node in model.nodes:
        several = len(node.outs) != 1 or node.unpack
        written += [f"{node.name}.{k}" for k in range(len(node.outs))] if several else [node.name]
    assert written == listed


@pytest.mark.parametrize("name", MODELS)
def test_metadata_and_constants(name):
    model = load(name)
    meta = dict(model.metadata)
    assert meta["producer"] == "structured_ops export_model.py"
    assert meta["source"] == "model.pt2"
    assert meta["torch_version"].startswith("2.")
    assert [k for k, _ in model.metadata] == ["producer", "torch_version", "source"]
    assert model.constants, "a model with no parameters"
    for c in model.constants:
        if c.name.endswith("num_batches_tracked"):
            assert (c.desc.dtype, c.desc.sizes) == (4, ()), c.name
        elif c.desc.sizes:  # parameters, buffers: float32, or int64 positions and indices
            assert c.desc.dtype == 6 or (c.desc.dtype == 4 and name in INT64_BUFFERS), c.name
        else:  # a number passed for a Tensor (`node.argument`), a lifted 0-dim constant
            assert "." in c.name and c.desc.dtype in (4, 6, 7), c.name
    assert not any(value.startswith("/") for value in meta.values())


def test_batch_norm_buffers_are_constants_with_trained_statistics():
    constants = {c.name: c for c in load("cnn").constants}
    var = constants["bn.running_var"]
    assert (var.desc.dtype, var.desc.sizes) == (6, (16,))
    assert struct.unpack("<16f", var.data) != (1.0,) * 16
    count = constants["bn.num_batches_tracked"]
    assert (count.desc.dtype, count.desc.sizes, struct.unpack("<q", count.data)[0]) == (4, (), 4)


def test_every_slot_read_is_a_tensor_and_args_follow_the_schema_spelling():
    """Spot checks of the converter's encoding in the cnn (pooling, convolution, batch norm)."""
    model = load("cnn")
    by_op = {model.operators[n.op]: n for n in model.nodes}
    conv = by_op["aten::convolution"]
    assert [a.tag for a in conv.args] == [
        Tag.VALUE,
        Tag.VALUE,
        Tag.VALUE,
        Tag.INTS,
        Tag.INTS,
        Tag.INTS,
        Tag.BOOL,
        Tag.INTS,
        Tag.INT,
    ]
    assert [a.value for a in conv.args[3:]] == [(1, 1), (1, 1), (1, 1), False, (0, 0), 1]
    pool = by_op["aten::max_pool2d_with_indices"]
    assert (pool.unpack, len(pool.outs)) == (False, 2)
    assert pool.args[1] == pool.args[2] and pool.args[1].value == (2, 2)
    bn = by_op["aten::_native_batch_norm_legit_no_training"]
    assert (len(bn.args), len(bn.outs)) == (7, 3)
    assert [a.tag for a in bn.args[5:]] == [Tag.FLOAT, Tag.FLOAT]
