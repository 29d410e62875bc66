"""Factories: zeros and empty.memory_format (all nine dtypes; empty's values are unspecified)."""

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


def factory_args(size, dtype):
    return [
        ("size", Ints(size)),
        ("dtype", opt(DType, dtype)),
        ("layout", NONE),
        ("device", NONE),
        ("pin_memory", NONE),
    ]


def zeros_cases() -> Iterator[Case]:
    """Cases of zeros."""

    def fn(size, dtype):
        return lambda r: factory_args(size, dtype)

    for d in ALL9:
        yield Case("zeros", dn(d), fn([2, 3], d))
    yield Case("zeros", "dtype_none_is_float32", fn([2, 3], None))
    yield Case("zeros", "float32_3d", fn([2, 3, 4], F32))
    yield Case("zeros", "int64_zerodim", fn([], I64))
    yield Case("zeros", "float32_size0", fn([0], F32))
    yield Case("zeros", "int32_size0_2d", fn([0, 3], I32))
    yield Case("zeros", "float32_size0_trailing", fn([2, 0], F32))
    yield Case("zeros", "float32_size1", fn([1], F32))
    yield Case("zeros", "bool_size1_3d", fn([1, 1, 1], B))
    yield Case(
        "zeros",
        "negative_size_error",
        fn([-1, 2], F32),
        error="Dimension size must be non-negative",
    )


def empty_cases() -> Iterator[Case]:
    """Cases of empty.memory_format (`values_any`: only sizes, strides and dtype hold)."""
    op = "empty.memory_format"

    def fn(size, dtype, mf=None):
        return lambda r: factory_args(size, dtype) + [("memory_format", opt(MemFmt, mf))]

    for d in ALL9:
        yield Case(op, dn(d), fn([2, 3], d), values_any=True)
    yield Case(op, "dtype_none_is_float32", fn([2, 3], None), values_any=True)
    yield Case(
        op,
        "float32_contiguous_format",
        fn([2, 3, 2, 2], F32, torch.contiguous_format),
        values_any=True,
    )
    yield Case(
        op, "float32_channels_last", fn([2, 3, 2, 2], F32, torch.channels_last), values_any=True
    )
    yield Case(
        op,
        "uint8_channels_last_size1_channel",
        fn([2, 1, 2, 3], U8, torch.channels_last),
        values_any=True,
    )
    yield Case(
        op,
        "float32_channels_last_size0",
        fn([0, 3, 2, 2], F32, torch.channels_last),
        values_any=True,
    )
    yield Case(
        op,
        "float64_channels_last_3d",
        fn([1, 2, 2, 2, 2], F64, torch.channels_last_3d),
        values_any=True,
    )
    yield Case(op, "int64_zerodim", fn([], I64), values_any=True)
    yield Case(op, "float32_size0", fn([0], F32), values_any=True)
    yield Case(op, "int8_size0_2d", fn([3, 0], I8), values_any=True)
    yield Case(op, "float32_size1", fn([1], F32), values_any=True)
    yield Case(op, "bool_size1_2d", fn([1, 1], B), values_any=True)
    yield Case(
        op,
        "preserve_format_error",
        fn([2, 3], F32, torch.preserve_format),
        error="unsupported memory format Preserve",
    )
    yield Case(
        op,
        "channels_last_rank3_error",
        fn([2, 3, 4], F32, torch.channels_last),
        error="required rank 4 tensor to use channels_last format",
    )
    yield Case(
        op,
        "channels_last_3d_rank4_error",
        fn([2, 3, 4, 5], F32, torch.channels_last_3d),
        error="required rank 5 tensor to use channels_last_3d format",
    )
    yield Case(
        op,
        "negative_size_error",
        fn([2, -1], F32),
        error="Trying to create tensor with negative dimension -1: [2, -1]",
    )


FAMILIES = [
    FamilyInfo("zeros", ops=("zeros",), sample_inputs=zeros_cases, factory=True),
    FamilyInfo("empty", ops=("empty.memory_format",), sample_inputs=empty_cases, factory=True),
]


def full_cases() -> Iterator[Case]:
    """Cases of full (dtype from the fill value when None) and ones, with their out=
    variants derived by the runner and a few given here (resizing a wrong-shaped out)."""

    def ff(size, value, dtype):
        return lambda r: (
            [("size", Ints(size)), ("fill_value", Scalar(value))] + factory_args(size, dtype)[1:]
        )

    def fo(size, value, d, out_shape=(0,)):
        return lambda r: [
            ("size", Ints(size)),
            ("fill_value", Scalar(value)),
            ("out", r.t(d, out_shape)),
        ]

    def fn(size, dtype):
        return lambda r: factory_args(size, dtype)

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
        yield Case("full", dn(d), ff([2, 3], natural[d], d))
        yield Case("ones", dn(d), fn([2, 3], d))
    yield Case("full", "dtype_none_float_value_is_float32", ff([2], 2.5, None))
    yield Case("full", "dtype_none_int_value_is_int64", ff([2, 2], 3, None))
    yield Case("full", "dtype_none_bool_value_is_bool", ff([3], True, None))
    yield Case("full", "int64_double_value_truncates", ff([2], 2.75, I64))
    yield Case("full", "bool_int_value", ff([2], 2, B))
    yield Case("full", "float32_nan", ff([2], float("nan"), F32))
    yield Case("full", "int64_zerodim", ff([], 5, I64))
    yield Case("full", "float32_size0", ff([0, 3], 1.0, F32))
    yield Case("full", "float32_size1", ff([1], 1.0, F32))
    yield Case(
        "full",
        "negative_size_error",
        ff([-1], 3, None),
        error="Trying to create tensor with negative dimension -1: [-1]",
    )
    yield Case(
        "full",
        "uint8_overflow_error",
        ff([2], 300, U8),
        error="value cannot be converted to type uint8_t without overflow",
    )
    yield Case(
        "full",
        "explicit_cpu_strided_unpinned",
        lambda r: [
            ("size", Ints([2])),
            ("fill_value", Scalar(2)),
            ("dtype", NONE),
            ("layout", LayoutArg(torch.strided)),
            ("device", DeviceArg("cpu")),
            ("pin_memory", Bool(False)),
        ],
    )
    yield Case("full.out", "float32_resize_wrong_shape", fo([2, 2], 1.5, F32, (3,)), result="out")
    yield Case("full.out", "int64_zerodim", fo([], 4, I64, (2,)), result="out")
    yield Case("ones", "dtype_none_is_float32", fn([2, 3], None))
    yield Case("ones", "int64_zerodim", fn([], I64))
    yield Case("ones", "float32_size0", fn([2, 0], F32))
    yield Case("ones", "uint8_size1", fn([1, 1], U8))
    yield Case(
        "ones",
        "negative_size_error",
        fn([2, -1], F32),
        error="Trying to create tensor with negative dimension -1: [2, -1]",
    )
    yield Case(
        "ones.out",
        "bool_resize",
        lambda r: [("size", Ints([2, 2])), ("out", r.t(B, (0,)))],
        result="out",
    )


def like_cases() -> Iterator[Case]:
    """Cases of full_like, zeros_like, ones_like and empty_like: self's sizes, self's
    dtype unless given, memory_format (preserve by default: self's dense strides)."""

    def fn(op, d, shape, layout="contig", dtype=None, mf=None, value=None):
        def build(r):
            args = [("self", r.t(d, shape, layout))]
            if value is not None:
                args.append(("fill_value", Scalar(value)))
            return args + [
                ("dtype", opt(DType, dtype)),
                ("layout", NONE),
                ("device", NONE),
                ("pin_memory", NONE),
                ("memory_format", opt(MemFmt, mf)),
            ]

        return build

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
        yield Case("full_like", dn(d), fn("full_like", d, (2, 3), value=natural[d]))
        yield Case("zeros_like", dn(d), fn("zeros_like", d, (2, 3)))
        yield Case("ones_like", dn(d), fn("ones_like", d, (2, 3)))
        yield Case("empty_like", dn(d), fn("empty_like", d, (2, 3)), values_any=True)
    for op in ("full_like", "zeros_like", "ones_like", "empty_like"):
        v = 2 if op == "full_like" else None
        kw = {"values_any": True} if op == "empty_like" else {}
        yield Case(op, "float32_to_int64_dtype", fn(op, F32, (2, 3), dtype=I64, value=v), **kw)
        yield Case(op, "float32_T_preserved", fn(op, F32, (3, 4), "T", value=v), **kw)
        yield Case(op, "float32_step_dense", fn(op, F32, (2, 3), "step", value=v), **kw)
        yield Case(op, "float32_expanded", fn(op, F32, (2, 3), "expand:3", value=v), **kw)
        yield Case(
            op, "float32_channels_last", fn(op, F32, (1, 2, 2, 3), "channels_last", value=v), **kw
        )
        yield Case(
            op,
            "float32_T_contiguous_format",
            fn(op, F32, (3, 4), "T", mf=torch.contiguous_format, value=v),
            **kw,
        )
        yield Case(op, "int32_zerodim", fn(op, I32, (), value=v), **kw)
        yield Case(op, "float32_size0", fn(op, F32, (0, 3), value=v), **kw)
        yield Case(op, "float32_size1", fn(op, F32, (1,), value=v), **kw)
        yield Case(
            op,
            "channels_last_rank2_error",
            fn(op, F32, (2, 3), mf=torch.channels_last, value=v),
            error="required rank 4 tensor to use channels_last format",
        )
    yield Case(
        "ones_like",
        "explicit_cpu_strided_unpinned",
        lambda r: [
            ("self", r.t(I32, (2, 2), "T")),
            ("dtype", DType(F32)),
            ("layout", LayoutArg(torch.strided)),
            ("device", DeviceArg("cpu")),
            ("pin_memory", Bool(False)),
            ("memory_format", NONE),
        ],
    )
    yield Case("full_like", "int64_double_value_truncates", fn("full_like", I64, (2,), value=2.75))
    yield Case("full_like", "bool_from_double", fn("full_like", F32, (2,), dtype=B, value=0.5))
    yield Case(
        "full_like",
        "uint8_overflow_error",
        fn("full_like", U8, (2,), value=256),
        error="value cannot be converted to type uint8_t without overflow",
    )
    yield Case(
        "empty_like.out",
        "float32",
        lambda r: [("self", r.t(F32, (2, 3))), ("memory_format", NONE), ("out", r.t(F32, (0,)))],
        values_any=True,
        result="out",
    )


def arange_cases() -> Iterator[Case]:
    """Cases of arange.start_step (dtype inferred from the scalars when None) and
    arange.start_out (derived by the runner, and given with wrong-shaped outs)."""
    op = "arange.start_step"

    def fn(start, end, step, dtype=None):
        return lambda r: [
            ("start", Scalar(start)),
            ("end", Scalar(end)),
            ("step", Scalar(step)),
            ("dtype", opt(DType, dtype)),
            ("layout", NONE),
            ("device", NONE),
            ("pin_memory", NONE),
        ]

    def fo(start, end, step, d, out_shape=(0,)):
        return lambda r: [
            ("start", Scalar(start)),
            ("end", Scalar(end)),
            ("step", Scalar(step)),
            ("out", r.t(d, out_shape)),
        ]

    for d in ALL9:
        if d != B:
            yield Case(op, dn(d), fn(0, 5, 1, d))
    yield Case(op, "int_scalars_are_int64", fn(1, 10, 3))
    yield Case(op, "float_start_is_float32", fn(0.5, 3, 1))
    yield Case(op, "float_step_is_float32", fn(0, 2, 0.25))
    yield Case(op, "bool_scalars_are_int64", fn(False, True, True))
    yield Case(op, "negative_step", fn(5, -3, -2))
    yield Case(op, "float64_negative_fractional_step", fn(1.0, -1.0, -0.5, F64))
    yield Case(op, "length_rounds_up", fn(0, 10, 4))
    yield Case(op, "float_length_rounds_up", fn(0, 1, 0.375))
    yield Case(op, "int64_float_start_truncated", fn(0.5, 5, 1, I64))
    yield Case(op, "int32_float_start_truncated", fn(0.5, 5, 1, I32))
    yield Case(op, "int64_float_step", fn(0, 5, 1.5, I64))
    yield Case(op, "uint8_wraps", fn(250, 260, 2, U8))
    yield Case(op, "int8_negative", fn(-5, 5, 3, I8))
    yield Case(op, "float16_fractional", fn(-1, 1, 0.25, F16))
    yield Case(op, "bfloat16_fractional", fn(0, 2, 0.5, BF16))
    yield Case(op, "empty_range", fn(3, 3, 1))
    yield Case(op, "empty_range_float", fn(1.5, 1.5, 0.5))
    yield Case(op, "size1", fn(0, 1, 5))
    yield Case(
        op,
        "explicit_cpu_strided_unpinned",
        lambda r: [
            ("start", Scalar(1)),
            ("end", Scalar(4)),
            ("step", Scalar(1)),
            ("dtype", DType(F64)),
            ("layout", LayoutArg(torch.strided)),
            ("device", DeviceArg("cpu")),
            ("pin_memory", Bool(False)),
        ],
    )
    yield Case(op, "step_zero_error", fn(0, 5, 0), error="step must be nonzero")
    yield Case(
        op,
        "step_sign_error",
        fn(0, 5, -1),
        error="upper bound and lower bound inconsistent with step sign",
    )
    yield Case(
        op,
        "step_sign_float_error",
        fn(1.0, 0.0, 0.5),
        error="upper bound and lower bound inconsistent with step sign",
    )
    yield Case(
        op, "infinite_end_error", fn(0, float("inf"), 1), error="unsupported range: 0 -> inf"
    )
    yield Case(op, "nan_end_error", fn(0, float("nan"), 1), error="unsupported range: 0 -> nan")
    yield Case(
        op, "bool_dtype_error", fn(0, 5, 1, B), error="\"arange_cpu\" not implemented for 'Bool'"
    )
    yield Case(
        "arange.start_out", "float32_resize_wrong_shape", fo(0, 3, 1, F32, (2, 2)), result="out"
    )
    yield Case("arange.start_out", "int64_right_size", fo(2, 8, 2, I64, (3,)), result="out")
    yield Case(
        "arange.start_out",
        "float64_noncontig_out",
        lambda r: [
            ("start", Scalar(0)),
            ("end", Scalar(3)),
            ("step", Scalar(1)),
            ("out", r.t(F64, (3,), "step")),
        ],
        result="out",
    )
    yield Case(
        "arange.start_out",
        "bool_out_error",
        fo(0, 3, 1, B),
        error="\"arange_cpu\" not implemented for 'Bool'",
    )


def scalar_tensor_cases() -> Iterator[Case]:
    """Cases of scalar_tensor: float32 unless a dtype is given, whatever the value."""

    def fn(value, dtype):
        return lambda r: [
            ("s", Scalar(value)),
            ("dtype", opt(DType, dtype)),
            ("layout", NONE),
            ("device", NONE),
            ("pin_memory", NONE),
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
        yield Case("scalar_tensor", dn(d), fn(natural[d], d))
    yield Case("scalar_tensor", "dtype_none_int_is_float32", fn(3, None))
    yield Case("scalar_tensor", "dtype_none_bool_is_float32", fn(True, None))
    yield Case("scalar_tensor", "float32_neg_inf", fn(float("-inf"), F32))
    yield Case("scalar_tensor", "int64_double_truncates", fn(2.75, I64))
    yield Case(
        "scalar_tensor",
        "uint8_overflow_error",
        fn(300, U8),
        error="value cannot be converted to type uint8_t without overflow",
    )
    yield Case(
        "scalar_tensor.out",
        "float64_resizes_out",
        lambda r: [("s", Scalar(-4.5)), ("out", r.t(F64, (2, 3)))],
        result="out",
    )
    yield Case(
        "scalar_tensor.out",
        "int32_empty_out_resizes",
        lambda r: [("s", Scalar(9)), ("out", r.t(I32, (0,)))],
        result="out",
    )
    yield Case(
        "scalar_tensor",
        "explicit_cpu",
        lambda r: [
            ("s", Scalar(2)),
            ("dtype", DType(F64)),
            ("layout", LayoutArg(torch.strided)),
            ("device", DeviceArg("cpu")),
            ("pin_memory", Bool(False)),
        ],
    )


FAMILIES += [
    FamilyInfo(
        "full",
        ops=("full", "full.out", "ones", "ones.out"),
        sample_inputs=full_cases,
        factory=True,
    ),
    FamilyInfo(
        "scalar_tensor",
        ops=("scalar_tensor", "scalar_tensor.out"),
        sample_inputs=scalar_tensor_cases,
        factory=True,
        size0=False,  # the result is always one element
    ),
    FamilyInfo(
        "like",
        ops=("full_like", "zeros_like", "ones_like", "empty_like", "empty_like.out"),
        sample_inputs=like_cases,
    ),
    FamilyInfo(
        "arange",
        ops=("arange.start_step", "arange.start_out"),
        sample_inputs=arange_cases,
        factory=True,
    ),
]
