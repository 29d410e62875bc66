"""3-d pooling: avg_pool3d, max_pool3d_with_indices, _adaptive_avg_pool3d and
adaptive_avg_pool3d (a mean for an output of 1x1x1).

Inputs are small multiples of 1/4, so maxima, window sums and their quotients are exact
(PyTorch's order: sum over the window, then divide; adaptive: sum / kt / kh / kw).
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    F32,
    F64,
    I8,
    I64,
    TORCH_MESSAGE,
    Bool,
    Case,
    FamilyInfo,
    Int,
    Ints,
    dn,
    opt,
)

CL3 = "channels_last_3d"


def max_pool3d_cases() -> Iterator[Case]:
    """Cases of max_pool3d_with_indices (every dtype but bool)."""
    MP = "max_pool3d_with_indices"

    def fn(d, shape, k, s=(), p=(0,), dil=(1,), ceil=False, layout="contig", vals=None):
        return lambda r: [
            ("self", r.t(d, shape, layout, vals=vals)),
            ("kernel_size", Ints(k)),
            ("stride", Ints(s)),
            ("padding", Ints(p)),
            ("dilation", Ints(dil)),
            ("ceil_mode", Bool(ceil)),
        ]

    for d in ALL7:
        n = dn(d)
        yield Case(MP, f"{n}_k2", fn(d, (1, 2, 4, 4, 4), [2]), error=TORCH_MESSAGE)
        yield Case(MP, f"{n}_k3_s2_p1", fn(d, (2, 2, 5, 5, 5), [3], [2], [1]), error=TORCH_MESSAGE)
        yield Case(
            MP,
            f"{n}_channels_last_3d",
            fn(d, (2, 3, 3, 4, 4), [2], layout=CL3),
            error=TORCH_MESSAGE,
        )
        yield Case(MP, f"{n}_size0_batch", fn(d, (0, 2, 4, 4, 4), [2]), error=TORCH_MESSAGE)
    yield Case(MP, "float32_unbatched", fn(F32, (2, 4, 5, 4), [2]))
    yield Case(MP, "float32_rect_kernel", fn(F32, (1, 2, 4, 5, 6), [1, 2, 3], [1, 2, 2]))
    yield Case(
        MP, "float32_dilation", fn(F32, (1, 1, 5, 7, 7), [2, 3, 2], [1, 1, 2], [0], [2, 2, 3])
    )
    yield Case(MP, "float64_dilation_padding", fn(F64, (1, 2, 5, 5, 5), [3], [2], [1], [2]))
    yield Case(MP, "float32_ceil_mode", fn(F32, (1, 2, 5, 5, 5), [2], [2], [0], [1], True))
    yield Case(MP, "float32_ceil_mode_padding", fn(F32, (1, 1, 6, 6, 6), [3], [2], [1], [1], True))
    yield Case(
        MP,
        "float64_channels_last_3d_pad_dilation",
        fn(F64, (2, 4, 5, 5, 5), [3], [2], [1], [2], True, layout=CL3),
    )
    yield Case(MP, "int8_channels_last_3d_pad", fn(I8, (1, 3, 3, 3, 3), [3], [2], [1], layout=CL3))
    yield Case(MP, "float32_noncontig_T", fn(F32, (2, 2, 3, 4, 5), [2], layout="T"))
    yield Case(MP, "int64_noncontig_step", fn(I64, (1, 2, 3, 4, 4), [2], [1], layout="step"))
    yield Case(
        MP,
        "float32_ties_keep_first",
        fn(
            F32,
            (1, 1, 2, 2, 2),
            [2],
            vals=[[[[[1.0, 1.0], [-2.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]]]]],
        ),
    )
    nan, inf = float("nan"), float("inf")
    yield Case(
        MP,
        "float32_nan_wins",
        fn(
            F32,
            (1, 1, 2, 2, 4),
            [2],
            vals=[[[[[1.0, nan, -inf, 3.0], [inf, 2.0, -inf, -inf]]] * 2]],
        ),
    )
    yield Case(
        MP,
        "float32_channels_last_3d_nan_wins",
        fn(F32, (1, 2, 2, 2, 2), [2], layout=CL3, vals=[[[[[1.0, nan], [-inf, 3.0]]] * 2] * 2]),
    )
    yield Case(MP, "float32_size1", fn(F32, (1, 1, 1, 1, 1), [1]))
    yield Case(
        MP,
        "input_3d_error",
        fn(F32, (4, 4, 4), [2]),
        error="non-empty 4D or 5D (batch mode) tensor expected for input",
    )
    yield Case(
        MP,
        "channels_last_4d_error",
        fn(F32, (2, 3, 4, 4), [2], layout="channels_last"),
        error="Unsupported memory format. Supports only ChannelsLast3d, Contiguous",
    )
    yield Case(
        MP,
        "size0_depth_error",
        fn(F32, (1, 2, 0, 4, 4), [2]),
        error="max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to have positive length, but input has a shape of [1, 2, 0, 4, 4] and non-batch dimension 0 has length zero!",
    )
    for arg, k, s, p, dil in (
        ("kernel_size", [2, 2], [], [0], [1]),
        ("stride", [2], [1, 1], [0], [1]),
        ("padding", [2], [], [0, 0], [1]),
    ):
        yield Case(
            MP,
            f"{arg}_length_error",
            fn(F32, (1, 1, 4, 4, 4), k, s, p, dil),
            error=f"max_pool3d: {arg} must either be",
        )
    yield Case(
        MP,
        "dilation_length_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [], [0], [1, 1]),
        error="max_pool3d: dilation must be either a single int, or a tuple of three ints",
    )
    yield Case(
        MP,
        "stride_zero_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [0, 1, 1]),
        error="stride should not be zero",
    )
    yield Case(
        MP,
        "negative_stride_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [-1]),
        error="stride should be greater than zero, but got dT: -1 dH: -1 dW: -1",
    )
    yield Case(
        MP,
        "kernel_zero_error",
        fn(F32, (1, 1, 4, 4, 4), [0, 2, 2], [1]),
        error="kernel size should be greater than zero, but got kT: 0 kH: 2 kW: 2",
    )
    yield Case(
        MP,
        "dilation_zero_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [], [0], [0, 1, 1]),
        error="dilation should be greater than zero, but got dilationT: 0 dilationH: 1 dilationW: 1",
    )
    yield Case(
        MP,
        "negative_padding_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [], [-1]),
        error="pad must be non-negative, but got pad: -1",
    )
    yield Case(
        MP,
        "padding_too_large_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [], [2]),
        error="pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1",
    )
    yield Case(
        MP,
        "output_too_small_error",
        fn(F32, (1, 2, 1, 5, 5), [2]),
        error="Given input size: (2x1x5x5). Calculated output size: (2x0x2x2). Output size is too small",
    )

    def fn_out(out_dtype, indices_dtype):
        return lambda r: [
            *fn(F32, (1, 2, 4, 4, 4), [2])(r),
            ("out", r.t(out_dtype, (0,))),
            ("indices", r.t(indices_dtype, (0,))),
        ]

    yield Case(
        f"{MP}.out",
        "out_dtype_error",
        fn_out(F64, I64),
        error="expected scalar type Float but found Double",
    )
    yield Case(
        f"{MP}.out",
        "indices_dtype_error",
        fn_out(F32, F32),
        error="expected scalar type Long but found Float",
    )


def avg_pool3d_cases() -> Iterator[Case]:
    """Cases of avg_pool3d (float32, float64, int64)."""
    AP = "avg_pool3d"

    def fn(d, shape, k, s=(), p=(0,), ceil=False, cip=True, div=None, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("kernel_size", Ints(k)),
            ("stride", Ints(s)),
            ("padding", Ints(p)),
            ("ceil_mode", Bool(ceil)),
            ("count_include_pad", Bool(cip)),
            ("divisor_override", opt(Int, div)),
        ]

    for d in ALL7:
        n = dn(d)
        yield Case(AP, f"{n}_k2", fn(d, (1, 2, 4, 4, 4), [2]), error=TORCH_MESSAGE)
        yield Case(AP, f"{n}_k3_s2_p1", fn(d, (2, 1, 5, 5, 5), [3], [2], [1]), error=TORCH_MESSAGE)
        yield Case(AP, f"{n}_size0_batch", fn(d, (0, 2, 4, 4, 4), [2]), error=TORCH_MESSAGE)
    yield Case(AP, "int64_negative_truncates", fn(I64, (1, 1, 3, 3, 3), [2], [1]))
    yield Case(AP, "float32_unbatched", fn(F32, (2, 4, 4, 5), [2]))
    yield Case(AP, "float32_rect_kernel", fn(F32, (1, 2, 4, 5, 6), [1, 2, 3], [1, 2, 2]))
    yield Case(AP, "float32_pad_exclude", fn(F32, (1, 2, 5, 5, 5), [3], [2], [1], cip=False))
    yield Case(AP, "float64_pad_include", fn(F64, (1, 2, 5, 5, 5), [3], [2], [1], cip=True))
    yield Case(AP, "float32_divisor_override", fn(F32, (1, 2, 4, 4, 4), [2], [], [0], div=3))
    yield Case(
        AP,
        "float64_divisor_override_pad",
        fn(F64, (1, 1, 5, 5, 5), [3], [2], [1], cip=False, div=5),
    )
    yield Case(AP, "int64_divisor_override", fn(I64, (1, 1, 4, 4, 4), [2], [], [0], div=3))
    yield Case(AP, "float32_ceil_mode", fn(F32, (1, 2, 5, 5, 5), [2], [2], [0], True))
    yield Case(
        AP,
        "float32_ceil_mode_pad_exclude",
        fn(F32, (1, 1, 6, 6, 6), [3], [2], [1], True, cip=False),
    )
    yield Case(
        AP, "float32_ceil_mode_pad_include", fn(F32, (1, 1, 6, 6, 6), [3], [2], [1], True, cip=True)
    )
    yield Case(AP, "float32_channels_last_3d", fn(F32, (2, 3, 4, 4, 4), [2], layout=CL3))
    yield Case(
        AP,
        "float64_channels_last_3d_pad",
        fn(F64, (1, 4, 3, 3, 3), [3], [2], [1], cip=False, layout=CL3),
    )
    yield Case(AP, "float32_channels_last_4d", fn(F32, (3, 4, 4, 4), [2], layout="channels_last"))
    yield Case(AP, "float32_noncontig_T", fn(F32, (2, 2, 3, 4, 5), [2], layout="T"))
    yield Case(AP, "int64_noncontig_step", fn(I64, (1, 2, 3, 4, 4), [2], [1], layout="step"))
    yield Case(AP, "float32_size1", fn(F32, (1, 1, 1, 1, 1), [1]))
    yield Case(
        AP,
        "input_3d_error",
        fn(F32, (4, 4, 4), [2]),
        error="non-empty 4D or 5D (batch mode) tensor expected for input",
    )
    yield Case(
        AP,
        "size0_channels_error",
        fn(F32, (1, 0, 4, 4, 4), [2]),
        error="avg_pool3d(): Expected input's non-batch dimensions to have positive length, but input has a shape of [1, 0, 4, 4, 4] and non-batch dimension 0 has length zero!",
    )
    for arg, k, s, p in (
        ("kernel_size", [2, 2], [], [0]),
        ("stride", [2], [1, 1], [0]),
        ("padding", [2], [], [0, 0]),
    ):
        yield Case(
            AP,
            f"{arg}_length_error",
            fn(F32, (1, 1, 4, 4, 4), k, s, p),
            error=f"avg_pool3d: {arg} must be",
        )
    yield Case(
        AP,
        "divisor_zero_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [], [0], div=0),
        error="divisor must be not zero",
    )
    yield Case(
        AP,
        "kernel_zero_error",
        fn(F32, (1, 1, 4, 4, 4), [2, 0, 2], [1]),
        error="kernel size should be greater than zero, but got kT: 2 kH: 0 kW: 2",
    )
    yield Case(
        AP,
        "input_smaller_than_kernel_error",
        fn(F32, (1, 2, 1, 5, 5), [2]),
        error="input image (T: 1 H: 5 W: 5) smaller than kernel size (kT: 2 kH: 2 kW: 2)",
    )
    yield Case(
        AP,
        "padding_too_large_error",
        fn(F32, (1, 1, 4, 4, 4), [3], [1], [1, 2, 1]),
        error="pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1",
    )
    yield Case(
        AP,
        "stride_zero_error",
        fn(F32, (1, 1, 4, 4, 4), [2], [0]),
        error="stride should not be zero",
    )


def adaptive_avg_pool3d_cases() -> Iterator[Case]:
    """Cases of adaptive_avg_pool3d (the composite) and _adaptive_avg_pool3d (its kernel)."""
    AA, AAK = "adaptive_avg_pool3d", "_adaptive_avg_pool3d"

    def fn(d, shape, osize, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("output_size", Ints(osize))]

    for op in (AAK, AA):
        for d in ALL7:
            n = dn(d)
            yield Case(op, f"{n}_down", fn(d, (1, 2, 5, 6, 7), [2, 4, 3]), error=TORCH_MESSAGE)
            yield Case(op, f"{n}_up", fn(d, (1, 2, 2, 3, 2), [3, 4, 3]), error=TORCH_MESSAGE)
            yield Case(
                op, f"{n}_global_1x1x1", fn(d, (2, 3, 2, 4, 2), [1, 1, 1]), error=TORCH_MESSAGE
            )
            yield Case(
                op, f"{n}_size0_batch", fn(d, (0, 2, 4, 4, 4), [2, 2, 2]), error=TORCH_MESSAGE
            )
        yield Case(op, "float32_unbatched", fn(F32, (2, 4, 6, 5), [2, 4, 3]))
        yield Case(op, "float32_same_size", fn(F32, (1, 2, 3, 3, 3), [3, 3, 3]))
        yield Case(op, "float32_channels_last_3d", fn(F32, (2, 3, 4, 4, 4), [3, 2, 3], CL3))
        yield Case(
            op, "float64_global_1x1x1_channels_last_3d", fn(F64, (2, 3, 2, 2, 2), [1, 1, 1], CL3)
        )
        yield Case(op, "float32_noncontig_T", fn(F32, (2, 2, 3, 4, 5), [2, 2, 2], "T"))
        yield Case(op, "float64_noncontig_step", fn(F64, (1, 2, 3, 5, 4), [3, 3, 3], "step"))
        yield Case(op, "float32_size0_output", fn(F32, (1, 2, 4, 4, 4), [0, 2, 2]))
        yield Case(op, "float32_size1", fn(F32, (1, 1, 1, 1, 1), [1, 1, 1]))
        yield Case(
            op,
            "empty_depth_error",
            fn(F32, (1, 2, 0, 4, 4), [2, 2, 2]),
            error="adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [1, 2, 0, 4, 4] with dimension 2 being empty",
        )
        yield Case(
            op,
            "output_size_length_error",
            fn(F32, (1, 2, 4, 4, 4), [2, 2]),
            error="adaptive_avg_pool3d: output_size must be 3",
        )
    yield Case(AAK, "float32_unbatched_size0_channels", fn(F32, (0, 4, 4, 4), [2, 2, 2]))
    yield Case(
        AAK,
        "input_3d_error",
        fn(F32, (4, 4, 4), [2, 2, 2]),
        error="adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [4, 4, 4]",
    )
    yield Case(
        AA,
        "input_3d_error",
        fn(F32, (4, 4, 4), [2, 2, 2]),
        error="adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [4, 4, 4]",
    )
    yield Case(
        f"{AA}.out",
        "out_dtype_error",
        lambda r: [*fn(F32, (1, 2, 4, 4, 4), [2, 2, 2])(r), ("out", r.t(F64, (0,)))],
        error="expected dtype float for `output` but got dtype double",
    )
    yield Case(
        AA,
        "negative_output_size_error",
        fn(F32, (1, 2, 4, 4, 4), [-1, 2, 2]),
        error="adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but received {-1, 2,2}",
    )


FAMILIES = [
    FamilyInfo(
        "max_pool3d",
        ops=("max_pool3d_with_indices", "max_pool3d_with_indices.out"),
        sample_inputs=max_pool3d_cases,
    ),
    FamilyInfo("avg_pool3d", ops=("avg_pool3d",), sample_inputs=avg_pool3d_cases),
    FamilyInfo(
        "adaptive_avg_pool3d",
        ops=("adaptive_avg_pool3d", "_adaptive_avg_pool3d", "adaptive_avg_pool3d.out"),
        sample_inputs=adaptive_avg_pool3d_cases,
    ),
]
