"""1-d pooling: avg_pool1d and adaptive_avg_pool1d, composites over the 2-d ops.

PyTorch's OpInfo recorder sees only the 2-d ops they decompose into, so these tables are
what calls the 1-d ops themselves. Inputs are small multiples of 1/4, so window sums and
their quotients are exact.
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    F32,
    F64,
    I64,
    TORCH_MESSAGE,
    Bool,
    Case,
    FamilyInfo,
    Ints,
    dn,
)


def avg_pool1d_cases() -> Iterator[Case]:
    """Cases of avg_pool1d (float32, float64 and int64, as avg_pool2d)."""
    AP = "avg_pool1d"

    def fn(d, shape, k, s=(), p=(0,), ceil=False, cip=True, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("kernel_size", Ints(k)),
            ("stride", Ints(s)),
            ("padding", Ints(p)),
            ("ceil_mode", Bool(ceil)),
            ("count_include_pad", Bool(cip)),
        ]

    for d in ALL7:
        yield Case(AP, f"{dn(d)}_k2", fn(d, (2, 3, 6), [2]), error=TORCH_MESSAGE)
        yield Case(
            AP, f"{dn(d)}_unbatched_k3_s2_p1", fn(d, (3, 7), [3], [2], [1]), error=TORCH_MESSAGE
        )
    yield Case(AP, "int64_negative_truncates", fn(I64, (1, 2, 5), [2], [1]))
    yield Case(AP, "float32_pad_exclude", fn(F32, (2, 2, 7), [3], [2], [1], cip=False))
    yield Case(AP, "float64_pad_include", fn(F64, (2, 2, 7), [3], [2], [1], cip=True))
    yield Case(AP, "float32_ceil_mode", fn(F32, (1, 3, 6), [4], [3], [0], True))
    yield Case(AP, "float32_ceil_mode_pad_exclude", fn(F32, (1, 2, 6), [3], [2], [1], True, False))
    yield Case(AP, "float32_stride_longer_than_kernel", fn(F32, (1, 2, 9), [2], [3]))
    yield Case(AP, "float32_noncontig_T", fn(F32, (3, 2, 5), [2], layout="T"))
    yield Case(AP, "float64_noncontig_step", fn(F64, (2, 6), [3], [1], [1], layout="step"))
    yield Case(AP, "float32_size0_batch", fn(F32, (0, 2, 4), [2]))
    yield Case(AP, "float32_size1", fn(F32, (1, 1, 1), [1]))
    yield Case(
        AP,
        "input_1d_error",
        fn(F32, (5,), [2]),
        error="Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while checking arguments for avg_pool1d)",
    )
    yield Case(
        AP,
        "input_4d_error",
        fn(F32, (1, 2, 2, 5), [2]),
        error="Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while checking arguments for avg_pool1d)",
    )
    yield Case(
        AP,
        "kernel_size_length_error",
        fn(F32, (1, 2, 5), [2, 2]),
        error="avg_pool1d() argument 'kernel_size' should contain one int (got 2)",
    )
    yield Case(
        AP,
        "stride_length_error",
        fn(F32, (1, 2, 5), [2], [1, 1]),
        error="avg_pool1d() argument 'stride' should contain one int (got 2)",
    )
    yield Case(
        AP,
        "padding_length_error",
        fn(F32, (1, 2, 5), [2], [1], [0, 0]),
        error="avg_pool1d() argument 'padding' should contain one int (got 2)",
    )
    yield Case(
        AP,
        "padding_too_large_error",
        fn(F32, (1, 2, 5), [2], [1], [2]),
        error="pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1",
    )
    yield Case(
        AP,
        "output_too_small_error",
        fn(F32, (1, 2, 2), [3]),
        error="Given input size: (2x1x2). Calculated output size: (2x1x0). Output size is too small",
    )
    yield Case(
        AP, "stride_zero_error", fn(F32, (1, 2, 5), [2], [0]), error="stride should not be zero"
    )
    yield Case(
        AP,
        "size0_channels_error",
        fn(F32, (2, 0, 4), [2]),
        error="Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input",
    )


def adaptive_avg_pool1d_cases() -> Iterator[Case]:
    """Cases of adaptive_avg_pool1d (float32 and float64, as adaptive_avg_pool2d)."""
    AA = "adaptive_avg_pool1d"

    def fn(d, shape, osize, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("output_size", Ints(osize))]

    for d in ALL7:
        yield Case(AA, f"{dn(d)}_down", fn(d, (2, 3, 7), [3]), error=TORCH_MESSAGE)
        yield Case(AA, f"{dn(d)}_unbatched_up", fn(d, (2, 3), [5]), error=TORCH_MESSAGE)
        yield Case(AA, f"{dn(d)}_global", fn(d, (2, 3, 4), [1]), error=TORCH_MESSAGE)
    yield Case(AA, "float32_same_size", fn(F32, (1, 2, 5), [5]))
    yield Case(AA, "float32_noncontig_T", fn(F32, (3, 2, 6), [4], "T"))
    yield Case(AA, "float64_noncontig_step", fn(F64, (2, 7), [3], "step"))
    yield Case(AA, "float32_size0_batch", fn(F32, (0, 2, 4), [2]))
    yield Case(AA, "float32_size0_output", fn(F32, (1, 2, 4), [0]))
    yield Case(AA, "float32_size1", fn(F32, (1, 1, 1), [1]))
    yield Case(
        AA,
        "input_1d_error",
        fn(F32, (5,), [2]),
        error="Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_avg_pool1d)",
    )
    yield Case(
        AA,
        "input_4d_error",
        fn(F32, (1, 2, 2, 5), [2]),
        error="Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_avg_pool1d)",
    )
    yield Case(
        AA,
        "output_size_length_error",
        fn(F32, (1, 2, 5), [2, 2]),
        error="adaptive_avg_pool1d() argument 'output_size' should contain one int (got 2)",
    )
    yield Case(
        AA,
        "negative_output_size_error",
        fn(F32, (1, 2, 5), [-1]),
        error="adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {1, -1}",
    )
    yield Case(
        AA,
        "empty_length_error",
        fn(F32, (1, 2, 0), [2]),
        error="adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions",
    )


FAMILIES = [
    FamilyInfo("avg_pool1d", ops=("avg_pool1d",), sample_inputs=avg_pool1d_cases),
    FamilyInfo(
        "adaptive_avg_pool1d", ops=("adaptive_avg_pool1d",), sample_inputs=adaptive_avg_pool1d_cases
    ),
]
