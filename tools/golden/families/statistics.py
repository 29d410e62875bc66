"""More reductions of core ATen: argmin, max.dim and min.dim (values and indices), any
over every element and over a list of dims, prod (all and dim_int), mean over every
element, var (correction and dim overloads). Cases over every dtype use
`error=TORCH_MESSAGE`: PyTorch decides which dtypes each takes.
"""

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
    TORCH_MESSAGE,
    U8,
    B,
    Bool,
    Case,
    DType,
    FamilyInfo,
    Int,
    Ints,
    Scalar,
    dn,
    opt,
)
from golden_format import (
    case_args as _args,
)
from golden_format import (
    tensor_arg as _t,
)

E = TORCH_MESSAGE
NAN = float("nan")
TOL = {F32: (1e-5, 1e-6), F64: (1e-12, 1e-300)}


def _tol(d):
    return TOL.get(d)


def arg_cases(op: str) -> Iterator[Case]:
    """argmin (op "argmin") or max.dim / min.dim."""
    with_dim = op != "argmin"
    for d in ALL7:
        n = dn(d)
        dim = Int(1) if with_dim else opt(Int, 1)
        yield Case(
            op, n, _args(("self", _t(d, (3, 4))), ("dim", dim), ("keepdim", Bool(False))), error=E
        )
        yield Case(
            op,
            f"{n}_keepdim_dim0",
            _args(
                ("self", _t(d, (3, 4))),
                ("dim", Int(0) if with_dim else opt(Int, 0)),
                ("keepdim", Bool(True)),
            ),
            error=E,
        )
    yield Case(
        op,
        "noncontig_neg_dim",
        _args(
            ("self", _t(F32, (3, 4, 2), layout="T")),
            ("dim", Int(-2) if with_dim else opt(Int, -2)),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        op,
        "ties_first",
        _args(
            ("self", _t(I64, (2, 4), vals=[[1, 3, 3, 1], [2, 2, 2, 2]])),
            ("dim", Int(1) if with_dim else opt(Int, 1)),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        op,
        "nan_first",
        _args(
            (
                "self",
                _t(
                    F64,
                    (2, 4),
                    vals=[[1.0, NAN, -5.0, NAN], [float("inf"), 2.0, -float("inf"), 0.0]],
                ),
            ),
            ("dim", Int(1) if with_dim else opt(Int, 1)),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        op,
        "size1",
        _args(
            ("self", _t(F32, (1,))),
            ("dim", Int(0) if with_dim else opt(Int, 0)),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        op,
        "zerodim",
        _args(
            ("self", _t(F32, ())),
            ("dim", Int(0) if with_dim else opt(Int, 0)),
            ("keepdim", Bool(True)),
        ),
    )
    yield Case(
        op,
        "size0_kept",
        _args(
            ("self", _t(F32, (0, 3))),
            ("dim", Int(1) if with_dim else opt(Int, 1)),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        op,
        "size0_error",
        _args(
            ("self", _t(F32, (2, 0))),
            ("dim", Int(1) if with_dim else opt(Int, 1)),
            ("keepdim", Bool(False)),
        ),
        error=E,
    )
    yield Case(
        op,
        "dim_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(2) if with_dim else opt(Int, 2)),
            ("keepdim", Bool(False)),
        ),
        error="Dimension out of range",
    )
    if not with_dim:
        yield Case(
            op,
            "flattened",
            _args(("self", _t(F32, (3, 4), layout="T")), ("dim", NONE), ("keepdim", Bool(False))),
        )
        yield Case(
            op,
            "flattened_keepdim",
            _args(("self", _t(I32, (2, 3))), ("dim", NONE), ("keepdim", Bool(True))),
        )
        yield Case(
            op,
            "flattened_empty_error",
            _args(("self", _t(F32, (0,))), ("dim", NONE), ("keepdim", Bool(False))),
            error=E,
        )
        yield Case(
            "argmin.out",
            "out",
            _args(
                ("self", _t(F32, (3, 4))),
                ("dim", opt(Int, 1)),
                ("keepdim", Bool(False)),
                ("out", _t(I64, (0,))),
            ),
            result="out",
        )
    else:
        name = op.split(".")[0]
        yield Case(
            f"{op}_{name}",
            "out",
            _args(
                ("self", _t(F32, (3, 4))),
                ("dim", Int(1)),
                ("keepdim", Bool(False)),
                (name, _t(F32, (0,))),
                ("max_values" if name == "max" else "min_indices", _t(I64, (0,))),
            ),
        )


def any_cases() -> Iterator[Case]:
    for d in ALL7:
        yield Case(
            "any",
            dn(d),
            _args(("self", _t(d, (2, 3), rng=(0, 1) if not d.is_floating_point else None))),
            error=E,
        )
        yield Case(
            "any.dims",
            f"{dn(d)}_dims",
            _args(
                ("self", _t(d, (2, 3, 2), rng=(0, 1))),
                ("dim", opt(Ints, [0, 2])),
                ("keepdim", Bool(False)),
            ),
            error=E,
        )
    yield Case("any", "all_zero", _args(("self", _t(F32, (3,), vals=[0.0, -0.0, 0.0]))))
    yield Case("any", "nan_counts", _args(("self", _t(F32, (2,), vals=[0.0, NAN]))))
    yield Case("any", "size0", _args(("self", _t(F32, (0, 3)))))
    yield Case("any", "size1", _args(("self", _t(I64, (1,), vals=[0]))))
    yield Case("any", "noncontig", _args(("self", _t(U8, (3, 4), rng=(0, 1), layout="T"))))
    yield Case(
        "any.dims",
        "none_is_all",
        _args(("self", _t(I32, (2, 3), rng=(0, 1))), ("dim", NONE), ("keepdim", Bool(True))),
    )
    yield Case(
        "any.dims",
        "empty_is_none",
        _args(
            ("self", _t(I32, (2, 3), rng=(0, 1))), ("dim", opt(Ints, [])), ("keepdim", Bool(False))
        ),
    )
    yield Case(
        "any.dims",
        "neg_dim",
        _args(("self", _t(B, (2, 3))), ("dim", opt(Ints, [-1])), ("keepdim", Bool(True))),
    )
    yield Case(
        "any.dims",
        "repeated_dim_error",
        _args(("self", _t(B, (2, 3))), ("dim", opt(Ints, [1, -1])), ("keepdim", Bool(False))),
        error=E,
    )
    yield Case(
        "any.all_out", "out", _args(("self", _t(F32, (2, 3))), ("out", _t(B, (0,)))), result="out"
    )
    yield Case(
        "any.dims_out",
        "out",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", opt(Ints, [1])),
            ("keepdim", Bool(False)),
            ("out", _t(B, (0,))),
        ),
        result="out",
    )


def prod_cases() -> Iterator[Case]:
    for d in ALL7:
        small = (-2, 2) if not d.is_floating_point else None
        yield Case(
            "prod",
            dn(d),
            _args(("self", _t(d, (2, 3), rng=small if d != U8 else (0, 3))), ("dtype", NONE)),
            error=E,
        )
        yield Case(
            "prod.dim_int",
            f"{dn(d)}_dim",
            _args(
                ("self", _t(d, (3, 4), rng=small if d != U8 else (0, 3))),
                ("dim", Int(1)),
                ("keepdim", Bool(False)),
                ("dtype", NONE),
            ),
            error=E,
        )
    yield Case(
        "prod",
        "float32_randn",
        _args(("self", _t(F32, (3, 5), randn=True)), ("dtype", NONE)),
        tol=TOL[F32],
    )
    yield Case(
        "prod",
        "int32_to_float64",
        _args(("self", _t(I32, (2, 3), rng=(-3, 3))), ("dtype", DType(F64))),
    )
    yield Case("prod", "size0", _args(("self", _t(F32, (0, 3))), ("dtype", NONE)))
    yield Case("prod", "size1", _args(("self", _t(F32, (1,))), ("dtype", NONE)))
    yield Case("prod", "noncontig", _args(("self", _t(F64, (3, 2), layout="T")), ("dtype", NONE)))
    yield Case(
        "prod.dim_int",
        "keepdim_noncontig",
        _args(
            ("self", _t(F32, (3, 4), layout="T")),
            ("dim", Int(0)),
            ("keepdim", Bool(True)),
            ("dtype", NONE),
        ),
    )
    yield Case(
        "prod.dim_int",
        "int8_wraps",
        _args(
            ("self", _t(I8, (2, 8), rng=(2, 5))),
            ("dim", Int(1)),
            ("keepdim", Bool(False)),
            ("dtype", DType(I8)),
        ),
    )
    yield Case(
        "prod.dim_int",
        "size0_dim",
        _args(
            ("self", _t(F32, (2, 0))), ("dim", Int(1)), ("keepdim", Bool(False)), ("dtype", NONE)
        ),
    )
    yield Case(
        "prod.dim_int",
        "zerodim",
        _args(
            ("self", _t(I64, (), vals=7)),
            ("dim", Int(0)),
            ("keepdim", Bool(False)),
            ("dtype", NONE),
        ),
    )
    yield Case(
        "prod.dim_int",
        "dim_error",
        _args(
            ("self", _t(F32, (2, 3))), ("dim", Int(3)), ("keepdim", Bool(False)), ("dtype", NONE)
        ),
        error="Dimension out of range",
    )
    yield Case(
        "prod.int_out",
        "out",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(0)),
            ("keepdim", Bool(False)),
            ("dtype", NONE),
            ("out", _t(F32, (0,))),
        ),
        result="out",
    )


def mean_all_cases() -> Iterator[Case]:
    for d in ALL7:
        yield Case("mean", dn(d), _args(("self", _t(d, (2, 3))), ("dtype", NONE)), error=E)
    yield Case("mean", "int64_to_float64", _args(("self", _t(I64, (2, 3))), ("dtype", DType(F64))))
    yield Case(
        "mean",
        "float32_randn",
        _args(("self", _t(F32, (7, 9), randn=True)), ("dtype", NONE)),
        tol=TOL[F32],
    )
    yield Case("mean", "noncontig", _args(("self", _t(F32, (3, 4), layout="T")), ("dtype", NONE)))
    yield Case("mean", "size0", _args(("self", _t(F32, (0,))), ("dtype", NONE)))
    yield Case("mean", "size1", _args(("self", _t(F64, (1,))), ("dtype", NONE)))
    yield Case(
        "mean", "int_dtype_error", _args(("self", _t(F32, (2,))), ("dtype", DType(I64))), error=E
    )


def var_cases() -> Iterator[Case]:
    for d in ALL7:
        yield Case(
            "var.correction",
            dn(d),
            _args(
                ("self", _t(d, (3, 4))),
                ("dim", opt(Ints, [1])),
                ("correction", NONE),
                ("keepdim", Bool(False)),
            ),
            error=E,
            tol=_tol(d),
        )
    for k, c in enumerate((0, 1, 2, 1.5)):
        yield Case(
            "var.correction",
            f"correction{k}_randn",
            _args(
                ("self", _t(F32, (4, 6), randn=True)),
                ("dim", opt(Ints, [1])),
                ("correction", Scalar(c)),
                ("keepdim", Bool(False)),
            ),
            tol=TOL[F32],
        )
    yield Case(
        "var.correction",
        "all_dims_randn",
        _args(
            ("self", _t(F64, (3, 5), randn=True)),
            ("dim", NONE),
            ("correction", NONE),
            ("keepdim", Bool(False)),
        ),
        tol=TOL[F64],
    )
    yield Case(
        "var.correction",
        "two_dims_keepdim_randn",
        _args(
            ("self", _t(F32, (2, 3, 4), randn=True)),
            ("dim", opt(Ints, [0, 2])),
            ("correction", NONE),
            ("keepdim", Bool(True)),
        ),
        tol=TOL[F32],
    )
    yield Case(
        "var.correction",
        "noncontig_randn",
        _args(
            ("self", _t(F32, (5, 4), layout="T", randn=True)),
            ("dim", opt(Ints, [0])),
            ("correction", NONE),
            ("keepdim", Bool(False)),
        ),
        tol=TOL[F32],
    )
    yield Case(
        "var.correction",
        "long_row_randn",
        _args(
            ("self", _t(F32, (2, 500), randn=True)),
            ("dim", opt(Ints, [1])),
            ("correction", NONE),
            ("keepdim", Bool(False)),
        ),
        tol=TOL[F32],
    )
    yield Case(
        "var.correction",
        "size1_nan",
        _args(
            ("self", _t(F32, (1,))), ("dim", NONE), ("correction", NONE), ("keepdim", Bool(False))
        ),
    )
    yield Case(
        "var.correction",
        "too_few_inf",
        _args(
            ("self", _t(F32, (3,), vals=[1.0, 2.0, 4.0])),
            ("dim", NONE),
            ("correction", Scalar(5)),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        "var.correction",
        "size0",
        _args(
            ("self", _t(F32, (0, 3))),
            ("dim", opt(Ints, [1])),
            ("correction", NONE),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        "var.correction",
        "zerodim",
        _args(
            ("self", _t(F64, (), vals=2.0)),
            ("dim", NONE),
            ("correction", Scalar(0)),
            ("keepdim", Bool(False)),
        ),
    )
    yield Case(
        "var.correction_out",
        "out",
        _args(
            ("self", _t(F32, (3, 4))),
            ("dim", opt(Ints, [0])),
            ("correction", NONE),
            ("keepdim", Bool(False)),
            ("out", _t(F32, (0,))),
        ),
        result="out",
        tol=TOL[F32],
    )
    yield Case(
        "var.dim",
        "unbiased_randn",
        _args(
            ("self", _t(F32, (3, 4), randn=True)),
            ("dim", opt(Ints, [1])),
            ("unbiased", Bool(True)),
            ("keepdim", Bool(False)),
        ),
        tol=TOL[F32],
    )
    yield Case(
        "var.dim",
        "biased_randn",
        _args(
            ("self", _t(F64, (3, 4), randn=True)),
            ("dim", opt(Ints, [0])),
            ("unbiased", Bool(False)),
            ("keepdim", Bool(True)),
        ),
        tol=TOL[F64],
    )
    yield Case(
        "var.dim",
        "int_error",
        _args(
            ("self", _t(I64, (3, 4))),
            ("dim", opt(Ints, [0])),
            ("unbiased", Bool(False)),
            ("keepdim", Bool(True)),
        ),
        error="std and var only support floating point and complex dtypes",
    )
    yield Case(
        "var.out",
        "out",
        _args(
            ("self", _t(F32, (3, 4))),
            ("dim", opt(Ints, [1])),
            ("unbiased", Bool(True)),
            ("keepdim", Bool(False)),
            ("out", _t(F32, (0,))),
        ),
        result="out",
        tol=TOL[F32],
    )


FAMILIES = [
    FamilyInfo("argmin", ops=("argmin", "argmin.out"), sample_inputs=lambda: arg_cases("argmin")),
    FamilyInfo(
        "max_dim", ops=("max.dim", "max.dim_max"), sample_inputs=lambda: arg_cases("max.dim")
    ),
    FamilyInfo(
        "min_dim", ops=("min.dim", "min.dim_min"), sample_inputs=lambda: arg_cases("min.dim")
    ),
    FamilyInfo(
        "any_all", ops=("any", "any.dims", "any.all_out", "any.dims_out"), sample_inputs=any_cases
    ),
    FamilyInfo("prod", ops=("prod", "prod.dim_int", "prod.int_out"), sample_inputs=prod_cases),
    FamilyInfo("mean_all", ops=("mean",), sample_inputs=mean_all_cases),
    FamilyInfo(
        "var",
        ops=("var.correction", "var.correction_out", "var.dim", "var.out"),
        sample_inputs=var_cases,
    ),
]
