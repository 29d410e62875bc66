"""lite_model.parse rejects every broken rule of lite/FORMAT.md, naming the byte offset.

Each case patches a byte or two of a tiny model's file; the offsets are counted by hand
from FORMAT.md (see test_lite_model.py's byte-by-byte tiny model).
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
    LiteModel,
    LiteModelError,
    Output,
    Tag,
    TensorDesc,
    parse,
    serialize,
)
from test_lite_model import tiny_relu  # noqa: E402

# Offsets in tiny_relu's file: header 0-31, metadata 32-45 ("k" at 36, "v" at 41),
# operators 46-63, values 64, constants 68, inputs 72-94 (dtype at 85, ndim at 86),
# nodes 95-128 (op 107, nargs 111, tag 115, slot 116, unpack 120, nouts 121, out 125),
# outputs 129-141, zero padding 142-191.
TINY = serialize(tiny_relu())
# Two constants: "a" (offset field at 67, nbytes at 75) and "b" (offset field at 102).
TWO = serialize(
    LiteModel(
        num_values=2,
        constants=[
            Constant("a", 0, TensorDesc(0, (3,)), b"\x01\x02\x03"),
            Constant("b", 1, TensorDesc(4, (1,)), bytes(8)),
        ],
        outputs=[Output("b", 1)],
    )
)


def patched(data: bytes, offset: int, raw: bytes) -> bytes:
    return data[:offset] + raw + data[offset + len(raw) :]


def u32(n):
    return struct.pack("<I", n)


def u64(n):
    return struct.pack("<Q", n)


CASES = {
    "shorter than the 32-byte header": TINY[:20],
    "magic b'SOPSLITX' is not b'SOPSLITE'": patched(TINY, 7, b"X"),
    "version 3; this reader supports versions 1 to 2": patched(TINY, 8, u32(3)),
    "flags 0x1": patched(TINY, 12, u32(1)),
    "data_offset 100 is not a multiple of 64": patched(TINY, 16, u64(100)),
    "data_size 8 != the file's 192 bytes": patched(TINY, 24, u64(8)),
    "data_offset 192 + data_size 0 != the file's 193 bytes": TINY + b"\0",
    "left before the data blob": patched(patched(TINY, 16, u64(128)), 24, u64(64)),
    "byte 32: 4294967295 metadata entries cannot fit": patched(TINY, 32, u32(0xFFFFFFFF)),
    "byte 36: a metadata key: a str of 70000 bytes": patched(TINY, 36, u32(70000)),
    "not UTF-8": patched(TINY, 40, b"\xff"),
    "byte 85: input 'x': dtype code 2": patched(TINY, 85, b"\x02"),
    "byte 86: input 'x': 17 dimensions": patched(TINY, 86, b"\x11"),
    "input 'x': size: -1": patched(TINY, 87, struct.pack("<q", -1)),
    "operator index": patched(TINY, 107, u32(1)),
    "byte 115: node 'relu' argument 0: tag 15": patched(TINY, 115, b"\x0f"),
    "slot 1 is read before it is defined": patched(TINY, 116, u32(1)),
    "byte 120: node 'relu': unpack 2": patched(TINY, 120, b"\x02"),
    "slot 0 is defined a second time": patched(TINY, 125, u32(0)),
    "slot 5 is never defined": patched(TINY, 138, u32(5)),
    "padding before data_offset 192 holds non-zero bytes": patched(TINY, 150, b"\x01"),
    "data offset 32 is not a multiple of 64": patched(TWO, 102, u64(32)),
    "runs past the blob's 72 bytes": patched(TWO, 102, u64(128)),
    "nbytes 4, but (3,) of uint8 is 3": patched(TWO, 75, u64(4)),
}


@pytest.mark.parametrize("message", sorted(CASES))
def test_parse_rejects(message):
    with pytest.raises(LiteModelError) as error:
        parse(CASES[message])
    assert message in str(error.value), str(error.value)
    assert str(error.value).startswith("byte "), str(error.value)


def test_bool_payload_must_be_0_or_1():
    model = tiny_relu()
    model.nodes[0].args = [Arg(Tag.BOOL, True)]
    data = serialize(model)
    assert parse(data) == model
    with pytest.raises(LiteModelError, match="byte 115: node 'relu' argument 0: a bool of 2"):
        parse(patched(data, 116, b"\x02"))


def test_a_valid_file_parses():
    assert parse(TINY) == tiny_relu()
    assert parse(TWO).constants[0].data == b"\x01\x02\x03"
