"""Pooling: max_pool2d_with_indices, avg_pool2d, adaptive_avg_pool2d, _adaptive_avg_pool2d.

Inputs are small multiples of 1/4, so maxima, window sums and their quotients are exact
(PyTorch's order: sum row by row, then divide; adaptive: sum / kh / kw).
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    F32,
    F64,
    I8,
    I32,
    I64,
    U8,
    B,
    Bool,
    Case,
    FamilyInfo,
    Int,
    Ints,
    dn,
    opt,
)

NAMES = {I64: "Long", I32: "Int", I8: "Char", U8: "Byte", B: "Bool"}


def max_pool_cases() -> Iterator[Case]:
    """Cases of max_pool2d_with_indices (every dtype but bool)."""
    MP = "max_pool2d_with_indices"

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
        if d == B:
            yield Case(
                MP, n, fn(d, (1, 2, 4, 4), [2]), error="\"max_pool2d\" not implemented for 'Bool'"
            )
        else:
            yield Case(MP, f"{n}_k2", fn(d, (1, 2, 4, 4), [2, 2]))
            yield Case(MP, f"{n}_k3_s2_p1", fn(d, (2, 1, 5, 5), [3, 3], [2, 2], [1, 1]))
    yield Case(MP, "float32_3d_input", fn(F32, (2, 5, 4), [2]))
    yield Case(MP, "float32_single_int_params", fn(F32, (1, 2, 6, 5), [3], [2], [1], [1]))
    yield Case(MP, "float32_rect_kernel", fn(F32, (1, 2, 5, 6), [2, 3], [1, 2]))
    yield Case(MP, "float32_dilation", fn(F32, (1, 1, 7, 7), [3, 2], [1, 2], [0], [2, 3]))
    yield Case(MP, "float32_dilation_padding", fn(F32, (1, 2, 5, 5), [3, 3], [2], [1], [2]))
    yield Case(MP, "float32_ceil_mode", fn(F32, (1, 2, 5, 5), [2, 2], [2, 2], [0], [1], True))
    yield Case(
        MP, "float32_ceil_mode_padding", fn(F32, (1, 1, 6, 6), [3, 3], [2, 2], [1], [1], True)
    )
    yield Case(
        MP, "float64_ceil_mode_last_window_dropped", fn(F64, (1, 1, 5, 5), [2], [2], [1], [1], True)
    )
    yield Case(MP, "float32_stride1_overlap", fn(F32, (1, 2, 4, 4), [2, 2], [1, 1]))
    yield Case(MP, "float32_channels_last", fn(F32, (1, 3, 4, 4), [2, 2], layout="channels_last"))
    yield Case(
        MP, "int64_channels_last_pad", fn(I64, (1, 4, 3, 3), [3], [2], [1], layout="channels_last")
    )
    yield Case(MP, "float32_noncontig_T", fn(F32, (2, 2, 3, 5), [2], layout="T"))
    yield Case(MP, "float64_noncontig_step", fn(F64, (1, 2, 4, 4), [2], [1], layout="step"))
    yield Case(
        MP,
        "float32_ties_keep_first",
        fn(F32, (1, 1, 2, 4), [2], vals=[[[[1.0, 1.0, -2.0, -2.0], [1.0, 1.0, -2.0, -2.0]]]]),
    )
    yield Case(
        MP,
        "float32_nan_wins",
        fn(
            F32,
            (1, 1, 2, 4),
            [2],
            vals=[
                [
                    [
                        [1.0, float("nan"), float("-inf"), 3.0],
                        [float("inf"), 2.0, float("-inf"), float("-inf")],
                    ]
                ]
            ],
        ),
    )
    # Rows of eight outputs or more: the float32 kernel's vectors (stride 1 and 2, with a
    # tail), quarter values tying often; NaN and infinities across a vector's lanes.
    yield Case(MP, "float32_wide_k3_s2_p1", fn(F32, (1, 2, 6, 37), [3, 3], [2, 2], [1, 1]))
    yield Case(MP, "float32_wide_k2_s1", fn(F32, (1, 1, 3, 40), [2, 2], [1, 1]))
    yield Case(MP, "float32_wide_k3_s1_p1", fn(F32, (1, 1, 4, 21), [3, 3], [1, 1], [1, 1]))
    nan, inf = float("nan"), float("inf")
    wide = [[1.0, nan, -inf, 3.0] * 5, [inf, 2.0, -inf, -inf] * 4 + [nan, 1.0, 1.0, nan]]
    yield Case(MP, "float32_wide_nan_wins", fn(F32, (1, 1, 2, 20), [2], vals=[[wide]]))
    yield Case(MP, "float32_size0_batch", fn(F32, (0, 2, 4, 4), [2]))
    yield Case(MP, "float32_size1", fn(F32, (1, 1, 1, 1), [1]))
    yield Case(MP, "float32_output_size1", fn(F32, (1, 1, 3, 3), [3]))
    yield Case(
        MP,
        "input_2d_error",
        fn(F32, (4, 4), [2]),
        error="non-empty 3D or 4D (batch mode) tensor expected for input",
    )
    yield Case(
        MP,
        "size0_channels_error",
        fn(F32, (2, 0, 4, 4), [2]),
        error="Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[2, 0, 4, 4]",
    )
    yield Case(
        MP,
        "kernel_size_length_error",
        fn(F32, (1, 1, 4, 4), [2, 2, 2]),
        error="max_pool2d: kernel_size must either be a single int, or a tuple of two ints",
    )
    yield Case(
        MP,
        "stride_length_error",
        fn(F32, (1, 1, 4, 4), [2], [1, 1, 1]),
        error="max_pool2d: stride must either be omitted, a single int, or a tuple of two ints",
    )
    yield Case(
        MP,
        "padding_length_error",
        fn(F32, (1, 1, 4, 4), [2], [], [0, 0, 0]),
        error="max_pool2d: padding must either be a single int, or a tuple of two ints",
    )
    yield Case(
        MP,
        "dilation_length_error",
        fn(F32, (1, 1, 4, 4), [2], [], [0], [1, 1, 1]),
        error="max_pool2d: dilation must be either a single int, or a tuple of two ints",
    )
    yield Case(
        MP,
        "stride_zero_error",
        fn(F32, (1, 1, 4, 4), [2], [0, 1]),
        error="stride should not be zero",
    )
    yield Case(
        MP,
        "kernel_zero_error",
        fn(F32, (1, 1, 4, 4), [0, 2], [1]),
        error="kernel size should be greater than zero, but got kH: 0 kW: 2",
    )
    yield Case(
        MP,
        "negative_padding_error",
        fn(F32, (1, 1, 4, 4), [2], [], [-1, 0]),
        error="pad must be non-negative, but got pad: -1",
    )
    yield Case(
        MP,
        "padding_too_large_error",
        fn(F32, (1, 1, 4, 4), [2], [], [2]),
        error="pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1",
    )
    yield Case(
        MP,
        "dilation_zero_error",
        fn(F32, (1, 1, 4, 4), [2], [], [0], [0, 1]),
        error="dilation should be greater than zero, but got dilationH: 0 dilationW: 1",
    )
    yield Case(
        MP,
        "output_too_small_error",
        fn(F32, (1, 1, 2, 2), [3]),
        error="Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small",
    )


def avg_pool_cases() -> Iterator[Case]:
    """Cases of avg_pool2d (float32, float64, int64)."""
    AP = "avg_pool2d"

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
        if d in (F32, F64, I64):
            yield Case(AP, f"{n}_k2", fn(d, (1, 2, 4, 4), [2, 2]))
            yield Case(AP, f"{n}_k3_s2_p1", fn(d, (2, 1, 5, 5), [3, 3], [2, 2], [1, 1]))
        else:
            yield Case(
                AP,
                n,
                fn(d, (1, 2, 4, 4), [2]),
                error=f"\"avg_pool2d\" not implemented for '{NAMES[d]}'",
            )
    yield Case(AP, "int64_negative_truncates", fn(I64, (1, 1, 3, 3), [2], [1]))
    yield Case(AP, "float32_3d_input", fn(F32, (2, 4, 4), [2]))
    yield Case(AP, "float32_rect_kernel", fn(F32, (1, 2, 5, 6), [2, 3], [1, 2]))
    yield Case(AP, "float32_pad_exclude", fn(F32, (1, 2, 5, 5), [3], [2], [1], cip=False))
    yield Case(AP, "float64_pad_include", fn(F64, (1, 2, 5, 5), [3], [2], [1], cip=True))
    yield Case(AP, "float32_divisor_override", fn(F32, (1, 2, 4, 4), [2], [], [0], div=3))
    yield Case(
        AP, "float32_divisor_override_pad", fn(F32, (1, 1, 5, 5), [3], [2], [1], cip=False, div=2)
    )
    yield Case(AP, "float32_ceil_mode", fn(F32, (1, 2, 5, 5), [2], [2], [0], True))
    yield Case(
        AP, "float32_ceil_mode_pad_exclude", fn(F32, (1, 1, 6, 6), [3], [2], [1], True, cip=False)
    )
    yield Case(
        AP, "float32_ceil_mode_pad_include", fn(F32, (1, 1, 6, 6), [3], [2], [1], True, cip=True)
    )
    yield Case(AP, "float32_channels_last", fn(F32, (1, 3, 4, 4), [2], layout="channels_last"))
    yield Case(
        AP,
        "float64_channels_last_pad",
        fn(F64, (1, 4, 3, 3), [3], [2], [1], cip=False, layout="channels_last"),
    )
    yield Case(AP, "float32_noncontig_T", fn(F32, (2, 2, 3, 5), [2], layout="T"))
    yield Case(AP, "int64_noncontig_step", fn(I64, (1, 2, 4, 4), [2], [1], layout="step"))
    yield Case(AP, "float32_size0_batch", fn(F32, (0, 2, 4, 4), [2]))
    yield Case(AP, "float32_size1", fn(F32, (1, 1, 1, 1), [1]))
    yield Case(
        AP,
        "input_2d_error",
        fn(F32, (4, 4), [2]),
        error="Dimension out of range (expected to be in range of [-2, 1], but got -3)",
    )
    yield Case(
        AP,
        "size0_channels_error",
        fn(F32, (2, 0, 4, 4), [2]),
        error="Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[2, 0, 4, 4]",
    )
    yield Case(
        AP,
        "kernel_size_length_error",
        fn(F32, (1, 1, 4, 4), [2, 2, 2]),
        error="avg_pool2d: kernel_size must either be a single int, or a tuple of two ints",
    )
    yield Case(
        AP,
        "stride_length_error",
        fn(F32, (1, 1, 4, 4), [2], [1, 1, 1]),
        error="avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints",
    )
    yield Case(
        AP,
        "padding_length_error",
        fn(F32, (1, 1, 4, 4), [2], [], [0, 0, 0]),
        error="avg_pool2d: padding must either be a single int, or a tuple of two ints",
    )
    yield Case(
        AP,
        "divisor_zero_error",
        fn(F32, (1, 1, 4, 4), [2], [], [0], div=0),
        error="divisor must be not zero",
    )
    yield Case(
        AP,
        "padding_too_large_error",
        fn(F32, (1, 1, 4, 4), [2], [], [2]),
        error="pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1",
    )
    yield Case(
        AP, "stride_zero_error", fn(F32, (1, 1, 4, 4), [2], [0]), error="stride should not be zero"
    )
    yield Case(
        AP,
        "output_too_small_error",
        fn(F32, (1, 1, 2, 2), [3]),
        error="Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small",
    )


def adaptive_avg_pool_cases() -> Iterator[Case]:
    """Cases of adaptive_avg_pool2d (the composite) and _adaptive_avg_pool2d (its kernel)."""
    AA, AAK = "adaptive_avg_pool2d", "_adaptive_avg_pool2d"

    def fn(d, shape, osize, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("output_size", Ints(osize))]

    for op in (AAK, AA):
        for d in ALL7:
            n = dn(d)
            if d in (F32, F64):
                yield Case(op, f"{n}_down", fn(d, (1, 2, 5, 6), [2, 4]))
                yield Case(op, f"{n}_up", fn(d, (1, 2, 2, 3), [3, 4]))
            else:
                yield Case(
                    op,
                    n,
                    fn(d, (1, 2, 4, 4), [2, 2]),
                    error=f"\"adaptive_avg_pool2d\" not implemented for '{NAMES[d]}'",
                )
        yield Case(op, "float32_3d_input", fn(F32, (2, 4, 6), [2, 4]))
        yield Case(op, "float32_same_size", fn(F32, (1, 2, 3, 3), [3, 3]))
        yield Case(op, "float32_global_1x1", fn(F32, (2, 3, 2, 4), [1, 1]))
        yield Case(
            op, "float64_global_1x1_channels_last", fn(F64, (2, 3, 2, 2), [1, 1], "channels_last")
        )
        yield Case(op, "float32_channels_last", fn(F32, (1, 3, 4, 4), [3, 2], "channels_last"))
        yield Case(op, "float32_noncontig_T", fn(F32, (2, 2, 3, 5), [2, 2], "T"))
        yield Case(op, "float64_noncontig_step", fn(F64, (1, 2, 5, 4), [3, 3], "step"))
        yield Case(op, "float32_size0_batch", fn(F32, (0, 2, 4, 4), [2, 2]))
        yield Case(op, "float32_size0_channels", fn(F32, (1, 0, 4, 4), [2, 2]))
        yield Case(op, "float32_size0_output", fn(F32, (1, 2, 4, 4), [0, 2]))
        yield Case(op, "float32_size1", fn(F32, (1, 1, 1, 1), [1, 1]))
        yield Case(
            op,
            "input_2d_error",
            fn(F32, (5, 5), [2, 2]),
            error="adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [5, 5]",
        )
        yield Case(
            op,
            "empty_height_error",
            fn(F32, (1, 2, 0, 5), [2, 2]),
            error="adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [1, 2, 0, 5] with dimension 2 being empty",
        )
        yield Case(
            op,
            "output_size_length_error",
            fn(F32, (1, 2, 4, 4), [2, 2, 2]),
            error="adaptive_avg_pool2d: output_size must be 2",
        )
    yield Case(
        AA,
        "int64_global_1x1_error",
        fn(I64, (1, 2, 2, 2), [1, 1]),
        error="mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long",
    )
    yield Case(
        AA,
        "negative_output_size_error",
        fn(F32, (1, 2, 4, 4), [-1, 2]),
        error="adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {-1, 2}",
    )


FAMILIES = [
    FamilyInfo("max_pool2d", ops=("max_pool2d_with_indices",), sample_inputs=max_pool_cases),
    FamilyInfo("avg_pool2d", ops=("avg_pool2d",), sample_inputs=avg_pool_cases),
    FamilyInfo(
        "adaptive_avg_pool2d",
        ops=("adaptive_avg_pool2d", "_adaptive_avg_pool2d"),
        sample_inputs=adaptive_avg_pool_cases,
    ),
]
