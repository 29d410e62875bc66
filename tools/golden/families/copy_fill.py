"""Writes into an existing tensor: copy_ (every dtype pair, broadcasting src) and fill_."""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    BF16,
    F16,
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
    Scalar,
    dn,
)


# Source values that convert exactly and without undefined behaviour into `dst`.
def copy_rng(src, dst):
    if dst == U8:
        return (0, 15)
    if dst == I8 or src == I8:
        return (-10, 10)
    if src.is_floating_point:
        return (-4, 4)
    return None


def copy_cases() -> Iterator[Case]:
    """Cases of copy_: dtype conversions, broadcasting, layouts, overlap errors."""

    def fn(dd, ds, sd, ss, dl="contig", sl="contig", svals=None, srng=None, randn=False):
        return lambda r: [
            ("self", r.t(dd, ds, dl)),
            ("src", r.t(sd, ss, sl, svals, srng, randn=randn)),
            ("non_blocking", Bool(False)),
        ]

    for sd in ALL7:
        for dd in ALL7:
            yield Case(
                "copy_",
                f"{dn(sd)}_to_{dn(dd)}",
                fn(dd, (2, 3), sd, (2, 3), srng=copy_rng(sd, dd)),
                result="self",
            )
    for sd, dd in [
        (F32, F16),
        (F16, F32),
        (F32, BF16),
        (BF16, F32),
        (F64, F16),
        (I64, F16),
        (F16, BF16),
        (BF16, I32),
        (F16, F16),
        (BF16, BF16),
        (B, F16),
        (F16, B),
    ]:
        yield Case("copy_", f"{dn(sd)}_to_{dn(dd)}", fn(dd, (2, 3), sd, (2, 3)), result="self")
    # Transposed sources large enough for the tiled transpose (cpu_util::try_transpose_copy):
    # partial 32 x 32 tiles, every element size.
    for d in (F32, F64, I8, F16):
        yield Case(
            "copy_",
            f"{dn(d)}_transposed_tiles",
            fn(d, (40, 35), d, (40, 35), sl="T"),
            result="self",
        )
    yield Case(
        "copy_", "float32_to_float16_randn", fn(F16, (2, 5), F32, (2, 5), randn=True), result="self"
    )
    yield Case(
        "copy_",
        "float32_to_bfloat16_randn",
        fn(BF16, (2, 5), F32, (2, 5), randn=True),
        result="self",
    )
    yield Case(
        "copy_", "float64_to_float32_randn", fn(F32, (2, 5), F64, (2, 5), randn=True), result="self"
    )
    yield Case(
        "copy_",
        "float32_to_float16_overflow_underflow",
        fn(F16, (5,), F32, (5,), svals=[70000.0, -70000.0, 65504.0, 1e-8, 6e-5]),
        result="self",
    )
    yield Case(
        "copy_",
        "float64_to_float32_special",
        fn(
            F32,
            (6,),
            F64,
            (6,),
            svals=[float("nan"), float("inf"), float("-inf"), -0.0, 1e300, 1e-300],
        ),
        result="self",
    )
    yield Case(
        "copy_",
        "float32_to_int32_truncates",
        fn(I32, (6,), F32, (6,), svals=[2.75, -2.75, 0.5, -0.5, 7.0, -0.0]),
        result="self",
    )
    yield Case(
        "copy_",
        "float32_to_bool_zero_and_tiny",
        fn(B, (5,), F32, (5,), svals=[0.0, -0.0, 1e-30, float("nan"), float("inf")]),
        result="self",
    )
    yield Case(
        "copy_",
        "int8_to_uint8_negative_wraps",
        fn(U8, (4,), I8, (4,), svals=[-1, -128, 127, 0]),
        result="self",
    )
    yield Case(
        "copy_",
        "int64_to_bool_nonzero",
        fn(B, (4,), I64, (4,), svals=[0, 2, -1, 256]),
        result="self",
    )
    # Broadcasting src.
    yield Case("copy_", "float32_broadcast_row", fn(F32, (2, 3), F32, (3,)), result="self")
    yield Case("copy_", "float32_broadcast_zerodim", fn(F32, (2, 3), F32, ()), result="self")
    yield Case("copy_", "float32_broadcast_unit_dim", fn(F32, (2, 3), F32, (1, 3)), result="self")
    yield Case(
        "copy_", "int64_to_float32_broadcast_col", fn(F32, (2, 3), I64, (2, 1)), result="self"
    )
    yield Case(
        "copy_",
        "float64_to_int8_broadcast_leading",
        fn(I8, (2, 2, 3), F64, (3,), srng=(-10, 10)),
        result="self",
    )
    yield Case(
        "copy_",
        "size1_into_zerodim_error",
        fn(F32, (), F32, (1,)),
        error="output with shape [] doesn't match the broadcast shape [1]",
    )
    yield Case(
        "copy_",
        "float32_broadcast_expanded_src",
        fn(F32, (2, 3), F32, (2, 3), sl="expand:1,3"),
        result="self",
    )
    # Layouts.
    yield Case(
        "copy_", "float32_noncontig_self", fn(F32, (3, 4), F32, (3, 4), dl="T"), result="self"
    )
    yield Case(
        "copy_", "float32_noncontig_src", fn(F32, (3, 4), F32, (3, 4), sl="T"), result="self"
    )
    yield Case(
        "copy_",
        "int64_to_float64_noncontig_both",
        fn(F64, (3, 4), I64, (3, 4), dl="step", sl="T"),
        result="self",
    )
    yield Case(
        "copy_",
        "float32_channels_last_self",
        fn(F32, (1, 2, 2, 3), F32, (1, 2, 2, 3), dl="channels_last"),
        result="self",
    )
    # Sizes 0 and 1.
    yield Case("copy_", "float32_size0", fn(F32, (0, 3), F32, (0, 3)), result="self")
    yield Case("copy_", "float32_size0_broadcast", fn(F32, (0, 3), F32, (3,)), result="self")
    yield Case("copy_", "int32_size0_1d", fn(I32, (0,), I64, (0,)), result="self")
    yield Case("copy_", "float32_size1", fn(F32, (1,), F32, (1,)), result="self")
    yield Case("copy_", "float32_size1_from_zerodim", fn(F32, (1,), F64, ()), result="self")
    yield Case("copy_", "int64_zerodim", fn(I64, (), I64, ()), result="self")
    # Errors.
    yield Case(
        "copy_",
        "src_not_broadcastable_error",
        fn(F32, (2, 3), F32, (4,)),
        error="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    )
    yield Case(
        "copy_",
        "src_larger_error",
        fn(F32, (3,), F32, (2, 3)),
        error="output with shape [3] doesn't match the broadcast shape [2, 3]",
    )
    yield Case(
        "copy_",
        "self_internal_overlap_error",
        fn(F32, (2, 3), F32, (2, 3), dl="expand:3"),
        error="unsupported operation: more than one element of the written-to tensor refers to a single memory location",
    )


def fill_cases() -> Iterator[Case]:
    """Cases of fill_.Scalar and fill_.Tensor, with the Scalar overflow checks."""
    FS, FT = "fill_.Scalar", "fill_.Tensor"

    def fs(d, shape, value, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("value", Scalar(value))]

    def ft(d, shape, vd, vshape=(), vals=None, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("value", r.t(vd, vshape, vals=vals))]

    natural = {F32: 2.5, F64: -1.25, I64: 7, I32: -7, I8: -3, U8: 200, B: True}
    for d in ALL7:
        n = dn(d)
        yield Case(FS, f"{n}_scalar", fs(d, (2, 3), natural[d]), result="self")
        yield Case(FT, f"{n}_tensor", ft(d, (2, 3), d), result="self")
        yield Case(FS, f"{n}_noncontig", fs(d, (3, 4), natural[d], "T"), result="self")
    yield Case(FS, "float32_int_value", fs(F32, (2, 3), 3), result="self")
    yield Case(FS, "float64_bool_value", fs(F64, (2, 3), True), result="self")
    yield Case(FS, "float32_nan", fs(F32, (3,), float("nan")), result="self")
    yield Case(FS, "float32_inf", fs(F32, (3,), float("-inf")), result="self")
    yield Case(FS, "float32_double_rounds", fs(F32, (2,), 0.1), result="self")
    yield Case(FS, "int64_double_value_truncates", fs(I64, (2, 3), 2.5), result="self")
    yield Case(FS, "int32_negative_double_truncates", fs(I32, (3,), -2.75), result="self")
    yield Case(FS, "int64_large", fs(I64, (2,), 2**62 + 1), result="self")
    yield Case(FS, "int8_bool_value", fs(I8, (3,), True), result="self")
    yield Case(FS, "uint8_max", fs(U8, (3,), 255), result="self")
    yield Case(FS, "int8_min", fs(I8, (3,), -128), result="self")
    yield Case(FS, "bool_int_value_nonzero", fs(B, (3,), 2), result="self")
    yield Case(FS, "bool_int_value_zero", fs(B, (3,), 0), result="self")
    yield Case(FS, "bool_double_value", fs(B, (3,), 0.5), result="self")
    yield Case(FS, "float32_noncontig_step", fs(F32, (2, 3), 1.5, "step"), result="self")
    yield Case(FS, "float32_size0", fs(F32, (0, 3), 1.5), result="self")
    yield Case(FS, "int64_size0", fs(I64, (0,), 4), result="self")
    yield Case(FS, "float32_size1", fs(F32, (1,), 1.5), result="self")
    yield Case(FS, "float32_zerodim", fs(F32, (), -4.5), result="self")
    yield Case(FT, "int32_from_float64_value", ft(I32, (2, 3), F64, vals=2.75), result="self")
    yield Case(FT, "float32_from_int64_value", ft(F32, (2, 3), I64, vals=-9), result="self")
    yield Case(FT, "float64_from_bool_value", ft(F64, (2, 3), B, vals=True), result="self")
    yield Case(FT, "bool_from_float32_value", ft(B, (2, 3), F32, vals=0.25), result="self")
    yield Case(FT, "uint8_from_int64_value", ft(U8, (3,), I64, vals=17), result="self")
    yield Case(FT, "float32_noncontig_self", ft(F32, (3, 4), F32, layout="T"), result="self")
    yield Case(FT, "float32_size0", ft(F32, (0, 2), F32), result="self")
    yield Case(FT, "float32_size1", ft(F32, (1,), F32), result="self")
    yield Case(FT, "int64_zerodim_self", ft(I64, (), I64), result="self")
    yield Case(
        FS,
        "uint8_overflow_error",
        fs(U8, (3,), 300),
        error="value cannot be converted to type uint8_t without overflow",
    )
    yield Case(FS, "uint8_negative_value_wraps", fs(U8, (3,), -1), result="self")
    yield Case(FS, "uint8_negative_value_limit_wraps", fs(U8, (3,), -255), result="self")
    yield Case(
        FS,
        "uint8_too_negative_error",
        fs(U8, (3,), -256),
        error="value cannot be converted to type uint8_t without overflow",
    )
    yield Case(
        FS,
        "int8_overflow_error",
        fs(I8, (3,), -129),
        error="value cannot be converted to type int8_t without overflow",
    )
    yield Case(
        FS,
        "int32_overflow_error",
        fs(I32, (3,), 2**31),
        error="value cannot be converted to type int without overflow",
    )
    yield Case(
        FS,
        "float32_overflow_error",
        fs(F32, (3,), 1e40),
        error="value cannot be converted to type float without overflow",
    )
    yield Case(
        FT,
        "value_1d_error",
        ft(F32, (2, 3), F32, (1,)),
        error="fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.",
    )
    # fill_ does not check for internal overlap: an expanded self is filled.
    yield Case(FS, "float32_expanded_self", fs(F32, (2, 3), 1.0, "expand:3"), result="self")


FAMILIES = [
    FamilyInfo("copy", ops=("copy_",), sample_inputs=copy_cases, broadcast="any"),
    FamilyInfo(
        "fill",
        ops=("fill_.Scalar", "fill_.Tensor"),
        sample_inputs=fill_cases,
        broadcast="value",
    ),
]
