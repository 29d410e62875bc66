"""Shape ops: cat (with the legacy 1-d empty tensor rule) and the views view and permute.

The view cases set `view=True`: the result must alias `self` (sizes, strides and offset
are recorded).
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    ALL9,
    BF16,
    F16,
    F32,
    F64,
    I8,
    I32,
    I64,
    U8,
    B,
    Case,
    FamilyInfo,
    Int,
    Ints,
    Tensors,
    dn,
)


def cat_cases() -> Iterator[Case]:
    """Cases of cat."""

    def fn(specs, dim):
        """specs: [(dtype, shape) or (dtype, shape, layout)]"""
        return lambda r: [("tensors", Tensors([r.t(*s) for s in specs])), ("dim", Int(dim))]

    for d in ALL7:
        n = dn(d)
        yield Case("cat", f"{n}_dim0", fn([(d, (2, 3)), (d, (1, 3))], 0))
        yield Case("cat", f"{n}_dim1_noncontig", fn([(d, (2, 3), "T"), (d, (2, 2), "step")], 1))
    for d in (F16, BF16):  # storage-only dtypes: cat only moves them
        yield Case("cat", f"{dn(d)}_dim0", fn([(d, (2, 3)), (d, (1, 3))], 0))
        yield Case("cat", f"{dn(d)}_dim1_noncontig", fn([(d, (2, 3), "T"), (d, (2, 2), "step")], 1))
    yield Case("cat", "promote_float16_bfloat16", fn([(F16, (1, 2)), (BF16, (2, 2))], 0))
    yield Case("cat", "promote_float16_float32", fn([(F16, (1, 2)), (F32, (1, 2))], 0))
    yield Case("cat", "legacy_empty_skip_float16", fn([(F16, (0,)), (F16, (2, 2))], 1))
    yield Case("cat", "float32_dim1_three", fn([(F32, (2, 3)), (F32, (2, 1)), (F32, (2, 2))], 1))
    yield Case("cat", "float32_dim_negative1", fn([(F32, (2, 3)), (F32, (2, 2))], -1))
    yield Case("cat", "float32_dim_negative2", fn([(F32, (2, 3)), (F32, (3, 3))], -2))
    yield Case(
        "cat", "float32_3d_dim1", fn([(F32, (2, 1, 3)), (F32, (2, 3, 3)), (F32, (2, 2, 3))], 1)
    )
    yield Case("cat", "float64_3d_dim2", fn([(F64, (2, 2, 1)), (F64, (2, 2, 4))], 2))
    yield Case("cat", "float32_single_input", fn([(F32, (2, 3))], 0))
    yield Case("cat", "int64_single_noncontig_input", fn([(I64, (3, 2), "T")], 1))
    yield Case("cat", "float32_noncontig_dim0", fn([(F32, (2, 3), "step"), (F32, (2, 3), "T")], 0))
    yield Case("cat", "float32_expanded_input", fn([(F32, (2, 3), "expand:1,3"), (F32, (1, 3))], 0))
    yield Case(
        "cat",
        "float32_channels_last_inputs",
        fn([(F32, (1, 2, 2, 2), "channels_last"), (F32, (1, 2, 2, 2), "channels_last")], 1),
    )
    for ds in [
        (I32, F32),
        (I8, U8),
        (B, I64),
        (F32, F64, I64),
        (U8, B),
        (I64, F32),
        (B, B, I8),
        (F64, I32),
    ]:
        name = "_".join(dn(d) for d in ds)
        yield Case("cat", f"promote_{name}", fn([(d, (i + 1, 2)) for i, d in enumerate(ds)], 0))
    yield Case("cat", "legacy_empty_skip_dim1", fn([(F32, (0,)), (F32, (2, 3))], 1))
    yield Case("cat", "legacy_empty_skip_dim0", fn([(F32, (2, 3)), (F32, (0,))], 0))
    yield Case("cat", "legacy_empty_middle", fn([(F32, (2, 3)), (F32, (0,)), (F32, (1, 3))], 0))
    yield Case("cat", "legacy_empty_skip_promotes", fn([(F64, (0,)), (I32, (2, 3))], 0))
    yield Case("cat", "legacy_empty_skip_3d_dim2", fn([(I64, (1, 2, 2)), (I64, (0,))], 2))
    yield Case("cat", "all_legacy_empty", fn([(F32, (0,)), (F32, (0,))], 0))
    yield Case("cat", "float32_size0_rows", fn([(F32, (0, 3)), (F32, (2, 3))], 0))
    yield Case("cat", "float32_size0_both_dim1", fn([(F32, (2, 0)), (F32, (2, 0))], 1))
    yield Case("cat", "int32_size0_and_nonempty_dim1", fn([(I32, (2, 0)), (I32, (2, 3))], 1))
    yield Case("cat", "float32_size0_other_dim", fn([(F32, (0, 3)), (F32, (0, 2))], 1))
    yield Case("cat", "float32_size1", fn([(F32, (1,)), (F32, (1,))], 0))
    yield Case("cat", "bool_size1_2d", fn([(B, (1, 1)), (B, (1, 1))], 1))
    yield Case(
        "cat",
        "zerodim_error",
        fn([(F32, ()), (F32, ())], 0),
        error="zero-dimensional tensor (at position 0) cannot be concatenated",
    )
    yield Case(
        "cat",
        "zerodim_second_error",
        fn([(F32, (2,)), (F32, ())], 0),
        error="zero-dimensional tensor (at position 1) cannot be concatenated",
    )
    yield Case(
        "cat",
        "sizes_mismatch_error",
        fn([(F32, (2, 3)), (F32, (2, 4))], 0),
        error="Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list.",
    )
    yield Case(
        "cat",
        "ndim_mismatch_error",
        fn([(F32, (2, 3)), (F32, (3,))], 0),
        error="Tensors must have same number of dimensions: got 2 and 1",
    )
    yield Case(
        "cat",
        "dim_out_of_range_error",
        fn([(F32, (2, 3)), (F32, (2, 3))], 2),
        error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )
    yield Case("cat", "empty_list_error", fn([], 0), error="expected a non-empty list of Tensors")


def view_cases() -> Iterator[Case]:
    """Cases of view (all nine dtypes; float16/bfloat16 are storage-only)."""

    def fn(d, shape, size, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("size", Ints(size))]

    for d in ALL9:
        yield Case("view", dn(d), fn(d, (2, 6), [3, 4]), view=True)
    yield Case("view", "float32_infer_first", fn(F32, (2, 6), [-1, 4]), view=True)
    yield Case("view", "float32_infer_middle", fn(F32, (2, 6), [2, -1, 3]), view=True)
    yield Case("view", "float32_flatten", fn(F32, (3, 4), [12]), view=True)
    yield Case("view", "float32_flatten_infer", fn(F32, (2, 3, 2), [-1]), view=True)
    yield Case("view", "float32_add_unit_dims", fn(F32, (2, 3), [1, 2, 1, 3, 1]), view=True)
    yield Case("view", "float32_size1_to_zerodim", fn(F32, (1,), []), view=True)
    yield Case("view", "float32_size1_2d_to_1d", fn(F32, (1, 1), [1]), view=True)
    yield Case("view", "int64_zerodim_to_1", fn(I64, (), [1]), view=True)
    yield Case("view", "int64_zerodim_infer", fn(I64, (), [-1]), view=True)
    yield Case("view", "int32_zerodim_to_zerodim", fn(I32, (), []), view=True)
    yield Case("view", "float32_size0", fn(F32, (0, 3), [3, 0]), view=True)
    yield Case("view", "float32_size0_infer", fn(F32, (0, 3), [-1, 3]), view=True)
    yield Case("view", "float32_size0_unit_dims", fn(F32, (0, 3), [3, 0, 1]), view=True)
    yield Case("view", "float32_noncontig_split_dim", fn(F32, (3, 4), [3, 2, 2], "T"), view=True)
    yield Case(
        "view", "float32_noncontig_step_offset", fn(F32, (2, 3), [2, 3, 1], "step"), view=True
    )
    yield Case("view", "int8_noncontig_step_unit_dim", fn(I8, (2, 3), [2, 1, 3], "step"), view=True)
    yield Case(
        "view", "float32_expanded_unit_dim", fn(F32, (2, 3), [2, 1, 3], "expand:3"), view=True
    )
    yield Case(
        "view",
        "float32_channels_last_merge_hw",
        fn(F32, (1, 2, 2, 3), [1, 2, 6], "channels_last"),
        view=True,
    )
    yield Case(
        "view",
        "noncontig_not_viewable_error",
        fn(F32, (3, 4), [12], "T"),
        error="view size is not compatible with input tensor's size and stride",
    )
    yield Case(
        "view",
        "expanded_not_viewable_error",
        fn(F32, (2, 3), [6], "expand:3"),
        error="view size is not compatible with input tensor's size and stride",
    )
    yield Case(
        "view",
        "numel_mismatch_error",
        fn(F32, (2, 3), [5]),
        error="shape '[5]' is invalid for input of size 6",
    )
    yield Case(
        "view",
        "two_inferred_error",
        fn(F32, (2, 3), [-1, -1]),
        error="only one dimension can be inferred",
    )
    yield Case(
        "view",
        "invalid_negative_error",
        fn(F32, (2, 3), [-2, 3]),
        error="invalid shape dimension -2",
    )
    yield Case(
        "view",
        "infer_ambiguous_size0_error",
        fn(F32, (0, 3), [-1, 0]),
        error="because the unspecified dimension size -1 can be any value and is ambiguous",
    )


def permute_cases() -> Iterator[Case]:
    """Cases of permute (all nine dtypes)."""

    def fn(d, shape, dims, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("dims", Ints(dims))]

    for d in ALL9:
        yield Case("permute", dn(d), fn(d, (2, 3, 4), [2, 0, 1]), view=True)
    yield Case("permute", "float32_negative_dims", fn(F32, (2, 3, 4), [-1, 0, -2]), view=True)
    yield Case("permute", "float32_identity", fn(F32, (2, 3), [0, 1]), view=True)
    yield Case("permute", "float32_transpose", fn(F32, (2, 3), [1, 0]), view=True)
    yield Case("permute", "float32_zerodim", fn(F32, (), []), view=True)
    yield Case("permute", "float32_1d", fn(F32, (4,), [0]), view=True)
    yield Case("permute", "float32_size0", fn(F32, (0, 3), [1, 0]), view=True)
    yield Case("permute", "int64_size0_3d", fn(I64, (2, 0, 3), [2, 1, 0]), view=True)
    yield Case("permute", "float32_size1", fn(F32, (1, 1, 1), [2, 1, 0]), view=True)
    yield Case("permute", "float32_size1_1d", fn(F32, (1,), [-1]), view=True)
    yield Case(
        "permute", "float32_noncontig_step_offset", fn(F32, (2, 3), [1, 0], "step"), view=True
    )
    yield Case("permute", "float32_noncontig_T_back", fn(F32, (2, 3, 4), [2, 1, 0], "T"), view=True)
    yield Case(
        "permute",
        "float32_channels_last_to_nhwc",
        fn(F32, (1, 3, 2, 2), [0, 2, 3, 1], "channels_last"),
        view=True,
    )
    yield Case("permute", "float32_expanded", fn(F32, (2, 3), [1, 0], "expand:3"), view=True)
    yield Case(
        "permute",
        "too_few_dims_error",
        fn(F32, (2, 3), [0]),
        error="number of dimensions in the tensor input does not match the length of the desired ordering of dimensions",
    )
    yield Case(
        "permute",
        "too_many_dims_error",
        fn(F32, (2, 3), [0, 1, 2]),
        error="number of dimensions in the tensor input does not match the length of the desired ordering of dimensions",
    )
    yield Case(
        "permute",
        "duplicate_dims_error",
        fn(F32, (2, 3), [0, 0]),
        error="duplicate dims are not allowed",
    )
    yield Case(
        "permute",
        "duplicate_negative_dims_error",
        fn(F32, (2, 3), [1, -1]),
        error="duplicate dims are not allowed",
    )
    yield Case(
        "permute",
        "dim_out_of_range_error",
        fn(F32, (2, 3), [0, 2]),
        error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )


FAMILIES = [
    FamilyInfo("cat", ops=("cat",), sample_inputs=cat_cases),
    FamilyInfo("view", ops=("view",), sample_inputs=view_cases),
    FamilyInfo("permute", ops=("permute",), sample_inputs=permute_cases),
]
