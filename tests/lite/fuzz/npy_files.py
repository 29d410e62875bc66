""".npy inputs for the fuzzer: well-formed ones for a model's inputs, and lying ones.

Written here from numpy's format description (format version 1.0-3.0: magic, version,
header length, a Python dict literal with 'descr', 'fortran_order' and 'shape', then
the data), not with lite/npy.cc, so that the mutants are not shaped by the reader.
"""

import math
import struct

from lite_model import DTYPES

DESCRS = {
    "float32": "<f4",
    "float64": "<f8",
    "float16": "<f2",
    "int64": "<i8",
    "int32": "<i4",
    "int8": "|i1",
    "uint8": "|u1",
    "bool": "|b1",
}
# The largest input the fuzzer writes: a larger declared input is fed a small one
# (which the runtime refuses for its shape).
MAX_INPUT_BYTES = 8 << 20
ELEMENT_SIZES = dict(DTYPES.values())  # name -> bytes


def header_bytes(header: str, version: int = 1, pad: bool = True) -> bytes:
    if pad:
        prefix = 10 if version == 1 else 12
        header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    raw = header.encode("latin1")
    if version == 1:
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(raw)) + raw
    return b"\x93NUMPY" + bytes((version, 0)) + struct.pack("<I", len(raw)) + raw


def shape_text(shape) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else "(" + ", ".join(str(s) for s in shape) + ")"


def dict_text(descr, shape, fortran=False) -> str:
    return f"{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape_text(shape)}, }}"


def fill(dtype_name: str, n: int) -> bytes:
    """`n` small elements: valid indices (0) for integer inputs, mixed signs for floats."""
    if dtype_name == "bool":
        return bytes(k % 2 for k in range(n))
    if dtype_name.startswith("float"):
        code = {"float16": "e", "float32": "f", "float64": "d"}[dtype_name]
        return struct.pack(f"<{n}{code}", *[((k * 5) % 9 - 4) * 0.25 for k in range(n)])
    return bytes(n * ELEMENT_SIZES[dtype_name])


def input_npy(desc) -> bytes:
    """A well-formed .npy for a model input of `desc` (a small stand-in when too large)."""
    name, size = DTYPES[desc.dtype]
    shape = tuple(desc.sizes)
    if math.prod(shape) * size > MAX_INPUT_BYTES:
        shape = tuple(min(s, 2) for s in shape)
    descr = DESCRS.get(name, "<f4")  # bfloat16 has no numpy dtype: float32 then
    if name not in DESCRS:
        name = "float32"
    return header_bytes(dict_text(descr, shape)) + fill(name, math.prod(shape))


def mutate_npy(rng, good: bytes, desc):
    """(bytes, name): `good` (from input_npy) made to lie in one way."""
    name, _ = DTYPES[desc.dtype]
    descr = DESCRS.get(name, "<f4")
    shape = tuple(desc.sizes)
    start = good.index(b"\n", 10) + 1
    data = good[start:]
    choices = [
        ("fortran", lambda: header_bytes(dict_text(descr, shape, fortran=True)) + data),
        ("big-endian", lambda: header_bytes(dict_text(descr.replace("<", ">"), shape)) + data),
        ("zero-d", lambda: header_bytes(dict_text(descr, ())) + data[: DTYPES[desc.dtype][1]]),
        ("huge-dim", lambda: header_bytes(dict_text(descr, (2**40,) + shape[1:])) + data),
        ("huge-dims", lambda: header_bytes(dict_text(descr, (2**62, 2**62, 0))) + data),
        ("zero-then-huge", lambda: header_bytes(dict_text(descr, (0, 2**40, 2**40)))),
        ("huger-dim", lambda: header_bytes(dict_text(descr, (10**30,))) + data),
        ("negative-dim", lambda: header_bytes(dict_text(descr, (-1,) + shape[1:])) + data),
        ("many-dims", lambda: header_bytes(dict_text(descr, (1,) * 70)) + data),
        ("shape-lie", lambda: header_bytes(dict_text(descr, tuple(s + 1 for s in shape))) + data),
        ("truncated", lambda: good[: len(good) - rng.randrange(1, max(2, len(data) + 1))]),
        ("extra-data", lambda: good + b"\0" * 8),
        (
            "descr-lie",
            lambda: header_bytes(dict_text(rng.choice(list(DESCRS.values())), shape)) + data,
        ),
        (
            "descr-odd",
            lambda: (
                header_bytes(
                    dict_text(rng.choice(("<U4", "|O", "<c8", "<u8", "V8", "", "<f4<")), shape)
                )
                + data
            ),
        ),
        ("version-2", lambda: header_bytes(dict_text(descr, shape), version=2) + data),
        ("version-9", lambda: b"\x93NUMPY\x09\x00" + good[8:]),
        ("header-len-lie", lambda: good[:8] + struct.pack("<H", 0xFFFF) + good[10:]),
        (
            "header-len-short",
            lambda: good[:8] + struct.pack("<H", rng.randrange(0, 40)) + good[10:],
        ),
        (
            "no-shape",
            lambda: header_bytes(f"{{'descr': '{descr}', 'fortran_order': False, }}") + data,
        ),
        (
            "shape-unclosed",
            lambda: (
                header_bytes(f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ((((2, }}")
                + data
            ),
        ),
        (
            "shape-nested",
            lambda: (
                header_bytes(
                    f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ((2,), 3), }}"
                )
                + data
            ),
        ),
        (
            "keys-in-strings",
            lambda: (
                header_bytes(
                    f"{{'descr': \"'shape': (1,)\", 'fortran_order': False, 'shape': {shape_text(shape)}, }}"
                )
                + data
            ),
        ),
        ("unterminated", lambda: header_bytes(f"{{'descr': '{descr}", pad=False) + data),
        (
            "fortran-odd",
            lambda: (
                header_bytes(
                    f"{{'descr': '{descr}', 'fortran_order': 1, 'shape': {shape_text(shape)}, }}"
                )
                + data
            ),
        ),
        (
            "bool-bytes",
            lambda: header_bytes(dict_text("|b1", shape)) + bytes([2]) * math.prod(shape),
        ),
        ("empty", lambda: b""),
        ("magic-only", lambda: b"\x93NUMPY"),
        ("zero-size", lambda: header_bytes(dict_text(descr, (0,) + shape[1:]))),
    ]
    label, make = rng.choice(choices)
    return make(), f"npy:{label}"
