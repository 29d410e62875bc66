"""Element-wise unary math (the yaml's "unary math" section; the table below has a row
for each op): some keep the dtype, the others give integral and bool inputs float32; and
pow.Tensor_Scalar. One generator for the unary ops, parameterised by a table row; each op
writes its own file with its functional, inplace and out= overloads.

exp, log, sigmoid, tanh, sqrt, rsqrt, the trigonometric, hyperbolic and other unary math
and pow with a general exponent are computed by PyTorch with vectorized approximations (its float32 sqrt is 1 ulp off the correctly
rounded std::sqrt for some inputs), so their floating cases carry a tolerance (`tol`);
neg, abs and pow's exact special exponents (0, 1, 2, 3, -1, -2) are bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

from golden_format import ALL7, F32, F64, I8, I32, I64, U8, B, Case, FamilyInfo, Scalar, dn

NAN, INF = float("nan"), float("inf")
TOL = {F32: (2e-6, 1e-7), F64: (1e-14, 1e-300)}
SPECIAL = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 0.25]


@dataclass(frozen=True)
class Unary:
    name: str
    floating: bool  # integral and bool inputs give float32
    transcendental: bool = False  # floating results carry a tolerance
    rng: tuple | None = None  # floating input range (default -4..4)
    bool_error: str | None = None  # PyTorch's error for a bool input
    special: tuple = tuple(SPECIAL)


UNARY = [
    Unary(
        "neg", False, bool_error="Negation, the `-` operator, on a bool tensor is not supported."
    ),
    Unary("abs", False, bool_error="\"abs_cpu\" not implemented for 'Bool'"),
    Unary("exp", True, True, rng=(-3, 3), special=tuple(SPECIAL + [-100.0, 100.0])),
    Unary("log", True, True, rng=(0, 8)),
    Unary("sqrt", True, True, rng=(0, 8), special=tuple(SPECIAL + [2.0, 6.25])),
    Unary("rsqrt", True, True, rng=(0, 8), special=tuple(SPECIAL + [2.0, 6.25])),
    Unary("sigmoid", True, True, special=tuple(SPECIAL + [-100.0, 100.0])),
    Unary("tanh", True, True, special=tuple(SPECIAL + [-30.0, 30.0])),
    # Trigonometric, hyperbolic and the other unary math of core ATen: std:: functions
    # against PyTorch's (SLEEF's, vectorized), within `tol`; outside an op's domain both
    # give NaN.
    Unary("sin", True, True, special=tuple(SPECIAL + [3.1415927, 100.0])),
    Unary("cos", True, True, special=tuple(SPECIAL + [3.1415927, 100.0])),
    Unary("tan", True, True, rng=(-1.5, 1.5), special=tuple(SPECIAL + [0.7853982])),
    Unary("asin", True, True, rng=(-1, 1), special=tuple(SPECIAL + [0.5, 2.0])),
    Unary("acos", True, True, rng=(-1, 1), special=tuple(SPECIAL + [0.5, 2.0])),
    Unary("atan", True, True, special=tuple(SPECIAL + [100.0])),
    Unary("sinh", True, True, rng=(-3, 3), special=tuple(SPECIAL + [-20.0, 20.0])),
    Unary("cosh", True, True, rng=(-3, 3), special=tuple(SPECIAL + [-20.0, 20.0])),
    Unary("asinh", True, True, special=tuple(SPECIAL + [100.0])),
    Unary("acosh", True, True, rng=(1, 8), special=tuple(SPECIAL + [2.0, 100.0])),
    Unary("atanh", True, True, rng=(-0.9, 0.9), special=tuple(SPECIAL + [0.5, 2.0])),
    Unary("erf", True, True, rng=(-3, 3), special=tuple(SPECIAL + [-5.0, 5.0])),
    Unary("expm1", True, True, rng=(-3, 3), special=tuple(SPECIAL + [1e-6, -100.0])),
    Unary("log1p", True, True, rng=(-0.9, 8), special=tuple(SPECIAL + [1e-6, -2.0])),
    Unary("log2", True, True, rng=(0, 8), special=tuple(SPECIAL + [2.0, 1024.0])),
    Unary("log10", True, True, rng=(0, 8), special=tuple(SPECIAL + [10.0, 1000.0])),
]


def unary_cases(u: Unary) -> Iterator[Case]:
    """Cases of <name>, <name>_ and <name>.out."""
    op, op_in, op_out = u.name, f"{u.name}_", f"{u.name}.out"

    def result_dtype(d):
        return F32 if u.floating and not d.is_floating_point else d

    def tol(d):
        return TOL[result_dtype(d)] if u.transcendental else None

    def fn(d, shape, layout="contig", vals=None, out=None):
        def build(r):
            args = [("self", r.t(d, shape, layout, vals, u.rng if d.is_floating_point else None))]
            if out is not None:
                args.append(("out", r.t(*out)))
            return args

        return build

    for d in ALL7:
        n = dn(d)
        err = u.bool_error if d == B else None
        rd = result_dtype(d)
        yield Case(op, n, fn(d, (2, 3)), error=err, tol=None if err else tol(d))
        if err:
            yield Case(op_out, f"{n}_out", fn(d, (2, 3), out=(d, (2, 3))), error=err)
            yield Case(op_in, f"{n}_inplace", fn(d, (2, 3)), error=err)
            continue
        yield Case(op, f"{n}_noncontig", fn(d, (3, 4), "T"), tol=tol(d))
        yield Case(op_out, f"{n}_out", fn(d, (2, 3), out=(rd, (2, 3))), result="out", tol=tol(d))
        if rd == d:
            yield Case(op_in, f"{n}_inplace", fn(d, (2, 3)), result="self", tol=tol(d))
        else:
            yield Case(
                op_in,
                f"{n}_inplace_error",
                fn(d, (2, 3)),
                error=f"result type Float can't be cast to the desired output type "
                f"{dict([(I64, 'Long'), (I32, 'Int'), (I8, 'Char'), (U8, 'Byte'), (B, 'Bool')])[d]}",
            )
            yield Case(
                op_out,
                f"{n}_into_{dn(d)}_out_error",
                fn(d, (2, 3), out=(d, (2, 3))),
                error="result type Float can't be cast to the desired output type",
            )
    for d in (F32, F64):
        yield Case(
            op,
            f"{dn(d)}_special_values",
            fn(d, (len(u.special),), vals=list(u.special)),
            tol=tol(d),
        )
    # Runs long enough for the kernels' vector loops (8 float32 / 4 float64 lanes) and a tail.
    yield Case(op, "float32_long_run", fn(F32, (5, 9)), tol=tol(F32))
    yield Case(op, "float64_long_run", fn(F64, (3, 7)), tol=tol(F64))
    yield Case(op, "float32_step", fn(F32, (2, 5), "step"), tol=tol(F32))
    yield Case(op, "float32_expanded", fn(F32, (3, 4), "expand:1,4"), tol=tol(F32))
    yield Case(op, "float32_size0", fn(F32, (0, 3)))
    yield Case(op, "int64_size0", fn(I64, (0,)))
    yield Case(op, "float32_size1", fn(F32, (1,)), tol=tol(F32))
    yield Case(op, "float64_zerodim", fn(F64, (), vals=0.5), tol=tol(F64))
    yield Case(op, "int32_zerodim", fn(I32, (), vals=3), tol=tol(I32))
    yield Case(
        op_in, "float32_inplace_noncontig", fn(F32, (3, 4), "T"), result="self", tol=tol(F32)
    )
    yield Case(op_in, "float64_inplace_step", fn(F64, (2, 3), "step"), result="self", tol=tol(F64))
    yield Case(op_in, "float32_inplace_zerodim", fn(F32, (), vals=2.0), result="self", tol=tol(F32))
    yield Case(
        op_in,
        "float32_inplace_expanded_error",
        fn(F32, (2, 3), "expand:3"),
        error="unsupported operation: more than one element of the written-to tensor "
        "refers to a single memory location",
    )
    yield Case(
        op_out, "float32_out_resize", fn(F32, (2, 3), out=(F32, (0,))), result="out", tol=tol(F32)
    )
    yield Case(
        op_out,
        "float32_out_noncontig",
        fn(F32, (2, 3), out=(F32, (2, 3), "T")),
        result="out",
        tol=tol(F32),
    )
    if u.floating:
        yield Case(
            op_out,
            "float64_into_float32_out",
            fn(F64, (2, 3), out=(F32, (2, 3))),
            result="out",
            tol=tol(F32),
        )
        # Computed in float32 (the common dtype), then widened.
        yield Case(
            op_out,
            "int64_into_float64_out",
            fn(I64, (2, 3), out=(F64, (2, 3))),
            result="out",
            tol=tol(I64),
        )
        yield Case(
            op_out,
            "uint8_into_float64_out",
            fn(U8, (2, 3), out=(F64, (2, 3))),
            result="out",
            tol=tol(U8),
        )
    else:
        yield Case(
            op_out,
            "float32_into_float64_out_error",
            fn(F32, (2, 3), out=(F64, (2, 3))),
            error="Found dtype Double but expected Float",
        )
        yield Case(
            op_out,
            "int64_into_int32_out_error",
            fn(I64, (2, 3), out=(I32, (2, 3))),
            error="Found dtype Int but expected Long",
        )
        yield Case(op, "int8_extremes", fn(I8, (4,), vals=[-128, 127, 0, -1]))
        yield Case(op, "int64_extremes", fn(I64, (3,), vals=[-(2**63), 2**63 - 1, -5]))
        yield Case(op, "uint8_extremes", fn(U8, (3,), vals=[0, 1, 255]))


def pow_cases() -> Iterator[Case]:
    """Cases of pow.Tensor_Scalar, pow_.Scalar and pow.Tensor_Scalar_out."""
    P, P_in, P_out = "pow.Tensor_Scalar", "pow_.Scalar", "pow.Tensor_Scalar_out"

    def fn(d, shape, e, layout="contig", vals=None, out=None, rng=None):
        def build(r):
            args = [("self", r.t(d, shape, layout, vals, rng)), ("exponent", Scalar(e))]
            if out is not None:
                args.append(("out", r.t(*out)))
            return args

        return build

    def t(d):
        return TOL.get(d)

    for d in ALL7:
        n = dn(d)
        small = (0, 3) if d == U8 else ((-3, 3) if not d.is_floating_point else None)
        for e in (0, 1, 2, 3, 5):
            yield Case(P, f"{n}_int{e}", fn(d, (2, 3), e, rng=small))
        yield Case(
            P,
            f"{n}_double_general",
            fn(d, (2, 3), 2.5, rng=(0, 4)),
            tol=t(d if d.is_floating_point else F32),
        )
        yield Case(P, f"{n}_bool_true", fn(d, (2, 3), True, rng=small))
        yield Case(P, f"{n}_bool_false", fn(d, (2, 3), False, rng=small))
        yield Case(P, f"{n}_noncontig", fn(d, (3, 4), 2, "T", rng=small))
        if d != B:
            yield Case(P_in, f"{n}_inplace", fn(d, (2, 3), 2, rng=small), result="self")
            yield Case(
                P_out, f"{n}_out", fn(d, (2, 3), 3, out=(d, (2, 3)), rng=small), result="out"
            )
    for d in (F32, F64):
        n = dn(d)
        for name, e in (
            ("minus_one", -1),
            ("minus_two", -2),
            ("double_two", 2.0),
            ("double_zero", 0.0),
        ):
            yield Case(P, f"{n}_{name}", fn(d, (2, 3), e, rng=(0.25, 4)))
        for name, e in (("half", 0.5), ("minus_half", -0.5)):  # sqrt, rsqrt
            yield Case(P, f"{n}_{name}", fn(d, (2, 3), e, rng=(0.25, 4)), tol=t(d))
        for name, e in (("quarter", 0.25), ("minus_three", -3), ("one_and_half", 1.5), ("four", 4)):
            yield Case(P, f"{n}_{name}", fn(d, (2, 3), e, rng=(0.25, 4)), tol=t(d))
        yield Case(P, f"{n}_special_values_square", fn(d, (8,), 2, vals=SPECIAL))
        yield Case(P, f"{n}_special_values_half", fn(d, (8,), 0.5, vals=SPECIAL), tol=t(d))
        yield Case(P, f"{n}_special_values_minus_one", fn(d, (8,), -1, vals=SPECIAL))
        yield Case(P, f"{n}_special_values_zero", fn(d, (8,), 0, vals=SPECIAL))
        yield Case(P, f"{n}_special_values_general", fn(d, (8,), 2.5, vals=SPECIAL), tol=t(d))
        yield Case(P, f"{n}_nan_exponent", fn(d, (3,), NAN, vals=[0.0, 1.0, 2.0]))
    yield Case(P, "int8_wraps", fn(I8, (4,), 3, vals=[5, 6, -7, 127]))
    yield Case(P, "int64_large", fn(I64, (3,), 40, vals=[2, -2, 3]))
    yield Case(
        P,
        "uint8_large_exponent_error",
        fn(U8, (3,), 1000, vals=[1, 2, 3]),
        error="value cannot be converted to type uint8_t without overflow",
    )
    yield Case(
        P,
        "int64_negative_exponent_error",
        fn(I64, (3,), -2),
        error="Integers to negative integer powers are not allowed.",
    )
    yield Case(
        P,
        "bool_negative_exponent_error",
        fn(B, (3,), -1),
        error="Integers to negative integer powers are not allowed.",
    )
    yield Case(P, "float32_size0", fn(F32, (0, 3), 2.5))
    yield Case(P, "float32_size1", fn(F32, (1,), 3))
    yield Case(P, "int64_zerodim", fn(I64, (), 3, vals=-4))
    yield Case(P, "float32_step", fn(F32, (2, 5), 2, "step"))
    yield Case(P, "float32_expanded", fn(F32, (3, 4), 3, "expand:1,4"))
    yield Case(P, "int32_double_exponent_gives_float32", fn(I32, (2, 3), 2.0, rng=(0, 5)))
    yield Case(
        P_in, "float32_inplace_general", fn(F32, (2, 3), 1.5, rng=(0, 4)), result="self", tol=t(F32)
    )
    yield Case(P_in, "float32_inplace_noncontig", fn(F32, (3, 4), 2, "T"), result="self")
    yield Case(
        P_in,
        "int32_inplace_double_error",
        fn(I32, (2, 3), 2.5),
        error="result type Float can't be cast to the desired output type Int",
    )
    yield Case(
        P_in,
        "bool_inplace_int_error",
        fn(B, (2, 3), 2),
        error="result type Long can't be cast to the desired output type Bool",
    )
    yield Case(P_out, "int64_into_float32_out", fn(I64, (2, 3), 2, out=(F32, (2, 3))), result="out")
    yield Case(
        P_out, "float64_into_float32_out_resize", fn(F64, (2, 3), 2, out=(F32, (0,))), result="out"
    )
    yield Case(
        P_out, "float32_out_noncontig", fn(F32, (2, 3), 3, out=(F32, (2, 3), "T")), result="out"
    )
    yield Case(
        P_out,
        "int64_into_int64_out_double_error",
        fn(I64, (2, 3), 2.5, out=(I64, (2, 3))),
        error="result type Float can't be cast to the desired output type Long",
    )


FAMILIES = [
    *[
        FamilyInfo(
            u.name,
            ops=(u.name, f"{u.name}_", f"{u.name}.out"),
            sample_inputs=partial(unary_cases, u),
        )
        for u in UNARY
    ],
    FamilyInfo(
        "pow",
        ops=("pow.Tensor_Scalar", "pow_.Scalar", "pow.Tensor_Scalar_out"),
        sample_inputs=pow_cases,
    ),
]
