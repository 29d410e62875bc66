"""Comparisons (eq, ne, lt, le, gt, ge: Tensor and Scalar overloads, out= and inplace), the
logical ops (logical_not, logical_and, logical_or) and where.self.

A new result is bool; out= and inplace keep their tensor's dtype (1/0 written into a
float self). Values are drawn from small ranges so that equal elements occur.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from golden_format import ALL7, F32, F64, I8, I32, I64, U8, B, Case, FamilyInfo, Scalar, dn

NAN, INF = float("nan"), float("inf")
SMALL = {F32: (-1, 1), F64: (-1, 1), I64: (-2, 2), I32: (-2, 2), I8: (-2, 2), U8: (0, 3)}
BROADCAST_3_4 = (
    "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
)


def _binary(sd, ss, od, os_, sl="contig", ol="contig", svals=None, ovals=None, out=None):
    """The arguments of a (self, other[, out]) case: dtypes, shapes, layouts, values."""

    def build(r):
        args = [
            ("self", r.t(sd, ss, sl, svals, SMALL.get(sd))),
            ("other", r.t(od, os_, ol, ovals, SMALL.get(od))),
        ]
        if out is not None:
            args.append(("out", r.t(*out)))
        return args

    return build


def comparison_cases(base: str) -> Iterator[Case]:
    """Cases of <base>.Tensor, <base>.Scalar, their _out and inplace variants."""
    T, S = f"{base}.Tensor", f"{base}.Scalar"
    T_out, S_out = f"{base}.Tensor_out", f"{base}.Scalar_out"
    T_in, S_in = f"{base}_.Tensor", f"{base}_.Scalar"

    fn = _binary

    def sfn(d, shape, other, layout="contig", vals=None, out=None):
        def build(r):
            args = [("self", r.t(d, shape, layout, vals, SMALL.get(d))), ("other", Scalar(other))]
            if out is not None:
                args.append(("out", r.t(out[0], out[1])))
            return args

        return build

    for d in ALL7:
        n = dn(d)
        yield Case(T, f"{n}_same_shape", fn(d, (3, 4), d, (3, 4)))
        yield Case(T, f"{n}_broadcast", fn(d, (3, 1, 4), d, (2, 4)))
        yield Case(T, f"{n}_noncontig", fn(d, (3, 4), d, (3, 4), "T", "step"))
        yield Case(T_out, f"{n}_out", fn(d, (2, 3), d, (3,), out=(B, (2, 3))), result="out")
        yield Case(T_in, f"{n}_inplace", fn(d, (2, 3), d, (3,)), result="self")
        for kind, other in (("int", 1), ("double", 0.5), ("bool", True)):
            yield Case(S, f"{n}_{kind}", sfn(d, (2, 3), other))
        yield Case(S_out, f"{n}_out", sfn(d, (2, 3), 1, out=(B, (2, 3))), result="out")
        yield Case(S_in, f"{n}_inplace", sfn(d, (2, 3), 1), result="self")
    yield Case(T, "float32_size0", fn(F32, (0, 3), F32, (3,)))
    yield Case(T, "float32_size1", fn(F32, (1,), F32, (1,)))
    yield Case(T, "int64_zerodim_both", fn(I64, (), I64, ()))
    yield Case(T, "float32_expanded_input", fn(F32, (2, 3), F32, (2, 3), "contig", "expand:1,3"))
    for sd, od in [(I64, F32), (I32, I64), (U8, F64), (B, I8), (F32, F64), (I8, B)]:
        yield Case(T, f"promote_{dn(sd)}_{dn(od)}", fn(sd, (2, 3), od, (3,)))
    yield Case(T, "zerodim_float64_with_int32", fn(F64, (), I32, (2, 3), svals=0.5))
    special_a = [NAN, NAN, 1.0, INF, -INF, -0.0, 0.0, INF, 1.0]
    special_b = [NAN, 1.0, NAN, INF, INF, 0.0, -0.0, 1.0, -INF]
    for d in (F32, F64):
        yield Case(
            T, f"{dn(d)}_special_values", fn(d, (9,), d, (9,), svals=special_a, ovals=special_b)
        )
    yield Case(S, "float32_nan_other", sfn(F32, (3,), NAN, vals=[NAN, 1.0, INF]))
    yield Case(S, "float64_inf_other", sfn(F64, (3,), INF, vals=[NAN, 1.0, INF]))
    yield Case(S, "float32_negative_zero_other", sfn(F32, (3,), -0.0, vals=[0.0, -0.0, 1.0]))
    yield Case(S, "uint8_negative_int", sfn(U8, (4,), -1, vals=[0, 1, 254, 255]))
    yield Case(S, "int8_large_int", sfn(I8, (3,), 300, vals=[-128, 0, 127]))
    yield Case(S, "int64_double_other", sfn(I64, (4,), 1.5, vals=[0, 1, 2, 3]))
    yield Case(S, "float32_size0", sfn(F32, (0,), 1))
    yield Case(S, "float32_size1_noncontig", sfn(F32, (3, 1), 0.25, "T"))
    yield Case(S, "int64_zerodim", sfn(I64, (), 2, vals=2))
    yield Case(S, "float32_step", sfn(F32, (2, 5), 0.0, "step"))
    yield Case(
        T_out,
        "float32_into_float32_out",
        fn(F32, (2, 3), F32, (2, 3), out=(F32, (2, 3))),
        result="out",
    )
    yield Case(
        T_out,
        "int64_into_int32_out_resize",
        fn(I64, (2, 3), I64, (3,), out=(I32, (0,))),
        result="out",
    )
    yield Case(
        T_out,
        "bool_out_noncontig",
        fn(F32, (2, 3), F32, (2, 3), out=(B, (2, 3), "T")),
        result="out",
    )
    yield Case(
        S_out, "float64_into_uint8_out", sfn(F64, (2, 3), 0.5, out=(U8, (2, 3))), result="out"
    )
    yield Case(T_in, "float32_self_float64_other", fn(F32, (2, 3), F64, (3,)), result="self")
    yield Case(T_in, "int8_self_float32_other", fn(I8, (2, 3), F32, (2, 3)), result="self")
    yield Case(T_in, "float32_inplace_noncontig", fn(F32, (3, 4), F32, (4,), "T"), result="self")
    yield Case(S_in, "int32_self_double_other", sfn(I32, (2, 3), 0.5), result="self")
    yield Case(T, "broadcast_mismatch_error", fn(F32, (2, 3), F32, (4,)), error=BROADCAST_3_4)
    yield Case(
        T_in,
        "inplace_broadcast_grows_self_error",
        fn(F32, (3,), F32, (2, 3)),
        error="output with shape [3] doesn't match the broadcast shape [2, 3]",
    )
    yield Case(
        T_out,
        "out_broadcast_mismatch_error",
        fn(I64, (2, 3), I64, (2,), out=(B, (2, 3))),
        error="The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1",
    )


def logical_cases() -> Iterator[Case]:
    """Cases of logical_not, logical_and and logical_or (every input read as != 0)."""

    def un(d, shape, layout="contig", vals=None, out=None):
        def build(r):
            args = [("self", r.t(d, shape, layout, vals, SMALL.get(d)))]
            if out is not None:
                args.append(("out", r.t(out[0], out[1])))
            return args

        return build

    bi = _binary

    special = [NAN, INF, -INF, -0.0, 0.0, 0.5]
    for d in ALL7:
        n = dn(d)
        yield Case("logical_not", n, un(d, (2, 3)))
        yield Case("logical_not", f"{n}_noncontig", un(d, (3, 4), "T"))
        yield Case("logical_not.out", f"{n}_out", un(d, (2, 3), out=(d, (2, 3))), result="out")
        yield Case("logical_not_", f"{n}_inplace", un(d, (2, 3)), result="self")
    for d in (F32, F64):
        yield Case("logical_not", f"{dn(d)}_special_values", un(d, (6,), vals=special))
    yield Case("logical_not", "float32_size0", un(F32, (0, 2)))
    yield Case("logical_not", "int64_size1", un(I64, (1,)))
    yield Case("logical_not", "uint8_zerodim", un(U8, (), vals=0))
    yield Case("logical_not", "float32_step", un(F32, (2, 4), "step"))
    yield Case("logical_not", "int32_expanded", un(I32, (3, 4), "expand:1,4"))
    yield Case(
        "logical_not.out",
        "float32_into_int64_out_resize",
        un(F32, (2, 3), out=(I64, (0,))),
        result="out",
    )
    for op in ("logical_and", "logical_or"):
        for d in ALL7:
            n = dn(d)
            yield Case(op, f"{n}_same_shape", bi(d, (2, 3), d, (2, 3)))
            yield Case(op, f"{n}_broadcast", bi(d, (3, 1, 4), d, (2, 4)))
            yield Case(
                f"{op}.out", f"{n}_out", bi(d, (2, 3), d, (3,), out=(B, (2, 3))), result="out"
            )
            yield Case(f"{op}_", f"{n}_inplace", bi(d, (2, 3), d, (3,)), result="self")
        yield Case(op, "float32_noncontig", bi(F32, (3, 4), F32, (3, 4), "T", "step"))
        for sd, od in [(I64, F32), (B, F64), (U8, B), (I32, I8)]:
            yield Case(op, f"promote_{dn(sd)}_{dn(od)}", bi(sd, (2, 3), od, (3,)))
        yield Case(
            op,
            "float64_special_values",
            bi(F64, (6,), F64, (6,), svals=special, ovals=list(reversed(special))),
        )
        yield Case(op, "float32_size0", bi(F32, (0, 3), F32, (3,)))
        yield Case(op, "int64_size1", bi(I64, (1,), I64, (1,)))
        yield Case(op, "zerodim_both", bi(F32, (), I64, ()))
        yield Case(
            f"{op}.out",
            "float32_into_float32_out_noncontig",
            bi(F32, (2, 3), F32, (2, 3), out=(F32, (2, 3), "T")),
            result="out",
        )
        yield Case(f"{op}_", "float32_self_int64_other", bi(F32, (2, 3), I64, (3,)), result="self")
        yield Case(op, "broadcast_mismatch_error", bi(F32, (2, 3), F32, (4,)), error=BROADCAST_3_4)
        yield Case(
            f"{op}_",
            "inplace_broadcast_grows_self_error",
            bi(B, (3,), B, (2, 3)),
            error="output with shape [3] doesn't match the broadcast shape [2, 3]",
        )


def where_cases() -> Iterator[Case]:
    """Cases of where.self and where.self_out (result_type(self, other); bool condition)."""

    def fn(
        cd,
        cs,
        sd,
        ss,
        od,
        os_,
        cl="contig",
        sl="contig",
        ol="contig",
        svals=None,
        ovals=None,
        out=None,
    ):
        def build(r):
            args = [
                ("condition", r.t(cd, cs, cl)),
                ("self", r.t(sd, ss, sl, svals)),
                ("other", r.t(od, os_, ol, ovals)),
            ]
            if out is not None:
                args.append(("out", r.t(*out)))
            return args

        return build

    W, W_out = "where.self", "where.self_out"
    for d in ALL7:
        n = dn(d)
        yield Case(W, f"{n}_same_shape", fn(B, (2, 3), d, (2, 3), d, (2, 3)))
        yield Case(W, f"{n}_broadcast", fn(B, (3, 1), d, (1, 4), d, (4,)))
        yield Case(W, f"{n}_noncontig", fn(B, (3, 4), d, (3, 4), d, (3, 4), "step", "T", "step"))
        yield Case(
            W_out, f"{n}_out", fn(B, (2, 3), d, (2, 3), d, (3,), out=(d, (2, 3))), result="out"
        )
    yield Case(W, "uint8_condition", fn(U8, (2, 3), F32, (2, 3), F32, (2, 3)))
    for cd in (F32, I64, I8):
        yield Case(
            W,
            f"{dn(cd)}_condition_error",
            fn(cd, (2, 3), F32, (2, 3), F32, (2, 3)),
            error=f"where expected condition to be a boolean tensor, but got a tensor "
            f"with dtype {dict([(F32, 'Float'), (I64, 'Long'), (I8, 'Char')])[cd]}",
        )
    for sd, od in [(I64, F32), (I32, I64), (U8, F64), (B, I8), (F32, F64), (B, F32)]:
        yield Case(W, f"promote_{dn(sd)}_{dn(od)}", fn(B, (2, 3), sd, (2, 3), od, (3,)))
    yield Case(W, "zerodim_float64_with_float32", fn(B, (2, 3), F64, (), F32, (2, 3)))
    yield Case(W, "zerodim_all", fn(B, (), I64, (), I64, ()))
    yield Case(W, "float32_size0", fn(B, (0, 3), F32, (3,), F32, (0, 3)))
    yield Case(W, "float32_size1", fn(B, (1,), F32, (1,), F32, (1,)))
    yield Case(W, "expanded_condition", fn(B, (3, 4), F32, (3, 4), F32, (3, 4), "expand:1,4"))
    yield Case(
        W,
        "float64_special_values",
        fn(
            B,
            (6,),
            F64,
            (6,),
            F64,
            (6,),
            svals=[NAN, INF, -INF, -0.0, 0.0, 1.0],
            ovals=[-0.0, NAN, 0.0, INF, -INF, 2.0],
        ),
    )
    yield Case(
        W_out,
        "float32_out_resize",
        fn(B, (2, 3), F32, (3,), F32, (2, 1), out=(F32, (0,))),
        result="out",
    )
    yield Case(
        W_out,
        "int64_out_noncontig",
        fn(B, (3, 4), I64, (3, 4), I64, (3, 4), out=(I64, (3, 4), "T")),
        result="out",
    )
    yield Case(
        W_out,
        "float32_into_int64_out_error",
        fn(B, (2, 3), F32, (2, 3), F32, (2, 3), out=(I64, (2, 3))),
        error="Expected out type to be Float but got Long",
    )
    yield Case(
        W_out,
        "promoted_into_float32_out_error",
        fn(B, (2, 3), F64, (2, 3), F32, (2, 3), out=(F32, (2, 3))),
        error="Expected out type to be Double but got Float",
    )
    yield Case(
        W,
        "broadcast_mismatch_error",
        fn(B, (2, 3), F32, (2, 3), F32, (4,)),
        error="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    )


CMP = ("eq", "ne", "lt", "le", "gt", "ge")

FAMILIES = [
    *[
        FamilyInfo(
            c,
            ops=(
                f"{c}.Tensor",
                f"{c}.Scalar",
                f"{c}.Tensor_out",
                f"{c}.Scalar_out",
                f"{c}_.Tensor",
                f"{c}_.Scalar",
            ),
            sample_inputs=partial(comparison_cases, c),
            broadcast="any",
        )
        for c in CMP
    ],
    FamilyInfo(
        "logical",
        ops=(
            "logical_not",
            "logical_not.out",
            "logical_not_",
            "logical_and",
            "logical_and.out",
            "logical_and_",
            "logical_or",
            "logical_or.out",
            "logical_or_",
        ),
        sample_inputs=logical_cases,
        broadcast="any",
    ),
    FamilyInfo(
        "where",
        ops=("where.self", "where.self_out"),
        sample_inputs=where_cases,
        broadcast="any",
    ),
]
