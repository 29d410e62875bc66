"""The SymInt queries torch.export leaves in a graph with symbolic dimensions: sym_size.int,
sym_stride.int, sym_numel, sym_storage_offset and sym_is_contiguous.

They read a tensor's metadata, never its values, so the cases vary the layouts (contiguous,
transposed, strided with a storage offset, expanded, channels-last) more than the dtypes;
every dtype still appears, as float16 and bfloat16 do. The results are an int (SymInt) or
a bool (SymBool), written as `expect scalar int` / `expect scalar bool`; the C++ runner
checks that the boxed call returns exactly that kind of value.
"""

from __future__ import annotations

from collections.abc import Iterator

import torch
from golden_format import (
    ALL9,
    F32,
    F64,
    I64,
    U8,
    Case,
    FamilyInfo,
    Int,
    MemFmt,
    dn,
)

# (id, dtype, shape, layout): the tensors every query is asked about.
LAYOUTS = [
    ("contig", F32, (2, 3, 4), "contig"),
    ("transposed", F64, (2, 3, 4), "T"),
    ("offset", I64, (3, 5), "step"),
    ("expanded", U8, (2, 3, 4), "expand:1,3,1"),
    ("channels_last", F32, (2, 3, 4, 5), "channels_last"),
    ("channels_last_3d", F32, (2, 3, 2, 4, 5), "channels_last_3d"),
    ("size0", F32, (0, 3), "contig"),
    ("size1", F32, (1, 1), "contig"),
]


def dim_cases(op: str) -> Iterator[Case]:
    """sym_size.int or sym_stride.int: every dimension of each layout, by index and by its
    negative index, and the out-of-range and zero-dim errors (PyTorch's IndexError text)."""

    def fn(d, shape, layout, dim):
        return lambda r: [("self", r.t(d, shape, layout)), ("dim", Int(dim))]

    for lid, d, shape, layout in LAYOUTS:
        for dim in range(len(shape)):
            yield Case(op, f"{lid}_dim{dim}", fn(d, shape, layout, dim))
        yield Case(op, f"{lid}_dim_neg1", fn(d, shape, layout, -1))
        yield Case(op, f"{lid}_dim_neg{len(shape)}", fn(d, shape, layout, -len(shape)))
    for d in ALL9:
        yield Case(op, dn(d), fn(d, (3, 2), "T", 1))
    yield Case(
        op, "dim_too_large_error", fn(F32, (2, 3, 4), "contig", 3), error="Dimension out of range"
    )
    yield Case(
        op, "dim_too_small_error", fn(F32, (2, 3, 4), "T", -4), error="Dimension out of range"
    )
    yield Case(
        op,
        "zerodim_error",
        fn(F32, (), "contig", 0),
        error="Dimension specified as 0 but tensor has no dimensions",
    )
    yield Case(
        op,
        "zerodim_neg1_error",
        fn(F64, (), "contig", -1),
        error="Dimension specified as -1 but tensor has no dimensions",
    )


def sym_size_cases() -> Iterator[Case]:
    """sym_size.int: a dimension's size."""
    yield from dim_cases("sym_size.int")


def sym_stride_cases() -> Iterator[Case]:
    """sym_stride.int: a dimension's stride (0 where expanded, 2 in the offset layout)."""
    yield from dim_cases("sym_stride.int")


def whole_tensor_cases(op: str) -> Iterator[Case]:
    """sym_numel or sym_storage_offset: each layout, every dtype, a zero-dim tensor."""

    def fn(d, shape, layout):
        return lambda r: [("self", r.t(d, shape, layout))]

    for lid, d, shape, layout in LAYOUTS:
        yield Case(op, lid, fn(d, shape, layout))
    for d in ALL9:
        yield Case(op, dn(d) + "_offset", fn(d, (2, 2), "step"))
    yield Case(op, "zerodim", fn(I64, (), "contig"))


def sym_numel_cases() -> Iterator[Case]:
    """sym_numel: the number of elements (1 for a zero-dim tensor, 0 for an empty one)."""
    yield from whole_tensor_cases("sym_numel")


def sym_storage_offset_cases() -> Iterator[Case]:
    """sym_storage_offset: where the tensor starts in its storage, in elements."""
    yield from whole_tensor_cases("sym_storage_offset")


def sym_is_contiguous_cases() -> Iterator[Case]:
    """sym_is_contiguous: each layout asked for each memory format (contiguous_format and
    preserve_format ask for row-major; channels_last only a 4-d tensor can be,
    channels_last_3d only a 5-d one)."""

    def fn(d, shape, layout, mf):
        return lambda r: [("self", r.t(d, shape, layout)), ("memory_format", MemFmt(mf))]

    formats = [
        ("contiguous", torch.contiguous_format),
        ("preserve", torch.preserve_format),
        ("channels_last", torch.channels_last),
        ("channels_last_3d", torch.channels_last_3d),
    ]
    for lid, d, shape, layout in LAYOUTS:
        for fid, mf in formats:
            yield Case("sym_is_contiguous", f"{lid}_{fid}", fn(d, shape, layout, mf))
    # Dimensions of size 1 may have any stride: a (2, 1, 4, 5) tensor made channels-last is
    # both row-major and channels-last, as is a (2, 3, 1, 1) one.
    for shape in ((2, 1, 4, 5), (2, 3, 1, 1), (1, 3, 4, 1)):
        sid = "x".join(str(s) for s in shape)
        for fid, mf in formats[::2]:
            yield Case(
                "sym_is_contiguous",
                f"channels_last_{sid}_{fid}",
                fn(F32, shape, "channels_last", mf),
            )
    for shape in ((0, 3, 2, 2), (2, 0, 2, 2)):
        sid = "x".join(str(s) for s in shape)
        for fid, mf in formats[::2]:
            for layout in ("contig", "channels_last"):
                yield Case(
                    "sym_is_contiguous",
                    f"{layout}_{sid}_{fid}",
                    fn(F32, shape, layout, mf),
                )
    for d in ALL9:
        yield Case("sym_is_contiguous", dn(d), fn(d, (2, 3), "T", torch.contiguous_format))
    yield Case("sym_is_contiguous", "zerodim", fn(F32, (), "contig", torch.contiguous_format))
    yield Case(
        "sym_is_contiguous", "zerodim_channels_last", fn(F32, (), "contig", torch.channels_last)
    )


FAMILIES = [
    FamilyInfo(
        "sym_queries",
        ops=(
            "sym_size.int",
            "sym_stride.int",
            "sym_numel",
            "sym_storage_offset",
            "sym_is_contiguous",
        ),
        sample_inputs=lambda: (
            c
            for cases in (
                sym_size_cases,
                sym_stride_cases,
                sym_numel_cases,
                sym_storage_offset_cases,
                sym_is_contiguous_cases,
            )
            for c in cases()
        ),
    ),
]
