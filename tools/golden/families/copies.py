"""Copies: clone (memory_format, preserve by default), _to_copy (dtype conversion, layout /
device / pin_memory None, memory_format) and constant_pad_nd (padding, negative padding
crops, the fill value). They only move storage (and convert, for _to_copy): all nine
dtypes.
"""

from __future__ import annotations

from collections.abc import Iterator

import torch
from golden_format import (
    ALL9,
    BF16,
    F16,
    F32,
    F64,
    I8,
    I32,
    I64,
    NONE,
    U8,
    B,
    Bool,
    Case,
    DeviceArg,
    DType,
    FamilyInfo,
    Ints,
    LayoutArg,
    MemFmt,
    Scalar,
    dn,
    opt,
)

CL, CF, PF = torch.channels_last, torch.contiguous_format, torch.preserve_format


def clone_cases() -> Iterator[Case]:
    """Cases of clone (clone.out is derived by the runner)."""

    def fn(d, shape, layout="contig", mf=None):
        return lambda r: [("self", r.t(d, shape, layout)), ("memory_format", opt(MemFmt, mf))]

    for d in ALL9:
        yield Case("clone", dn(d), fn(d, (2, 3)))
        yield Case("clone", f"{dn(d)}_noncontig_T", fn(d, (3, 4), "T"))
    yield Case("clone", "float32_step", fn(F32, (2, 3), "step"))
    yield Case("clone", "float32_expanded", fn(F32, (2, 3), "expand:3"))
    yield Case("clone", "float32_channels_last_preserved", fn(F32, (1, 2, 2, 3), "channels_last"))
    yield Case("clone", "float32_T_preserve_explicit", fn(F32, (2, 3, 2), "T", PF))
    yield Case("clone", "float32_T_to_contiguous", fn(F32, (2, 3), "T", CF))
    yield Case("clone", "float32_to_channels_last", fn(F32, (1, 3, 2, 2), "contig", CL))
    yield Case("clone", "int64_zerodim", fn(I64, ()))
    yield Case("clone", "float32_size0", fn(F32, (0, 3)))
    yield Case("clone", "float32_size0_T", fn(F32, (3, 0), "T"))
    yield Case("clone", "float32_size1", fn(F32, (1,)))
    yield Case(
        "clone",
        "channels_last_rank3_error",
        fn(F32, (2, 3, 4), "contig", CL),
        error="required rank 4 tensor to use channels_last format",
    )


def to_copy_cases() -> Iterator[Case]:
    """Cases of _to_copy (_to_copy.out is derived by the runner)."""

    def fn(d, shape, dtype=None, layout="contig", mf=None, rng=None, vals=None):
        return lambda r: [
            ("self", r.t(d, shape, layout, vals=vals, rng=rng)),
            ("dtype", opt(DType, dtype)),
            ("layout", NONE),
            ("device", NONE),
            ("pin_memory", NONE),
            ("non_blocking", Bool(False)),
            ("memory_format", opt(MemFmt, mf)),
        ]

    op = "_to_copy"
    for d in ALL9:
        yield Case(op, f"{dn(d)}_same", fn(d, (2, 3)))
    for sd, dd in [
        (F32, F64),
        (F64, F32),
        (I64, F32),
        (F32, I64),
        (I32, I8),
        (U8, I32),
        (B, F32),
        (F32, B),
        (I8, U8),
        (F32, F16),
        (BF16, F32),
        (I64, B),
    ]:
        rng = (0, 15) if dd == U8 else None
        yield Case(op, f"{dn(sd)}_to_{dn(dd)}", fn(sd, (2, 3), dd, rng=rng))
    yield Case(op, "float32_to_int32_truncates", fn(F32, (4,), I32, vals=[2.75, -2.75, 0.5, -0.5]))
    yield Case(op, "float32_T_preserved", fn(F32, (3, 4), None, "T"))
    yield Case(op, "float32_T_to_float64", fn(F32, (3, 4), F64, "T"))
    yield Case(op, "float32_step_dense", fn(F32, (2, 3), None, "step"))
    yield Case(op, "int64_expanded", fn(I64, (2, 3), F32, "expand:3"))
    yield Case(op, "float32_channels_last", fn(F32, (1, 2, 2, 3), None, "channels_last"))
    yield Case(op, "float32_to_contiguous_format", fn(F32, (1, 2, 2, 3), None, "channels_last", CF))
    yield Case(op, "float32_to_channels_last_format", fn(F32, (1, 2, 2, 3), F64, "contig", CL))
    yield Case(op, "float64_zerodim", fn(F64, (), F32))
    yield Case(op, "float32_size0", fn(F32, (0, 3), I64))
    yield Case(op, "float32_size1", fn(F32, (1,), F16))
    yield Case(
        op,
        "explicit_cpu_strided_unpinned_non_blocking",
        lambda r: [
            ("self", r.t(F32, (2, 3), "T")),
            ("dtype", DType(F64)),
            ("layout", LayoutArg(torch.strided)),
            ("device", DeviceArg("cpu")),
            ("pin_memory", Bool(False)),
            ("non_blocking", Bool(True)),
            ("memory_format", NONE),
        ],
    )
    yield Case(
        op,
        "channels_last_rank2_error",
        fn(F32, (2, 3), None, "contig", CL),
        error="required rank 4 tensor to use channels_last format",
    )


def constant_pad_nd_cases() -> Iterator[Case]:
    """Cases of constant_pad_nd (constant_pad_nd.out is derived by the runner)."""
    op = "constant_pad_nd"

    def fn(d, shape, pad, value=0, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("pad", Ints(pad)),
            ("value", Scalar(value)),
        ]

    natural = {
        F32: 1.5,
        F64: -2.25,
        I64: 7,
        I32: -3,
        I8: -5,
        U8: 200,
        B: True,
        F16: 0.5,
        BF16: -1.0,
    }
    for d in ALL9:
        yield Case(op, dn(d), fn(d, (2, 3), [1, 2], natural[d]))
        yield Case(op, f"{dn(d)}_2d_pad", fn(d, (2, 3), [1, 0, 0, 2], natural[d]))
    yield Case(op, "float32_default_value", fn(F32, (2, 3), [1, 1]))
    yield Case(op, "float32_int_value", fn(F32, (2, 2), [0, 1], 3))
    yield Case(op, "int64_double_value_truncates", fn(I64, (2, 2), [1, 0], 2.75))
    yield Case(op, "bool_double_value", fn(B, (2, 2), [1, 1], 0.5))
    yield Case(op, "float32_3d_last_two", fn(F32, (2, 2, 2), [1, 1, 1, 0]))
    yield Case(op, "float32_all_dims", fn(F32, (2, 2), [1, 0, 0, 1]))
    yield Case(op, "float32_crop_both_sides", fn(F32, (2, 5), [-1, -2]))
    yield Case(op, "float32_crop_and_pad", fn(F32, (3, 4), [-1, 2, 1, -1], 9))
    yield Case(op, "float32_crop_to_empty", fn(F32, (2, 3), [-3, 0]))
    yield Case(op, "float32_empty_pad", fn(F32, (2, 3), []))
    yield Case(op, "float32_zero_pad", fn(F32, (2, 3), [0, 0]))
    yield Case(op, "float32_zerodim_empty_pad", fn(F32, (), []))
    yield Case(op, "float32_size0_padded", fn(F32, (0, 2), [1, 1]))
    yield Case(op, "float32_size0_row_padded", fn(F32, (0, 2), [0, 0, 1, 1], 4))
    yield Case(op, "float32_size1", fn(F32, (1,), [2, 1], -1))
    yield Case(op, "float32_noncontig_T", fn(F32, (3, 4), [1, 1, 1, 0], 2, "T"))
    yield Case(op, "int32_noncontig_step", fn(I32, (2, 3), [2, 0], 5, "step"))
    yield Case(op, "float32_expanded", fn(F32, (2, 3), [1, 1], -1, "expand:3"))
    yield Case(op, "float32_channels_last", fn(F32, (1, 2, 2, 2), [1, 0, 0, 1], 0, "channels_last"))
    yield Case(
        op,
        "odd_pad_length_error",
        fn(F32, (2, 3), [1]),
        error="Length of pad must be even but instead it equals 1",
    )
    yield Case(
        op,
        "pad_too_long_error",
        fn(F32, (2, 3), [1, 1, 1, 1, 1, 1]),
        error="Length of pad should be no more than twice the number of dimensions of the input. Pad length is 6while the input has 2dimensions.",
    )
    yield Case(
        op,
        "crop_too_much_error",
        fn(F32, (2, 3), [-4, 1]),
        error="narrow(): length must be non-negative.",
    )
    yield Case(
        op,
        "uint8_value_overflow_error",
        fn(U8, (2, 3), [1, 1], 300),
        error="value cannot be converted to type uint8_t without overflow",
    )


FAMILIES = [
    FamilyInfo("clone", ops=("clone",), sample_inputs=clone_cases),
    FamilyInfo("to_copy", ops=("_to_copy",), sample_inputs=to_copy_cases),
    FamilyInfo("constant_pad_nd", ops=("constant_pad_nd",), sample_inputs=constant_pad_nd_cases),
]
