"""embedding: rows of a 2-d weight picked by int64/int32 indices (forward only; padding_idx,
scale_grad_by_freq and sparse do not change the result). The weight only moves storage, so
all nine dtypes; embedding.out is derived by the runner.

_embedding_bag: bags of those rows summed (times per_sample_weights), averaged or maxed,
with its four results (output, offset2bag, bag_size, max_indices) as PyTorch's CPU kernel
returns them: float32 weights with dense rows and no padding_idx take PyTorch's fast path,
the others its general one (the two differ in offset2bag and in include_last_offset's last
bag), so the cases cover both.
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
    B,
    Bool,
    Case,
    FamilyInfo,
    Int,
    dn,
)


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


def embedding_bag_cases() -> Iterator[Case]:
    """Cases of _embedding_bag: modes sum/mean/max, include_last_offset, per_sample_weights,
    padding_idx, both of PyTorch's paths, index dtypes and layouts, errors."""
    EB = "_embedding_bag"
    IDX = [0, 2, 1, 4, 2, 3, 0]

    def fn(
        wd,
        mode=0,
        idx=IDX,
        offs=(0, 2, 2, 5),
        last=False,
        psw=False,
        pad=-1,
        wshape=(5, 3),
        wl="contig",
        it=I64,
        ot=I64,
        il="contig",
        pd=None,
        psn=None,
    ):
        def build(r):
            n = len(idx)
            return [
                ("weight", r.t(wd, wshape, wl)),
                ("indices", r.t(it, (n,), il, vals=list(idx))),
                ("offsets", r.t(ot, (len(offs),), vals=list(offs))),
                ("scale_grad_by_freq", Bool(False)),
                ("mode", Int(mode)),
                ("sparse", Bool(False)),
                ("per_sample_weights", r.t(pd or wd, (psn or n,)) if psw else NONE),
                ("include_last_offset", Bool(last)),
                ("padding_idx", Int(pad)),
            ]

        return build

    names = {0: "sum", 1: "mean", 2: "max"}
    for d in ALL7:
        yield Case(EB, dn(d), fn(d), error=TORCH_MESSAGE)
    for d in (F32, F64):
        for mode, m in names.items():
            yield Case(EB, f"{dn(d)}_{m}", fn(d, mode))
            yield Case(EB, f"{dn(d)}_{m}_last", fn(d, mode, offs=(0, 2, 3, 5), last=True))
            yield Case(EB, f"{dn(d)}_{m}_last_full", fn(d, mode, offs=(0, 3, 7), last=True))
            yield Case(EB, f"{dn(d)}_{m}_padding", fn(d, mode, pad=2))
            yield Case(EB, f"{dn(d)}_{m}_padding_negative", fn(d, mode, pad=-3))
            yield Case(EB, f"{dn(d)}_{m}_noncontig_weight_T", fn(d, mode, wl="T"))
            yield Case(EB, f"{dn(d)}_{m}_int32", fn(d, mode, it=I32, ot=I32))
            if d == F32 and mode != 2:  # no bags: PyTorch's general path crashes
                yield Case(EB, f"{dn(d)}_{m}_size0_bags", fn(d, mode, offs=()))
            yield Case(EB, f"{dn(d)}_{m}_size0_indices", fn(d, mode, idx=(), offs=(0,)))
        yield Case(EB, f"{dn(d)}_sum_weights", fn(d, 0, psw=True))
        yield Case(EB, f"{dn(d)}_sum_weights_last_padding", fn(d, 0, psw=True, last=True, pad=0))
    yield Case(EB, "float32_max_ties", fn(F32, 2, idx=(1, 1, 3, 3), offs=(0, 4), wshape=(4, 2)))
    yield Case(EB, "float32_mean_int32_indices_int64_offsets", fn(F32, 1, it=I32))
    yield Case(EB, "float32_sum_noncontig_weight_step", fn(F32, 0, wl="step"))
    yield Case(EB, "float32_sum_size1", fn(F32, 0, idx=(0,), offs=(0,), wshape=(1, 1)))
    yield Case(EB, "float32_max_size0_dim", fn(F32, 2, wshape=(5, 0)))
    errors = {
        "offsets0_error": fn(F32, offs=(1, 2)),
        "offsets_last_error": fn(F32, offs=(0, 8)),
        "index_fast_error": fn(F32, idx=(0, 5), offs=(0, 1)),
        "index_error": fn(F64, idx=(0, 5), offs=(0, 1)),
        "index_negative_max_error": fn(F32, 2, idx=(0, -1), offs=(0, 1)),
        "weights_mean_error": fn(F32, 1, psw=True),
        "weights_dtype_error": fn(F32, 0, psw=True, pd=F64),
        "include_last_no_offsets_error": fn(F32, offs=(), last=True),
        "mode_error": fn(F32, 3),
        "weight_1d_error": fn(F32, wshape=(5,)),
        "float_indices_error": fn(F32, it=F32),
        "float_offsets_error": fn(F32, ot=F64),
    }
    for cid, build in errors.items():
        yield Case(EB, cid, build, error=TORCH_MESSAGE)
    yield Case(
        EB,
        "weights_numel_error",
        fn(F32, 0, psw=True, psn=4),
        error="Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false.",
    )


FAMILIES = [
    FamilyInfo("embedding", ops=("embedding",), sample_inputs=embedding_cases),
    FamilyInfo("embedding_bag", ops=("_embedding_bag",), sample_inputs=embedding_bag_cases),
]
