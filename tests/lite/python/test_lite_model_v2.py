"""Version 2 of lite/FORMAT.md (dynamic shapes) in the Python writer and reader, torch-free.

The tiny model's sections are written out by hand from FORMAT.md's "Version 2" section
(symbols after the operators, symbolic input sizes, a `sym::` node, a SymInt[] argument,
value_info last), so they check the writer against the document; then the reader's and
the validator's refusals, each with the words of its message.
"""

import os
import struct
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

from lite_model import (  # noqa: E402
    INT64_MAX,
    SYM_CONST,
    SYM_SLOT,
    Arg,
    Input,
    LiteModel,
    LiteModelError,
    Node,
    Output,
    Symbol,
    Tag,
    TensorDesc,
    file_version,
    parse,
    serialize,
)
from test_lite_model import tiny_relu  # noqa: E402

F32 = 6


def tiny_dynamic() -> LiteModel:
    """y = x.view(2 * x.size(0), 2) for x float32 [batch, 4], batch in [1, 8]."""
    return LiteModel(
        operators=["aten::sym_size.int", "sym::mul", "aten::view"],
        symbols=[Symbol("batch", 1, 8)],
        num_values=4,
        inputs=[Input("x", 0, TensorDesc(F32, (-1, 4)))],
        nodes=[
            Node("sym_size", 0, [Arg(Tag.VALUE, 0), Arg(Tag.INT, 0)], False, [1]),
            Node("mul", 1, [Arg(Tag.VALUE, 1), Arg(Tag.INT, 2)], False, [2]),
            Node(
                "view",
                2,
                [Arg(Tag.VALUE, 0), Arg(Tag.SYM_INTS, ((SYM_SLOT, 2), (SYM_CONST, 2)))],
                False,
                [3],
            ),
        ],
        outputs=[Output("y", 3)],
        value_info=[(3, "[2*batch, 2]")],
    )


def u32(n):
    return struct.pack("<I", n)


def i64(n):
    return struct.pack("<q", n)


def s(text):
    return u32(len(text)) + text.encode()


def node(name, op, args, outs):
    return (
        s(name)
        + u32(op)
        + u32(len(args))
        + b"".join(args)
        + b"\0"
        + u32(len(outs))
        + b"".join(u32(o) for o in outs)
    )


TINY_SECTIONS = (
    u32(0)  # metadata
    + u32(3)
    + s("aten::sym_size.int")
    + s("sym::mul")
    + s("aten::view")  # operators
    + u32(1)
    + s("batch")
    + i64(1)
    + i64(8)  # symbols
    + u32(4)  # values
    + u32(0)  # constants
    + u32(1)
    + s("x")
    + u32(0)
    + bytes([F32, 2])
    + i64(-1)  # symbol 0
    + i64(4)  # inputs
    + u32(3)
    + node("sym_size", 0, [b"\x01" + u32(0), b"\x02" + i64(0)], [1])
    + node("mul", 1, [b"\x01" + u32(1), b"\x02" + i64(2)], [2])
    + node(
        "view", 2, [b"\x01" + u32(0), b"\x0f" + u32(2) + b"\x01" + u32(2) + b"\x00" + i64(2)], [3]
    )  # nodes
    + u32(1)
    + s("y")
    + u32(3)  # outputs
    + u32(1)
    + u32(3)
    + s("[2*batch, 2]")  # value_info
)


def test_tiny_dynamic_model_bytes_by_hand():
    data = serialize(tiny_dynamic())
    offset = (32 + len(TINY_SECTIONS) + 63) // 64 * 64
    header = b"SOPSLITE" + u32(2) + u32(0) + struct.pack("<QQ", offset, 0)
    assert data == header + TINY_SECTIONS + bytes(offset - 32 - len(TINY_SECTIONS))


def test_round_trip_keeps_every_version_2_part():
    model = tiny_dynamic()
    model.symbols.append(Symbol("seq", 0, INT64_MAX))
    model.inputs.append(Input("t", 4, TensorDesc(4, (-1, -2, 3))))
    model.num_values = 6
    model.nodes.append(Node("assert", 3, [Arg(Tag.VALUE, 1), Arg(Tag.STR, "batch > 0")], False, []))
    model.operators.append("sym::assert")
    model.nodes.append(Node("ge", 4, [Arg(Tag.VALUE, 2), Arg(Tag.FLOAT, 1.5)], False, [5]))
    model.operators.append("sym::ge")
    back = parse(serialize(model))
    assert back == model
    assert back.symbols[1].max == INT64_MAX
    assert file_version(back) == 2


def test_models_without_version_2_parts_stay_version_1():
    data = serialize(tiny_relu())
    assert struct.unpack_from("<I", data, 8)[0] == 1
    assert file_version(parse(data)) == 1


def test_a_data_dependent_scalar_node_without_symbols_is_version_2():
    model = tiny_dynamic()
    model.symbols = []
    model.inputs = [Input("x", 0, TensorDesc(F32, (3, 4)))]
    data = serialize(model)
    assert struct.unpack_from("<I", data, 8)[0] == 2
    assert parse(data) == model


def _refused(model, words):
    with pytest.raises(LiteModelError) as error:
        serialize(model)
    assert words in str(error.value), str(error.value)


def _with(**changes):
    model = tiny_dynamic()
    for key, value in changes.items():
        setattr(model, key, value)
    return model


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"symbols": [Symbol("batch", 1, 8), Symbol("seq", 2, 64)]}, "symbol 'seq': no input"),
        ({"symbols": [Symbol("batch", 5, 4)]}, "symbol 'batch': max (>= min 5): 4"),
        ({"symbols": [Symbol("batch", -1, 4)]}, "symbol 'batch': min: -1"),
        ({"symbols": [Symbol("", 1, 4)]}, "not non-empty printable ASCII"),
        ({"symbols": [Symbol("bätch", 1, 4)]}, "not non-empty printable ASCII"),
        (
            {"inputs": [Input("x", 0, TensorDesc(F32, (-2, 4)))]},
            "input 'x': symbolic size (-1-k for symbol k): -2",
        ),
        ({"value_info": [(0, "[batch, 4]")]}, "value_info of slot 0: no node defines"),
        ({"value_info": [(3, "a"), (3, "b")]}, "described a second time"),
    ],
)
def test_writer_refuses(changes, words):
    _refused(_with(**changes), words)


def test_duplicate_symbol_names_are_refused():
    model = tiny_dynamic()
    model.symbols.append(Symbol("batch", 0, 2))
    model.inputs[0].desc = TensorDesc(F32, (-1, -2))
    _refused(model, "symbol 1: name 'batch' is used by an earlier symbol")


def test_scalar_operators_are_checked():
    model = tiny_dynamic()
    model.nodes[1].args = [Arg(Tag.VALUE, 1)]
    _refused(model, "node 'mul' (sym::mul): 1 operands, but it takes 2")
    model = tiny_dynamic()
    model.nodes[1].outs = []
    model.num_values = 3
    _refused(model, "node 'mul' (sym::mul): 0 outputs")
    model = tiny_dynamic()
    model.operators[1] = "sym::hypot"
    _refused(model, "not a scalar operator of the format")
    model = tiny_dynamic()
    model.nodes[1].args[1] = Arg(Tag.INTS, (2,))
    _refused(model, "argument 1: tag 6 (INTS); an operand is one of tags [1, 2, 3, 4]")


def test_sym_ints_elements_are_read_after_they_are_defined():
    model = tiny_dynamic()
    model.nodes[2].args[1] = Arg(Tag.SYM_INTS, ((SYM_SLOT, 3), (SYM_CONST, 2)))
    _refused(model, "argument 1[0]: slot 3 is read before it is defined")
    model.nodes[2].args[1] = Arg(Tag.SYM_INTS, ((2, 3),))
    _refused(model, "a SymInt[] element is (0, int) or (1, slot)")


V2 = serialize(tiny_dynamic())


def patched(data: bytes, offset: int, raw: bytes) -> bytes:
    return data[:offset] + raw + data[offset + len(raw) :]


def test_reader_refusals():
    at = V2.index(b"\x0f")  # the SymInt[] argument's tag
    with pytest.raises(LiteModelError, match=r"kind 7 is not 0 \(int\) or 1 \(slot\)"):
        parse(patched(V2, at + 5, b"\x07"))
    with pytest.raises(LiteModelError, match="bounds \\[9, 8\\] are not 0 <= min <= max"):
        parse(patched(V2, V2.index(b"batch") + 5, i64(9)))
    with pytest.raises(LiteModelError, match="symbolic size"):  # symbol 1 of 1
        parse(patched(V2, V2.index(b"x") + 7, i64(-2)))
    with pytest.raises(LiteModelError, match="version 3; this reader supports versions 1 to 2"):
        parse(patched(V2, 8, u32(3)))


def test_version_1_files_hold_no_version_2_parts():
    # The same sections read as version 1: the symbols count is the value count.
    as_v1 = patched(V2, 8, u32(1))
    with pytest.raises(LiteModelError, match="`sym::` operators are version 2's"):
        parse(as_v1)
    relu = serialize(tiny_relu())
    with pytest.raises(LiteModelError, match=r"byte 115: .*tag 15 \(SymInt\[\]\) is version 2's"):
        parse(patched(relu, 115, b"\x0f"))
