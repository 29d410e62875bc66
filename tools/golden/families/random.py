"""Random numbers, resize_ and _local_scalar_dense.

The random operators draw from a generator: each case is seeded (`seed` line: the C++
runner seeds its default generator as torch.manual_seed does) or passes a seeded
generator, so PyTorch's numbers are the expectation. uniform draws are exact; normal ones
go through log, cos and sin, which PyTorch vectorizes, so their cases carry a tolerance.
"""

from __future__ import annotations

from collections.abc import Iterator

import torch
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
    Case,
    DType,
    FamilyInfo,
    Float,
    GeneratorArg,
    Int,
    Ints,
    MemFmt,
    case_args,
    dn,
    opt,
    tensor_arg,
)

# Normal samples: PyTorch's log/cos/sin are vectorized approximations for float32.
NORMAL_TOL = {F32: (1e-5, 1e-6), F64: (1e-12, 1e-12)}


def options(dtype=None):
    return [("dtype", opt(DType, dtype)), ("layout", NONE), ("device", NONE), ("pin_memory", NONE)]


def factory_cases() -> Iterator[Case]:
    """rand, randn and randperm (each also with a generator; their out= variants derived)."""
    for name, sizes in (("rand", [2, 3]), ("randn", [5, 7])):
        tol = NORMAL_TOL if name == "randn" else {}
        for i, d in enumerate(ALL7):
            yield Case(
                name,
                dn(d),
                lambda r, s=sizes, d=d: [("size", Ints(s)), *options(d)],
                error=TORCH_MESSAGE,
                seed=10 + i,
                tol=tol.get(d),
            )
        yield Case(
            name,
            "dtype_none",
            lambda r, s=sizes: [("size", Ints(s)), *options()],
            seed=3,
            tol=tol.get(F32),
        )
        for sid, s in (("size0", [0, 4]), ("size1", [1]), ("zerodim", []), ("tail_of_16", [37])):
            yield Case(
                name,
                sid,
                lambda r, s=s: [("size", Ints(s)), *options(F64)],
                seed=5,
                tol=tol.get(F64),
            )
        yield Case(
            name,
            "float32_long",
            lambda r: [("size", Ints([6, 50])), *options(F32)],
            seed=7,
            tol=tol.get(F32),
        )
        yield Case(
            name,
            "negative_size_error",
            lambda r: [("size", Ints([2, -1])), *options(F32)],
            error="Trying to create tensor with negative dimension -1",
            seed=1,
        )
        yield Case(
            name + ".generator",
            "float32",
            lambda r: [("size", Ints([3, 6])), ("generator", GeneratorArg(42)), *options(F32)],
            tol=tol.get(F32),
        )
        yield Case(
            name + ".generator",
            "float64_none",
            lambda r: [("size", Ints([20])), ("generator", NONE), *options(F64)],
            seed=9,
            tol=tol.get(F64),
        )
    for i, d in enumerate(ALL7):
        yield Case(
            "randperm",
            dn(d),
            lambda r, d=d: [("n", Int(12)), *options(d)],
            error=TORCH_MESSAGE,
            seed=20 + i,
        )
    for sid, n in (("n0", 0), ("n1", 1), ("n2", 2), ("n300", 300)):
        yield Case("randperm", sid, lambda r, n=n: [("n", Int(n)), *options(I64)], seed=4)
    yield Case(
        "randperm", "int8_too_large", lambda r: [("n", Int(300)), *options(I8)], error=TORCH_MESSAGE
    )
    yield Case(
        "randperm",
        "negative_n_error",
        lambda r: [("n", Int(-1)), *options(I64)],
        error="Trying to create tensor with negative dimension -1",
    )
    yield Case(
        "randperm.generator",
        "int64",
        lambda r: [("n", Int(40)), ("generator", GeneratorArg(7)), *options(I64)],
    )
    yield Case(
        "randperm.out",
        "negative_n_error",
        case_args(("n", Int(-1)), ("out", tensor_arg(I64, [0]))),
        error="n must be non-negative, got-1",
    )
    yield Case(
        "randperm.out",
        "float64_resized",
        case_args(("n", Int(9)), ("out", tensor_arg(F64, [2]))),
        seed=2,
        result="out",
    )


def sampling_cases() -> Iterator[Case]:
    """uniform_ and normal_ over every dtype and layout, normal_functional and normal.out."""

    def uniform(d, shape, layout="contig", lo=0.0, hi=1.0, gen=NONE):
        return case_args(
            ("self", tensor_arg(d, shape, layout=layout)),
            ("from", Float(lo)),
            ("to", Float(hi)),
            ("generator", gen),
        )

    def normal(d, shape, layout="contig", mean=0.0, std=1.0, gen=NONE):
        return case_args(
            ("self", tensor_arg(d, shape, layout=layout)),
            ("mean", Float(mean)),
            ("std", Float(std)),
            ("generator", gen),
        )

    for i, d in enumerate(ALL7):
        yield Case(
            "uniform_", dn(d), uniform(d, [3, 4]), error=TORCH_MESSAGE, seed=30 + i, result="self"
        )
        yield Case(
            "normal_",
            dn(d),
            normal(d, [4, 5]),
            error=TORCH_MESSAGE,
            seed=40 + i,
            result="self",
            tol=NORMAL_TOL.get(d),
        )
    for d in (F32, F64):
        yield Case(
            "uniform_", dn(d) + "_range", uniform(d, [40], lo=-2.5, hi=7.25), seed=1, result="self"
        )
        yield Case(
            "uniform_",
            dn(d) + "_transposed",
            uniform(d, [3, 5], layout="T", lo=-1.0, hi=1.0),
            seed=2,
            result="self",
        )
        yield Case(
            "uniform_", dn(d) + "_step", uniform(d, [2, 3], layout="step"), seed=3, result="self"
        )
        yield Case(
            "uniform_",
            dn(d) + "_generator",
            uniform(d, [2, 9], gen=GeneratorArg(5)),
            result="self",
        )
        for sid, shape in (
            ("size0", [0, 3]),
            ("size1", [1]),
            ("zerodim", []),
            ("n16", [16]),
            ("n35", [5, 7]),
        ):
            yield Case(
                "normal_",
                f"{dn(d)}_{sid}",
                normal(d, shape, mean=1.5, std=0.5),
                seed=6,
                result="self",
                tol=NORMAL_TOL[d],
            )
        yield Case(
            "normal_",
            dn(d) + "_transposed",
            normal(d, [4, 6], layout="T", std=2.0),
            seed=8,
            result="self",
            tol=NORMAL_TOL[d],
        )
        yield Case(
            "normal_",
            dn(d) + "_generator",
            normal(d, [33], gen=GeneratorArg(11)),
            result="self",
            tol=NORMAL_TOL[d],
        )
        yield Case(
            "normal_functional",
            dn(d),
            normal(d, [3, 7], mean=-1.0, std=3.0),
            seed=12,
            tol=NORMAL_TOL[d],
        )
        yield Case(
            "normal.out",
            dn(d),
            case_args(
                ("self", tensor_arg(d, [18])),
                ("mean", Float(0.0)),
                ("std", Float(1.0)),
                ("generator", NONE),
                ("out", tensor_arg(d, [0])),
            ),
            seed=13,
            result="out",
            tol=NORMAL_TOL[d],
        )
    yield Case(
        "uniform_", "from_above_to_error", uniform(F32, [3], lo=2.0, hi=1.0), error=TORCH_MESSAGE
    )
    yield Case(
        "uniform_",
        "range_too_wide_error",
        uniform(F32, [3], lo=-3e38, hi=3e38),
        error=TORCH_MESSAGE,
    )
    yield Case(
        "uniform_",
        "expanded_self_error",
        uniform(F32, [3, 4], layout="expand:1,4"),
        error="more than one element of the written-to tensor refers to a single memory location",
    )
    yield Case("normal_", "negative_std_error", normal(F32, [3], std=-1.0), error=TORCH_MESSAGE)


def resize_cases() -> Iterator[Case]:
    """resize_: shrinking (the first elements of the storage), the same sizes (strides kept),
    growing (new elements unspecified), memory formats, and its errors."""

    def resize(d, shape, size, layout="contig", mf=None):
        return case_args(
            ("self", tensor_arg(d, shape, layout=layout)),
            ("size", Ints(size)),
            ("memory_format", opt(MemFmt, mf)),
        )

    for d in ALL7:
        yield Case("resize_", dn(d), resize(d, [3, 4], [2, 5]), result="self")
    yield Case(
        "resize_", "same_sizes_keep_strides", resize(F32, [3, 4], [3, 4], layout="T"), result="self"
    )
    yield Case(
        "resize_", "transposed_to_new_sizes", resize(I64, [3, 4], [4, 3], layout="T"), result="self"
    )
    yield Case("resize_", "offset_kept", resize(F32, [2, 3], [5], layout="step"), result="self")
    yield Case("resize_", "to_size0", resize(F64, [2, 3], [0, 2]), result="self")
    yield Case("resize_", "to_size1", resize(I32, [2, 3], [1, 1]), result="self")
    yield Case("resize_", "from_size1", resize(I8, [1], [1, 1, 1]), result="self")
    yield Case(
        "resize_", "from_size0_grow", resize(F32, [0], [2, 3]), result="self", values_any=True
    )
    yield Case("resize_", "grow", resize(U8, [2, 2], [3, 3]), result="self", values_any=True)
    yield Case(
        "resize_",
        "channels_last",
        resize(F32, [2, 3], [1, 2, 3, 1], mf=torch.channels_last),
        result="self",
    )
    yield Case(
        "resize_",
        "contiguous_format_restrides",
        resize(F32, [4, 3], [3, 4], layout="T", mf=torch.contiguous_format),
        result="self",
    )
    yield Case(
        "resize_",
        "channels_last_rank_error",
        resize(F32, [2, 3], [2, 3, 1], mf=torch.channels_last),
        error="required rank 4 tensor to use channels_last format",
    )
    yield Case("resize_", "negative_size_error", resize(F32, [2], [-1]), error=TORCH_MESSAGE)


def item_cases() -> Iterator[Case]:
    """_local_scalar_dense: the first element's value as a bool, int or float Scalar."""
    for d in ALL7:
        yield Case("_local_scalar_dense", dn(d), case_args(("self", tensor_arg(d, [1]))))
        yield Case(
            "_local_scalar_dense", dn(d) + "_zerodim", case_args(("self", tensor_arg(d, [])))
        )
    yield Case(
        "_local_scalar_dense",
        "transposed_first",
        case_args(("self", tensor_arg(F32, [2, 3], layout="T"))),
    )
    yield Case(
        "_local_scalar_dense",
        "offset_first",
        case_args(("self", tensor_arg(I64, [1, 2], layout="step"))),
    )
    yield Case(
        "_local_scalar_dense",
        "nan",
        case_args(("self", tensor_arg(F64, [1], vals=[float("nan")]))),
    )
    yield Case(
        "_local_scalar_dense",
        "empty_error",
        case_args(("self", tensor_arg(F32, [0]))),
        error="_local_scalar_dense: Empty tensor not supported",
    )


FAMILIES = [
    FamilyInfo(
        "random_factories",
        ops=(
            "rand",
            "rand.generator",
            "randn",
            "randn.generator",
            "randperm",
            "randperm.generator",
            "randperm.out",
        ),
        sample_inputs=factory_cases,
        factory=True,
    ),
    FamilyInfo(
        "random_sampling",
        ops=("uniform_", "normal_", "normal_functional", "normal.out"),
        sample_inputs=sampling_cases,
    ),
    FamilyInfo("resize", ops=("resize_",), sample_inputs=resize_cases),
    FamilyInfo(
        "local_scalar_dense", ops=("_local_scalar_dense",), sample_inputs=item_cases, size0=False
    ),
]
