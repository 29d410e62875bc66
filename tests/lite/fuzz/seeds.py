"""Well-formed models for the structure-aware fuzzer to start from.

Each seed is one or two operator calls on a small input, written with the project's
writer (lite/python/lite_model.py), chosen so that their integer arguments are what a
hostile file would aim at: sizes, strides and storage offsets (as_strided, expand,
view), split sizes, pads, pooling and convolution windows, factories' sizes, index
tensors. The fuzzer also starts from the example models (models/*/model.sopsm).
"""

import struct

from lite_model import (
    DTYPE_CODES,
    Arg,
    Constant,
    Input,
    LiteModel,
    Node,
    Output,
    Tag,
    TensorDesc,
)

F32 = DTYPE_CODES["float32"]
I64 = DTYPE_CODES["int64"]


def ints(*values):
    return Arg(Tag.INTS, values)


def i(value):
    return Arg(Tag.INT, value)


def f(value):
    return Arg(Tag.FLOAT, float(value))


def b(value):
    return Arg(Tag.BOOL, bool(value))


def v(slot):
    return Arg(Tag.VALUE, slot)


NONE = Arg(Tag.NONE)


def f32_data(n, scale=0.25):
    return struct.pack(f"<{n}f", *[((k * 7) % 11 - 5) * scale for k in range(n)])


def i64_data(values):
    return struct.pack(f"<{len(values)}q", *values)


def one_op(op, args, shape=(2, 3, 4), outs=1, unpack=False, constants=(), name=None):
    """`op` on one float input of `shape` (slot 0), constants in slots 1.., `outs` results."""
    consts = []
    for k, (cname, desc, data) in enumerate(constants):
        consts.append(Constant(cname, 1 + k, desc, data))
    first_out = 1 + len(consts)
    out_slots = list(range(first_out, first_out + outs))
    return LiteModel(
        metadata=[("producer", "tests/lite/fuzz/seeds.py")],
        operators=[op],
        num_values=first_out + outs,
        constants=consts,
        inputs=[Input("x", 0, TensorDesc(F32, shape))],
        nodes=[Node(name or op.split("::")[1].replace(".", "_"), 0, args, unpack, out_slots)],
        outputs=[Output(f"out{k}", s) for k, s in enumerate(out_slots)],
    )


def no_input(op, args):
    """A factory call (no tensor input): the model's one input is left unread."""
    return LiteModel(
        operators=[op],
        num_values=2,
        inputs=[Input("x", 0, TensorDesc(F32, (1,)))],
        nodes=[Node(op.split("::")[1].replace(".", "_"), 0, args, False, [1])],
        outputs=[Output("out", 1)],
    )


def then(model, op, args, outs=1):
    """`model` with one more node, `op`, reading what `args` name; its result the output."""
    if op not in model.operators:
        model.operators.append(op)
    first = model.num_values
    model.num_values += outs
    model.nodes.append(
        Node(
            f"n{len(model.nodes)}",
            model.operators.index(op),
            args,
            False,
            list(range(first, first + outs)),
        )
    )
    model.outputs = [Output("out", first)]
    return model


def index_const(values, shape=None):
    shape = shape or (len(values),)
    return ("idx", TensorDesc(I64, shape), i64_data(values))


def weight_const(shape):
    n = 1
    for s in shape:
        n *= s
    return ("w", TensorDesc(F32, shape), f32_data(n))


def seed_models():
    """(name, LiteModel) for every built seed."""
    x = v(0)
    seeds = {
        "as_strided": one_op("aten::as_strided", [x, ints(3, 2), ints(2, 1), i(1)]),
        "expand": one_op("aten::expand", [x, ints(5, 2, 3, 4)]),
        "expand_sum": then(
            one_op("aten::expand", [x, ints(2, 2, 3, 4)]),
            "aten::sum.dim_IntList",
            [v(1), ints(0, 2), b(False)],
        ),
        "view": one_op("aten::view", [x, ints(6, 4)]),
        "permute": one_op("aten::permute", [x, ints(2, 0, 1)]),
        "slice": one_op("aten::slice.Tensor", [x, i(2), i(1), i(3), i(1)]),
        "select": one_op("aten::select.int", [x, i(1), i(-1)]),
        "diagonal": one_op("aten::diagonal", [x, i(0), i(1), i(2)]),
        "squeeze_dims": one_op("aten::squeeze.dims", [x, ints(0)], shape=(1, 3, 4)),
        "unsqueeze": one_op("aten::unsqueeze", [x, i(1)]),
        "split": one_op("aten::split.Tensor", [x, i(2), i(2)], outs=2, unpack=True),
        "split_with_sizes": one_op(
            "aten::split_with_sizes", [x, ints(1, 3), i(2)], outs=2, unpack=True
        ),
        "cat": one_op("aten::cat", [Arg(Tag.TENSORS, (0, 0)), i(1)]),
        "repeat": one_op("aten::repeat", [x, ints(2, 1, 1, 3)]),
        "flip": one_op("aten::flip", [x, ints(0, 2)]),
        "constant_pad_nd": one_op("aten::constant_pad_nd", [x, ints(1, 2, 0, 1), f(0.5)]),
        "reflection_pad2d": one_op("aten::reflection_pad2d", [x, ints(1, 1, 1, 1)]),
        "replication_pad1d": one_op("aten::replication_pad1d", [x, ints(2, 1)]),
        "max_pool2d": one_op(
            "aten::max_pool2d_with_indices",
            [x, ints(2, 2), ints(1, 1), ints(0, 0), ints(1, 1), b(False)],
            shape=(1, 2, 4, 4),
            outs=2,
        ),
        "avg_pool2d": one_op(
            "aten::avg_pool2d",
            [x, ints(2, 2), ints(2, 2), ints(1, 1), b(True), b(True), NONE],
            shape=(1, 2, 4, 4),
        ),
        "adaptive_avg_pool2d": one_op(
            "aten::adaptive_avg_pool2d", [x, ints(2, 3)], shape=(1, 2, 4, 4)
        ),
        "upsample_nearest2d": one_op(
            "aten::upsample_nearest2d", [x, ints(8, 6), NONE, NONE], shape=(1, 2, 4, 4)
        ),
        "convolution": one_op(
            "aten::convolution",
            [x, v(1), NONE, ints(1, 1), ints(1, 1), ints(1, 1), b(False), ints(0, 0), i(1)],
            shape=(1, 2, 5, 5),
            constants=[weight_const((3, 2, 3, 3))],
        ),
        "col2im": one_op(
            "aten::col2im",
            [x, ints(4, 4), ints(2, 2), ints(1, 1), ints(0, 0), ints(1, 1)],
            shape=(1, 8, 9),
        ),
        "sum_dim": one_op("aten::sum.dim_IntList", [x, ints(1), b(True)]),
        "cumsum": one_op("aten::cumsum", [x, i(2)]),
        "topk": one_op("aten::topk", [x, i(2), i(-1), b(True), b(True)], outs=2),
        "sort": one_op("aten::sort", [x, i(1), b(False)], outs=2),
        "index_select": one_op(
            "aten::index_select", [x, i(1), v(1)], constants=[index_const([0, 2, 1])]
        ),
        "gather": one_op(
            "aten::gather",
            [x, i(2), v(1)],
            constants=[("idx", TensorDesc(I64, (2, 3, 1)), i64_data([0, 1, 2, 3, 0, 1]))],
        ),
        "index_tensor": one_op(
            "aten::index.Tensor",
            [x, Arg(Tag.OPT_TENSORS, (None, 1))],
            constants=[index_const([2, 0])],
        ),
        "embedding": one_op(
            "aten::embedding",
            [v(1), x],
            shape=(3,),
            constants=[weight_const((5, 4))],
        ),
        "embedding_i64": LiteModel(
            operators=["aten::embedding"],
            num_values=3,
            constants=[Constant("w", 0, TensorDesc(F32, (5, 4)), f32_data(20))],
            inputs=[Input("ids", 1, TensorDesc(I64, (3,)))],
            nodes=[Node("embedding", 0, [v(0), v(1)], False, [2])],
            outputs=[Output("out", 2)],
        ),
        "scatter_src": one_op(
            "aten::scatter.src",
            [x, i(0), v(1), x],
            constants=[("idx", TensorDesc(I64, (1, 3, 4)), i64_data([1] * 12))],
        ),
        "index_put": one_op(
            "aten::index_put",
            [x, Arg(Tag.OPT_TENSORS, (1,)), v(2), b(True)],
            constants=[index_const([1, 0]), ("val", TensorDesc(F32, (4,)), f32_data(4))],
        ),
        "narrow_copy_to": one_op("aten::_to_copy", [x, Arg(Tag.SCALAR_TYPE, I64)]),
        "mm": one_op("aten::mm", [x, v(1)], shape=(2, 3), constants=[weight_const((3, 5))]),
        "softmax": one_op("aten::_softmax", [x, i(-1), b(False)]),
        "layer_norm": one_op("aten::native_layer_norm", [x, ints(4), NONE, NONE, f(1e-5)], outs=3),
        "nonzero": one_op("aten::nonzero", [x]),
        "arange": no_input("aten::arange.start_step", [i(0), i(10), i(3)]),
        "full": no_input("aten::full", [ints(2, 3), f(1.5)]),
        "empty_strided": no_input("aten::empty_strided", [ints(2, 3), ints(3, 1)]),
        "zeros": no_input("aten::zeros", [ints(4, 5)]),
        "randperm": no_input("aten::randperm", [i(7)]),
    }
    return sorted(seeds.items())
