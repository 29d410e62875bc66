"""Indexing and scans of core ATen: gather, index.Tensor (advanced indexing, with absent
`None` indices and boolean masks), index_select, cumsum, repeat, as_strided and
native_group_norm. Cases over every dtype use `error=TORCH_MESSAGE` (PyTorch decides).
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    ALL9,
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
    Float,
    Int,
    Ints,
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
TOL = {F32: (1e-5, 1e-6), F64: (1e-12, 1e-300)}


def _index(n, shape, layout="contig"):
    """int64 indices into a dimension of size n (negative ones too)."""
    return _t(I64, shape, rng=(-n, n - 1), layout=layout)


def gather_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "gather",
            dn(d),
            _args(
                ("self", _t(d, (3, 4))),
                ("dim", Int(1)),
                ("index", _t(I64, (3, 2), rng=(0, 3))),
                ("sparse_grad", Bool(False)),
            ),
        )
    yield Case(
        "gather",
        "dim0_noncontig",
        _args(
            ("self", _t(F32, (3, 4), layout="T")),
            ("dim", Int(0)),
            ("index", _t(I64, (2, 4), rng=(0, 2), layout="T")),
            ("sparse_grad", Bool(False)),
        ),
    )
    yield Case(
        "gather",
        "negative_dim_smaller_index",
        _args(
            ("self", _t(F64, (2, 3, 4))),
            ("dim", Int(-1)),
            ("index", _t(I64, (1, 2, 6), rng=(0, 3))),
            ("sparse_grad", Bool(False)),
        ),
    )
    yield Case(
        "gather",
        "int32_index",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("index", _t(I32, (2, 2), rng=(0, 2))),
            ("sparse_grad", Bool(False)),
        ),
    )
    yield Case(
        "gather",
        "size0",
        _args(
            ("self", _t(F32, (3, 4))),
            ("dim", Int(0)),
            ("index", _t(I64, (0, 4))),
            ("sparse_grad", Bool(False)),
        ),
    )
    yield Case(
        "gather",
        "size1",
        _args(
            ("self", _t(I64, (1,))),
            ("dim", Int(0)),
            ("index", _t(I64, (1,), vals=[0])),
            ("sparse_grad", Bool(False)),
        ),
    )
    yield Case(
        "gather",
        "zerodim",
        _args(
            ("self", _t(F32, ())),
            ("dim", Int(0)),
            ("index", _t(I64, (), vals=0)),
            ("sparse_grad", Bool(False)),
        ),
    )
    yield Case(
        "gather",
        "out_of_bounds_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (2, 1), vals=[[0], [3]])),
            ("sparse_grad", Bool(False)),
        ),
        error=E,
    )
    yield Case(
        "gather",
        "negative_index_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (2, 1), vals=[[0], [-1]])),
            ("sparse_grad", Bool(False)),
        ),
        error=E,
    )
    # Rows of nine: the CPU kernel's four-at-a-time loop along the last dimension (two
    # blocks and a tail), with a bad index inside a block and one in the tail.
    yield Case(
        "gather",
        "rows_of_nine",
        _args(
            ("self", _t(F64, (3, 7))),
            ("dim", Int(1)),
            ("index", _t(I64, (3, 9), rng=(0, 6))),
            ("sparse_grad", Bool(False)),
        ),
    )
    yield Case(
        "gather",
        "rows_of_nine_bad_in_block_error",
        _args(
            ("self", _t(F32, (2, 5))),
            ("dim", Int(1)),
            (
                "index",
                _t(I64, (2, 9), vals=[[0, 1, 2, 3, 4, 0, 1, 2, 3], [4, 3, 2, 1, 0, 5, 1, 2, 3]]),
            ),
            ("sparse_grad", Bool(False)),
        ),
        error=E,
    )
    yield Case(
        "gather",
        "rows_of_nine_negative_in_tail_error",
        _args(
            ("self", _t(F64, (2, 5))),
            ("dim", Int(1)),
            (
                "index",
                _t(I64, (2, 9), vals=[[0, 1, 2, 3, 4, 0, 1, 2, 3], [4, 3, 2, 1, 0, 4, 1, 2, -2]]),
            ),
            ("sparse_grad", Bool(False)),
        ),
        error=E,
    )
    yield Case(
        "gather",
        "int8_index_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("index", _t(I8, (2, 1), vals=[[0], [1]])),
            ("sparse_grad", Bool(False)),
        ),
        error=E,
    )
    yield Case(
        "gather",
        "index_too_large_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (3, 1), vals=[[0], [1], [0]])),
            ("sparse_grad", Bool(False)),
        ),
        error="Size does not match at dimension 0",
    )
    yield Case(
        "gather",
        "dims_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (2,), vals=[0, 1])),
            ("sparse_grad", Bool(False)),
        ),
        error="Index tensor must have the same number of dimensions as input tensor",
    )
    yield Case(
        "gather",
        "dim_error",
        _args(
            ("self", _t(F32, (2, 3))),
            ("dim", Int(2)),
            ("index", _t(I64, (2, 1), vals=[[0], [1]])),
            ("sparse_grad", Bool(False)),
        ),
        error="Dimension out of range",
    )
    yield Case(
        "gather.out",
        "out",
        _args(
            ("self", _t(F32, (3, 4))),
            ("dim", Int(1)),
            ("index", _t(I64, (3, 2), rng=(0, 3))),
            ("sparse_grad", Bool(False)),
            ("out", _t(F32, (0,))),
        ),
        result="out",
    )


def index_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "index.Tensor", dn(d), _args(("self", _t(d, (4, 3))), ("indices", [_index(4, (5,))]))
        )
    yield Case(
        "index.Tensor",
        "embedding_rows",
        _args(("self", _t(F32, (10, 6))), ("indices", [_index(10, (2, 3))])),
    )
    yield Case(
        "index.Tensor",
        "second_dim",
        _args(("self", _t(F32, (3, 5, 2))), ("indices", [NONE, _index(5, (4,))])),
    )
    yield Case(
        "index.Tensor",
        "two_adjacent",
        _args(
            ("self", _t(F64, (2, 3, 4))), ("indices", [NONE, _index(3, (2, 1)), _index(4, (5,))])
        ),
    )
    yield Case(
        "index.Tensor",
        "two_apart",
        _args(("self", _t(F32, (3, 2, 4))), ("indices", [_index(3, (2,)), NONE, _index(4, (2,))])),
    )
    yield Case(
        "index.Tensor",
        "all_dims",
        _args(("self", _t(I64, (3, 4))), ("indices", [_index(3, (6,)), _index(4, (6,))])),
    )
    yield Case(
        "index.Tensor",
        "int32_index",
        _args(("self", _t(F32, (4, 3))), ("indices", [_t(I32, (3,), rng=(-4, 3))])),
    )
    yield Case(
        "index.Tensor",
        "zerodim_index",
        _args(("self", _t(F32, (4, 3))), ("indices", [_t(I64, (), vals=2)])),
    )
    yield Case(
        "index.Tensor",
        "noncontig_self",
        _args(("self", _t(F32, (4, 5), layout="T")), ("indices", [NONE, _index(5, (3,))])),
    )
    yield Case(
        "index.Tensor",
        "bool_mask",
        _args(
            ("self", _t(F32, (4, 3))), ("indices", [_t(B, (4,), vals=[True, False, True, True])])
        ),
    )
    yield Case(
        "index.Tensor",
        "bool_mask_2d",
        _args(
            ("self", _t(I32, (2, 3, 2))),
            ("indices", [_t(B, (2, 3), vals=[[True, False, True], [False, True, False]])]),
        ),
    )
    yield Case(
        "index.Tensor",
        "uint8_mask",
        _args(("self", _t(F32, (3, 2))), ("indices", [NONE, _t(U8, (2,), vals=[1, 0])])),
    )
    yield Case(
        "index.Tensor",
        "size0_index",
        _args(("self", _t(F32, (4, 3))), ("indices", [_t(I64, (0,))])),
    )
    yield Case(
        "index.Tensor",
        "size0_self",
        _args(("self", _t(F32, (4, 0))), ("indices", [_index(4, (2,))])),
    )
    yield Case(
        "index.Tensor",
        "size1",
        _args(("self", _t(F32, (1,))), ("indices", [_t(I64, (1,), vals=[0])])),
    )
    yield Case(
        "index.Tensor",
        "out_of_bounds_error",
        _args(("self", _t(F32, (4, 3))), ("indices", [_t(I64, (2,), vals=[1, 4])])),
        error="index 4 is out of bounds for dimension 0 with size 4",
    )
    yield Case(
        "index.Tensor",
        "too_many_error",
        _args(("self", _t(F32, (4,))), ("indices", [_index(4, (2,)), _index(4, (2,))])),
        error="too many indices for tensor of dimension 1",
    )
    yield Case(
        "index.Tensor",
        "broadcast_error",
        _args(("self", _t(F32, (4, 3))), ("indices", [_index(4, (2,)), _index(3, (3,))])),
        error="shape mismatch: indexing tensors could not be broadcast together",
    )
    yield Case(
        "index.Tensor",
        "float_index_error",
        _args(("self", _t(F32, (4, 3))), ("indices", [_t(F32, (2,), vals=[1.0, 2.0])])),
        error="tensors used as indices must be long, int, byte or bool tensors",
    )
    yield Case(
        "index.Tensor_out",
        "out",
        _args(("self", _t(F32, (4, 3))), ("indices", [_index(4, (5,))]), ("out", _t(F32, (0,)))),
        result="out",
    )


def index_select_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "index_select",
            dn(d),
            _args(("self", _t(d, (4, 3))), ("dim", Int(0)), ("index", _t(I64, (5,), rng=(0, 3)))),
        )
    yield Case(
        "index_select",
        "dim1_noncontig",
        _args(
            ("self", _t(F32, (3, 5), layout="T")),
            ("dim", Int(1)),
            ("index", _t(I32, (4,), rng=(0, 4))),
        ),
    )
    yield Case(
        "index_select",
        "negative_dim_3d",
        _args(("self", _t(F64, (2, 3, 4))), ("dim", Int(-2)), ("index", _t(I64, (2,), rng=(0, 2)))),
    )
    yield Case(
        "index_select",
        "zerodim_index",
        _args(("self", _t(F32, (4, 3))), ("dim", Int(1)), ("index", _t(I64, (), vals=2))),
    )
    yield Case(
        "index_select",
        "size0",
        _args(("self", _t(F32, (4, 3))), ("dim", Int(0)), ("index", _t(I64, (0,)))),
    )
    yield Case(
        "index_select",
        "size1",
        _args(("self", _t(F32, (1,))), ("dim", Int(0)), ("index", _t(I64, (1,), vals=[0]))),
    )
    yield Case(
        "index_select",
        "zerodim_self",
        _args(("self", _t(F32, ())), ("dim", Int(0)), ("index", _t(I64, (1,), vals=[0]))),
    )
    yield Case(
        "index_select",
        "out_of_range_error",
        _args(("self", _t(F32, (4, 3))), ("dim", Int(0)), ("index", _t(I64, (2,), vals=[1, 4]))),
        error="index out of range in self",
    )
    yield Case(
        "index_select",
        "negative_error",
        _args(("self", _t(F32, (4, 3))), ("dim", Int(0)), ("index", _t(I64, (2,), vals=[1, -1]))),
        error="index out of range in self",
    )
    yield Case(
        "index_select",
        "matrix_index_error",
        _args(
            ("self", _t(F32, (4, 3))), ("dim", Int(0)), ("index", _t(I64, (2, 1), vals=[[1], [2]]))
        ),
        error="index_select(): Index is supposed to be a vector",
    )
    yield Case(
        "index_select",
        "float_index_error",
        _args(
            ("self", _t(F32, (4, 3))), ("dim", Int(0)), ("index", _t(F32, (2,), vals=[1.0, 2.0]))
        ),
        error="index_select(): Expected dtype int32 or int64 for index",
    )
    yield Case(
        "index_select.out",
        "out",
        _args(
            ("self", _t(F32, (4, 3))),
            ("dim", Int(1)),
            ("index", _t(I64, (2,), rng=(0, 2))),
            ("out", _t(F32, (0,))),
        ),
        result="out",
    )


def cumsum_cases() -> Iterator[Case]:
    for d in ALL7:
        yield Case(
            "cumsum",
            dn(d),
            _args(("self", _t(d, (3, 4))), ("dim", Int(1)), ("dtype", NONE)),
            error=E,
        )
        yield Case(
            "cumsum",
            f"{dn(d)}_to_float64",
            _args(("self", _t(d, (3, 4))), ("dim", Int(0)), ("dtype", DType(F64))),
            error=E,
        )
    yield Case(
        "cumsum",
        "float32_randn_long",
        _args(
            ("self", lambda r: r.t(F32, (2, 300), randn=True)), ("dim", Int(-1)), ("dtype", NONE)
        ),
        tol=TOL[F32],
    )
    yield Case(
        "cumsum",
        "noncontig",
        _args(("self", _t(F32, (4, 5), layout="T")), ("dim", Int(0)), ("dtype", NONE)),
    )
    yield Case(
        "cumsum",
        "step",
        _args(("self", _t(I32, (3, 4), layout="step")), ("dim", Int(1)), ("dtype", NONE)),
    )
    yield Case(
        "cumsum", "size0", _args(("self", _t(F32, (0, 3))), ("dim", Int(1)), ("dtype", NONE))
    )
    yield Case("cumsum", "size1", _args(("self", _t(F32, (1,))), ("dim", Int(0)), ("dtype", NONE)))
    yield Case("cumsum", "zerodim", _args(("self", _t(F64, ())), ("dim", Int(0)), ("dtype", NONE)))
    yield Case(
        "cumsum",
        "int8_to_int64_wraps_not",
        _args(("self", _t(I8, (40,), rng=(100, 127))), ("dim", Int(0)), ("dtype", NONE)),
    )
    yield Case(
        "cumsum",
        "dim_error",
        _args(("self", _t(F32, (2, 3))), ("dim", Int(2)), ("dtype", NONE)),
        error="Dimension out of range",
    )
    yield Case(
        "cumsum.out",
        "out",
        _args(("self", _t(F32, (2, 3))), ("dim", Int(1)), ("dtype", NONE), ("out", _t(F32, (0,)))),
        result="out",
    )
    yield Case(
        "cumsum.out",
        "int32_into_float64_out",
        _args(
            ("self", _t(I32, (2, 3))), ("dim", Int(1)), ("dtype", NONE), ("out", _t(F64, (2, 3)))
        ),
        result="out",
    )
    yield Case(
        "cumsum_",
        "inplace",
        _args(("self", _t(F32, (2, 3))), ("dim", Int(0)), ("dtype", NONE)),
        result="self",
    )
    yield Case(
        "cumsum_",
        "int32_inplace",
        _args(("self", _t(I32, (2, 3))), ("dim", Int(1)), ("dtype", NONE)),
        result="self",
    )


def repeat_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case("repeat", dn(d), _args(("self", _t(d, (2, 3))), ("repeats", Ints([2, 2]))))
    yield Case("repeat", "more_dims", _args(("self", _t(F32, (3,))), ("repeats", Ints([2, 1, 2]))))
    yield Case(
        "repeat",
        "noncontig",
        _args(("self", _t(F32, (2, 3), layout="T")), ("repeats", Ints([1, 3]))),
    )
    yield Case(
        "repeat",
        "expanded",
        _args(("self", _t(F32, (2, 3), layout="expand:1,3")), ("repeats", Ints([2, 1]))),
    )
    yield Case("repeat", "zero_repeat", _args(("self", _t(F32, (2, 3))), ("repeats", Ints([0, 2]))))
    yield Case("repeat", "size0", _args(("self", _t(F32, (0, 3))), ("repeats", Ints([2, 2]))))
    yield Case("repeat", "size1", _args(("self", _t(F32, (1,))), ("repeats", Ints([3]))))
    yield Case("repeat", "zerodim", _args(("self", _t(F32, ())), ("repeats", Ints([2, 3]))))
    yield Case(
        "repeat",
        "too_few_error",
        _args(("self", _t(F32, (2, 3))), ("repeats", Ints([2]))),
        error="Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
    )
    yield Case(
        "repeat",
        "negative_error",
        _args(("self", _t(F32, (2, 3))), ("repeats", Ints([2, -1]))),
        error=E,
    )
    yield Case(
        "repeat.out",
        "out",
        _args(("self", _t(F32, (2, 3))), ("repeats", Ints([2, 1])), ("out", _t(F32, (0,)))),
        result="out",
    )


def as_strided_cases() -> Iterator[Case]:
    for d in ALL9:
        yield Case(
            "as_strided",
            dn(d),
            _args(
                ("self", _t(d, (4, 3))),
                ("size", Ints([2, 2])),
                ("stride", Ints([1, 3])),
                ("storage_offset", opt(Int, 1)),
            ),
            view=True,
        )
    yield Case(
        "as_strided",
        "overlapping",
        _args(
            ("self", _t(F32, (6,))),
            ("size", Ints([3, 3])),
            ("stride", Ints([1, 1])),
            ("storage_offset", NONE),
        ),
        view=True,
    )
    yield Case(
        "as_strided",
        "keeps_offset",
        _args(
            ("self", _t(F32, (3, 4), layout="step")),
            ("size", Ints([2])),
            ("stride", Ints([2])),
            ("storage_offset", NONE),
        ),
        view=True,
    )
    yield Case(
        "as_strided",
        "size0",
        _args(
            ("self", _t(F32, (0,))),
            ("size", Ints([0, 3])),
            ("stride", Ints([1, 1])),
            ("storage_offset", NONE),
        ),
        view=True,
    )
    yield Case(
        "as_strided",
        "size1",
        _args(
            ("self", _t(F32, (1,))),
            ("size", Ints([1, 1])),
            ("stride", Ints([1, 1])),
            ("storage_offset", opt(Int, 0)),
        ),
        view=True,
    )
    yield Case(
        "as_strided",
        "zerodim",
        _args(
            ("self", _t(F32, (4,))),
            ("size", Ints([])),
            ("stride", Ints([])),
            ("storage_offset", opt(Int, 2)),
        ),
        view=True,
    )
    yield Case(
        "as_strided",
        "out_of_bounds_error",
        _args(
            ("self", _t(F32, (4,))),
            ("size", Ints([3])),
            ("stride", Ints([2])),
            ("storage_offset", NONE),
        ),
        error=E,
    )
    yield Case(
        "as_strided",
        "negative_stride_error",
        _args(
            ("self", _t(F32, (4,))),
            ("size", Ints([2])),
            ("stride", Ints([-1])),
            ("storage_offset", NONE),
        ),
        error=E,
    )
    yield Case(
        "as_strided",
        "length_error",
        _args(
            ("self", _t(F32, (4,))),
            ("size", Ints([2, 2])),
            ("stride", Ints([1])),
            ("storage_offset", NONE),
        ),
        error=E,
    )


def group_norm_cases() -> Iterator[Case]:
    def gn(d, shape, group, weight=True, bias=True, layout="contig", eps=1e-5):
        n, c = shape[0], shape[1]
        hw = 1
        for s in shape[2:]:
            hw *= s
        return lambda r: [
            ("input", r.t(d, shape, layout, randn=True)),
            ("weight", r.t(d, (c,), randn=True) if weight else NONE),
            ("bias", r.t(d, (c,), randn=True) if bias else NONE),
            ("N", Int(n)),
            ("C", Int(c)),
            ("HxW", Int(hw)),
            ("group", Int(group)),
            ("eps", Float(eps)),
        ]

    yield Case("native_group_norm", "float32_randn", gn(F32, (2, 6, 4, 5), 3), tol=TOL[F32])
    yield Case("native_group_norm", "float64_randn", gn(F64, (2, 4, 3), 2), tol=TOL[F64])
    yield Case(
        "native_group_norm",
        "no_affine_randn",
        gn(F32, (3, 4, 7), 4, weight=False, bias=False),
        tol=TOL[F32],
    )
    yield Case(
        "native_group_norm", "weight_only_randn", gn(F32, (1, 8, 2, 2), 2, bias=False), tol=TOL[F32]
    )
    yield Case("native_group_norm", "one_group_randn", gn(F32, (2, 3, 16), 1), tol=TOL[F32])
    yield Case(
        "native_group_norm",
        "noncontig_randn",
        gn(F32, (2, 4, 3, 3), 2, layout="channels_last"),
        tol=TOL[F32],
    )
    yield Case("native_group_norm", "size0", gn(F32, (0, 4, 3), 2))
    yield Case("native_group_norm", "size1_randn", gn(F32, (1, 1, 1), 1, eps=0.5), tol=TOL[F32])
    for d in ALL7:
        if not d.is_floating_point:
            yield Case(
                "native_group_norm",
                f"{dn(d)}_error",
                gn(d, (2, 4, 3), 2, weight=False, bias=False),
                error=E,
            )
    yield Case(
        "native_group_norm",
        "groups_error",
        gn(F32, (2, 6, 4), 4),
        error="Expected number of channels in input to be divisible by num_groups",
    )
    yield Case(
        "native_group_norm",
        "weight_error",
        lambda r: [
            ("input", r.t(F32, (2, 6, 4))),
            ("weight", r.t(F32, (3,))),
            ("bias", NONE),
            ("N", Int(2)),
            ("C", Int(6)),
            ("HxW", Int(4)),
            ("group", Int(2)),
            ("eps", Float(1e-5)),
        ],
        error="Expected weight to be a vector of size equal to the number of channels in input",
    )


FAMILIES = [
    FamilyInfo("gather", ops=("gather", "gather.out"), sample_inputs=gather_cases),
    FamilyInfo("index", ops=("index.Tensor", "index.Tensor_out"), sample_inputs=index_cases),
    FamilyInfo(
        "index_select", ops=("index_select", "index_select.out"), sample_inputs=index_select_cases
    ),
    FamilyInfo("cumsum", ops=("cumsum", "cumsum.out", "cumsum_"), sample_inputs=cumsum_cases),
    FamilyInfo("repeat", ops=("repeat", "repeat.out"), sample_inputs=repeat_cases),
    FamilyInfo("as_strided", ops=("as_strided",), sample_inputs=as_strided_cases),
    FamilyInfo("native_group_norm", ops=("native_group_norm",), sample_inputs=group_norm_cases),
]
