"""Scatter, index_put, sorting and the remaining shape and copy operators of core ATen:
scatter (src, value), scatter_add, index_put, flip, nonzero, sort, topk, diagonal,
squeeze.dim, fill.Scalar, copy, slice_scatter, select_scatter, empty_strided and
native_dropout (inference, and training with p 0 or 1: the cases whose results do not
depend on random draws). Cases over every dtype use `error=TORCH_MESSAGE`.
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    ALL9,
    F32,
    F64,
    I32,
    I64,
    NONE,
    TORCH_MESSAGE,
    B,
    Bool,
    Case,
    DType,
    FamilyInfo,
    Float,
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


def scatter_cases() -> Iterator[Case]:
    idx = _t(I64, (2, 3), vals=[[0, 2, 1], [3, 0, 2]])
    for d in ALL9:
        yield Case(
            "scatter.src",
            dn(d),
            _args(("self", _t(d, (4, 3))), ("dim", Int(0)), ("index", idx), ("src", _t(d, (2, 4)))),
        )
        yield Case(
            "scatter.value",
            f"{dn(d)}_value",
            _args(
                ("self", _t(d, (4, 3))),
                ("dim", Int(0)),
                ("index", idx),
                ("value", Scalar(True if d == B else 2)),
            ),
            error=E,
        )
    yield Case(
        "scatter.src",
        "dim1_noncontig",
        _args(
            ("self", _t(F32, (3, 5), layout="T")),
            ("dim", Int(1)),
            ("index", _t(I64, (2, 2), vals=[[4, 0], [1, 3]])),
            ("src", _t(F32, (3, 3), layout="T")),
        ),
    )
    yield Case(
        "scatter.src",
        "int32_index",
        _args(
            ("self", _t(F32, (3,))),
            ("dim", Int(0)),
            ("index", _t(I32, (2,), vals=[2, 0])),
            ("src", _t(F32, (2,))),
        ),
    )
    yield Case(
        "scatter.src",
        "size0_index",
        _args(
            ("self", _t(F32, (3,))),
            ("dim", Int(0)),
            ("index", _t(I64, (0,))),
            ("src", _t(F32, (2,))),
        ),
    )
    yield Case(
        "scatter.src",
        "size1",
        _args(
            ("self", _t(F32, (1,))),
            ("dim", Int(0)),
            ("index", _t(I64, (1,), vals=[0])),
            ("src", _t(F32, (1,))),
        ),
    )
    yield Case(
        "scatter.src",
        "out_of_bounds_error",
        _args(
            ("self", _t(F32, (3,))),
            ("dim", Int(0)),
            ("index", _t(I64, (2,), vals=[2, 3])),
            ("src", _t(F32, (2,))),
        ),
        error="index 3 is out of bounds for dimension 0 with size 3",
    )
    yield Case(
        "scatter.src",
        "dtype_error",
        _args(
            ("self", _t(F32, (3,))),
            ("dim", Int(0)),
            ("index", _t(I64, (2,), vals=[2, 0])),
            ("src", _t(F64, (2,))),
        ),
        error="scatter(): Expected self.dtype to be equal to src.dtype",
    )
    yield Case(
        "scatter.src",
        "size_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (1, 4), vals=[[0, 1, 2, 0]])),
            ("src", _t(F32, (1, 2))),
        ),
        error="Expected index [1, 4] to be no larger than self [2, 3] apart from dimension 1 and to be no larger size than src [1, 2]",
    )
    yield Case(
        "scatter.src",
        "float_index_error",
        _args(
            ("self", _t(F32, (3,))),
            ("dim", Int(0)),
            ("index", _t(F32, (2,), vals=[2.0, 0.0])),
            ("src", _t(F32, (2,))),
        ),
        error=E,
    )
    yield Case(
        "scatter_.src",
        "inplace",
        _args(("self", _t(F32, (4, 3))), ("dim", Int(0)), ("index", idx), ("src", _t(F32, (2, 4)))),
        result="self",
    )
    yield Case(
        "scatter.src_out",
        "out",
        _args(
            ("self", _t(F32, (4, 3))),
            ("dim", Int(0)),
            ("index", idx),
            ("src", _t(F32, (2, 4))),
            ("out", _t(F32, (0,))),
        ),
        result="out",
    )
    yield Case(
        "scatter.value_out",
        "out",
        _args(
            ("self", _t(F32, (4, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (1, 2), vals=[[2, 0]])),
            ("value", Scalar(-1.5)),
            ("out", _t(F32, (0,))),
        ),
        result="out",
    )
    yield Case(
        "scatter_.value",
        "inplace",
        _args(
            ("self", _t(I64, (4, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (1, 2), vals=[[2, 0]])),
            ("value", Scalar(7)),
        ),
        result="self",
    )


def scatter_add_cases() -> Iterator[Case]:
    idx = _t(I64, (2, 3), vals=[[0, 2, 2], [0, 2, 2]])
    for d in ALL7:
        yield Case(
            "scatter_add",
            dn(d),
            _args(("self", _t(d, (3, 3))), ("dim", Int(0)), ("index", idx), ("src", _t(d, (2, 3)))),
            error=E,
        )
    yield Case(
        "scatter_add",
        "repeated_dim1",
        _args(
            ("self", _t(F64, (2, 4))),
            ("dim", Int(1)),
            ("index", _t(I64, (2, 3), vals=[[3, 3, 3], [0, 1, 0]])),
            ("src", _t(F64, (2, 3))),
        ),
    )
    yield Case(
        "scatter_add",
        "size0",
        _args(
            ("self", _t(F32, (0,))),
            ("dim", Int(0)),
            ("index", _t(I64, (0,))),
            ("src", _t(F32, (0,))),
        ),
    )
    yield Case(
        "scatter_add",
        "noncontig",
        _args(
            ("self", _t(F32, (3, 4), layout="T")),
            ("dim", Int(1)),
            ("index", _t(I64, (3, 2), vals=[[0, 3], [3, 3], [1, 0]], layout="T")),
            ("src", _t(F32, (3, 4), layout="step")),
        ),
    )
    yield Case(
        "scatter_add",
        "size1_noncontig",
        _args(
            ("self", _t(F32, (1, 3), layout="T")),
            ("dim", Int(1)),
            ("index", _t(I64, (1, 1), vals=[[2]])),
            ("src", _t(F32, (1, 1))),
        ),
    )
    yield Case(
        "scatter_add",
        "out_of_bounds_error",
        _args(
            ("self", _t(F32, (3,))),
            ("dim", Int(0)),
            ("index", _t(I64, (1,), vals=[-1])),
            ("src", _t(F32, (1,))),
        ),
        error="index -1 is out of bounds for dimension 0 with size 3",
    )
    yield Case(
        "scatter_add_",
        "inplace",
        _args(("self", _t(F32, (3, 3))), ("dim", Int(0)), ("index", idx), ("src", _t(F32, (2, 3)))),
        result="self",
    )
    yield Case(
        "scatter_add.out",
        "out",
        _args(
            ("self", _t(F32, (3, 3))),
            ("dim", Int(0)),
            ("index", idx),
            ("src", _t(F32, (2, 3))),
            ("out", _t(F32, (0,))),
        ),
        result="out",
    )


def index_put_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "index_put",
            dn(d),
            _args(
                ("self", _t(d, (4, 3))),
                ("indices", [_t(I64, (2,), vals=[3, -4])]),
                ("values", _t(d, (3,))),
                ("accumulate", Bool(False)),
            ),
        )
    for d in ALL7:
        yield Case(
            "index_put",
            f"{dn(d)}_accumulate_repeated",
            _args(
                ("self", _t(d, (4,))),
                ("indices", [_t(I64, (4,), vals=[1, 1, 3, 1])]),
                ("values", _t(d, (4,))),
                ("accumulate", Bool(True)),
            ),
            error=E,
        )
    yield Case(
        "index_put",
        "second_dim_mask",
        _args(
            ("self", _t(F32, (2, 3))),
            ("indices", [NONE, _t(B, (3,), vals=[True, False, True])]),
            ("values", _t(F32, ())),
            ("accumulate", Bool(False)),
        ),
    )
    yield Case(
        "index_put",
        "two_dims",
        _args(
            ("self", _t(F64, (3, 4))),
            ("indices", [_t(I64, (2,), vals=[0, 2]), _t(I64, (2,), vals=[3, 1])]),
            ("values", _t(F64, (2,))),
            ("accumulate", Bool(False)),
        ),
    )
    yield Case(
        "index_put",
        "noncontig",
        _args(
            ("self", _t(F32, (3, 4), layout="T")),
            ("indices", [NONE, _t(I64, (2,), vals=[1, 2])]),
            ("values", _t(F32, (3, 1))),
            ("accumulate", Bool(False)),
        ),
    )
    yield Case(
        "index_put",
        "size0",
        _args(
            ("self", _t(F32, (3,))),
            ("indices", [_t(I64, (0,))]),
            ("values", _t(F32, (0,))),
            ("accumulate", Bool(False)),
        ),
    )
    yield Case(
        "index_put",
        "size1",
        _args(
            ("self", _t(F32, (1,))),
            ("indices", [_t(I64, (1,), vals=[0])]),
            ("values", _t(F32, (1,))),
            ("accumulate", Bool(True)),
        ),
    )
    yield Case(
        "index_put",
        "dtype_error",
        _args(
            ("self", _t(F32, (3,))),
            ("indices", [_t(I64, (1,), vals=[0])]),
            ("values", _t(F64, (1,))),
            ("accumulate", Bool(False)),
        ),
        error="Index put requires the source and destination dtypes match",
    )
    yield Case(
        "index_put",
        "shape_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("indices", [_t(I64, (2,), vals=[0, 1])]),
            ("values", _t(F32, (3, 2))),
            ("accumulate", Bool(False)),
        ),
        error="shape mismatch: value tensor of shape [3, 2] cannot be broadcast to indexing result of shape [2, 3]",
    )
    yield Case(
        "index_put",
        "out_of_bounds_error",
        _args(
            ("self", _t(F32, (3,))),
            ("indices", [_t(I64, (1,), vals=[3])]),
            ("values", _t(F32, (1,))),
            ("accumulate", Bool(False)),
        ),
        error="index 3 is out of bounds for dimension 0 with size 3",
    )
    yield Case(
        "index_put_",
        "inplace",
        _args(
            ("self", _t(F32, (4, 3))),
            ("indices", [_t(I64, (2,), vals=[1, 2])]),
            ("values", _t(F32, (2, 3))),
            ("accumulate", Bool(False)),
        ),
        result="self",
    )


def flip_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case("flip", dn(d), _args(("self", _t(d, (2, 3))), ("dims", Ints([1]))))
    yield Case(
        "flip",
        "all_dims_noncontig",
        _args(("self", _t(F32, (3, 4), layout="T")), ("dims", Ints([0, -1]))),
    )
    yield Case("flip", "3d_middle", _args(("self", _t(I64, (2, 3, 2))), ("dims", Ints([1]))))
    yield Case("flip", "no_dims", _args(("self", _t(F32, (2, 3))), ("dims", Ints([]))))
    yield Case("flip", "size0", _args(("self", _t(F32, (0, 3))), ("dims", Ints([0]))))
    yield Case("flip", "size1", _args(("self", _t(F32, (1,))), ("dims", Ints([0]))))
    yield Case("flip", "zerodim", _args(("self", _t(F32, ())), ("dims", Ints([0]))))
    yield Case(
        "flip",
        "repeated_error",
        _args(("self", _t(F32, (2,))), ("dims", Ints([0, 0]))),
        error="dim 0 appears multiple times in the list of dims",
    )
    yield Case(
        "flip.out",
        "out",
        _args(("self", _t(F32, (2, 3))), ("dims", Ints([0])), ("out", _t(F32, (0,)))),
        result="out",
    )


def nonzero_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "nonzero",
            dn(d),
            _args(("self", _t(d, (3, 4), rng=(0, 1) if not d.is_floating_point else (-0.5, 0.5)))),
        )
    yield Case(
        "nonzero", "nan_and_negzero", _args(("self", _t(F32, (4,), vals=[NAN, -0.0, 0.0, 1.0])))
    )
    yield Case("nonzero", "noncontig", _args(("self", _t(I64, (3, 4), rng=(0, 1), layout="T"))))
    yield Case("nonzero", "size0", _args(("self", _t(F32, (0, 3)))))
    yield Case("nonzero", "size1", _args(("self", _t(F32, (1,), vals=[2.0]))))
    yield Case("nonzero", "zerodim", _args(("self", _t(I32, (), vals=5))))
    yield Case("nonzero", "zerodim_zero", _args(("self", _t(I32, (), vals=0))))
    yield Case(
        "nonzero.out", "out", _args(("self", _t(B, (2, 3))), ("out", _t(I64, (0,)))), result="out"
    )
    yield Case(
        "nonzero.out",
        "float_out_error",
        _args(("self", _t(B, (2, 3))), ("out", _t(F32, (0,)))),
        error=E,
    )


def sort_cases() -> Iterator[Case]:
    for d in ALL7:
        yield Case(
            "sort",
            dn(d),
            _args(("self", _t(d, (3, 5))), ("dim", Int(-1)), ("descending", Bool(False))),
            error=E,
        )
        yield Case(
            "sort",
            f"{dn(d)}_descending_dim0",
            _args(("self", _t(d, (4, 3))), ("dim", Int(0)), ("descending", Bool(True))),
            error=E,
        )
    yield Case(
        "sort",
        "nan_inf",
        _args(
            ("self", _t(F64, (6,), vals=[1.0, NAN, -float("inf"), float("inf"), NAN, -2.0])),
            ("dim", Int(0)),
            ("descending", Bool(False)),
        ),
    )
    yield Case(
        "sort",
        "nan_inf_descending",
        _args(
            ("self", _t(F32, (6,), vals=[1.0, NAN, -float("inf"), float("inf"), NAN, -2.0])),
            ("dim", Int(0)),
            ("descending", Bool(True)),
        ),
    )
    yield Case(
        "sort",
        "stable_ties",
        _args(
            ("self", _t(I64, (8,), vals=[2, 1, 2, 1, 0, 2, 1, 0])),
            ("dim", Int(0)),
            ("descending", Bool(True)),
        ),
    )
    yield Case(
        "sort",
        "noncontig",
        _args(("self", _t(F32, (3, 4), layout="T")), ("dim", Int(1)), ("descending", Bool(False))),
    )
    yield Case(
        "sort",
        "size0",
        _args(("self", _t(F32, (0, 3))), ("dim", Int(1)), ("descending", Bool(False))),
    )
    yield Case(
        "sort",
        "size1",
        _args(("self", _t(F32, (1,))), ("dim", Int(0)), ("descending", Bool(False))),
    )
    yield Case(
        "sort",
        "zerodim",
        _args(("self", _t(F32, ())), ("dim", Int(0)), ("descending", Bool(False))),
    )
    yield Case(
        "sort",
        "dim_error",
        _args(("self", _t(F32, (2, 3))), ("dim", Int(2)), ("descending", Bool(False))),
        error="Dimension out of range",
    )
    yield Case(
        "sort.values",
        "out",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("descending", Bool(False)),
            ("values", _t(F32, (0,))),
            ("indices", _t(I64, (0,))),
        ),
    )


def topk_cases() -> Iterator[Case]:
    for d in ALL7:
        # Distinct values in each row: which of equal values topk picks is unspecified.
        rows = [[5, 2, 7, 0, 3, 6], [1, 4, 0, 6, 2, 3], [7, 6, 5, 4, 3, 2]]
        yield Case(
            "topk",
            dn(d),
            _args(
                ("self", _t(d, (3, 6), vals=rows)),
                ("k", Int(2)),
                ("dim", Int(-1)),
                ("largest", Bool(True)),
                ("sorted", Bool(True)),
            ),
            error=E,
        )
    yield Case(
        "topk",
        "smallest_dim0_randn",
        _args(
            ("self", _t(F32, (5, 3), randn=True)),
            ("k", Int(3)),
            ("dim", Int(0)),
            ("largest", Bool(False)),
            ("sorted", Bool(True)),
        ),
    )
    yield Case(
        "topk",
        "noncontig_randn",
        _args(
            ("self", _t(F64, (4, 5), layout="T", randn=True)),
            ("k", Int(4)),
            ("dim", Int(1)),
            ("largest", Bool(True)),
            ("sorted", Bool(True)),
        ),
    )
    yield Case(
        "topk",
        "nan_is_largest",
        _args(
            ("self", _t(F32, (4,), vals=[1.0, NAN, 3.0, -1.0])),
            ("k", Int(2)),
            ("dim", Int(0)),
            ("largest", Bool(True)),
            ("sorted", Bool(True)),
        ),
    )
    yield Case(
        "topk",
        "k0",
        _args(
            ("self", _t(F32, (2, 3))),
            ("k", Int(0)),
            ("dim", Int(1)),
            ("largest", Bool(True)),
            ("sorted", Bool(True)),
        ),
    )
    yield Case(
        "topk",
        "size0",
        _args(
            ("self", _t(F32, (0, 3))),
            ("k", Int(1)),
            ("dim", Int(1)),
            ("largest", Bool(True)),
            ("sorted", Bool(True)),
        ),
    )
    yield Case(
        "topk",
        "size1",
        _args(
            ("self", _t(F32, (1,))),
            ("k", Int(1)),
            ("dim", Int(0)),
            ("largest", Bool(True)),
            ("sorted", Bool(True)),
        ),
    )
    yield Case(
        "topk",
        "k_error",
        _args(
            ("self", _t(F32, (3,))),
            ("k", Int(4)),
            ("dim", Int(0)),
            ("largest", Bool(True)),
            ("sorted", Bool(True)),
        ),
        error="selected index k out of range",
    )
    yield Case(
        "topk.values",
        "out",
        _args(
            ("self", _t(F32, (2, 5), randn=True)),
            ("k", Int(2)),
            ("dim", Int(1)),
            ("largest", Bool(True)),
            ("sorted", Bool(True)),
            ("values", _t(F32, (0,))),
            ("indices", _t(I64, (0,))),
        ),
    )


def view_copy_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "diagonal",
            dn(d),
            _args(("self", _t(d, (3, 4))), ("offset", Int(1)), ("dim1", Int(0)), ("dim2", Int(1))),
            view=True,
        )
        yield Case(
            "fill.Scalar",
            dn(d),
            _args(("self", _t(d, (2, 3))), ("value", Scalar(True if d == B else 3))),
            error=E,
        )
        yield Case(
            "copy",
            dn(d),
            _args(("self", _t(d, (2, 3))), ("src", _t(F32, (3,))), ("non_blocking", Bool(False))),
        )
    yield Case(
        "diagonal",
        "negative_offset_3d",
        _args(
            ("self", _t(F32, (2, 3, 4))), ("offset", Int(-1)), ("dim1", Int(2)), ("dim2", Int(1))
        ),
        view=True,
    )
    yield Case(
        "diagonal",
        "offset_past_end",
        _args(("self", _t(F32, (3, 4))), ("offset", Int(-5)), ("dim1", Int(0)), ("dim2", Int(1))),
        view=True,
    )
    yield Case(
        "diagonal",
        "noncontig",
        _args(
            ("self", _t(F32, (4, 4), layout="T")),
            ("offset", Int(0)),
            ("dim1", Int(0)),
            ("dim2", Int(1)),
        ),
        view=True,
    )
    yield Case(
        "diagonal",
        "size0",
        _args(("self", _t(F32, (0, 3))), ("offset", Int(0)), ("dim1", Int(0)), ("dim2", Int(1))),
        view=True,
    )
    yield Case(
        "diagonal",
        "size1",
        _args(("self", _t(F32, (1, 1))), ("offset", Int(0)), ("dim1", Int(0)), ("dim2", Int(1))),
        view=True,
    )
    yield Case(
        "diagonal",
        "same_dims_error",
        _args(("self", _t(F32, (3, 4))), ("offset", Int(0)), ("dim1", Int(0)), ("dim2", Int(-2))),
        error="diagonal dimensions cannot be identical",
    )
    yield Case(
        "squeeze.dim", "size1_dim", _args(("self", _t(F32, (2, 1, 3))), ("dim", Int(1))), view=True
    )
    yield Case("squeeze.dim", "kept", _args(("self", _t(F32, (2, 3))), ("dim", Int(-1))), view=True)
    yield Case("squeeze.dim", "size0", _args(("self", _t(F32, (0, 1))), ("dim", Int(1))), view=True)
    yield Case(
        "squeeze.dim",
        "noncontig",
        _args(("self", _t(F32, (3, 1), layout="T")), ("dim", Int(1))),
        view=True,
    )
    yield Case(
        "squeeze.dim",
        "dim_error",
        _args(("self", _t(F32, (2, 3))), ("dim", Int(2))),
        error="Dimension out of range",
    )
    yield Case(
        "fill.Scalar",
        "noncontig",
        _args(("self", _t(F32, (3, 4), layout="T")), ("value", Scalar(-0.5))),
    )
    yield Case("fill.Scalar", "size0", _args(("self", _t(F32, (0,))), ("value", Scalar(1))))
    yield Case("fill.Scalar", "size1", _args(("self", _t(I64, (1,))), ("value", Scalar(-7))))
    yield Case(
        "copy",
        "broadcast_noncontig",
        _args(
            ("self", _t(F64, (3, 4), layout="T")),
            ("src", _t(I64, (1, 4))),
            ("non_blocking", Bool(False)),
        ),
    )
    yield Case(
        "copy",
        "size0",
        _args(("self", _t(F32, (0, 2))), ("src", _t(F32, (2,))), ("non_blocking", Bool(False))),
    )
    yield Case(
        "copy",
        "size1",
        _args(("self", _t(F32, (1,))), ("src", _t(F32, ())), ("non_blocking", Bool(False))),
    )
    yield Case(
        "copy",
        "shape_error",
        _args(("self", _t(F32, (2, 3))), ("src", _t(F32, (2,))), ("non_blocking", Bool(False))),
        error=E,
    )


def scatter_view_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "slice_scatter",
            dn(d),
            _args(
                ("self", _t(d, (3, 4))),
                ("src", _t(d, (3, 2))),
                ("dim", Int(1)),
                ("start", opt(Int, 0)),
                ("end", opt(Int, 4)),
                ("step", Int(2)),
            ),
        )
        yield Case(
            "select_scatter",
            dn(d),
            _args(
                ("self", _t(d, (3, 4))), ("src", _t(d, (4,))), ("dim", Int(0)), ("index", Int(-1))
            ),
        )
    yield Case(
        "slice_scatter",
        "defaults_noncontig",
        _args(
            ("self", _t(F32, (4, 3), layout="T")),
            ("src", _t(F32, (2, 3))),
            ("dim", Int(0)),
            ("start", opt(Int, 2)),
            ("end", NONE),
            ("step", Int(1)),
        ),
    )
    yield Case(
        "slice_scatter",
        "size0",
        _args(
            ("self", _t(F32, (0, 3))),
            ("src", _t(F32, (0, 1))),
            ("dim", Int(1)),
            ("start", opt(Int, 1)),
            ("end", opt(Int, 2)),
            ("step", Int(1)),
        ),
    )
    yield Case(
        "slice_scatter",
        "size1",
        _args(
            ("self", _t(F32, (1,))),
            ("src", _t(F32, (1,))),
            ("dim", Int(0)),
            ("start", NONE),
            ("end", NONE),
            ("step", Int(1)),
        ),
    )
    yield Case(
        "slice_scatter",
        "shape_error",
        _args(
            ("self", _t(F32, (3, 4))),
            ("src", _t(F32, (3, 3))),
            ("dim", Int(1)),
            ("start", opt(Int, 0)),
            ("end", opt(Int, 4)),
            ("step", Int(2)),
        ),
        error="expected src to have a size equal to the slice of self",
    )
    yield Case(
        "select_scatter",
        "dim1_noncontig",
        _args(
            ("self", _t(F32, (3, 4), layout="T")),
            ("src", _t(F32, (3,))),
            ("dim", Int(1)),
            ("index", Int(2)),
        ),
    )
    yield Case(
        "select_scatter",
        "size0",
        _args(
            ("self", _t(F32, (2, 0))), ("src", _t(F32, (0,))), ("dim", Int(0)), ("index", Int(1))
        ),
    )
    yield Case(
        "select_scatter",
        "size1",
        _args(("self", _t(F32, (1,))), ("src", _t(F32, ())), ("dim", Int(0)), ("index", Int(0))),
    )
    yield Case(
        "select_scatter",
        "index_error",
        _args(
            ("self", _t(F32, (3, 4))), ("src", _t(F32, (4,))), ("dim", Int(0)), ("index", Int(5))
        ),
        error=E,
    )


def factory_dropout_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "empty_strided",
            dn(d),
            _args(
                ("size", Ints([2, 3])),
                ("stride", Ints([1, 2])),
                ("dtype", opt(DType, d)),
                ("layout", NONE),
                ("device", NONE),
                ("pin_memory", NONE),
            ),
            values_any=True,
        )
    yield Case(
        "empty_strided",
        "overlapping",
        _args(
            ("size", Ints([3, 2])),
            ("stride", Ints([1, 1])),
            ("dtype", NONE),
            ("layout", NONE),
            ("device", NONE),
            ("pin_memory", NONE),
        ),
        values_any=True,
    )
    yield Case(
        "empty_strided",
        "size0",
        _args(
            ("size", Ints([0, 4])),
            ("stride", Ints([4, 1])),
            ("dtype", NONE),
            ("layout", NONE),
            ("device", NONE),
            ("pin_memory", NONE),
        ),
        values_any=True,
    )
    yield Case(
        "empty_strided",
        "size1",
        _args(
            ("size", Ints([1])),
            ("stride", Ints([5])),
            ("dtype", NONE),
            ("layout", NONE),
            ("device", NONE),
            ("pin_memory", NONE),
        ),
        values_any=True,
    )
    yield Case(
        "empty_strided.out",
        "out",
        _args(("size", Ints([2, 3])), ("stride", Ints([3, 1])), ("out", _t(F32, (0,)))),
        result="out",
        values_any=True,
    )
    yield Case(
        "empty_strided",
        "negative_error",
        _args(
            ("size", Ints([-1])),
            ("stride", Ints([1])),
            ("dtype", NONE),
            ("layout", NONE),
            ("device", NONE),
            ("pin_memory", NONE),
        ),
        error=E,
    )
    for d in (F32, F64):
        yield Case(
            "native_dropout",
            f"{dn(d)}_eval",
            _args(("input", _t(d, (2, 3))), ("p", Float(0.5)), ("train", opt(Bool, False))),
        )
        yield Case(
            "native_dropout",
            f"{dn(d)}_train_p0",
            _args(("input", _t(d, (2, 3))), ("p", Float(0.0)), ("train", opt(Bool, True))),
        )
        yield Case(
            "native_dropout",
            f"{dn(d)}_train_p1",
            _args(("input", _t(d, (2, 3))), ("p", Float(1.0)), ("train", opt(Bool, True))),
        )
    yield Case(
        "native_dropout",
        "eval_noncontig",
        _args(
            ("input", _t(F32, (3, 4), layout="T")), ("p", Float(0.1)), ("train", opt(Bool, False))
        ),
    )
    yield Case(
        "native_dropout",
        "size0",
        _args(("input", _t(F32, (0, 3))), ("p", Float(0.1)), ("train", opt(Bool, False))),
    )
    yield Case(
        "native_dropout",
        "size1",
        _args(("input", _t(F32, (1,))), ("p", Float(0.0)), ("train", NONE)),
    )
    yield Case(
        "native_dropout",
        "p_error",
        _args(("input", _t(F32, (3,))), ("p", Float(1.5)), ("train", opt(Bool, True))),
        error=E,
    )


FAMILIES = [
    FamilyInfo(
        "scatter",
        ops=(
            "scatter.src",
            "scatter.value",
            "scatter_.src",
            "scatter_.value",
            "scatter.src_out",
            "scatter.value_out",
        ),
        sample_inputs=scatter_cases,
    ),
    FamilyInfo(
        "scatter_add",
        ops=("scatter_add", "scatter_add_", "scatter_add.out"),
        sample_inputs=scatter_add_cases,
    ),
    FamilyInfo(
        "index_put",
        ops=("index_put", "index_put_"),
        sample_inputs=index_put_cases,
        broadcast="values",
    ),
    FamilyInfo("flip", ops=("flip", "flip.out"), sample_inputs=flip_cases),
    FamilyInfo("nonzero", ops=("nonzero", "nonzero.out"), sample_inputs=nonzero_cases),
    FamilyInfo("sort", ops=("sort", "sort.values"), sample_inputs=sort_cases),
    FamilyInfo("topk", ops=("topk", "topk.values"), sample_inputs=topk_cases),
    FamilyInfo(
        "view_copy",
        ops=("diagonal", "squeeze.dim", "fill.Scalar", "copy"),
        sample_inputs=view_copy_cases,
        broadcast="src",
    ),
    FamilyInfo(
        "scatter_view", ops=("slice_scatter", "select_scatter"), sample_inputs=scatter_view_cases
    ),
    FamilyInfo(
        "empty_strided_dropout",
        ops=("empty_strided", "empty_strided.out", "native_dropout"),
        sample_inputs=factory_dropout_cases,
    ),
]
