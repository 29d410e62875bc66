"""Binary pointwise ops with broadcasting, type promotion, out= and inplace variants.

Families: add (add.Tensor, add.out, add_.Tensor, with `alpha`) and mul (mul.Tensor, mul.out,
mul_.Tensor): one generator, parameterised by the op's base name.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from golden_format import ALL7, F32, F64, I8, I32, I64, U8, B, Case, FamilyInfo, Scalar, dn


def binary_cases(base: str) -> Iterator[Case]:
    """Cases of `<base>.Tensor`, `<base>.out` and `<base>_.Tensor` (base: add or mul)."""
    has_alpha = base == "add"
    op, op_out, op_in = f"{base}.Tensor", f"{base}.out", f"{base}_.Tensor"

    def A(self_, other, alpha=1, out=None):
        args = [("self", self_), ("other", other)]
        if has_alpha:
            args.append(("alpha", Scalar(alpha)))
        if out is not None:
            args.append(("out", out))
        return args

    def fn(
        sd,
        ss,
        od,
        os_,
        sl="contig",
        ol="contig",
        alpha=1,
        svals=None,
        ovals=None,
        srng=None,
        orng=None,
    ):
        return lambda r: A(r.t(sd, ss, sl, svals, srng), r.t(od, os_, ol, ovals, orng), alpha)

    def outfn(sd, ss, od, os_, outd, outs, outl="contig", alpha=1):
        return lambda r: A(r.t(sd, ss), r.t(od, os_), alpha, out=r.t(outd, outs, outl))

    # Every supported dtype: same shape, broadcasting, non-contiguous, out=, inplace.
    for d in ALL7:
        n = dn(d)
        yield Case(op, f"{n}_same_shape", fn(d, (2, 3), d, (2, 3)))
        yield Case(op, f"{n}_broadcast", fn(d, (3, 1, 4), d, (2, 4)))
        yield Case(op, f"{n}_noncontig", fn(d, (3, 4), d, (3, 4), "T", "step"))
        yield Case(op_out, f"{n}_out", outfn(d, (2, 3), d, (3,), d, (2, 3)), result="out")
        yield Case(op_in, f"{n}_inplace_broadcast", fn(d, (2, 3), d, (3,)), result="self")

    # Sizes 0 and 1, zero-dim.
    yield Case(op, "float32_size0", fn(F32, (0, 3), F32, (3,)))
    yield Case(op, "int64_size0_both", fn(I64, (2, 0), I64, (2, 0)))
    yield Case(op, "float32_size0_broadcast_from_size1", fn(F32, (0, 1), F32, (1, 3)))
    yield Case(op, "float32_size1", fn(F32, (1,), F32, (1,)))
    yield Case(op, "int32_size1_broadcast", fn(I32, (1, 1), I32, (2, 3)))
    yield Case(op, "float64_zerodim_both", fn(F64, (), F64, ()))
    yield Case(op, "float32_zerodim_with_size0", fn(F32, (), F32, (0,)))
    yield Case(op, "float32_broadcast_both_ways", fn(F32, (4, 1), F32, (1, 5)))
    yield Case(
        op, "float32_broadcast_expanded_input", fn(F32, (2, 3), F32, (2, 3), "contig", "expand:1,3")
    )
    yield Case(op, "float32_noncontig_broadcast", fn(F32, (3, 4), F32, (4,), "T", "step"))

    # Type promotion between dimensioned tensors.
    for sd, od in [
        (I64, F32),
        (F32, I64),
        (I32, I64),
        (I8, U8),
        (U8, I8),
        (B, I8),
        (B, F32),
        (U8, F64),
        (I32, F64),
        (F32, F64),
        (I8, I32),
        (U8, B),
        (B, I64),
        (I64, F64),
    ]:
        yield Case(op, f"promote_{dn(sd)}_{dn(od)}", fn(sd, (2, 3), od, (3,)))
    # Zero-dim tensors take part in promotion only across categories.
    for sd, od in [
        (F64, F32),
        (I64, I8),
        (F64, I32),
        (F32, I64),
        (I64, B),
        (B, U8),
        (I32, U8),
        (F64, U8),
    ]:
        yield Case(op, f"zerodim_{dn(sd)}_with_{dn(od)}", fn(sd, (), od, (2, 3)))
        yield Case(op, f"{dn(od)}_with_zerodim_{dn(sd)}", fn(od, (2, 3), sd, ()))

    # Special floating values; integer wraparound.
    special_a = [float("nan"), float("inf"), float("-inf"), -0.0, 1.0, float("-inf")]
    special_b = [1.0, float("-inf"), float("inf"), -0.0, float("nan"), float("-inf")]
    for d in (F32, F64):
        yield Case(
            op, f"{dn(d)}_special_values", fn(d, (6,), d, (6,), svals=special_a, ovals=special_b)
        )
    yield Case(
        op,
        "int8_wraparound",
        fn(I8, (4,), I8, (4,), svals=[100, 127, -128, 64], ovals=[100, 1, -1, 2]),
    )
    yield Case(
        op,
        "uint8_wraparound",
        fn(U8, (4,), U8, (4,), svals=[250, 255, 0, 16], ovals=[10, 1, 0, 16]),
    )

    if has_alpha:
        yield Case(op, "float32_alpha_double", fn(F32, (2, 3), F32, (2, 3), alpha=2.5))
        yield Case(op, "float64_alpha_negative_double", fn(F64, (2, 3), F64, (3,), alpha=-0.75))
        yield Case(op, "float32_alpha_int", fn(F32, (2, 3), F32, (2, 3), alpha=3))
        yield Case(op, "int64_alpha_int", fn(I64, (2, 3), I64, (2, 3), alpha=3))
        yield Case(op, "int32_alpha_negative", fn(I32, (2, 3), I32, (3,), alpha=-2))
        yield Case(op, "int8_alpha_int", fn(I8, (2, 3), I8, (2, 3), alpha=2))
        yield Case(op, "uint8_alpha_negative_wraps", fn(U8, (2, 3), U8, (2, 3), alpha=-1))
        yield Case(op, "bool_alpha_bool", fn(B, (2, 3), B, (2, 3), alpha=True))
        yield Case(op, "bool_alpha_false", fn(B, (2, 3), B, (2, 3), alpha=False))
        yield Case(op, "int64_float32_alpha_double", fn(I64, (2, 3), F32, (3,), alpha=2.5))
        yield Case(op, "float32_alpha_zero", fn(F32, (2, 3), F32, (2, 3), alpha=0))
        yield Case(
            op_out,
            "int64_out_alpha_int",
            lambda r: A(r.t(I64, (2, 3)), r.t(I64, (3,)), 4, out=r.t(I64, (2, 3))),
            result="out",
        )
        yield Case(
            op_in,
            "float32_inplace_alpha_double",
            fn(F32, (2, 3), F32, (2, 3), alpha=0.5),
            result="self",
        )
        yield Case(
            op_in,
            "int64_inplace_alpha_negative",
            fn(I64, (2, 3), I64, (3,), alpha=-3),
            result="self",
        )
        yield Case(
            op,
            "int64_alpha_double_error",
            fn(I64, (2, 3), I64, (2, 3), alpha=2.5),
            error="For integral input tensors, argument alpha must not be a floating point number.",
        )
        yield Case(
            op,
            "int8_alpha_double_error",
            fn(I8, (3,), I8, (3,), alpha=1.0),
            error="For integral input tensors, argument alpha must not be a floating point number.",
        )
        yield Case(
            op,
            "bool_alpha_double_error",
            fn(B, (3,), B, (3,), alpha=1.5),
            error="For integral input tensors, argument alpha must not be a floating point number.",
        )
        yield Case(
            op,
            "float32_alpha_bool_error",
            fn(F32, (3,), F32, (3,), alpha=True),
            error="Boolean alpha only supported for Boolean results.",
        )
        yield Case(
            op,
            "int64_alpha_bool_error",
            fn(I64, (3,), I64, (3,), alpha=True),
            error="Boolean alpha only supported for Boolean results.",
        )

    yield Case(
        op,
        "broadcast_mismatch_error",
        fn(F32, (2, 3), F32, (4,)),
        error="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    )
    yield Case(
        op,
        "broadcast_mismatch_leading_error",
        fn(I64, (2, 3), I64, (4, 3, 3)),
        error="The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1",
    )

    # out=: resizing, non-contiguous out, dtype casts into out.
    yield Case(
        op_out, "float32_out_resize_empty", outfn(F32, (2, 3), F32, (3,), F32, (0,)), result="out"
    )
    yield Case(
        op_out,
        "float32_out_resize_nonempty",
        outfn(F32, (2, 3), F32, (3,), F32, (5,)),
        result="out",
    )
    yield Case(
        op_out, "float32_out_resize_to_zerodim", outfn(F32, (), F32, (), F32, (1,)), result="out"
    )
    yield Case(
        op_out,
        "float32_out_noncontig",
        outfn(F32, (2, 3), F32, (2, 3), F32, (2, 3), "T"),
        result="out",
    )
    yield Case(
        op_out,
        "float32_out_noncontig_step",
        outfn(F32, (2, 3), F32, (3,), F32, (2, 3), "step"),
        result="out",
    )
    yield Case(
        op_out, "float32_out_size0", outfn(F32, (0, 3), F32, (3,), F32, (0, 3)), result="out"
    )
    yield Case(
        op_out, "float32_out_broadcast", outfn(F32, (3, 1), F32, (1, 4), F32, (3, 4)), result="out"
    )
    yield Case(
        op_out, "int64_into_float32_out", outfn(I64, (2, 3), I64, (2, 3), F32, (2, 3)), result="out"
    )
    yield Case(
        op_out,
        "int8_uint8_into_int32_out",
        outfn(I8, (2, 3), U8, (2, 3), I32, (2, 3)),
        result="out",
    )
    yield Case(
        op_out, "bool_into_int64_out", outfn(B, (2, 3), B, (2, 3), I64, (2, 3)), result="out"
    )
    yield Case(
        op_out,
        "float64_into_float32_out",
        outfn(F64, (2, 3), F64, (2, 3), F32, (2, 3)),
        result="out",
    )
    yield Case(
        op_out, "int64_into_int8_out", outfn(I64, (2, 3), I8, (2, 3), I8, (2, 3)), result="out"
    )
    yield Case(
        op_out,
        "float32_into_int64_out_error",
        outfn(F32, (2, 3), F32, (2, 3), I64, (2, 3)),
        error="result type Float can't be cast to the desired output type Long",
    )
    yield Case(
        op_out,
        "int64_float32_into_int32_out_error",
        outfn(I64, (2, 3), F32, (2, 3), I32, (2, 3)),
        error="result type Float can't be cast to the desired output type Int",
    )
    yield Case(
        op_out,
        "float64_into_bool_out_error",
        outfn(F64, (3,), F64, (3,), B, (3,)),
        error="result type Double can't be cast to the desired output type Bool",
    )
    yield Case(
        op_out,
        "int64_into_bool_out_error",
        outfn(I64, (3,), I64, (3,), B, (3,)),
        error="result type Long can't be cast to the desired output type Bool",
    )
    yield Case(
        op_out,
        "out_broadcast_mismatch_error",
        outfn(F32, (2, 3), F32, (2,), F32, (2, 3)),
        error="The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1",
    )

    # Inplace: the result is cast into self, self's shape can't grow, no internal overlap.
    yield Case(
        op_in, "float32_inplace_noncontig_self", fn(F32, (3, 4), F32, (3, 4), "T"), result="self"
    )
    yield Case(
        op_in,
        "int64_inplace_noncontig_step",
        fn(I64, (3, 4), I64, (4,), "step", "T"),
        result="self",
    )
    yield Case(op_in, "float32_self_int64_other", fn(F32, (2, 3), I64, (2, 3)), result="self")
    yield Case(op_in, "float32_self_float64_other", fn(F32, (2, 3), F64, (3,)), result="self")
    yield Case(op_in, "int32_self_int64_other", fn(I32, (2, 3), I64, (2, 3)), result="self")
    yield Case(
        op_in, "uint8_self_int8_other", fn(U8, (2, 3), I8, (2, 3), orng=(0, 10)), result="self"
    )
    yield Case(op_in, "int64_self_bool_other", fn(I64, (2, 3), B, (2, 3)), result="self")
    yield Case(op_in, "float32_self_zerodim_float64_other", fn(F32, (2, 3), F64, ()), result="self")
    yield Case(op_in, "float32_inplace_size0", fn(F32, (0, 3), F32, (3,)), result="self")
    yield Case(op_in, "float32_inplace_size1_zerodim_other", fn(F32, (1,), F32, ()), result="self")
    yield Case(op_in, "int64_inplace_zerodim_both", fn(I64, (), I64, ()), result="self")
    yield Case(
        op_in,
        "int64_self_float32_other_error",
        fn(I64, (2, 3), F32, (2, 3)),
        error="result type Float can't be cast to the desired output type Long",
    )
    yield Case(
        op_in,
        "int32_self_zerodim_float64_other_error",
        fn(I32, (2, 3), F64, ()),
        error="result type Double can't be cast to the desired output type Int",
    )
    yield Case(
        op_in,
        "bool_self_int64_other_error",
        fn(B, (2, 3), I64, (2, 3)),
        error="result type Long can't be cast to the desired output type Bool",
    )
    yield Case(
        op_in,
        "uint8_self_float32_other_error",
        fn(U8, (2, 3), F32, (3,)),
        error="result type Float can't be cast to the desired output type Byte",
    )
    yield Case(
        op_in,
        "inplace_broadcast_grows_self_error",
        fn(F32, (3,), F32, (2, 3)),
        error="output with shape [3] doesn't match the broadcast shape [2, 3]",
    )
    yield Case(
        op_in,
        "inplace_expanded_self_error",
        fn(F32, (2, 3), F32, (2, 3), "expand:3"),
        error="unsupported operation: more than one element of the written-to tensor "
        "refers to a single memory location",
    )


FAMILIES = [
    FamilyInfo(
        "add",
        ops=("add.Tensor", "add.out", "add_.Tensor"),
        sample_inputs=partial(binary_cases, "add"),
        broadcast="any",
    ),
    FamilyInfo(
        "mul",
        ops=("mul.Tensor", "mul.out", "mul_.Tensor"),
        sample_inputs=partial(binary_cases, "mul"),
        broadcast="any",
    ),
]
