"""col2im (nn.functional.fold): columns of sliding blocks summed back into images.

Inputs are small multiples of 1/4, so the sums of overlapping blocks are exact.
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    F32,
    F64,
    TORCH_MESSAGE,
    B,
    Case,
    FamilyInfo,
    Ints,
    dn,
)


def col2im_cases() -> Iterator[Case]:
    """Cases of col2im (float32, float64 and bool, as PyTorch's CPU kernel)."""
    C = "col2im"

    def fn(d, shape, osize, k, dil=(1, 1), p=(0, 0), s=(1, 1), layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("output_size", Ints(osize)),
            ("kernel_size", Ints(k)),
            ("dilation", Ints(dil)),
            ("padding", Ints(p)),
            ("stride", Ints(s)),
        ]

    for d in ALL7:
        n = dn(d)
        # 2 planes of a 2x2 kernel, 3x3 overlapping blocks of a 4x4 image.
        yield Case(C, f"{n}_overlap", fn(d, (2, 8, 9), [4, 4], [2, 2]), error=TORCH_MESSAGE)
        yield Case(C, f"{n}_unbatched", fn(d, (4, 6), [3, 4], [2, 2]), error=TORCH_MESSAGE)
        yield Case(C, f"{n}_size0_batch", fn(d, (0, 4, 9), [4, 4], [2, 2]), error=TORCH_MESSAGE)
    yield Case(
        C, "float32_stride_padding", fn(F32, (1, 12, 9), [5, 5], [2, 3], (1, 1), (1, 1), (2, 2))
    )
    yield Case(C, "float64_dilation", fn(F64, (2, 8, 6), [5, 5], [2, 2], (2, 3), (1, 1), (2, 2)))
    yield Case(
        C, "float32_rect_kernel_gaps", fn(F32, (1, 6, 4), [6, 7], [3, 2], (1, 1), (0, 0), (3, 4))
    )
    yield Case(C, "float32_noncontig_T", fn(F32, (3, 4, 9), [4, 4], [2, 2], layout="T"))
    yield Case(C, "bool_noncontig_step", fn(B, (1, 4, 9), [4, 4], [2, 2], layout="step"))
    yield Case(C, "float32_size1", fn(F32, (1, 1, 1), [1, 1], [1, 1]))
    yield Case(
        C,
        "input_4d_error",
        fn(F32, (1, 1, 4, 9), [4, 4], [2, 2]),
        error="Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: [1, 1, 4, 9]",
    )
    yield Case(
        C,
        "size0_columns_error",
        fn(F32, (1, 4, 0), [1, 1], [2, 2]),
        error="Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: [1, 4, 0]",
    )
    yield Case(
        C,
        "not_divisible_error",
        fn(F32, (1, 5, 9), [4, 4], [2, 2]),
        error="Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=5 and kernel_size=(2, 2).",
    )
    yield Case(
        C,
        "block_count_error",
        fn(F32, (1, 4, 8), [4, 4], [2, 2]),
        error="Given output_size=(4, 4), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size of input's dimension 2 to match the calculated number of sliding blocks 3 * 3 = 9, but got input.size(2)=8.",
    )
    yield Case(
        C,
        "output_size_zero_error",
        fn(F32, (1, 4, 9), [0, 4], [2, 2]),
        error="Given output_size=(0, 4), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size of input's dimension 2 to match the calculated number of sliding blocks -1 * 3 = -3, but got input.size(2)=9.",
    )
    yield Case(
        C,
        "kernel_zero_error",
        fn(F32, (1, 4, 9), [4, 4], [0, 2]),
        error="kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 2",
    )
    yield Case(
        C,
        "stride_zero_error",
        fn(F32, (1, 4, 9), [4, 4], [2, 2], (1, 1), (0, 0), (0, 1)),
        error="stride should be greater than zero, but got stride_height: 0 stride_width: 1",
    )
    yield Case(
        C,
        "dilation_zero_error",
        fn(F32, (1, 4, 9), [4, 4], [2, 2], (1, 0)),
        error="dilation should be greater than zero, but got dilation_height: 1 dilation_width: 0",
    )
    yield Case(
        C,
        "negative_padding_error",
        fn(F32, (1, 4, 9), [4, 4], [2, 2], (1, 1), (-1, 0)),
        error="padding should be non-negative, but got pad_height: -1 pad_width: 0",
    )
    for arg, osize, k in (("output_size", [4], [2, 2]), ("kernel_size", [4, 4], [2, 2, 2])):
        yield Case(
            C,
            f"{arg}_length_error",
            fn(F32, (1, 4, 9), osize, k),
            error=f"It is expected {arg} equals to 2, but got size",
        )
    yield Case(
        f"{C}.out",
        "out_dtype_error",
        lambda r: [*fn(F32, (1, 4, 9), [4, 4], [2, 2])(r), ("out", r.t(F64, (0,)))],
        error="expected scalar type Float but found Double",
    )


FAMILIES = [FamilyInfo("col2im", ops=("col2im", "col2im.out"), sample_inputs=col2im_cases)]
