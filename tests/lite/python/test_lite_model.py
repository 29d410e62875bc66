"""lite/python/lite_model.py writes and reads lite/FORMAT.md exactly (torch-free).

The expected bytes of the tiny models are written out by hand from FORMAT.md, so they
check the writer against the document rather than against itself.
"""

import os
import struct
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

from lite_model import (  # noqa: E402
    Arg,
    Constant,
    Input,
    LiteModel,
    LiteModelError,
    Node,
    Output,
    Tag,
    TensorDesc,
    parse,
    serialize,
)

F32, I64, U8, BOOL, BF16 = 6, 4, 0, 11, 15


def tiny_relu() -> LiteModel:
    """relu(x) for x float32 [2]."""
    return LiteModel(
        metadata=[("k", "v")],
        operators=["aten::relu"],
        num_values=2,
        inputs=[Input("x", 0, TensorDesc(F32, (2,)))],
        nodes=[Node("relu", 0, [Arg(Tag.VALUE, 0)], False, [1])],
        outputs=[Output("y", 1)],
    )


def u32(n):
    return struct.pack("<I", n)


def s(text):
    return u32(len(text)) + text.encode()


def test_tiny_model_bytes_by_hand():
    sections = (
        u32(1)
        + s("k")
        + s("v")  # metadata
        + u32(1)
        + s("aten::relu")  # operators
        + u32(2)  # values
        + u32(0)  # constants
        + u32(1)
        + s("x")
        + u32(0)
        + bytes([6, 1])
        + struct.pack("<q", 2)  # inputs
        + u32(1)
        + s("relu")
        + u32(0)
        + u32(1)
        + bytes([1])
        + u32(0)
        + bytes([0])
        + u32(1)
        + u32(1)  # nodes
        + u32(1)
        + s("y")
        + u32(1)
    )  # outputs
    assert len(sections) == 110
    header = b"SOPSLITE" + u32(1) + u32(0) + struct.pack("<QQ", 192, 0)
    expected = header + sections + bytes(192 - 32 - 110)
    assert serialize(tiny_relu()) == expected
    # The same, spelled out as the hex of the header's 32 bytes.
    assert expected[:32].hex() == "534f50534c4954450100000000000000c0000000000000000000000000000000"


def test_constants_are_64_aligned_in_the_blob():
    model = LiteModel(
        num_values=2,
        constants=[
            Constant("a", 0, TensorDesc(U8, (3,)), b"\x01\x02\x03"),
            Constant("b", 1, TensorDesc(I64, (1,)), struct.pack("<q", -5)),
        ],
        outputs=[Output("b", 1)],
    )
    const_a = s("a") + u32(0) + bytes([0, 1]) + struct.pack("<q", 3) + struct.pack("<QQ", 0, 3)
    const_b = s("b") + u32(1) + bytes([4, 1]) + struct.pack("<q", 1) + struct.pack("<QQ", 64, 8)
    sections = (
        u32(0)
        + u32(0)
        + u32(2)
        + u32(2)
        + const_a
        + const_b
        + u32(0)
        + u32(0)
        + u32(1)
        + s("b")
        + u32(1)
    )
    assert len(sections) == 107
    blob = b"\x01\x02\x03" + bytes(61) + struct.pack("<q", -5)
    header = b"SOPSLITE" + u32(1) + u32(0) + struct.pack("<QQ", 192, 72)
    assert serialize(model) == header + sections + bytes(192 - 32 - 107) + blob


def every_tag_model() -> LiteModel:
    """Every argument tag, several dtypes, an unpacked Tensor[] and a multi-output node."""
    bf16 = struct.pack("<4H", 0x3F80, 0x4000, 0xC040, 0)
    return LiteModel(
        metadata=[("producer", "test"), ("ünïcode", "✓")],
        operators=["aten::split.Tensor", "test::everything", "aten::max_pool2d_with_indices"],
        num_values=11,
        constants=[
            Constant("w", 0, TensorDesc(F32, (2, 3)), bytes(range(24))),
            Constant("flags", 1, TensorDesc(BOOL, (3,)), b"\x01\x00\x01"),
            Constant("empty", 2, TensorDesc(I64, (0, 4)), b""),
            Constant("half", 3, TensorDesc(BF16, (2, 2)), bf16),
            Constant("scalar", 4, TensorDesc(7, ()), struct.pack("<d", 0.25)),
        ],
        inputs=[Input("x", 5, TensorDesc(F32, (1, 4, 4, 4)))],
        nodes=[
            Node("split", 0, [Arg(Tag.VALUE, 5), Arg(Tag.INT, 2), Arg(Tag.INT, 1)], True, [6, 7]),
            Node(
                "all",
                1,
                [
                    Arg(Tag.NONE),
                    Arg(Tag.INT, -(2**63)),
                    Arg(Tag.FLOAT, float("-inf")),
                    Arg(Tag.BOOL, True),
                    Arg(Tag.STR, "tanh"),
                    Arg(Tag.INTS, (1, -1, 2**62)),
                    Arg(Tag.FLOATS, (0.5, -2.0)),
                    Arg(Tag.BOOLS, (True, False)),
                    Arg(Tag.TENSORS, (6, 7, 0)),
                    Arg(Tag.OPT_TENSORS, (None, 1, None)),
                    Arg(Tag.SCALAR_TYPE, BF16),
                    Arg(Tag.LAYOUT, 0),
                    Arg(Tag.DEVICE, (1, 3)),
                    Arg(Tag.DEVICE, (0, -1)),
                    Arg(Tag.MEMORY_FORMAT, 2),
                    Arg(Tag.INTS, ()),
                ],
                False,
                [8],
            ),
            Node("pool", 2, [Arg(Tag.VALUE, 5), Arg(Tag.INTS, (2, 2))], False, [9, 10]),
        ],
        outputs=[Output("out", 8), Output("indices", 10), Output("x", 5), Output("w", 0)],
    )


def test_round_trip():
    model = every_tag_model()
    data = serialize(model)
    back = parse(data)
    assert back == model
    assert serialize(back) == data


def test_serialize_is_deterministic_and_padded_with_zeros():
    data = serialize(every_tag_model())
    assert data == serialize(every_tag_model())
    data_offset, data_size = struct.unpack_from("<QQ", data, 16)
    assert data_offset % 64 == 0 and data_offset + data_size == len(data)
    # The constants' offsets (read from the parsed model's data) and the zero gaps.
    blob = data[data_offset:]
    assert blob[:24] == bytes(range(24)) and not any(blob[24:64]) and blob[64:67] == b"\x01\x00\x01"


def broken(change):
    model = every_tag_model()
    change(model)
    return model


def _set(obj, attr, value):
    setattr(obj, attr, value)


VALIDATION_ERRORS = {
    "defined a second time": lambda m: _set(m.inputs[0], "slot", 0),
    "read before it is defined": lambda m: m.nodes[1].args.__setitem__(8, Arg(Tag.TENSORS, (6, 9))),
    "is never defined": lambda m: _set(m.outputs[0], "slot", 99),
    "are never defined": lambda m: _set(m, "num_values", 12),
    "value slots": lambda m: _set(m.nodes[2], "outs", [9, 11]),
    "dtype code 2": lambda m: _set(m.inputs[0], "desc", TensorDesc(2, (1,))),
    "17 dimensions": lambda m: _set(m.inputs[0], "desc", TensorDesc(F32, (1,) * 17)),
    "size: -1": lambda m: _set(m.inputs[0], "desc", TensorDesc(F32, (2, -1))),
    "2**63 bytes": lambda m: _set(m.inputs[0], "desc", TensorDesc(F32, (2**61, 4))),
    "more than the 65536": lambda m: _set(m.inputs[0], "name", "x" * 65537),
    "metadata": lambda m: m.metadata.append(("big", "é" * 40000)),
    "25 bytes of data": lambda m: _set(m.constants[0], "data", bytes(25)),
    "operator index": lambda m: _set(m.nodes[0], "op", 3),
    "not namespace::name": lambda m: m.operators.__setitem__(1, "relu"),
    "not a Python bool": lambda m: m.nodes[1].args.__setitem__(3, Arg(Tag.BOOL, 1)),
    "not a Python float": lambda m: m.nodes[1].args.__setitem__(2, Arg(Tag.FLOAT, 1)),
    "not an integer in [-9223372036854775808": lambda m: m.nodes[1].args.__setitem__(
        1, Arg(Tag.INT, 2**63)
    ),
    "ScalarType code 2": lambda m: m.nodes[1].args.__setitem__(10, Arg(Tag.SCALAR_TYPE, 2)),
    "only layout": lambda m: m.nodes[1].args.__setitem__(11, Arg(Tag.LAYOUT, 1)),
    "device type": lambda m: m.nodes[1].args.__setitem__(12, Arg(Tag.DEVICE, (3, 0))),
    "device index": lambda m: m.nodes[1].args.__setitem__(12, Arg(Tag.DEVICE, (1, -2))),
    "memory format": lambda m: m.nodes[1].args.__setitem__(14, Arg(Tag.MEMORY_FORMAT, 4)),
    "None argument carries": lambda m: m.nodes[1].args.__setitem__(0, Arg(Tag.NONE, 0)),
    "unpack must be a bool": lambda m: _set(m.nodes[0], "unpack", 1),
    "listed twice": lambda m: m.operators.__setitem__(1, "aten::split.Tensor"),
}


@pytest.mark.parametrize("message", sorted(VALIDATION_ERRORS))
def test_validation_error(message):
    model = broken(VALIDATION_ERRORS[message])
    with pytest.raises(LiteModelError) as error:
        serialize(model)
    assert message in str(error.value), str(error.value)


def test_validation_errors_name_the_node_and_argument():
    model = broken(lambda m: m.nodes[1].args.__setitem__(9, Arg(Tag.OPT_TENSORS, (None, 42))))
    with pytest.raises(
        LiteModelError, match=r"node 'all' \(test::everything\) argument 9\[1\]: slot 42"
    ):
        serialize(model)


def test_equal_constants_share_one_copy_of_their_bytes():
    # FORMAT.md, `constant`: the writer stores a constant whose dtype, sizes and bytes are
    # exactly an earlier one's once, at the earlier one's offset; the rest in order.
    ones = struct.pack("<2f", 1.0, 1.0)
    minus5 = struct.pack("<q", -5)
    model = LiteModel(
        num_values=6,
        constants=[
            Constant("a", 0, TensorDesc(F32, (2,)), ones),
            Constant("b", 1, TensorDesc(I64, (1,)), minus5),
            Constant("tied_a", 2, TensorDesc(F32, (2,)), bytearray(ones)),  # a's content
            Constant("a_as_1x2", 3, TensorDesc(F32, (1, 2)), ones),  # other sizes: a copy
            Constant("tied_b", 4, TensorDesc(I64, (1,)), minus5),
            Constant("a_as_u8", 5, TensorDesc(U8, (8,)), ones),  # other dtype: a copy
        ],
        outputs=[Output("y", 5)],
    )
    data = serialize(model)
    data_offset, data_size = struct.unpack_from("<QQ", data, 16)
    z = bytes(56)
    assert data[data_offset:] == ones + z + minus5 + z + ones + z + ones
    assert data_size == 3 * 64 + 8
    back = parse(data)
    assert [c.offset for c in back.constants] == [0, 64, 0, 128, 64, 192]
    assert back == model
    assert back.constants[2].data is back.constants[0].data  # one bytes object, as in the file
    assert serialize(back) == data


def test_constants_may_name_the_same_or_overlapping_bytes():
    # A file whose constant "b" names the first 8 bytes of "a"'s 16: the reader takes it
    # (FORMAT.md: offsets and sizes are checked against the blob only); written again,
    # "b" gets its own copy, its bytes being no other constant's.
    model = LiteModel(
        num_values=2,
        constants=[
            Constant("a", 0, TensorDesc(F32, (4,)), bytes(range(16))),
            Constant("b", 1, TensorDesc(F32, (2,)), bytes(8)),
        ],
        outputs=[Output("b", 1)],
    )
    data = serialize(model)
    b_offset = 102  # header 32, 4 counts, "a" (35 bytes), then "b"'s name, slot and desc
    assert struct.unpack_from("<QQ", data, b_offset) == (64, 8)
    shared = data[:b_offset] + struct.pack("<Q", 0) + data[b_offset + 8 :]
    back = parse(shared)
    assert back.constants[1].data == bytes(range(8)) and back.constants[1].offset == 0
    assert back.constants[0].data == bytes(range(16))
    assert struct.unpack_from("<QQ", serialize(back), b_offset) == (64, 8)
