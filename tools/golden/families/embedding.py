"""embedding: rows of a 2-d weight picked by int64/int32 indices (forward only; padding_idx,
scale_grad_by_freq and sparse do not change the result). The weight only moves storage, so
all nine dtypes; embedding.out is derived by the runner.
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import ALL9, F32, F64, I8, I32, I64, B, Bool, Case, FamilyInfo, Int, dn


def embedding_cases() -> Iterator[Case]:
    """Cases of embedding."""

    def fn(
        wd,
        wshape,
        ishape,
        idt=I64,
        wl="contig",
        il="contig",
        pad=-1,
        vals=None,
        scale=False,
        sparse=False,
    ):
        rows = wshape[0] if len(wshape) > 0 else 1
        return lambda r: [
            ("weight", r.t(wd, wshape, wl)),
            ("indices", r.t(idt, ishape, il, vals=vals, rng=(0, max(rows - 1, 0)))),
            ("padding_idx", Int(pad)),
            ("scale_grad_by_freq", Bool(scale)),
            ("sparse", Bool(sparse)),
        ]

    for d in ALL9:
        yield Case("embedding", dn(d), fn(d, (5, 3), (4,)))
    yield Case("embedding", "float32_int32_indices", fn(F32, (5, 3), (4,), I32))
    yield Case("embedding", "float32_2d_indices", fn(F32, (6, 2), (2, 3)))
    yield Case("embedding", "float64_3d_indices", fn(F64, (4, 2), (2, 1, 2)))
    yield Case("embedding", "float32_zerodim_index", fn(F32, (4, 3), ()))
    yield Case("embedding", "float32_repeated_indices", fn(F32, (3, 2), (5,), vals=[2, 0, 2, 2, 1]))
    yield Case(
        "embedding",
        "float32_padding_idx_forward_unchanged",
        fn(F32, (4, 2), (3,), pad=1, vals=[1, 0, 1]),
    )
    yield Case("embedding", "float32_negative_padding_idx", fn(F32, (4, 2), (3,), pad=-2))
    yield Case(
        "embedding",
        "float32_scale_grad_sparse_flags",
        fn(F32, (4, 2), (3,), scale=True, sparse=True),
    )
    yield Case("embedding", "float32_noncontig_weight_T", fn(F32, (4, 3), (5,), wl="T"))
    yield Case("embedding", "int64_noncontig_weight_step", fn(I64, (3, 4), (2,), wl="step"))
    yield Case("embedding", "float32_expanded_weight", fn(F32, (4, 3), (3,), wl="expand:1,3"))
    yield Case("embedding", "float32_noncontig_indices_T", fn(F32, (6, 2), (2, 3), il="T"))
    yield Case("embedding", "float32_expanded_indices", fn(F32, (6, 2), (2, 3), il="expand:3"))
    yield Case("embedding", "float32_size0_indices", fn(F32, (4, 3), (0,)))
    yield Case("embedding", "float32_size0_embedding_dim", fn(F32, (4, 0), (3,)))
    yield Case("embedding", "float32_size1", fn(F32, (1, 1), (1,)))
    yield Case(
        "embedding",
        "index_out_of_range_error",
        fn(F32, (3, 2), (2,), vals=[0, 3]),
        error="index out of range in self",
    )
    yield Case(
        "embedding",
        "negative_index_error",
        fn(F32, (3, 2), (2,), vals=[-1, 0]),
        error="index out of range in self",
    )
    yield Case(
        "embedding",
        "float_indices_error",
        fn(F32, (3, 2), (2,), idt=F32, vals=[0, 1]),
        error="Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int",
    )
    yield Case(
        "embedding",
        "int8_indices_error",
        fn(F32, (3, 2), (2,), idt=I8, vals=[0, 1]),
        error="Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int",
    )
    yield Case("embedding", "weight_1d_error", fn(F32, (3,), (2,)), error="'weight' must be 2-D")
    yield Case(
        "embedding",
        "bool_indices_error",
        fn(F32, (3, 2), (2,), idt=B),
        error="Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int",
    )


FAMILIES = [
    FamilyInfo("embedding", ops=("embedding",), sample_inputs=embedding_cases),
]
