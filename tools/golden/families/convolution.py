"""Convolution: aten::convolution, 1-d and 2-d, plain and transposed.

Integer inputs come from small ranges (RNG) so that sums of products stay inside the
dtype; floating inputs are multiples of 1/4, so every result is exact in any order.
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
    NONE,
    U8,
    B,
    Bool,
    Case,
    FamilyInfo,
    Int,
    Ints,
    dn,
)

RNG = {I64: (-3, 3), I32: (-3, 3), I8: (-2, 2), U8: (0, 3), B: None}


def convolution_cases() -> Iterator[Case]:
    """Cases of convolution: stride, padding, dilation, groups, depthwise, transposed."""
    CV = "convolution"

    def fn(
        d,
        xs,
        ws,
        bs=None,
        s=(1,),
        p=(0,),
        dil=(1,),
        tr=False,
        op=(0,),
        g=1,
        lx="contig",
        lw="contig",
        bd=None,
        wd=None,
    ):
        def build(r):
            bias = NONE if bs is None else r.t(bd or d, bs, rng=RNG.get(bd or d))
            return [
                ("input", r.t(d, xs, lx, rng=RNG.get(d))),
                ("weight", r.t(wd or d, ws, lw, rng=RNG.get(wd or d))),
                ("bias", bias),
                ("stride", Ints(s)),
                ("padding", Ints(p)),
                ("dilation", Ints(dil)),
                ("transposed", Bool(tr)),
                ("output_padding", Ints(op)),
                ("groups", Int(g)),
            ]

        return build

    for d in ALL7:
        n = dn(d)
        if d == B:
            yield Case(
                CV,
                n,
                fn(d, (1, 2, 4, 4), (3, 2, 3, 3)),
                error="\"slow_conv2d_cpu\" not implemented for 'Bool'",
            )
            yield Case(
                CV,
                f"{n}_transposed",
                fn(d, (1, 2, 2, 2), (2, 3, 2, 2), None, [2], tr=True),
                error="\"slow_conv_transpose2d_out_cpu\" not implemented for 'Bool'",
            )
            continue
        yield Case(CV, f"{n}_2d_bias", fn(d, (1, 2, 5, 5), (3, 2, 3, 3), (3,)))
        yield Case(CV, f"{n}_2d_stride2_pad1", fn(d, (2, 1, 4, 4), (2, 1, 3, 3), None, [2], [1]))
        yield Case(CV, f"{n}_1d_bias", fn(d, (2, 2, 6), (3, 2, 3), (3,), [1], [1]))
        yield Case(CV, f"{n}_depthwise", fn(d, (1, 3, 4, 4), (3, 1, 3, 3), (3,), [1], [1], g=3))
        names = {I32: "Int", I8: "Char", U8: "Byte"}
        yield Case(
            CV,
            f"{n}_transposed",
            fn(d, (1, 2, 2, 2), (2, 3, 2, 2), (3,), [2], tr=True),
            error=(
                f"\"slow_conv_transpose2d_out_cpu\" not implemented for '{names[d]}'"
                if d in names
                else None
            ),
        )
    # 2-d variations (float32 and float64)
    yield Case(CV, "float32_no_bias", fn(F32, (1, 2, 4, 4), (2, 2, 3, 3)))
    yield Case(
        CV, "float32_rect_kernel_asym", fn(F32, (1, 2, 5, 6), (2, 2, 2, 3), (2,), [1, 2], [1, 0])
    )
    yield Case(CV, "float32_dilation", fn(F32, (1, 1, 6, 6), (2, 1, 3, 3), (2,), [1], [1], [2]))
    yield Case(
        CV,
        "float64_dilation_asym",
        fn(F64, (1, 2, 5, 6), (2, 2, 2, 2), None, [2, 1], [0, 1], [2, 3]),
    )
    yield Case(CV, "float32_groups2", fn(F32, (1, 4, 3, 3), (4, 2, 2, 2), (4,), [1], [0], g=2))
    yield Case(
        CV, "float64_groups2_stride2", fn(F64, (1, 4, 3, 3), (2, 2, 2, 2), (2,), [2], [1], g=2)
    )
    yield Case(
        CV,
        "float32_depthwise_multiplier2",
        fn(F32, (1, 2, 4, 4), (4, 1, 3, 3), (4,), [1], [0], g=2),
    )
    yield Case(
        CV,
        "float32_depthwise_stride2_dilation",
        fn(F32, (1, 2, 5, 5), (2, 1, 2, 2), None, [2], [1], [2], g=2),
    )
    yield Case(CV, "float64_depthwise_no_pad", fn(F64, (1, 2, 4, 4), (2, 1, 3, 3), (2,), g=2))
    yield Case(CV, "float32_1x1", fn(F32, (2, 3, 3, 3), (2, 3, 1, 1), (2,)))
    # Rows wide enough for the 3x3 depthwise kernel's vector blocks and its overlapping
    # last block, with and without padding.
    yield Case(
        CV, "float32_depthwise_3x3_wide", fn(F32, (1, 2, 12, 20), (2, 1, 3, 3), (2,), [1], [1], g=2)
    )
    yield Case(
        CV, "float32_depthwise_3x3_wide_no_pad", fn(F32, (1, 2, 6, 21), (2, 1, 3, 3), None, g=2)
    )
    yield Case(
        CV, "float64_depthwise_3x3_wide", fn(F64, (1, 3, 5, 11), (3, 1, 3, 3), (3,), [1], [1], g=3)
    )
    # Stride 2 (MobileNet's downsampling layers): vectors of outputs from even and odd
    # input columns, the last columns one by one; odd and even widths, with and without
    # padding, float32 and float64.
    yield Case(
        CV,
        "float32_depthwise_3x3_s2_wide",
        fn(F32, (1, 2, 9, 37), (2, 1, 3, 3), (2,), [2], [1], g=2),
    )
    yield Case(
        CV,
        "float32_depthwise_3x3_s2_wide_no_pad",
        fn(F32, (1, 3, 7, 40), (3, 1, 3, 3), None, [2], [0], g=3),
    )
    yield Case(
        CV,
        "float64_depthwise_3x3_s2_wide",
        fn(F64, (1, 2, 6, 22), (2, 1, 3, 3), (2,), [2], [1], g=2),
    )
    # 4 x 7 x 7 = 196 im2col rows over 1600 output positions: more than the ~1 MB block of
    # columns the CPU kernel builds at a time, so the output is made in two blocks; and
    # larger than one GEMM tile in every direction.
    yield Case(CV, "float32_im2col_blocks", fn(F32, (1, 4, 40, 40), (2, 4, 7, 7), (2,), [1], [3]))
    # Output rows of 16 positions or more (the CPU kernel copies runs of 16 from the input
    # where a block of them lies in one row): strided, unpadded across groups and images
    # (read from the input itself), 1-d.
    yield Case(CV, "float32_wide_stride2", fn(F32, (1, 3, 20, 37), (4, 3, 3, 3), (4,), [2], [1]))
    yield Case(CV, "float32_wide_no_pad_groups", fn(F32, (2, 4, 9, 35), (4, 2, 3, 3), (4,), g=2))
    yield Case(CV, "float64_1d_wide", fn(F64, (2, 3, 50), (4, 3, 5), (4,), [1], [2]))
    yield Case(CV, "float32_1x1_stride2", fn(F32, (1, 2, 5, 5), (2, 2, 1, 1), (2,), [2]))
    yield Case(CV, "float32_1x1_pad1", fn(F32, (1, 2, 3, 3), (2, 2, 1, 1), None, [1], [1]))
    yield Case(CV, "float32_kernel_equals_input", fn(F32, (1, 2, 3, 3), (3, 2, 3, 3), (3,)))
    yield Case(CV, "float32_bias_float64", fn(F32, (1, 2, 4, 4), (2, 2, 3, 3), (2,), bd=F64))
    # layouts
    yield Case(
        CV,
        "float32_channels_last_input",
        fn(F32, (1, 3, 4, 4), (2, 3, 3, 3), (2,), [1], [1], lx="channels_last"),
    )
    yield Case(
        CV,
        "float32_channels_last_weight",
        fn(F32, (1, 3, 4, 4), (2, 3, 2, 2), (2,), lw="channels_last"),
    )
    yield Case(
        CV,
        "float32_channels_last_depthwise",
        fn(F32, (1, 3, 4, 4), (3, 1, 3, 3), (3,), [1], [1], g=3, lx="channels_last"),
    )
    yield Case(
        CV,
        "int64_channels_last_input",
        fn(I64, (1, 3, 3, 3), (2, 3, 2, 2), (2,), lx="channels_last"),
    )
    yield Case(CV, "float32_noncontig_T", fn(F32, (2, 2, 3, 4), (2, 2, 2, 2), (2,), lx="T", lw="T"))
    yield Case(
        CV, "float64_noncontig_step", fn(F64, (1, 2, 4, 4), (2, 2, 3, 3), (2,), [1], [1], lx="step")
    )
    # 1-d variations
    yield Case(
        CV, "float32_1d_stride_pad_dilation", fn(F32, (2, 2, 9), (2, 2, 3), (2,), [2], [2], [2])
    )
    yield Case(CV, "float64_1d_groups", fn(F64, (1, 4, 6), (4, 2, 2), None, [1], [0], [1], g=2))
    yield Case(CV, "float32_1d_depthwise", fn(F32, (2, 3, 7), (3, 1, 3), (3,), [1], [1], g=3))
    yield Case(CV, "float32_1d_noncontig_T", fn(F32, (3, 2, 5), (2, 2, 2), (2,), lx="T"))
    # transposed
    yield Case(
        CV,
        "float32_transposed_pad_output_padding",
        fn(F32, (1, 2, 2, 2), (2, 2, 3, 3), (2,), [2], [1], [1], True, [1]),
    )
    yield Case(
        CV,
        "float32_transposed_dilation",
        fn(F32, (1, 2, 3, 3), (2, 1, 2, 2), None, [1], [0], [2], True),
    )
    yield Case(
        CV,
        "float64_transposed_groups",
        fn(F64, (1, 4, 2, 3), (4, 1, 2, 2), (2,), [1, 2], [0], [1], True, g=2),
    )
    yield Case(
        CV, "float32_transposed_1d", fn(F32, (2, 2, 4), (2, 3, 3), (3,), [2], [1], [1], True, [1])
    )
    yield Case(
        CV,
        "float32_transposed_channels_last",
        fn(F32, (1, 2, 3, 3), (2, 2, 2, 2), (2,), [1], tr=True, lx="channels_last"),
    )
    # sizes 0 and 1
    yield Case(CV, "float32_size0_batch", fn(F32, (0, 2, 4, 4), (3, 2, 3, 3), (3,)))
    yield Case(CV, "float32_size0_batch_1d", fn(F32, (0, 2, 4), (3, 2, 3), None))
    yield Case(CV, "float32_size1", fn(F32, (1, 1, 1, 1), (1, 1, 1, 1), (1,)))
    yield Case(CV, "float32_size1_1d", fn(F32, (1, 1, 1), (1, 1, 1), None))
    # errors
    yield Case(
        CV,
        "weight_2d_error",
        fn(F32, (1, 2, 4, 4), (3, 2)),
        error="weight should have at least three dimensions",
    )
    yield Case(
        CV,
        "groups_zero_error",
        fn(F32, (1, 2, 4, 4), (3, 2, 3, 3), g=0),
        error="non-positive groups is not supported",
    )
    yield Case(
        CV,
        "stride_length_error",
        fn(F32, (1, 2, 4, 4), (3, 2, 3, 3), s=[1, 1, 1]),
        error="expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, but got stride=[1, 1, 1]",
    )
    yield Case(
        CV,
        "padding_length_error",
        fn(F32, (1, 2, 6), (3, 2, 3), p=[1, 1]),
        error="expected padding to be a single integer value or a list of 1 values to match the convolution dimensions, but got padding=[1, 1]",
    )
    yield Case(
        CV,
        "negative_padding_error",
        fn(F32, (1, 2, 4, 4), (3, 2, 3, 3), p=[-1]),
        error="negative padding is not supported",
    )
    yield Case(
        CV,
        "negative_output_padding_error",
        fn(F32, (1, 2, 4, 4), (2, 3, 3, 3), tr=True, op=[-1]),
        error="negative output_padding is not supported",
    )
    yield Case(
        CV,
        "stride_zero_error",
        fn(F32, (1, 2, 4, 4), (3, 2, 3, 3), s=[0]),
        error="non-positive stride is not supported",
    )
    yield Case(
        CV,
        "dilation_zero_error",
        fn(F32, (1, 2, 4, 4), (3, 2, 3, 3), dil=[0]),
        error="dilation should be greater than zero, but got [0, 0]",
    )
    yield Case(
        CV,
        "input_3d_error",
        fn(F32, (2, 4, 4), (3, 2, 3, 3)),
        error="Expected 4-dimensional input for 4-dimensional weight [3, 2, 3, 3], but got 3-dimensional input of size [2, 4, 4] instead",
    )
    yield Case(
        CV,
        "groups_larger_than_weight_error",
        fn(F32, (1, 4, 3, 3), (2, 1, 3, 3), g=4),
        error="Given groups=4, expected weight to be at least 4 at dimension 0, but got weight of size [2, 1, 3, 3] instead",
    )
    yield Case(
        CV,
        "groups_not_dividing_weight_error",
        fn(F32, (1, 4, 3, 3), (3, 2, 3, 3), g=2),
        error="Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [[3, 2, 3, 3]] instead",
    )
    yield Case(
        CV,
        "channels_error",
        fn(F32, (1, 3, 4, 4), (3, 2, 3, 3)),
        error="Given groups=1, weight of size [3, 2, 3, 3], expected input[1, 3, 4, 4] to have 2 channels, but got 3 channels instead",
    )
    yield Case(
        CV,
        "transposed_channels_error",
        fn(F32, (1, 3, 4, 4), (2, 3, 3, 3), tr=True),
        error="Given transposed=1, weight of size [2, 3, 3, 3], expected input[1, 3, 4, 4] to have 2 channels, but got 3 channels instead",
    )
    yield Case(
        CV,
        "bias_size_error",
        fn(F32, (1, 2, 4, 4), (3, 2, 3, 3), (2,)),
        error="Given weight of size [3, 2, 3, 3], expected bias to be 1-dimensional with 3 elements, but got bias of size [2] instead",
    )
    yield Case(
        CV,
        "kernel_too_large_error",
        fn(F32, (1, 2, 2, 2), (3, 2, 3, 3)),
        error="Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than actual input size",
    )
    yield Case(
        CV,
        "dilated_kernel_too_large_1d_error",
        fn(F32, (1, 2, 4), (3, 2, 3), dil=[2]),
        error="Calculated padded input size per channel: (4). Kernel size: (5). Kernel size can't be greater than actual input size",
    )
    yield Case(
        CV,
        "empty_height_error",
        fn(F32, (1, 2, 0, 5), (3, 2, 1, 1)),
        error="Calculated padded input size per channel: (0 x 5). Kernel size: (1 x 1). Kernel size can't be greater than actual input size",
    )
    yield Case(
        CV,
        "transposed_output_padding_error",
        fn(F32, (1, 2, 2, 2), (2, 2, 2, 2), tr=True, op=[1]),
        error="output padding must be smaller than either stride or dilation, but got output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 dilation_height: 1 dilation_width: 1",
    )
    yield Case(
        CV,
        "transposed_output_padding_1d_error",
        fn(F32, (1, 2, 2), (2, 2, 2), tr=True, op=[1]),
        error="output padding must be smaller than either stride or dilation, but got output_padding_height: 0 output_padding_width: 1",
    )
    yield Case(
        CV,
        "transposed_output_too_small_error",
        fn(F32, (1, 2, 1, 1), (2, 2, 1, 1), p=[1], tr=True),
        error="Given input size per channel: (1 x 1). Calculated output size per channel: (-1 x -1). Output size is too small",
    )
    yield Case(
        CV,
        "float32_transposed_output_padding_below_dilation",
        fn(F32, (1, 2, 2, 2), (2, 2, 2, 2), (2,), [1], [0], [2], True, [1]),
    )
    yield Case(
        CV,
        "int64_transposed_channels_last",
        fn(I64, (1, 2, 2, 2), (2, 2, 2, 2), None, tr=True, lx="channels_last"),
    )
    yield Case(
        CV,
        "weight_dtype_error",
        fn(F32, (1, 2, 4, 4), (3, 2, 3, 3), wd=F64),
        error="expected scalar type Float but found Double",
    )
    yield Case(
        CV,
        "input_dtype_error",
        fn(F64, (1, 2, 4, 4), (3, 2, 3, 3), wd=F32),
        error="expected scalar type Double but found Float",
    )
    yield Case(
        CV,
        "int64_input_float_weight_error",
        fn(I64, (1, 2, 4, 4), (3, 2, 3, 3), wd=F32),
        error="expected scalar type Long but found Float",
    )


FAMILIES = [
    FamilyInfo(
        "convolution", ops=("convolution",), sample_inputs=convolution_cases, broadcast="bias"
    ),
]
