"""Views and reshapes: _unsafe_view, reshape, expand, alias, squeeze.dims, unsqueeze (and
their inplace views squeeze_.dims, unsqueeze_), slice.Tensor, select.int, split.Tensor and split_with_sizes (all nine dtypes: they only
move storage).

View cases set `view=True`: the result must alias `self` with PyTorch's sizes, strides and
offset. split and split_with_sizes return Tensor[] (`expect list`, one view per tensor).
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL9,
    BF16,
    F16,
    F32,
    I32,
    I64,
    B,
    Bool,
    Case,
    FamilyInfo,
    Int,
    Ints,
    dn,
    opt,
)


def unsafe_view_cases() -> Iterator[Case]:
    """Cases of _unsafe_view (a view in PyTorch too) and its out= variant."""

    def fn(d, shape, size, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("size", Ints(size))]

    def fo(d, shape, size, out_shape=(0,), layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("size", Ints(size)),
            ("out", r.t(d, out_shape)),
        ]

    op = "_unsafe_view"
    for d in ALL9:
        yield Case(op, dn(d), fn(d, (2, 6), [3, 4]), view=True)
    yield Case(op, "float32_infer", fn(F32, (2, 6), [-1, 3]), view=True)
    yield Case(op, "float32_zerodim_to_1", fn(F32, (), [1]), view=True)
    yield Case(op, "int64_size1_to_zerodim", fn(I64, (1, 1), []), view=True)
    yield Case(op, "float32_size0", fn(F32, (0, 4), [2, 0, 2]), view=True)
    yield Case(op, "float32_noncontig_split_dim", fn(F32, (3, 4), [3, 2, 2], "T"), view=True)
    yield Case(op, "float32_noncontig_step", fn(F32, (2, 3), [2, 3, 1], "step"), view=True)
    yield Case(
        op,
        "noncontig_not_viewable_error",
        fn(F32, (3, 4), [12], "T"),
        error="view size is not compatible with input tensor's size and stride",
    )
    yield Case(
        op,
        "numel_mismatch_error",
        fn(F32, (2, 3), [4]),
        error="shape '[4]' is invalid for input of size 6",
    )
    out = "_unsafe_view.out"
    for d in (F32, I64, B, F16):
        yield Case(out, dn(d), fo(d, (2, 3), [3, 2]), result="out")
    yield Case(out, "float32_noncontig", fo(F32, (3, 4), [3, 2, 2], layout="T"), result="out")
    yield Case(out, "float32_size0", fo(F32, (0, 3), [3, 0]), result="out")
    yield Case(
        out, "int32_resize_wrong_shape_out", fo(I32, (2, 2), [4], out_shape=(3,)), result="out"
    )


def reshape_cases() -> Iterator[Case]:
    """Cases of reshape: a view when strides allow, else a contiguous copy."""

    def fn(d, shape, size, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("shape", Ints(size))]

    for d in ALL9:
        yield Case("reshape", f"{dn(d)}_view", fn(d, (2, 6), [3, 4]), view=True)
        yield Case("reshape", f"{dn(d)}_copy", fn(d, (3, 4), [12], "T"))
    yield Case("reshape", "float32_infer", fn(F32, (2, 3, 2), [-1, 2]), view=True)
    yield Case("reshape", "float32_zerodim_to_1", fn(F32, (), [1]), view=True)
    yield Case("reshape", "float32_size1_to_zerodim", fn(F32, (1,), []), view=True)
    yield Case("reshape", "float32_size0", fn(F32, (0, 3), [3, 0]), view=True)
    yield Case("reshape", "float32_size0_noncontig", fn(F32, (3, 0), [0], "T"), view=True)
    yield Case("reshape", "float32_step_view", fn(F32, (2, 3), [2, 1, 3], "step"), view=True)
    yield Case("reshape", "float32_step_copy", fn(F32, (2, 3), [6], "step"))
    yield Case("reshape", "int64_expanded_copy", fn(I64, (2, 3), [6], "expand:3"))
    yield Case(
        "reshape", "float32_expanded_view", fn(F32, (2, 3), [2, 1, 3], "expand:3"), view=True
    )
    yield Case(
        "reshape",
        "float32_channels_last_view",
        fn(F32, (1, 2, 2, 3), [2, 6], "channels_last"),
        view=True,
    )
    yield Case(
        "reshape", "float32_channels_last_copy", fn(F32, (1, 2, 2, 3), [1, 12], "channels_last")
    )
    yield Case(
        "reshape",
        "numel_mismatch_error",
        fn(F32, (2, 3), [5]),
        error="shape '[5]' is invalid for input of size 6",
    )
    yield Case(
        "reshape",
        "two_inferred_error",
        fn(F32, (2, 3), [-1, -1]),
        error="only one dimension can be inferred",
    )
    yield Case(
        "reshape",
        "invalid_negative_error",
        fn(F32, (2, 3), [-3, 2]),
        error="invalid shape dimension -3",
    )


def expand_cases() -> Iterator[Case]:
    """Cases of expand (stride 0 on expanded dimensions) and alias (a second view)."""

    def fn(d, shape, size, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("size", Ints(size)),
            ("implicit", Bool(False)),
        ]

    for d in ALL9:
        yield Case("expand", dn(d), fn(d, (1, 3), [2, 3]), view=True)
        yield Case("alias", dn(d), lambda r, d=d: [("self", r.t(d, (2, 3)))], view=True)
    yield Case("expand", "float32_new_leading_dims", fn(F32, (3,), [2, 2, 3]), view=True)
    yield Case("expand", "float32_new_leading_unit_dim", fn(F32, (2, 3), [1, 2, 3]), view=True)
    yield Case("expand", "float32_minus_one_keeps", fn(F32, (2, 1), [-1, 4]), view=True)
    yield Case("expand", "float32_same_size", fn(F32, (2, 3), [2, 3]), view=True)
    yield Case("expand", "float32_zerodim", fn(F32, (), [2, 2]), view=True)
    yield Case("expand", "float32_zerodim_to_zerodim", fn(F32, (), []), view=True)
    yield Case("expand", "float32_size1_to_size0", fn(F32, (1,), [0]), view=True)
    yield Case("expand", "float32_size0_kept", fn(F32, (0, 1), [0, 3]), view=True)
    yield Case("expand", "float32_noncontig_step", fn(F32, (2, 1), [2, 4], "step"), view=True)
    yield Case("expand", "int64_noncontig_T", fn(I64, (1, 3), [2, 3], "T"), view=True)
    yield Case(
        "expand", "float32_expanded_again", fn(F32, (2, 3), [2, 2, 3], "expand:3"), view=True
    )
    yield Case(
        "expand",
        "too_few_sizes_error",
        fn(F32, (2, 3), [3]),
        error="the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)",
    )
    yield Case(
        "expand",
        "non_singleton_error",
        fn(F32, (2, 3), [4, 3]),
        error="The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]",
    )
    yield Case(
        "expand",
        "leading_minus_one_error",
        fn(F32, (2, 3), [-1, 2, 3]),
        error="The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0",
    )
    yield Case("alias", "float32_zerodim", lambda r: [("self", r.t(F32, ()))], view=True)
    yield Case("alias", "float32_size0", lambda r: [("self", r.t(F32, (0, 2)))], view=True)
    yield Case(
        "alias", "float32_noncontig_step", lambda r: [("self", r.t(F32, (2, 3), "step"))], view=True
    )
    yield Case(
        "alias", "float32_expanded", lambda r: [("self", r.t(F32, (2, 3), "expand:3"))], view=True
    )


def squeeze_cases() -> Iterator[Case]:
    """Cases of squeeze.dims and unsqueeze."""
    sq = "squeeze.dims"

    def fs(d, shape, dims, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("dim", Ints(dims))]

    def fu(d, shape, dim, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("dim", Int(dim))]

    for d in ALL9:
        yield Case(sq, dn(d), fs(d, (2, 1, 3, 1), [1, 3]), view=True)
        yield Case("unsqueeze", dn(d), fu(d, (2, 3), 1), view=True)
    yield Case(sq, "float32_non_unit_kept", fs(F32, (2, 1, 3), [0, 1]), view=True)
    yield Case(sq, "float32_negative_dims", fs(F32, (1, 2, 1), [-1, -3]), view=True)
    yield Case(sq, "float32_empty_dims", fs(F32, (1, 2, 1), []), view=True)
    yield Case(sq, "float32_zerodim", fs(F32, (), [0]), view=True)
    yield Case(sq, "float32_zerodim_minus_one", fs(F32, (), [-1]), view=True)
    yield Case(sq, "float32_size1_all", fs(F32, (1, 1), [0, 1]), view=True)
    yield Case(sq, "float32_size0_kept", fs(F32, (0, 1), [0, 1]), view=True)
    yield Case(sq, "float32_noncontig_step", fs(F32, (2, 1, 3), [1], "step"), view=True)
    yield Case(sq, "float32_noncontig_T", fs(F32, (3, 1, 2), [1], "T"), view=True)
    yield Case(sq, "float32_expanded", fs(F32, (2, 1, 3), [1], "expand:1,1,3"), view=True)
    yield Case(
        sq,
        "duplicate_dims_error",
        fs(F32, (1, 2), [0, 0]),
        error="dim 0 appears multiple times in the list of dims",
    )
    yield Case(
        sq,
        "dim_out_of_range_error",
        fs(F32, (1, 2), [2]),
        error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )
    yield Case(
        sq,
        "zerodim_out_of_range_error",
        fs(F32, (), [1]),
        error="Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    )
    yield Case("unsqueeze", "float32_front", fu(F32, (2, 3), 0), view=True)
    yield Case("unsqueeze", "float32_back", fu(F32, (2, 3), 2), view=True)
    yield Case("unsqueeze", "float32_negative", fu(F32, (2, 3), -1), view=True)
    yield Case("unsqueeze", "float32_negative_front", fu(F32, (2, 3), -3), view=True)
    yield Case("unsqueeze", "float32_zerodim", fu(F32, (), 0), view=True)
    yield Case("unsqueeze", "float32_size0", fu(F32, (0, 3), 1), view=True)
    yield Case("unsqueeze", "float32_size1", fu(F32, (1,), 0), view=True)
    yield Case("unsqueeze", "float32_noncontig_step", fu(F32, (2, 3), 2, "step"), view=True)
    yield Case("unsqueeze", "float32_noncontig_T", fu(F32, (2, 3), 1, "T"), view=True)
    yield Case("unsqueeze", "float32_expanded", fu(F32, (2, 3), 1, "expand:3"), view=True)
    yield Case(
        "unsqueeze",
        "dim_out_of_range_error",
        fu(F32, (2, 3), 3),
        error="Dimension out of range (expected to be in range of [-3, 2], but got 3)",
    )
    # The inplace views: self takes the new geometry (sizes, strides, offset).
    for d in (F32, I64, B, BF16):
        yield Case("squeeze_.dims", dn(d), fs(d, (2, 1, 3), [1]), result="self")
        yield Case("unsqueeze_", dn(d), fu(d, (2, 3), -1), result="self")
    yield Case(
        "squeeze_.dims", "float32_noncontig_step", fs(F32, (1, 2, 3), [0], "step"), result="self"
    )
    yield Case("squeeze_.dims", "float32_zerodim", fs(F32, (), [0]), result="self")
    yield Case("squeeze_.dims", "float32_size0", fs(F32, (0, 1), [1]), result="self")
    yield Case(
        "squeeze_.dims",
        "duplicate_dims_error",
        fs(F32, (1, 2), [0, 0]),
        error="dim 0 appears multiple times in the list of dims",
    )
    yield Case("unsqueeze_", "float32_noncontig_T", fu(F32, (2, 3), 1, "T"), result="self")
    yield Case("unsqueeze_", "float32_zerodim", fu(F32, (), 0), result="self")
    yield Case("unsqueeze_", "float32_size0", fu(F32, (0,), 0), result="self")
    yield Case(
        "unsqueeze_",
        "dim_out_of_range_error",
        fu(F32, (2, 3), -4),
        error="Dimension out of range (expected to be in range of [-3, 2], but got -4)",
    )


def slice_cases() -> Iterator[Case]:
    """Cases of slice.Tensor (None/negative bounds, clamping, steps) and select.int."""
    sl, se = "slice.Tensor", "select.int"

    def fs(d, shape, dim, start, end, step=1, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("dim", Int(dim)),
            ("start", opt(Int, start)),
            ("end", opt(Int, end)),
            ("step", Int(step)),
        ]

    def fe(d, shape, dim, index, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("dim", Int(dim)), ("index", Int(index))]

    for d in ALL9:
        yield Case(sl, dn(d), fs(d, (4, 3), 0, 1, 3), view=True)
        yield Case(se, dn(d), fe(d, (2, 3), 1, 2), view=True)
    yield Case(sl, "float32_none_bounds", fs(F32, (4, 3), 1, None, None), view=True)
    yield Case(sl, "float32_none_start", fs(F32, (5,), 0, None, 2), view=True)
    yield Case(sl, "float32_none_end", fs(F32, (5,), 0, 2, None), view=True)
    yield Case(sl, "float32_negative_bounds", fs(F32, (6,), 0, -4, -1), view=True)
    yield Case(sl, "float32_step2", fs(F32, (7,), 0, 0, 7, 2), view=True)
    yield Case(sl, "float32_step3_rounds_up", fs(F32, (3, 8), 1, 1, None, 3), view=True)
    yield Case(sl, "float32_end_clamped", fs(F32, (4,), 0, 1, 100), view=True)
    yield Case(sl, "float32_start_clamped", fs(F32, (4,), 0, -100, 2), view=True)
    yield Case(sl, "float32_start_past_end_empty", fs(F32, (4,), 0, 10, 20), view=True)
    yield Case(sl, "float32_end_before_start_empty", fs(F32, (4,), 0, 3, 1), view=True)
    yield Case(sl, "float32_int64_max_end", fs(F32, (4,), 0, 1, 2**63 - 1), view=True)
    yield Case(sl, "float32_negative_dim", fs(F32, (2, 4), -1, 1, 3), view=True)
    yield Case(sl, "float32_size0", fs(F32, (0, 3), 0, 0, 2), view=True)
    yield Case(sl, "float32_size1", fs(F32, (1,), 0, 0, 1), view=True)
    yield Case(sl, "float32_noncontig_step", fs(F32, (2, 5), 1, 1, 5, 2, "step"), view=True)
    yield Case(sl, "float32_noncontig_T", fs(F32, (3, 4), 0, 1, 3, 1, "T"), view=True)
    yield Case(sl, "float32_expanded", fs(F32, (3, 4), 0, 1, None, 1, "expand:4"), view=True)
    yield Case(
        sl,
        "zerodim_error",
        fs(F32, (), 0, 0, 1),
        error="slice() cannot be applied to a 0-dim tensor.",
    )
    yield Case(
        sl, "step_zero_error", fs(F32, (4,), 0, 0, 4, 0), error="slice step must be positive"
    )
    yield Case(
        sl, "step_negative_error", fs(F32, (4,), 0, 0, 4, -1), error="slice step must be positive"
    )
    yield Case(
        sl,
        "dim_out_of_range_error",
        fs(F32, (2, 3), 2, 0, 1),
        error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )
    yield Case(se, "float32_negative_index", fe(F32, (2, 3), 1, -1), view=True)
    yield Case(se, "float32_negative_dim", fe(F32, (2, 3), -2, 1), view=True)
    yield Case(se, "float32_1d_to_zerodim", fe(F32, (4,), 0, 3), view=True)
    yield Case(se, "float32_size1", fe(F32, (1, 2), 0, 0), view=True)
    yield Case(se, "float32_size0_other_dim", fe(F32, (2, 0), 0, 1), view=True)
    yield Case(se, "float32_noncontig_step", fe(F32, (2, 3), 1, 1, "step"), view=True)
    yield Case(se, "float32_noncontig_T", fe(F32, (3, 4), 0, 2, "T"), view=True)
    yield Case(se, "float32_expanded", fe(F32, (2, 3), 0, 1, "expand:3"), view=True)
    yield Case(
        se,
        "zerodim_error",
        fe(F32, (), 0, 0),
        error="select() cannot be applied to a 0-dim tensor.",
    )
    yield Case(
        se,
        "index_out_of_range_error",
        fe(F32, (2, 3), 0, 2),
        error="select(): index 2 out of range for tensor of size [2, 3] at dimension 0",
    )
    yield Case(
        se,
        "negative_index_out_of_range_error",
        fe(F32, (2, 3), 1, -4),
        error="select(): index -4 out of range for tensor of size [2, 3] at dimension 1",
    )
    yield Case(
        se,
        "size0_index_error",
        fe(F32, (0, 3), 0, 0),
        error="select(): index 0 out of range for tensor of size [0, 3] at dimension 0",
    )


def split_cases() -> Iterator[Case]:
    """Cases of split.Tensor and split_with_sizes (Tensor[] of views)."""
    sp, sw = "split.Tensor", "split_with_sizes"

    def fs(d, shape, size, dim=0, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("split_size", Int(size)),
            ("dim", Int(dim)),
        ]

    def fw(d, shape, sizes, dim=0, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("split_sizes", Ints(sizes)),
            ("dim", Int(dim)),
        ]

    for d in ALL9:
        yield Case(sp, dn(d), fs(d, (5, 2), 2), view=True)
        yield Case(sw, dn(d), fw(d, (2, 5), [1, 3, 1], 1), view=True)
    yield Case(sp, "float32_even", fs(F32, (2, 6), 3, 1), view=True)
    yield Case(sp, "float32_larger_than_dim", fs(F32, (3,), 5), view=True)
    yield Case(sp, "float32_negative_dim", fs(F32, (2, 5), 2, -1), view=True)
    yield Case(sp, "float32_size0_dim_split0", fs(F32, (0, 3), 0), view=True)
    yield Case(sp, "float32_size0_dim_split2", fs(F32, (0, 3), 2), view=True)
    yield Case(sp, "float32_size1", fs(F32, (1,), 1), view=True)
    yield Case(sp, "float32_noncontig_step", fs(F32, (2, 5), 2, 1, "step"), view=True)
    yield Case(sp, "float32_noncontig_T", fs(F32, (4, 3), 3, 0, "T"), view=True)
    yield Case(sp, "float32_expanded", fs(F32, (3, 4), 2, 1, "expand:4"), view=True)
    yield Case(
        sp, "zerodim_error", fs(F32, (), 1), error="split expects at least a 1-dimensional tensor"
    )
    yield Case(
        sp,
        "negative_split_size_error",
        fs(F32, (4,), -1),
        error="split expects split_size be non-negative, but got split_size=-1",
    )
    yield Case(
        sp,
        "zero_split_size_error",
        fs(F32, (4,), 0),
        error="split_size can only be 0 if dimension size is 0, but got dimension size of 4",
    )
    yield Case(
        sp,
        "dim_out_of_range_error",
        fs(F32, (4,), 1, 1),
        error="Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    )
    yield Case(sw, "float32_zero_sizes", fw(F32, (4,), [0, 4, 0]), view=True)
    yield Case(sw, "float32_one_piece", fw(F32, (2, 3), [2]), view=True)
    yield Case(sw, "float32_size0_dim_no_sizes", fw(F32, (0, 2), []), view=True)
    yield Case(sw, "float32_size1", fw(F32, (1,), [1]), view=True)
    yield Case(sw, "float32_noncontig_step", fw(F32, (2, 4), [3, 1], 1, "step"), view=True)
    yield Case(sw, "float32_noncontig_T", fw(F32, (3, 4), [1, 2], 0, "T"), view=True)
    yield Case(sw, "float32_expanded", fw(F32, (2, 3), [1, 1], 0, "expand:3"), view=True)
    yield Case(
        sw, "zerodim_error", fw(F32, (), [1]), error="split expects at least a 1-dimensional tensor"
    )
    yield Case(
        sw,
        "sum_mismatch_error",
        fw(F32, (2, 3), [1, 2]),
        error="split_with_sizes expects split_sizes to sum exactly to 2 (input tensor's size at dimension 0), but got split_sizes=[1, 2]",
    )
    yield Case(
        sw,
        "negative_size_error",
        fw(F32, (2, 3), [1, -1, 3], 1),
        error="split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[1, -1, 3]",
    )


FAMILIES = [
    FamilyInfo(
        "unsafe_view", ops=("_unsafe_view", "_unsafe_view.out"), sample_inputs=unsafe_view_cases
    ),
    FamilyInfo("reshape", ops=("reshape",), sample_inputs=reshape_cases),
    FamilyInfo("expand", ops=("expand", "alias"), sample_inputs=expand_cases, broadcast="any"),
    FamilyInfo(
        "squeeze",
        ops=("squeeze.dims", "unsqueeze", "squeeze_.dims", "unsqueeze_"),
        sample_inputs=squeeze_cases,
    ),
    FamilyInfo("slice", ops=("slice.Tensor", "select.int"), sample_inputs=slice_cases),
    FamilyInfo("split", ops=("split.Tensor", "split_with_sizes"), sample_inputs=split_cases),
]
