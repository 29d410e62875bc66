"""Linear algebra: mm, bmm, addmm and linear.

Integer inputs are drawn from small ranges (MM_RNG) so that the sums of products stay
inside the dtype; floating inputs are multiples of 1/4, so results are exact except in the
`_randn` cases.
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import ALL7, F32, F64, I8, I32, I64, NONE, U8, B, Case, FamilyInfo, Scalar, dn

# Integer ranges that keep the sums of products inside the dtype.
MM_RNG = {I8: (-3, 3), U8: (0, 5)}


def mm_cases() -> Iterator[Case]:
    """Cases of mm (bool raises)."""

    def fn(d1, s1, d2, s2, l1="contig", l2="contig", randn=False):
        return lambda r: [
            ("self", r.t(d1, s1, l1, rng=MM_RNG.get(d1), randn=randn)),
            ("mat2", r.t(d2, s2, l2, rng=MM_RNG.get(d2), randn=randn)),
        ]

    for d in ALL7:
        n = dn(d)
        err = "not implemented for 'Bool'" if d == B else None
        yield Case("mm", n, fn(d, (2, 3), d, (3, 4)), error=err)
        if d != B:
            yield Case("mm", f"{n}_noncontig", fn(d, (3, 2), d, (2, 4), "T", "step"))
    yield Case("mm", "float32_both_transposed", fn(F32, (4, 3), F32, (3, 5), "T", "T"))
    yield Case("mm", "float64_larger", fn(F64, (5, 6), F64, (6, 7)))
    yield Case("mm", "float32_expanded_input", fn(F32, (3, 4), F32, (4, 2), "expand:1,4"))
    # Big enough to run on several threads: columns split (m <= n), rows split (m > n).
    yield Case("mm", "float32_parallel_columns", fn(F32, (64, 100), F32, (100, 100)))
    yield Case(
        "mm", "float64_parallel_rows_transposed", fn(F64, (100, 64), F64, (64, 50), "T", "contig")
    )
    yield Case("mm", "float32_size0_rows", fn(F32, (0, 3), F32, (3, 4)))
    yield Case("mm", "float32_size0_inner", fn(F32, (2, 0), F32, (0, 3)))
    yield Case("mm", "int64_size0_inner", fn(I64, (2, 0), I64, (0, 3)))
    yield Case("mm", "float32_size0_cols", fn(F32, (2, 3), F32, (3, 0)))
    yield Case("mm", "float32_size1", fn(F32, (1, 1), F32, (1, 1)))
    yield Case("mm", "float32_row_times_col", fn(F32, (1, 3), F32, (3, 1)))
    yield Case("mm", "float32_col_times_row", fn(F32, (3, 1), F32, (1, 3)))
    # Shapes that reach every path of the blocked GEMM (backends/cpu/kernels/gemm.cpp): more than
    # 32 rows (packed), a depth past one 256-deep block, partial 6 x 16 tiles; a small B
    # read without packing, with a partial 32-column strip.
    yield Case("mm", "float32_blocked", fn(F32, (34, 260), F32, (260, 3)))
    yield Case("mm", "float64_blocked_transposed", fn(F64, (40, 20), F64, (20, 11), "T", "T"))
    yield Case("mm", "float32_unpacked_strips", fn(F32, (20, 16), F32, (16, 40)))
    yield Case("mm", "float32_randn", fn(F32, (4, 5), F32, (5, 3), randn=True))
    yield Case("mm", "float64_randn", fn(F64, (4, 5), F64, (5, 3), randn=True))

    # out=: resized when empty; an expanded out is refused (bmm's is not, in PyTorch).
    def outfn(s1, s2, so, lo="contig"):
        return lambda r: fn(F32, s1, F32, s2)(r) + [("out", r.t(F32, so, lo))]

    yield Case("mm.out", "float32_out", outfn((2, 3), (3, 4), (2, 4)), result="out")
    yield Case("mm.out", "float32_out_resize_empty", outfn((2, 3), (3, 4), (0,)), result="out")
    yield Case("mm.out", "float32_out_noncontig", outfn((2, 3), (3, 2), (2, 2), "T"), result="out")
    yield Case(
        "mm.out",
        "out_expanded_error",
        outfn((2, 3), (3, 4), (2, 4), "expand:1,4"),
        error="unsupported operation: more than one element of the written-to tensor "
        "refers to a single memory location",
    )
    yield Case(
        "mm",
        "shape_mismatch_error",
        fn(F32, (2, 3), F32, (4, 2)),
        error="mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)",
    )
    yield Case(
        "mm", "self_not_matrix_error", fn(F32, (3,), F32, (3, 2)), error="self must be a matrix"
    )
    yield Case(
        "mm", "mat2_not_matrix_error", fn(F32, (2, 3), F32, (3,)), error="mat2 must be a matrix"
    )
    yield Case(
        "mm", "self_3d_error", fn(F32, (1, 2, 3), F32, (3, 2)), error="self must be a matrix"
    )
    yield Case(
        "mm",
        "dtype_mismatch_error",
        fn(F32, (2, 3), F64, (3, 2)),
        error="expected m1 and m2 to have the same dtype, but got: float != double",
    )
    yield Case(
        "mm",
        "int64_float32_mismatch_error",
        fn(I64, (2, 3), F32, (3, 2)),
        error="expected m1 and m2 to have the same dtype, but got: long int != float",
    )


def bmm_cases() -> Iterator[Case]:
    """Cases of bmm (bool raises)."""

    def fn(d1, s1, d2, s2, l1="contig", l2="contig"):
        return lambda r: [
            ("self", r.t(d1, s1, l1, rng=MM_RNG.get(d1))),
            ("mat2", r.t(d2, s2, l2, rng=MM_RNG.get(d2))),
        ]

    for d in ALL7:
        n = dn(d)
        err = "not implemented for 'Bool'" if d == B else None
        yield Case("bmm", n, fn(d, (2, 2, 3), d, (2, 3, 4)), error=err)
        if d != B:
            yield Case("bmm", f"{n}_noncontig", fn(d, (2, 3, 2), d, (2, 2, 3), "T", "step"))
    yield Case("bmm", "float32_blocked", fn(F32, (2, 40, 30), F32, (2, 30, 9)))
    yield Case("bmm", "float32_expanded_batch", fn(F32, (3, 2, 4), F32, (3, 4, 2), "expand:1,2,4"))
    # One mat2 for the whole batch (a linear on a 3-d input exports to this): the rows of
    # the batch stacked into one product, through views or through copies of self.
    yield Case(
        "bmm", "float32_shared_mat2", fn(F32, (5, 2, 4), F32, (5, 4, 3), "contig", "expand:1,4,3")
    )
    yield Case(
        "bmm",
        "float32_shared_mat2_transposed_self",
        fn(F32, (5, 2, 4), F32, (5, 4, 3), "T", "expand:1,4,3"),
    )
    yield Case(
        "bmm",
        "float32_shared_mat2_strided_self",
        fn(F32, (3, 3, 4), F32, (3, 4, 2), "step", "expand:1,4,2"),
    )
    yield Case(
        "bmm",
        "float64_shared_mat2_blocked",
        fn(F64, (4, 30, 20), F64, (4, 20, 17), "contig", "expand:1,20,17"),
    )
    yield Case("bmm", "float32_size0_batch", fn(F32, (0, 2, 3), F32, (0, 3, 4)))
    yield Case("bmm", "float32_size0_inner", fn(F32, (2, 2, 0), F32, (2, 0, 3)))
    yield Case("bmm", "float32_size1", fn(F32, (1, 1, 1), F32, (1, 1, 1)))
    yield Case(
        "bmm",
        "self_not_3d_error",
        fn(F32, (2, 3), F32, (2, 3, 4)),
        error="batch1 must be a 3D tensor",
    )
    yield Case(
        "bmm",
        "mat2_not_3d_error",
        fn(F32, (2, 2, 3), F32, (2, 3)),
        error="batch2 must be a 3D tensor",
    )
    yield Case(
        "bmm",
        "batch_mismatch_error",
        fn(F32, (2, 2, 3), F32, (3, 3, 4)),
        error="Expected size for first two dimensions of batch2 tensor to be: [2, 3] "
        "but got: [3, 3].",
    )
    yield Case(
        "bmm",
        "inner_mismatch_error",
        fn(F32, (2, 2, 3), F32, (2, 4, 4)),
        error="Expected size for first two dimensions of batch2 tensor to be: [2, 3] "
        "but got: [2, 4].",
    )
    yield Case(
        "bmm",
        "dtype_mismatch_error",
        fn(F32, (2, 2, 3), F64, (2, 3, 4)),
        error="expected scalar type Float but found Double",
    )


def addmm_cases() -> Iterator[Case]:
    """Cases of addmm: bias broadcasting, beta/alpha, beta=0 ignoring NaN in self."""

    def fn(
        ds, ss, d1, s1, d2, s2, beta=1, alpha=1, ls="contig", l1="contig", l2="contig", svals=None
    ):
        return lambda r: [
            ("self", r.t(ds, ss, ls, svals, rng=MM_RNG.get(ds))),
            ("mat1", r.t(d1, s1, l1, rng=MM_RNG.get(d1))),
            ("mat2", r.t(d2, s2, l2, rng=MM_RNG.get(d2))),
            ("beta", Scalar(beta)),
            ("alpha", Scalar(alpha)),
        ]

    for d in ALL7:
        n = dn(d)
        err = "not implemented for 'Bool'" if d == B else None
        yield Case("addmm", f"{n}_bias_broadcast", fn(d, (4,), d, (2, 3), d, (3, 4)), error=err)
        if d != B:
            yield Case(
                "addmm",
                f"{n}_noncontig",
                fn(d, (3, 4), d, (3, 2), d, (2, 4), ls="T", l1="T", l2="step"),
            )
    yield Case("addmm", "float32_full_self", fn(F32, (2, 4), F32, (2, 3), F32, (3, 4)))
    yield Case(
        "addmm",
        "float32_blocked_beta_alpha",
        fn(F32, (19,), F32, (35, 40), F32, (40, 19), beta=0.5, alpha=2, l2="T"),
    )
    yield Case("addmm", "float32_self_row", fn(F32, (1, 4), F32, (2, 3), F32, (3, 4)))
    yield Case("addmm", "float32_self_col", fn(F32, (2, 1), F32, (2, 3), F32, (3, 4)))
    yield Case("addmm", "float32_self_zerodim", fn(F32, (), F32, (2, 3), F32, (3, 4)))
    yield Case("addmm", "float32_self_size1", fn(F32, (1,), F32, (2, 3), F32, (3, 4)))
    yield Case(
        "addmm",
        "float32_beta_alpha_double",
        fn(F32, (4,), F32, (2, 3), F32, (3, 4), beta=0.5, alpha=2.0),
    )
    yield Case(
        "addmm",
        "float64_beta_alpha_int",
        fn(F64, (2, 4), F64, (2, 3), F64, (3, 4), beta=2, alpha=-1),
    )
    yield Case(
        "addmm", "int64_beta_alpha_int", fn(I64, (4,), I64, (2, 3), I64, (3, 4), beta=2, alpha=3)
    )
    yield Case("addmm", "int32_beta_double", fn(I32, (2, 4), I32, (2, 3), I32, (3, 4), beta=1.5))
    yield Case(
        "addmm",
        "float32_beta_zero_ignores_nan_self",
        fn(
            F32,
            (2, 2),
            F32,
            (2, 3),
            F32,
            (3, 2),
            beta=0,
            svals=[[float("nan"), float("inf")], [1.0, float("-inf")]],
        ),
    )
    yield Case("addmm", "float32_alpha_zero", fn(F32, (4,), F32, (2, 3), F32, (3, 4), alpha=0))
    yield Case("addmm", "float32_size0_inner", fn(F32, (3,), F32, (2, 0), F32, (0, 3), beta=2))
    yield Case("addmm", "float32_size0_rows", fn(F32, (4,), F32, (0, 3), F32, (3, 4)))
    yield Case("addmm", "int64_size0_self_and_rows", fn(I64, (0, 4), I64, (0, 3), I64, (3, 4)))
    yield Case("addmm", "float32_size1", fn(F32, (1, 1), F32, (1, 1), F32, (1, 1)))
    yield Case(
        "addmm",
        "float32_randn",
        lambda r: [
            ("self", r.t(F32, (3,), randn=True)),
            ("mat1", r.t(F32, (4, 5), randn=True)),
            ("mat2", r.t(F32, (5, 3), randn=True)),
            ("beta", Scalar(0.5)),
            ("alpha", Scalar(1.5)),
        ],
    )

    # out= and inplace: an expanded out or self is refused.
    def outfn(so, lo="contig"):
        return lambda r: (
            fn(F32, (4,), F32, (2, 3), F32, (3, 4), beta=2)(r) + [("out", r.t(F32, so, lo))]
        )

    yield Case("addmm.out", "float32_out", outfn((2, 4)), result="out")
    yield Case("addmm.out", "float32_out_resize_empty", outfn((0,)), result="out")
    yield Case(
        "addmm.out",
        "out_expanded_error",
        outfn((2, 4), "expand:2,1"),
        error="unsupported operation: more than one element of the written-to tensor "
        "refers to a single memory location",
    )
    yield Case(
        "addmm_",
        "float32_inplace",
        fn(F32, (2, 4), F32, (2, 3), F32, (3, 4), alpha=2),
        result="self",
    )
    yield Case(
        "addmm_",
        "inplace_expanded_self_error",
        fn(F32, (2, 4), F32, (2, 3), F32, (3, 4), ls="expand:1,4"),
        error="unsupported operation: more than one element of the written-to tensor "
        "refers to a single memory location",
    )
    yield Case(
        "addmm",
        "shape_mismatch_error",
        fn(F32, (4,), F32, (2, 3), F32, (2, 4)),
        error="mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)",
    )
    yield Case(
        "addmm",
        "self_not_broadcastable_error",
        fn(F32, (3,), F32, (2, 3), F32, (3, 2)),
        error="The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1",
    )
    yield Case(
        "addmm",
        "mat1_not_matrix_error",
        fn(F32, (4,), F32, (3,), F32, (3, 4)),
        error="mat1 must be a matrix",
    )
    yield Case(
        "addmm",
        "dtype_mismatch_error",
        fn(F32, (4,), F32, (2, 3), F64, (3, 4)),
        error="self and mat2 must have the same dtype, but got Float and Double",
    )
    yield Case(
        "addmm",
        "self_dtype_mismatch_error",
        fn(F64, (4,), F32, (2, 3), F32, (3, 4)),
        error="self and mat2 must have the same dtype",
    )


def linear_cases() -> Iterator[Case]:
    """Cases of linear, with and without bias."""

    def fn(d, si, sw, sb, li="contig", lw="contig", dw=None, db=None):
        def build(r):
            bias = NONE if sb is None else r.t(db or d, sb, rng=MM_RNG.get(db or d))
            return [
                ("input", r.t(d, si, li, rng=MM_RNG.get(d))),
                ("weight", r.t(dw or d, sw, lw, rng=MM_RNG.get(dw or d))),
                ("bias", bias),
            ]

        return build

    for d in ALL7:
        n = dn(d)
        err = "not implemented for 'Bool'" if d == B else None
        yield Case("linear", f"{n}_bias", fn(d, (2, 3), (4, 3), (4,)), error=err)
        yield Case("linear", f"{n}_no_bias", fn(d, (2, 3), (4, 3), None), error=err)
    yield Case("linear", "float32_1d_input_bias", fn(F32, (3,), (4, 3), (4,)))
    yield Case("linear", "float64_1d_input_no_bias", fn(F64, (3,), (4, 3), None))
    yield Case("linear", "float32_3d_input_bias", fn(F32, (2, 2, 3), (4, 3), (4,)))
    yield Case("linear", "int64_3d_input_no_bias", fn(I64, (2, 2, 3), (4, 3), None))
    yield Case("linear", "float32_bias_size1_broadcast", fn(F32, (2, 3), (4, 3), (1,)))
    yield Case("linear", "float32_bias_zerodim", fn(F32, (2, 3), (4, 3), ()))
    yield Case("linear", "float32_noncontig_input", fn(F32, (2, 3), (4, 3), (4,), li="T"))
    yield Case(
        "linear", "float32_noncontig_weight_transposed", fn(F32, (2, 3), (4, 3), (4,), lw="T")
    )
    yield Case(
        "linear", "float64_noncontig_step", fn(F64, (2, 3), (4, 3), None, li="step", lw="step")
    )
    yield Case("linear", "float32_size0_batch", fn(F32, (0, 3), (4, 3), (4,)))
    yield Case("linear", "float32_size0_in_features", fn(F32, (2, 0), (4, 0), (4,)))
    yield Case("linear", "float32_size0_in_features_no_bias", fn(F32, (2, 0), (4, 0), None))
    yield Case("linear", "float32_size0_out_features", fn(F32, (2, 3), (0, 3), (0,)))
    yield Case("linear", "float32_size1", fn(F32, (1, 1), (1, 1), (1,)))
    yield Case(
        "linear",
        "float32_randn",
        lambda r: [
            ("input", r.t(F32, (3, 5), randn=True)),
            ("weight", r.t(F32, (4, 5), randn=True)),
            ("bias", r.t(F32, (4,), randn=True)),
        ],
    )
    yield Case(
        "linear",
        "shape_mismatch_error",
        fn(F32, (2, 3), (4, 2), (4,)),
        error="mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)",
    )
    yield Case(
        "linear",
        "dtype_mismatch_error",
        fn(F32, (2, 3), (4, 3), None, dw=F64),
        error="expected m1 and m2 to have the same dtype, but got: float != double",
    )
    yield Case(
        "linear",
        "bias_wrong_size_error",
        fn(F32, (2, 3), (4, 3), (3,)),
        error="The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1",
    )


FAMILIES = [
    FamilyInfo("mm", ops=("mm", "mm.out"), sample_inputs=mm_cases),
    FamilyInfo("bmm", ops=("bmm",), sample_inputs=bmm_cases),
    FamilyInfo(
        "addmm",
        ops=("addmm", "addmm.out", "addmm_"),
        sample_inputs=addmm_cases,
        broadcast="self",
    ),
    FamilyInfo("linear", ops=("linear",), sample_inputs=linear_cases, broadcast="bias"),
]
