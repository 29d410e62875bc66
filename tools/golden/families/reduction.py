"""Reductions: sum.dim_IntList and mean.dim (dim lists, keepdim, dtype=, empty and zero-dim
inputs), amax/amin (NaN propagation, empty reductions rejected), argmax (first maximum,
NaN the largest, dim=None over the flattened tensor) and any.dim."""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
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
    DType,
    FamilyInfo,
    Int,
    Ints,
    dn,
    opt,
)

NAN, INF = float("nan"), float("inf")


def sum_cases() -> Iterator[Case]:
    """Cases of sum.dim_IntList."""
    op = "sum.dim_IntList"

    def fn(d, shape, dim, keepdim=False, dtype=None, layout="contig", vals=None, rng=None):
        return lambda r: [
            ("self", r.t(d, shape, layout, vals, rng)),
            ("dim", opt(Ints, dim)),
            ("keepdim", Bool(keepdim)),
            ("dtype", opt(DType, dtype)),
        ]

    for d in ALL7:
        n = dn(d)
        yield Case(op, f"{n}_dim1", fn(d, (3, 4), [1]))
        yield Case(op, f"{n}_dim_none", fn(d, (2, 3), None))
        yield Case(op, f"{n}_noncontig_dim0", fn(d, (3, 4), [0], layout="T"))
    yield Case(op, "float32_dim0", fn(F32, (3, 4), [0]))
    yield Case(op, "float32_dim_negative", fn(F32, (3, 4), [-1]))
    yield Case(op, "float32_multi_dim", fn(F32, (2, 3, 4), [0, 2]))
    yield Case(op, "float32_multi_dim_negative", fn(F32, (2, 3, 4), [-1, -3]))
    yield Case(op, "float32_multi_dim_unordered", fn(F32, (2, 3, 4), [2, 0]))
    yield Case(op, "float32_all_dims_listed", fn(F32, (2, 3, 4), [0, 1, 2]))
    yield Case(op, "float32_keepdim", fn(F32, (3, 4), [1], keepdim=True))
    yield Case(op, "float64_keepdim_multi", fn(F64, (2, 3, 4), [0, -1], keepdim=True))
    yield Case(op, "int64_keepdim_dim_none", fn(I64, (2, 3), None, keepdim=True))
    yield Case(op, "float32_dim_empty_list", fn(F32, (2, 3), []))
    yield Case(op, "float32_dim_empty_list_keepdim", fn(F32, (2, 3), [], keepdim=True))
    yield Case(op, "float32_dtype_float64", fn(F32, (3, 4), [1], dtype=F64))
    yield Case(op, "int8_dtype_int32", fn(I8, (3, 4), [0], dtype=I32))
    yield Case(op, "int64_dtype_float32", fn(I64, (3, 4), [1], dtype=F32))
    yield Case(op, "uint8_dtype_int64", fn(U8, (3, 4), None, dtype=I64))
    yield Case(op, "bool_dtype_int32", fn(B, (3, 4), [1], dtype=I32))
    yield Case(op, "bool_dtype_float32", fn(B, (3, 4), [0], dtype=F32))
    yield Case(op, "float32_dtype_int64", fn(F32, (2, 3), [1], dtype=I64))
    yield Case(op, "int8_dtype_int8_wraps", fn(I8, (3,), [0], dtype=I8, vals=[100, 100, 100]))
    yield Case(op, "int8_sums_to_int64_no_overflow", fn(I8, (3,), [0], vals=[100, 100, 100]))
    yield Case(op, "uint8_sums_to_int64_no_overflow", fn(U8, (4,), [0], vals=[255, 255, 255, 1]))
    yield Case(op, "bool_counts", fn(B, (2, 5), [1]))
    yield Case(op, "float32_noncontig_step", fn(F32, (3, 4), [1], layout="step"))
    yield Case(op, "float32_noncontig_multi", fn(F32, (2, 3, 4), [0, 2], layout="T"))
    yield Case(op, "float32_expanded_input", fn(F32, (3, 4), [0], layout="expand:1,4"))
    yield Case(
        op, "float32_channels_last_input", fn(F32, (2, 3, 2, 2), [1], layout="channels_last")
    )
    yield Case(op, "float32_zerodim_dim0", fn(F32, (), [0]))
    yield Case(op, "float32_zerodim_dim_negative", fn(F32, (), [-1]))
    yield Case(op, "int32_zerodim_dim_none", fn(I32, (), None))
    yield Case(op, "float32_size0_reduce_empty_dim", fn(F32, (0, 3), [0]))
    yield Case(op, "float32_size0_keep_empty_dim", fn(F32, (0, 3), [1]))
    yield Case(op, "int64_size0_dim_none", fn(I64, (0, 3), None))
    yield Case(op, "float32_size0_keepdim", fn(F32, (2, 0), [1], keepdim=True))
    yield Case(op, "float32_size1", fn(F32, (1,), [0]))
    yield Case(op, "int64_size1_keepdim", fn(I64, (1, 1), [0, 1], keepdim=True))
    yield Case(
        op,
        "float32_special_values",
        fn(F32, (2, 3), [1], vals=[[1.0, float("nan"), 2.0], [float("inf"), 1.0, -0.0]]),
    )
    yield Case(op, "float32_inf_minus_inf", fn(F32, (2,), [0], vals=[float("inf"), float("-inf")]))
    yield Case(
        op,
        "float64_randn",
        lambda r: [
            ("self", r.t(F64, (4, 5), randn=True)),
            ("dim", Ints([1])),
            ("keepdim", Bool(False)),
            ("dtype", NONE),
        ],
    )
    yield Case(
        op,
        "dim_out_of_range_error",
        fn(F32, (2, 3), [2]),
        error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )
    yield Case(
        op,
        "dim_out_of_range_negative_error",
        fn(F32, (2, 3), [-3]),
        error="Dimension out of range (expected to be in range of [-2, 1], but got -3)",
    )
    yield Case(
        op,
        "dim_repeated_error",
        fn(F32, (2, 3), [0, 0]),
        error="dim 0 appears multiple times in the list of dims",
    )
    yield Case(
        op,
        "dim_repeated_negative_error",
        fn(F32, (2, 3), [1, -1]),
        error="dim 1 appears multiple times in the list of dims",
    )


def mean_cases() -> Iterator[Case]:
    """Cases of mean.dim (floating only; integral inputs need dtype=)."""
    op = "mean.dim"

    def fn(d, shape, dim, keepdim=False, dtype=None, layout="contig", vals=None):
        return lambda r: [
            ("self", r.t(d, shape, layout, vals)),
            ("dim", opt(Ints, dim)),
            ("keepdim", Bool(keepdim)),
            ("dtype", opt(DType, dtype)),
        ]

    for d in (F32, F64):
        n = dn(d)
        yield Case(op, f"{n}_dim1", fn(d, (3, 4), [1]))
        yield Case(op, f"{n}_dim_none", fn(d, (2, 4), None))
        yield Case(op, f"{n}_noncontig_dim0", fn(d, (4, 2), [0], layout="T"))
    for d in (I64, I32, I8, U8, B):
        yield Case(
            op,
            f"{dn(d)}_error",
            fn(d, (2, 3), [1]),
            error="mean(): could not infer output dtype. Input dtype must be either a "
            "floating point or complex dtype",
        )
    yield Case(op, "int64_dtype_float32", fn(I64, (2, 4), [1], dtype=F32))
    yield Case(
        op,
        "float32_dtype_int64_error",
        fn(F32, (2, 3), [1], dtype=I64),
        error="Optional dtype must be either a floating point or complex dtype",
    )
    yield Case(op, "float32_multi_dim_keepdim", fn(F32, (2, 3, 4), [0, 2], keepdim=True))
    yield Case(op, "float32_outer_dim0_wide", fn(F32, (4, 40), [0]))
    yield Case(op, "float32_step", fn(F32, (3, 4), [1], layout="step"))
    yield Case(op, "float32_expanded", fn(F32, (3, 4), [0], layout="expand:1,4"))
    yield Case(op, "float32_zerodim", fn(F32, (), None))
    yield Case(op, "float32_size0_reduced_is_nan", fn(F32, (0, 3), [0]))
    yield Case(op, "float32_size0_kept", fn(F32, (0, 3), [1]))
    yield Case(op, "float32_size1", fn(F32, (1,), [0]))
    yield Case(
        op, "float32_special_values", fn(F32, (2, 3), [1], vals=[[1.0, NAN, 2.0], [INF, 1.0, -0.0]])
    )
    yield Case(
        op,
        "float64_randn",
        lambda r: [
            ("self", r.t(F64, (4, 5), randn=True)),
            ("dim", Ints([1])),
            ("keepdim", Bool(False)),
            ("dtype", NONE),
        ],
    )
    yield Case(
        op,
        "dim_out_of_range_error",
        fn(F32, (2, 3), [2]),
        error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )


def minmax_cases(name: str):
    """Cases of amax or amin."""

    def cases() -> Iterator[Case]:
        def fn(d, shape, dim, keepdim=False, layout="contig", vals=None):
            return lambda r: [
                ("self", r.t(d, shape, layout, vals)),
                ("dim", Ints(dim)),
                ("keepdim", Bool(keepdim)),
            ]

        for d in ALL7:
            n = dn(d)
            yield Case(name, f"{n}_dim1", fn(d, (3, 4), [1]))
            yield Case(name, f"{n}_all", fn(d, (2, 3), []))
            yield Case(name, f"{n}_noncontig_dim0", fn(d, (3, 4), [0], layout="T"))
        yield Case(name, "int8_extremes", fn(I8, (4,), [0], vals=[-128, 127, 0, -1]))
        yield Case(name, "float32_multi_dim_keepdim", fn(F32, (2, 3, 4), [0, -1], keepdim=True))
        yield Case(name, "float32_outer_dim0_wide", fn(F32, (3, 40), [0]))
        yield Case(name, "float32_step", fn(F32, (3, 4), [1], layout="step"))
        yield Case(name, "float32_zerodim", fn(F32, (), []))
        yield Case(name, "float32_size0_kept", fn(F32, (0, 3), [1]))
        yield Case(name, "float32_size1", fn(F32, (1,), [0]))
        yield Case(
            name,
            "float32_nan_propagates",
            fn(F32, (2, 3), [1], vals=[[1.0, NAN, 2.0], [-INF, 1.0, INF]]),
        )
        yield Case(name, "float64_signed_zeros", fn(F64, (2,), [0], vals=[-0.0, 0.0]))
        yield Case(
            name,
            "size0_reduced_error",
            fn(F32, (0, 3), [0]),
            error=f"{name}(): Expected reduction dim 0 to have non-zero size",
        )
        yield Case(
            name,
            "dim_repeated_error",
            fn(F32, (2, 3), [0, 0]),
            error="dim 0 appears multiple times in the list of dims",
        )

    return cases


def argmax_cases() -> Iterator[Case]:
    """Cases of argmax."""
    op = "argmax"

    def fn(d, shape, dim, keepdim=False, layout="contig", vals=None):
        return lambda r: [
            ("self", r.t(d, shape, layout, vals)),
            ("dim", opt(Int, dim)),
            ("keepdim", Bool(keepdim)),
        ]

    for d in ALL7:
        n = dn(d)
        err = "argmax(): does not support bool input" if d == B else None
        yield Case(op, f"{n}_dim1", fn(d, (3, 4), 1), error=err)
        if d != B:
            yield Case(op, f"{n}_dim_none", fn(d, (2, 3), None))
            yield Case(op, f"{n}_noncontig_dim0", fn(d, (3, 4), 0, layout="T"))
    yield Case(op, "float32_noncontig_dim_none", fn(F32, (3, 4), None, layout="T"))
    yield Case(op, "float32_dim_none_keepdim", fn(F32, (2, 3), None, keepdim=True))
    yield Case(op, "float32_keepdim", fn(F32, (2, 3, 4), -1, keepdim=True))
    yield Case(op, "float32_ties_first", fn(F32, (5,), 0, vals=[1.0, 3.0, 2.0, 3.0, 3.0]))
    yield Case(op, "float32_nan_is_max", fn(F32, (4,), 0, vals=[1.0, NAN, 3.0, NAN]))
    yield Case(op, "float32_step", fn(F32, (3, 4), 1, layout="step"))
    yield Case(op, "float32_zerodim", fn(F32, (), 0))
    yield Case(op, "float32_zerodim_keepdim", fn(F32, (), 0, keepdim=True))
    yield Case(op, "float32_size0_kept", fn(F32, (0, 3), 1))
    yield Case(op, "float32_size1", fn(F32, (1,), None))
    yield Case(
        op,
        "size0_dim_none_error",
        fn(F32, (0, 3), None),
        error="argmax(): Expected reduction dim to be specified for input.numel() == 0",
    )
    yield Case(
        op,
        "size0_reduced_error",
        fn(F32, (0, 3), 0),
        error="argmax(): Expected reduction dim 0 to have non-zero size",
    )
    yield Case(
        op,
        "dim_out_of_range_error",
        fn(F32, (2, 3), 2),
        error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )


def any_cases() -> Iterator[Case]:
    """Cases of any.dim (uint8 keeps its dtype; everything else gives bool)."""
    op = "any.dim"

    def fn(d, shape, dim, keepdim=False, layout="contig", vals=None):
        return lambda r: [
            ("self", r.t(d, shape, layout, vals)),
            ("dim", Int(dim)),
            ("keepdim", Bool(keepdim)),
        ]

    for d in ALL7:
        n = dn(d)
        yield Case(
            op, f"{n}_dim1", fn(d, (3, 4), 1, vals=[[0, 0, 0, 0], [0, 1, 0, 0], [1, 1, 1, 1]])
        )
        yield Case(op, f"{n}_noncontig_dim0", fn(d, (3, 4), 0, layout="T"))
    yield Case(op, "float32_nan_is_true", fn(F32, (2, 2), 1, vals=[[NAN, 0.0], [-0.0, 0.0]]))
    yield Case(op, "bool_keepdim", fn(B, (2, 3), 0, keepdim=True))
    yield Case(op, "bool_outer_dim0_wide", fn(B, (3, 40), 0))
    yield Case(op, "float32_step", fn(F32, (3, 4), 1, layout="step"))
    yield Case(op, "bool_zerodim", fn(B, (), 0))
    yield Case(op, "float32_size0_reduced_is_false", fn(F32, (0, 3), 0))
    yield Case(op, "float32_size1", fn(F32, (1,), 0))
    yield Case(
        op,
        "dim_out_of_range_error",
        fn(F32, (2, 3), -3),
        error="Dimension out of range (expected to be in range of [-2, 1], but got -3)",
    )


FAMILIES = [
    FamilyInfo("sum", ops=("sum.dim_IntList",), sample_inputs=sum_cases),
    FamilyInfo("mean", ops=("mean.dim",), sample_inputs=mean_cases),
    FamilyInfo("amax", ops=("amax",), sample_inputs=minmax_cases("amax")),
    FamilyInfo("amin", ops=("amin",), sample_inputs=minmax_cases("amin")),
    FamilyInfo("argmax", ops=("argmax",), sample_inputs=argmax_cases),
    FamilyInfo("any", ops=("any.dim",), sample_inputs=any_cases),
]
