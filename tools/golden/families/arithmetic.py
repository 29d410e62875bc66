"""Binary arithmetic beyond add and mul: sub and div (true division and rounding modes),
and the Scalar overloads of add, sub, mul and div (composites over the Tensor overloads).

Families: sub (sub.Tensor, sub.out, sub_.Tensor), div (div.Tensor, div.out, div_.Tensor,
div.Tensor_mode, div.out_mode, div_.Tensor_mode) and scalar_arith (add.Scalar, sub.Scalar,
mul.Scalar, div.Scalar, div.Scalar_mode and their inplace variants).
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
    Case,
    FamilyInfo,
    Scalar,
    Str,
    dn,
)

NAN, INF = float("nan"), float("inf")
SUB_BOOL = "Subtraction, the `-` operator, with two bool tensors is not supported."
SUB_ONE_BOOL = "Subtraction, the `-` operator, with a bool tensor is not supported."


def sub_cases() -> Iterator[Case]:
    """Cases of sub.Tensor, sub.out and sub_.Tensor (bool raises)."""
    op, op_out, op_in = "sub.Tensor", "sub.out", "sub_.Tensor"

    def A(s, o, alpha=1, out=None):
        args = [("self", s), ("other", o), ("alpha", Scalar(alpha))]
        return args + ([("out", out)] if out is not None else [])

    def fn(sd, ss, od, os_, sl="contig", ol="contig", alpha=1, svals=None, ovals=None):
        return lambda r: A(r.t(sd, ss, sl, svals), r.t(od, os_, ol, ovals), alpha)

    def outfn(sd, ss, od, os_, outd, outs, outl="contig", alpha=1):
        return lambda r: A(r.t(sd, ss), r.t(od, os_), alpha, out=r.t(outd, outs, outl))

    for d in ALL7:
        n = dn(d)
        err = SUB_BOOL if d == B else None
        yield Case(op, f"{n}_same_shape", fn(d, (2, 3), d, (2, 3)), error=err)
        yield Case(op, f"{n}_broadcast", fn(d, (3, 1, 4), d, (2, 4)), error=err)
        yield Case(
            op_out,
            f"{n}_out",
            outfn(d, (2, 3), d, (3,), d, (2, 3)),
            error=err,
            result=None if err else "out",
        )
        yield Case(
            op_in,
            f"{n}_inplace_broadcast",
            fn(d, (2, 3), d, (3,)),
            error=err,
            result=None if err else "self",
        )
        if d != B:
            yield Case(op, f"{n}_noncontig", fn(d, (3, 4), d, (3, 4), "T", "step"))
    yield Case(op, "bool_int64_error", fn(B, (3,), I64, (3,)), error=SUB_ONE_BOOL)
    yield Case(op, "float32_bool_error", fn(F32, (3,), B, (3,)), error=SUB_ONE_BOOL)
    yield Case(op, "float32_size0", fn(F32, (0, 3), F32, (3,)))
    yield Case(op, "float32_size1", fn(F32, (1,), F32, (1,)))
    yield Case(op, "int32_size1_broadcast", fn(I32, (1, 1), I32, (2, 3)))
    yield Case(op, "float64_zerodim_both", fn(F64, (), F64, ()))
    yield Case(op, "float32_expanded_input", fn(F32, (2, 3), F32, (2, 3), "contig", "expand:1,3"))
    for sd, od in [(I64, F32), (I32, I64), (U8, F64), (F32, F64), (I8, I32)]:
        yield Case(op, f"promote_{dn(sd)}_{dn(od)}", fn(sd, (2, 3), od, (3,)))
    for sd, od in [(F64, F32), (I64, I8), (F64, I32)]:
        yield Case(op, f"zerodim_{dn(sd)}_with_{dn(od)}", fn(sd, (), od, (2, 3)))
    special_a = [NAN, INF, -INF, -0.0, 0.0, INF, 1.0]
    special_b = [1.0, INF, -INF, 0.0, -0.0, 1.0, NAN]
    for d in (F32, F64):
        yield Case(
            op, f"{dn(d)}_special_values", fn(d, (7,), d, (7,), svals=special_a, ovals=special_b)
        )
    yield Case(
        op,
        "int8_wraparound",
        fn(I8, (4,), I8, (4,), svals=[-100, -128, 127, 0], ovals=[100, 1, -1, -128]),
    )
    yield Case(
        op, "uint8_wraparound", fn(U8, (4,), U8, (4,), svals=[0, 5, 255, 16], ovals=[1, 10, 0, 16])
    )
    yield Case(op, "float32_alpha_double", fn(F32, (2, 3), F32, (2, 3), alpha=2.5))
    yield Case(op, "int64_alpha_negative", fn(I64, (2, 3), I64, (3,), alpha=-3))
    yield Case(op, "uint8_alpha_int", fn(U8, (2, 3), U8, (2, 3), alpha=2))
    yield Case(op_in, "float32_inplace_alpha", fn(F32, (2, 3), F32, (3,), alpha=0.5), result="self")
    yield Case(
        op,
        "int64_alpha_double_error",
        fn(I64, (2, 3), I64, (2, 3), alpha=2.5),
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
        "broadcast_mismatch_error",
        fn(F32, (2, 3), F32, (4,)),
        error="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    )
    yield Case(op_out, "float32_out_resize", outfn(F32, (2, 3), F32, (3,), F32, (0,)), result="out")
    yield Case(
        op_out,
        "float32_out_noncontig",
        outfn(F32, (2, 3), F32, (2, 3), F32, (2, 3), "T"),
        result="out",
    )
    yield Case(
        op_out, "int64_into_float64_out", outfn(I64, (2, 3), I64, (3,), F64, (2, 3)), result="out"
    )
    yield Case(
        op_out,
        "float32_into_int64_out_error",
        outfn(F32, (2, 3), F32, (2, 3), I64, (2, 3)),
        error="result type Float can't be cast to the desired output type Long",
    )
    yield Case(
        op_in,
        "int64_self_float32_other_error",
        fn(I64, (2, 3), F32, (2, 3)),
        error="result type Float can't be cast to the desired output type Long",
    )
    yield Case(
        op_in, "float32_inplace_noncontig_self", fn(F32, (3, 4), F32, (4,), "T"), result="self"
    )
    yield Case(
        op_in,
        "inplace_broadcast_grows_self_error",
        fn(F32, (3,), F32, (2, 3)),
        error="output with shape [3] doesn't match the broadcast shape [2, 3]",
    )


def div_cases() -> Iterator[Case]:
    """Cases of div: true division (integers give float32) and rounding_mode trunc/floor."""
    T, T_out, T_in = "div.Tensor", "div.out", "div_.Tensor"
    M, M_out, M_in = "div.Tensor_mode", "div.out_mode", "div_.Tensor_mode"

    def A(s, o, mode=False, out=None):
        args = [("self", s), ("other", o)]
        if mode is not False:
            args.append(("rounding_mode", NONE if mode is None else Str(mode)))
        return args + ([("out", out)] if out is not None else [])

    def fn(
        sd, ss, od, os_, sl="contig", ol="contig", mode=False, svals=None, ovals=None, orng=None
    ):
        return lambda r: A(r.t(sd, ss, sl, svals), r.t(od, os_, ol, ovals, orng), mode)

    def outfn(sd, ss, od, os_, outd, outs, mode=False, outl="contig", orng=None):
        return lambda r: A(r.t(sd, ss), r.t(od, os_, rng=orng), mode, out=r.t(outd, outs, outl))

    nonzero = {I64: (1, 9), I32: (1, 9), I8: (1, 9), U8: (1, 9), B: (1, 1)}
    for d in ALL7:
        n = dn(d)
        z = nonzero.get(d)
        yield Case(T, f"{n}_same_shape", fn(d, (2, 3), d, (2, 3), orng=z))
        yield Case(T, f"{n}_broadcast", fn(d, (3, 1, 4), d, (2, 4), orng=z))
        yield Case(T, f"{n}_noncontig", fn(d, (3, 4), d, (3, 4), "T", "step", orng=z))
        yield Case(M, f"{n}_none", fn(d, (2, 3), d, (3,), mode=None, orng=z))
        for mode in ("trunc", "floor"):
            err = f"\"div_{mode}_cpu\" not implemented for 'Bool'" if d == B else None
            yield Case(M, f"{n}_{mode}", fn(d, (2, 3), d, (3,), mode=mode, orng=z), error=err)
            if d != B:
                yield Case(
                    M,
                    f"{n}_{mode}_noncontig",
                    fn(d, (3, 4), d, (3, 4), "step", "T", mode=mode, orng=z),
                )
                yield Case(
                    M_out,
                    f"{n}_{mode}_out",
                    outfn(d, (2, 3), d, (3,), d, (2, 3), mode=mode, orng=z),
                    result="out",
                )
                yield Case(
                    M_in,
                    f"{n}_{mode}_inplace",
                    fn(d, (2, 3), d, (3,), mode=mode, orng=z),
                    result="self",
                )
    # Integer floor and trunc on mixed signs; true division of integers.
    a = [-7, 7, -7, 7, 0, -1, 9, -9]
    b = [2, -2, -2, 2, 3, 4, 3, 3]
    for d in (I64, I32, I8):
        for mode in ("trunc", "floor"):
            yield Case(
                M, f"{dn(d)}_{mode}_signs", fn(d, (8,), d, (8,), mode=mode, svals=a, ovals=b)
            )
    yield Case(
        M,
        "int8_floor_min_by_minus1",
        fn(I8, (2,), I8, (2,), mode="floor", svals=[-128, 127], ovals=[-1, -1]),
    )
    yield Case(
        M,
        "int8_trunc_min_by_minus1",
        fn(I8, (2,), I8, (2,), mode="trunc", svals=[-128, 127], ovals=[-1, -1]),
    )
    yield Case(
        T,
        "int64_by_zero_gives_inf",
        fn(I64, (4,), I64, (4,), svals=[1, -1, 0, 5], ovals=[0, 0, 0, 2]),
    )
    for mode in ("trunc", "floor"):
        yield Case(
            M,
            f"int64_{mode}_by_zero_error",
            fn(I64, (3,), I64, (3,), mode=mode, svals=[1, 2, 3], ovals=[1, 0, 2]),
            error="ZeroDivisionError",
        )
        yield Case(
            M,
            f"uint8_{mode}_by_zero_broadcast_error",
            fn(U8, (2, 3), U8, (1,), mode=mode, ovals=[0]),
            error="ZeroDivisionError",
        )
    special_a = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 7.5, -7.5, 5.0, -5.0, 0.0]
    special_b = [1.0, 2.0, INF, 1.0, -1.0, 0.0, 0.0, 2.0, 2.0, -INF, INF, 0.0]
    for d in (F32, F64):
        for mode in (None, "trunc", "floor"):
            yield Case(
                M,
                f"{dn(d)}_{mode or 'none'}_special_values",
                fn(d, (12,), d, (12,), mode=mode, svals=special_a, ovals=special_b),
            )
        yield Case(
            T, f"{dn(d)}_special_values", fn(d, (12,), d, (12,), svals=special_a, ovals=special_b)
        )
    yield Case(T, "float32_size0", fn(F32, (0, 3), F32, (3,)))
    yield Case(T, "float32_size1", fn(F32, (1,), F32, (1,)))
    yield Case(T, "float64_zerodim_both", fn(F64, (), F64, ()))
    yield Case(M, "int64_floor_size0", fn(I64, (0,), I64, (0,), mode="floor"))
    yield Case(M, "int64_floor_zerodim", fn(I64, (), I64, (), mode="floor", svals=-7, ovals=2))
    yield Case(
        M,
        "float32_expanded_input",
        fn(F32, (2, 3), F32, (2, 3), "contig", "expand:1,3", mode="floor"),
    )
    for sd, od in [(I64, F32), (I32, I64), (U8, F64), (B, I64), (I8, I32)]:
        yield Case(T, f"promote_{dn(sd)}_{dn(od)}", fn(sd, (2, 3), od, (3,), orng=nonzero.get(od)))
        yield Case(
            M,
            f"promote_{dn(sd)}_{dn(od)}_floor",
            fn(sd, (2, 3), od, (3,), mode="floor", orng=nonzero.get(od)),
        )
    yield Case(
        M, "zerodim_float64_with_int32_trunc", fn(F64, (), I32, (2, 3), mode="trunc", orng=(1, 9))
    )
    yield Case(
        M,
        "bad_rounding_mode_error",
        fn(F32, (3,), F32, (3,), mode="round"),
        error="div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'",
    )
    yield Case(
        T,
        "broadcast_mismatch_error",
        fn(F32, (2, 3), F32, (4,)),
        error="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    )
    yield Case(T_out, "float32_out", outfn(F32, (2, 3), F32, (3,), F32, (2, 3)), result="out")
    yield Case(
        T_out, "int64_into_float64_out", outfn(I64, (2, 3), I64, (3,), F64, (0,)), result="out"
    )
    yield Case(
        T_out,
        "float32_out_noncontig",
        outfn(F32, (2, 3), F32, (2, 3), F32, (2, 3), outl="T"),
        result="out",
    )
    yield Case(
        T_out,
        "int64_into_int64_out_error",
        outfn(I64, (2, 3), I64, (2, 3), I64, (2, 3)),
        error="result type Float can't be cast to the desired output type Long",
    )
    yield Case(
        M_out,
        "int64_floor_into_float32_out",
        outfn(I64, (2, 3), I64, (3,), F32, (2, 3), mode="floor", orng=(1, 9)),
        result="out",
    )
    yield Case(
        M_out,
        "float32_trunc_into_int64_out_error",
        outfn(F32, (2, 3), F32, (3,), I64, (2, 3), mode="trunc"),
        error="result type Float can't be cast to the desired output type Long",
    )
    yield Case(T_in, "float32_inplace", fn(F32, (2, 3), F32, (3,)), result="self")
    yield Case(
        T_in, "float32_self_int64_other", fn(F32, (2, 3), I64, (3,), orng=(1, 9)), result="self"
    )
    yield Case(
        T_in,
        "int64_inplace_error",
        fn(I64, (2, 3), I64, (2, 3), orng=(1, 9)),
        error="result type Float can't be cast to the desired output type Long",
    )
    yield Case(
        M_in,
        "int64_floor_inplace_noncontig",
        fn(I64, (3, 4), I64, (4,), "T", mode="floor", orng=(1, 9)),
        result="self",
    )
    yield Case(
        M_in,
        "int32_none_inplace_error",
        fn(I32, (2, 3), I32, (3,), mode=None, orng=(1, 9)),
        error="result type Float can't be cast to the desired output type Int",
    )


def scalar_arith_cases() -> Iterator[Case]:
    """Cases of the Scalar overloads: add/sub/mul/div.Scalar, div.Scalar_mode, inplace."""

    def fn(op_has_alpha, d, shape, other, layout="contig", alpha=1, mode=False, vals=None):
        def build(r):
            args = [("self", r.t(d, shape, layout, vals)), ("other", Scalar(other))]
            if op_has_alpha:
                args.append(("alpha", Scalar(alpha)))
            if mode is not False:
                args.append(("rounding_mode", NONE if mode is None else Str(mode)))
            return args

        return build

    for base in ("add", "sub", "mul", "div"):
        alpha = base in ("add", "sub")
        op, op_in = f"{base}.Scalar", f"{base}_.Scalar"
        for d in ALL7:
            n = dn(d)
            for kind, other in (("int", 3), ("double", 2.5), ("bool", True)):
                err = None
                if base == "sub" and d == B and kind == "bool":
                    err = SUB_BOOL
                elif base == "sub" and (d == B or kind == "bool"):
                    err = SUB_ONE_BOOL
                yield Case(op, f"{n}_{kind}", fn(alpha, d, (2, 3), other), error=err)
            if d != B:
                yield Case(op, f"{n}_noncontig", fn(alpha, d, (3, 4), 2, "T"))
        yield Case(op, "float32_size0", fn(alpha, F32, (0, 3), 2))
        yield Case(op, "float32_size1", fn(alpha, F32, (1,), 2))
        yield Case(op, "int64_zerodim", fn(alpha, I64, (), 4))
        yield Case(op, "float32_step", fn(alpha, F32, (2, 5), -1.5, "step"))
        yield Case(op, "float32_expanded", fn(alpha, F32, (3, 4), 0.5, "expand:1,4"))
        yield Case(op, "uint8_negative_int", fn(alpha, U8, (2, 3), -1))
        yield Case(op, "int8_large_int", fn(alpha, I8, (2, 3), 1000))
        yield Case(
            op,
            "float64_special_values",
            fn(
                alpha,
                F64,
                (6,),
                0.0 if base == "div" else INF,
                vals=[NAN, INF, -INF, -0.0, 0.0, 1.0],
            ),
        )
        yield Case(op, "float32_nan_other", fn(alpha, F32, (3,), NAN))
        yield Case(op_in, "float32_inplace", fn(alpha, F32, (2, 3), 1.5), result="self")
        yield Case(
            op_in,
            "int64_inplace_noncontig",
            fn(alpha, I64, (3, 4), 2, "T"),
            result=None if base == "div" else "self",
            error="result type Float can't be cast to the desired output type Long"
            if base == "div"
            else None,
        )
        if base != "div":
            yield Case(
                op_in,
                "int32_inplace_double_error",
                fn(alpha, I32, (2, 3), 2.5),
                error="result type Float can't be cast to the desired output type Int",
            )
        if alpha:
            yield Case(op, "float32_alpha", fn(alpha, F32, (2, 3), 2, alpha=-0.5))
            yield Case(
                op,
                "int64_alpha_double_error",
                fn(alpha, I64, (2, 3), 2, alpha=1.5),
                error="For integral input tensors, argument alpha must not be a floating point number.",
            )
    m, m_in = "div.Scalar_mode", "div_.Scalar_mode"
    for d in ALL7:
        n = dn(d)
        for mode in (None, "trunc", "floor"):
            yield Case(m, f"{n}_{mode or 'none'}_int", fn(False, d, (2, 3), 2, mode=mode))
        if d != B:
            yield Case(m, f"{n}_floor_double", fn(False, d, (2, 3), -1.5, mode="floor"))
    for mode in ("trunc", "floor"):
        yield Case(
            m,
            f"bool_{mode}_bool_error",
            fn(False, B, (2, 3), True, mode=mode),
            error=f"\"div_{mode}_cpu\" not implemented for 'Bool'",
        )
    yield Case(
        m, "int64_floor_negative", fn(False, I64, (6,), -4, mode="floor", vals=[-7, 7, 0, 1, -1, 8])
    )
    yield Case(
        m,
        "int64_trunc_by_zero_error",
        fn(False, I64, (3,), 0, mode="trunc"),
        error="ZeroDivisionError",
    )
    yield Case(
        m,
        "float32_floor_by_zero",
        fn(False, F32, (4,), 0, mode="floor", vals=[1.0, -1.0, 0.0, NAN]),
    )
    yield Case(m, "float32_size0", fn(False, F32, (0,), 2, mode="trunc"))
    yield Case(m, "float32_size1_noncontig", fn(False, F32, (3, 1), 2, "T", mode="floor"))
    yield Case(
        m,
        "bad_rounding_mode_error",
        fn(False, F32, (3,), 2, mode="ceil"),
        error="div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'ceil'",
    )
    yield Case(
        m_in, "float32_inplace_floor", fn(False, F32, (2, 3), 1.5, mode="floor"), result="self"
    )
    yield Case(m_in, "int64_inplace_trunc", fn(False, I64, (2, 3), -2, mode="trunc"), result="self")
    yield Case(
        m_in,
        "int64_inplace_double_error",
        fn(False, I64, (2, 3), 1.5, mode="floor"),
        error="result type Float can't be cast to the desired output type Long",
    )


SCALAR_OPS = (
    "add.Scalar",
    "add_.Scalar",
    "sub.Scalar",
    "sub_.Scalar",
    "mul.Scalar",
    "mul_.Scalar",
    "div.Scalar",
    "div_.Scalar",
    "div.Scalar_mode",
    "div_.Scalar_mode",
)

FAMILIES = [
    FamilyInfo(
        "sub",
        ops=("sub.Tensor", "sub.out", "sub_.Tensor"),
        sample_inputs=sub_cases,
        broadcast="any",
    ),
    FamilyInfo(
        "div",
        ops=(
            "div.Tensor",
            "div.out",
            "div_.Tensor",
            "div.Tensor_mode",
            "div.out_mode",
            "div_.Tensor_mode",
        ),
        sample_inputs=div_cases,
        broadcast="any",
    ),
    FamilyInfo("scalar_arith", ops=SCALAR_OPS, sample_inputs=scalar_arith_cases),
]
