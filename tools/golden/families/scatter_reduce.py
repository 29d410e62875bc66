"""scatter_reduce.two (every reduction, with and without self) and masked_scatter.

scatter_reduce: sum, prod, mean, amax and amin over every dtype (bool's mean raises, as
in PyTorch), include_self both ways, repeated and missing indices, an integer mean that
rounds down (negative values too), NaN in amax/amin, non-contiguous inputs, dim 1 and -1,
sizes 0 and 1, the inplace and out= overloads, and PyTorch's errors.

masked_scatter: a bool mask broadcast to self (and self broadcast to the mask, in the
functional op), source elements taken in row-major order (a 2-d and a transposed source),
every dtype, sizes 0 and 1, and PyTorch's errors: a non-bool mask, dtypes that differ, a
source shorter than the mask's ones, shapes that do not broadcast."""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    F32,
    F64,
    I8,
    I32,
    I64,
    TORCH_MESSAGE,
    U8,
    B,
    Bool,
    Case,
    FamilyInfo,
    Int,
    Str,
    dn,
)
from golden_format import (
    case_args as _args,
)
from golden_format import (
    tensor_arg as _t,
)

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
NAN = float("nan")
SR, SR_, SR_OUT = "scatter_reduce.two", "scatter_reduce_.two", "scatter_reduce.two_out"


def _sr(self, dim, index, src, reduce, include_self=True, out=None):
    args = [
        ("self", self),
        ("dim", Int(dim)),
        ("index", index),
        ("src", src),
        ("reduce", Str(reduce)),
        ("include_self", Bool(include_self)),
    ]
    if out is not None:
        args.append(("out", out))
    return _args(*args)


def scatter_reduce_cases() -> Iterator[Case]:
    # Row 0 of self gets three values, row 1 none, rows 2 and 3 two and one.
    idx = _t(I64, (2, 3), vals=[[0, 2, 0], [3, 0, 2]])
    for reduce in REDUCTIONS:
        for inc in (True, False):
            tag = f"{reduce}_{'self' if inc else 'noself'}"
            for d in ALL7:
                yield Case(
                    SR,
                    f"{dn(d)}_{tag}",
                    _sr(_t(d, (4, 3)), 0, idx, _t(d, (2, 4)), reduce, inc),
                    error=TORCH_MESSAGE,
                )
            yield Case(
                SR,
                f"dim1_noncontig_{tag}",
                _sr(
                    _t(F32, (3, 5), layout="T"),
                    1,
                    _t(I64, (3, 4), vals=[[4, 0, 4, 4], [1, 1, 3, 0], [2, 2, 2, 2]]),
                    _t(F32, (4, 4), layout="T"),
                    reduce,
                    inc,
                ),
            )
            yield Case(
                SR_,
                f"inplace_{tag}",
                _sr(_t(F64, (4, 3)), 0, idx, _t(F64, (2, 4)), reduce, inc),
                result="self",
            )
            yield Case(
                SR_OUT,
                f"out_{tag}",
                _sr(_t(I32, (4, 3)), -2, idx, _t(I32, (2, 4)), reduce, inc, out=_t(I32, (0,))),
                result="out",
            )
    # Integer means round down, negative ones too; int8 sums wrap before the division.
    yield Case(
        SR,
        "int64_mean_negative",
        _sr(
            _t(I64, (3,), vals=[-7, 2, 5]),
            0,
            _t(I64, (4,), vals=[0, 0, 2, 2]),
            _t(I64, (4,), vals=[1, -1, -4, 0]),
            "mean",
        ),
    )
    yield Case(
        SR,
        "int8_mean_wraps",
        _sr(
            _t(I8, (2,), vals=[100, 2]),
            0,
            _t(I64, (2,), vals=[0, 0]),
            _t(I8, (2,), vals=[100, 3]),
            "mean",
        ),
    )
    yield Case(
        SR,
        "uint8_mean_noself_wraps",
        _sr(
            _t(U8, (3,), vals=[9, 9, 9]),
            0,
            _t(I64, (3,), vals=[1, 1, 1]),
            _t(U8, (3,), vals=[200, 100, 2]),
            "mean",
            False,
        ),
    )
    for reduce in ("amax", "amin"):
        for inc in (True, False):
            yield Case(
                SR,
                f"float32_nan_{reduce}_{'self' if inc else 'noself'}",
                _sr(
                    _t(F32, (3,), vals=[1.0, NAN, 2.0]),
                    0,
                    _t(I64, (4,), vals=[0, 0, 1, 2]),
                    _t(F32, (4,), vals=[NAN, 3.0, 0.5, -1.0]),
                    reduce,
                    inc,
                ),
            )
    # Sums of floats in the order PyTorch adds them (along dim, in index order).
    yield Case(
        SR,
        "float32_sum_order",
        _sr(
            _t(F32, (1,), vals=[1.0]),
            0,
            _t(I64, (4,), vals=[0, 0, 0, 0]),
            _t(F32, (4,), vals=[1e8, 1.0, -1e8, 0.5]),
            "sum",
        ),
    )
    yield Case(
        SR,
        "float32_int32_index",
        _sr(_t(F32, (3,)), 0, _t(I32, (2,), vals=[2, 2]), _t(F32, (2,)), "prod"),
    )
    yield Case(
        SR, "float32_size0_index", _sr(_t(F32, (3,)), 0, _t(I64, (0,)), _t(F32, (2,)), "mean")
    )
    yield Case(
        SR, "float32_size0_self", _sr(_t(F32, (0, 2)), 0, _t(I64, (0, 2)), _t(F32, (1, 2)), "sum")
    )
    yield Case(
        SR,
        "float32_size1",
        _sr(_t(F32, (1,)), 0, _t(I64, (1,), vals=[0]), _t(F32, (1,)), "mean", False),
    )
    yield Case(
        SR,
        "float32_zerodim",
        _sr(_t(F32, ()), 0, _t(I64, (), vals=0), _t(F32, ()), "amax", False),
    )
    # Errors.
    yield Case(
        SR,
        "out_of_bounds_error",
        _sr(_t(F32, (3,)), 0, _t(I64, (2,), vals=[2, 3]), _t(F32, (2,)), "sum"),
        error="index 3 is out of bounds for dimension 0 with size 3",
    )
    yield Case(
        SR,
        "dtype_error",
        _sr(_t(F32, (3,)), 0, _t(I64, (2,), vals=[2, 0]), _t(F64, (2,)), "amin"),
        error="scatter(): Expected self.dtype to be equal to src.dtype",
    )
    yield Case(
        SR,
        "float_index_error",
        _sr(_t(F32, (3,)), 0, _t(F32, (2,), vals=[2.0, 0.0]), _t(F32, (2,)), "sum"),
        error=TORCH_MESSAGE,
    )
    yield Case(
        SR,
        "size_error",
        _sr(
            _t(F32, (2, 3)),
            1,
            _t(I64, (1, 4), vals=[[0, 1, 2, 0]]),
            _t(F32, (1, 2)),
            "prod",
        ),
        error=TORCH_MESSAGE,
    )
    yield Case(
        SR,
        "dim_error",
        _sr(_t(F32, (2, 3)), 2, _t(I64, (1, 1), vals=[[0]]), _t(F32, (1, 1)), "sum"),
        error="Dimension out of range",
    )


MS, MS_ = "masked_scatter", "masked_scatter_"


def _ms(self, mask, source):
    return _args(("self", self), ("mask", mask), ("source", source))


def masked_scatter_cases() -> Iterator[Case]:
    mask = _t(B, (2, 3), vals=[[True, False, True], [False, True, True]])
    for d in ALL7:
        yield Case(MS, dn(d), _ms(_t(d, (2, 3)), mask, _t(d, (6,))))
        yield Case(MS_, f"{dn(d)}_inplace", _ms(_t(d, (2, 3)), mask, _t(d, (5,))), result="self")
    yield Case(
        MS,
        "mask_broadcast",
        _ms(_t(F32, (2, 3)), _t(B, (3,), vals=[True, False, True]), _t(F32, (4,))),
    )
    yield Case(MS, "self_broadcast", _ms(_t(F32, (3,)), mask, _t(F32, (4,))))
    yield Case(
        MS_,
        "inplace_mask_broadcast",
        _ms(_t(I64, (2, 3)), _t(B, (2, 1), vals=[[False], [True]]), _t(I64, (4,))),
        result="self",
    )
    yield Case(MS, "source_2d", _ms(_t(F32, (2, 3)), mask, _t(F32, (2, 5))))
    yield Case(MS, "source_noncontig", _ms(_t(F32, (2, 3)), mask, _t(F32, (4, 2), layout="T")))
    yield Case(MS, "self_noncontig", _ms(_t(F64, (2, 3), layout="T"), mask, _t(F64, (4,))))
    yield Case(
        MS,
        "mask_noncontig",
        _ms(
            _t(F32, (3, 2)),
            _t(B, (3, 2), vals=[[True, False], [True, True], [False, True]], layout="T"),
            _t(F32, (4,)),
        ),
    )
    yield Case(
        MS_,
        "inplace_noncontig",
        _ms(
            _t(F32, (3, 4), layout="T"), _t(B, (4,), vals=[True, False, False, True]), _t(F32, (6,))
        ),
        result="self",
    )
    yield Case(
        MS,
        "no_ones_empty_source",
        _ms(_t(F32, (2, 3)), _t(B, (2, 3), vals=[[False] * 3] * 2), _t(F32, (0,))),
    )
    yield Case(
        MS, "size0", _ms(_t(F32, (0, 3)), _t(B, (3,), vals=[True, True, False]), _t(F32, (2,)))
    )
    yield Case(MS, "size1", _ms(_t(F32, (1,)), _t(B, (1,), vals=[True]), _t(F32, (1,))))
    yield Case(
        MS, "zerodim_source", _ms(_t(F32, (2,)), _t(B, (2,), vals=[True, False]), _t(F32, ()))
    )
    yield Case(
        MS_, "zerodim_inplace", _ms(_t(F32, ()), _t(B, (), vals=True), _t(F32, (2,))), result="self"
    )
    yield Case(
        "masked_scatter.out",
        "out",
        _args(
            ("self", _t(F32, (2, 3))),
            ("mask", mask),
            ("source", _t(F32, (6,))),
            ("out", _t(F32, (0,))),
        ),
        result="out",
    )
    # Errors.
    for d in (U8, I32):
        yield Case(
            MS,
            f"{dn(d)}_mask_error",
            _ms(_t(F32, (2, 3)), _t(d, (2, 3), vals=[[1, 0, 1], [0, 1, 1]]), _t(F32, (6,))),
            error=TORCH_MESSAGE,
        )
    yield Case(
        MS,
        "dtype_error",
        _ms(_t(F32, (2, 3)), mask, _t(F64, (6,))),
        error="masked_scatter: expected self and source to have same dtypes but gotFloat and Double",
    )
    yield Case(
        MS,
        "short_source_error",
        _ms(_t(F32, (2, 3)), mask, _t(F32, (3,))),
        error="Number of elements of source < number of ones in mask",
    )
    yield Case(
        MS_,
        "inplace_short_source_error",
        _ms(_t(I64, (2, 3)), mask, _t(I64, (2,))),
        error="Number of elements of source < number of ones in mask",
    )
    yield Case(
        MS,
        "broadcast_error",
        _ms(_t(F32, (2, 3)), _t(B, (4,), vals=[True] * 4), _t(F32, (6,))),
        error="must match the size of tensor b (3) at non-singleton dimension 1",
    )
    yield Case(
        MS_,
        "inplace_broadcast_error",
        _ms(_t(F32, (3,)), mask, _t(F32, (6,))),
        error="the number of sizes provided (1) must be greater or equal to the number of "
        "dimensions in the tensor (2)",
    )


FAMILIES = [
    FamilyInfo(
        "scatter_reduce",
        ops=(SR, SR_, SR_OUT),
        sample_inputs=scatter_reduce_cases,
    ),
    FamilyInfo(
        "masked_scatter",
        ops=(MS, MS_, "masked_scatter.out"),
        sample_inputs=masked_scatter_cases,
        broadcast="mask",
    ),
]
