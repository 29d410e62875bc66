"""Upsampling: upsample_nearest1d / upsample_nearest2d and their .vec overloads."""

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
    TORCH_MESSAGE,
    U8,
    B,
    Bool,
    Case,
    FamilyInfo,
    Float,
    Floats,
    Ints,
    dn,
    opt,
)


def upsample_nearest_cases() -> Iterator[Case]:
    """Cases of upsample_nearest{1d,2d}[.vec] (only float and uint8 are implemented)."""
    U1, U2 = "upsample_nearest1d", "upsample_nearest2d"
    U1V, U2V = "upsample_nearest1d.vec", "upsample_nearest2d.vec"
    nyi = {I64: "Long", I32: "Int", I8: "Char", B: "Bool"}

    def f1(d, shape, osize, scales=None, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("output_size", Ints(osize)),
            ("scales", opt(Float, scales)),
        ]

    def f2(d, shape, osize, sh=None, sw=None, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout)),
            ("output_size", Ints(osize)),
            ("scales_h", opt(Float, sh)),
            ("scales_w", opt(Float, sw)),
        ]

    def fv(d, shape, osize, factors):
        return lambda r: [
            ("input", r.t(d, shape)),
            ("output_size", opt(Ints, osize)),
            ("scale_factors", opt(Floats, factors)),
        ]

    for d in ALL7:
        n = dn(d)
        err = f"not implemented for '{nyi[d]}'" if d in nyi else None
        yield Case(U1, f"{n}_up2", f1(d, (1, 2, 3), [6]), error=err)
        yield Case(U2, f"{n}_up2", f2(d, (1, 2, 2, 3), [4, 6]), error=err)
    # 1d
    yield Case(U1, "float32_nonint_up", f1(F32, (2, 2, 3), [5]))
    yield Case(U1, "float32_down", f1(F32, (1, 2, 7), [3]))
    yield Case(U1, "float64_same_size", f1(F64, (1, 3, 4), [4]))
    yield Case(U1, "float32_scales_given_exact", f1(F32, (1, 2, 3), [6], scales=2.0))
    yield Case(U1, "float32_scales_given_differs", f1(F32, (1, 2, 3), [5], scales=1.7))
    yield Case(U1, "float32_scales_given_small", f1(F32, (1, 2, 4), [7], scales=1.5))
    yield Case(U1, "float32_scales_given_down", f1(F32, (1, 2, 7), [3], scales=0.5))
    yield Case(U1, "uint8_scales_given", f1(U8, (1, 1, 5), [8], scales=1.6))
    yield Case(U1, "float32_noncontig_step", f1(F32, (2, 2, 3), [5], layout="step"))
    yield Case(U1, "float32_noncontig_T", f1(F32, (2, 3, 4), [6], layout="T"))
    yield Case(U1, "float32_size0_batch", f1(F32, (0, 2, 3), [5]))
    yield Case(
        U1,
        "size0_channels_error",
        f1(F32, (1, 0, 3), [5]),
        error="Non-empty 3D data tensor expected but got a tensor with sizes [1, 0, 3]",
    )
    yield Case(U1, "float32_size1", f1(F32, (1, 1, 1), [3]))
    yield Case(U1, "float32_to_size1", f1(F32, (1, 2, 5), [1]))
    yield Case(
        U1,
        "zero_output_size_error",
        f1(F32, (1, 1, 2), [0]),
        error="Input and output sizes should be greater than 0",
    )
    yield Case(
        U1,
        "zero_input_width_error",
        f1(F32, (1, 1, 0), [3]),
        error="Input and output sizes should be greater than 0",
    )
    yield Case(
        U1,
        "input_2d_error",
        f1(F32, (2, 3), [4]),
        error="It is expected input_size equals to 3, but got size 2",
    )
    yield Case(
        U1,
        "output_size_length_error",
        f1(F32, (1, 1, 2), [3, 3]),
        error="It is expected output_size equals to 1, but got size 2",
    )
    # 2d
    yield Case(U2, "float32_nonint_up", f2(F32, (1, 1, 2, 3), [3, 5]))
    yield Case(U2, "float32_down", f2(F32, (2, 2, 3, 4), [2, 2]))
    yield Case(U2, "float64_mixed_up_down", f2(F64, (1, 2, 4, 3), [2, 5]))
    yield Case(U2, "float32_scales_given", f2(F32, (1, 2, 2, 3), [4, 5], sh=2.0, sw=1.5))
    yield Case(U2, "float32_scales_h_only", f2(F32, (1, 1, 3, 3), [5, 4], sh=1.3))
    yield Case(U2, "float32_scales_w_only", f2(F32, (1, 1, 3, 3), [5, 4], sw=1.2))
    yield Case(U2, "uint8_scales_given", f2(U8, (1, 2, 2, 2), [3, 5], sh=1.25, sw=2.5))
    yield Case(U2, "float32_channels_last", f2(F32, (1, 3, 2, 2), [3, 4], layout="channels_last"))
    yield Case(U2, "uint8_channels_last", f2(U8, (2, 2, 2, 3), [3, 3], layout="channels_last"))
    yield Case(U2, "float32_noncontig_step", f2(F32, (1, 2, 2, 3), [4, 5], layout="step"))
    yield Case(U2, "float32_noncontig_T", f2(F32, (1, 2, 3, 2), [4, 3], layout="T"))
    yield Case(U2, "float32_size0_batch", f2(F32, (0, 1, 2, 2), [3, 3]))
    yield Case(U2, "float32_size1", f2(F32, (1, 1, 1, 1), [2, 3]))
    yield Case(U2, "float32_to_size1", f2(F32, (1, 2, 3, 4), [1, 1]))
    yield Case(
        U2,
        "zero_output_size_error",
        f2(F32, (1, 1, 2, 2), [0, 3]),
        error="Input and output sizes should be greater than 0",
    )
    yield Case(
        U2,
        "zero_input_height_error",
        f2(F32, (1, 1, 0, 2), [3, 3]),
        error="Input and output sizes should be greater than 0",
    )
    yield Case(
        U2,
        "input_3d_error",
        f2(F32, (1, 2, 3), [4, 4]),
        error="It is expected input_size equals to 4, but got size 3",
    )
    yield Case(
        U2,
        "output_size_length_error",
        f2(F32, (1, 1, 2, 2), [3]),
        error="It is expected output_size equals to 2, but got size 1",
    )
    # .vec: output_size xor scale_factors
    yield Case(U1V, "float32_scale_factor_2", fv(F32, (1, 2, 3), None, [2.0]))
    yield Case(U1V, "float32_scale_factor_nonint", fv(F32, (1, 2, 4), None, [1.5]))
    yield Case(U1V, "float32_output_size", fv(F32, (1, 2, 3), [5], None))
    yield Case(U2V, "float32_scale_factors", fv(F32, (1, 1, 2, 3), None, [2.0, 1.5]))
    yield Case(U2V, "uint8_scale_factors_down", fv(U8, (1, 1, 4, 5), None, [0.5, 0.75]))
    yield Case(U2V, "float64_output_size", fv(F64, (1, 2, 2, 2), [3, 3], None))
    yield Case(
        U2V,
        "both_given_error",
        fv(F32, (1, 1, 2, 2), [4, 4], [2.0, 2.0]),
        error="Must specify exactly one of output_size and scale_factors",
    )
    yield Case(
        U2V,
        "neither_given_error",
        fv(F32, (1, 1, 2, 2), None, None),
        error="Must specify exactly one of output_size and scale_factors",
    )


FAMILIES = [
    FamilyInfo(
        "upsample_nearest",
        ops=(
            "upsample_nearest1d",
            "upsample_nearest2d",
            "upsample_nearest1d.vec",
            "upsample_nearest2d.vec",
        ),
        sample_inputs=upsample_nearest_cases,
    ),
]


def upsample_bilinear_cases() -> Iterator[Case]:
    """upsample_bilinear2d and its .vec overload: align_corners both ways, scales given
    and not, up and down, channels-last; float32 within a tolerance (PyTorch's vector
    kernel orders the blend's operations differently)."""
    tol = (2e-6, 1e-6)

    def f(d, shape, size, align, sh=None, sw=None, layout="contig"):
        return lambda r: [
            ("self", r.t(d, shape, layout, randn=d.is_floating_point)),
            ("output_size", Ints(size)),
            ("align_corners", Bool(align)),
            ("scales_h", opt(Float, sh)),
            ("scales_w", opt(Float, sw)),
        ]

    def fv(d, shape, size, align, scales, layout="contig"):
        return lambda r: [
            ("input", r.t(d, shape, layout, randn=d.is_floating_point)),
            ("output_size", opt(Ints, size)),
            ("align_corners", Bool(align)),
            ("scale_factors", opt(Floats, scales)),
        ]

    U, V = "upsample_bilinear2d", "upsample_bilinear2d.vec"
    for d in ALL7:
        if d == U8:
            continue  # PyTorch's uint8 kernel (separable, rounded) is not ours yet
        yield Case(U, dn(d), f(d, (1, 2, 3, 4), [5, 7], False), error=TORCH_MESSAGE, tol=tol)
    yield Case(U, "float64_align_randn", f(F64, (2, 1, 3, 3), [5, 4], True), tol=(1e-12, 1e-14))
    yield Case(U, "float32_down_randn", f(F32, (1, 3, 6, 5), [3, 2], False), tol=tol)
    yield Case(U, "float32_scales_randn", f(F32, (1, 1, 4, 4), [6, 10], False, 1.5, 2.5), tol=tol)
    yield Case(U, "float32_size1_randn", f(F32, (1, 1, 1, 1), [2, 3], True), tol=tol)
    yield Case(U, "float32_out1_randn", f(F32, (1, 1, 3, 4), [1, 1], True), tol=tol)
    yield Case(
        U,
        "channels_last_randn",
        f(F32, (2, 3, 4, 4), [8, 6], False, layout="channels_last"),
        tol=tol,
    )
    yield Case(U, "size0_batch", f(F32, (0, 2, 3, 3), [4, 4], False))
    yield Case(
        U,
        "zero_output_error",
        f(F32, (1, 1, 2, 2), [0, 4], False),
        error="Input and output sizes should be greater than 0",
    )
    yield Case(V, "scale_factors_randn", fv(F32, (1, 2, 3, 3), None, False, [2.0, 1.5]), tol=tol)
    yield Case(
        V, "output_size_align_randn", fv(F64, (1, 1, 4, 3), [7, 7], True, None), tol=(1e-12, 1e-14)
    )
    yield Case(
        V,
        "neither_given_error",
        fv(F32, (1, 1, 2, 2), None, False, None),
        error="Must specify exactly one of output_size and scale_factors",
    )
    yield Case(
        "upsample_bilinear2d.out",
        "out_randn",
        lambda r: [
            ("self", r.t(F32, (1, 1, 2, 3), randn=True)),
            ("output_size", Ints([4, 4])),
            ("align_corners", Bool(False)),
            ("scales_h", NONE),
            ("scales_w", NONE),
            ("out", r.t(F32, (0,))),
        ],
        result="out",
        tol=tol,
    )


FAMILIES.append(
    FamilyInfo(
        "upsample_bilinear",
        ops=("upsample_bilinear2d", "upsample_bilinear2d.vec", "upsample_bilinear2d.out"),
        sample_inputs=upsample_bilinear_cases,
        unsupported=(
            "uint8",
            "PyTorch's uint8 kernel rounds fixed-point weights; ours is float only",
        ),
    )
)
