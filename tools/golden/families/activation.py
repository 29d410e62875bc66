"""Unary activation ops: relu (and relu_), and the structured activations elu, gelu, silu,
hardsigmoid, hardswish, leaky_relu (floating dtypes only), hardtanh and clamp (every
numeric dtype), each with its functional, inplace and out= overloads.

elu, gelu and silu are computed by PyTorch with vectorized erf/tanh/exp, so their floating
cases carry a tolerance (`tol`); the others are exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

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
TOL = {F32: (2e-6, 1e-7), F64: (1e-14, 1e-300)}
ATEN = {F32: "Float", F64: "Double", I64: "Long", I32: "Int", I8: "Char", U8: "Byte", B: "Bool"}
EXPANDED_ERROR = (
    "unsupported operation: more than one element of the written-to tensor "
    "refers to a single memory location"
)


def relu_cases() -> Iterator[Case]:
    """Cases of relu and relu_ (bool raises)."""

    def fn(d, shape, layout="contig", vals=None):
        return lambda r: [("self", r.t(d, shape, layout, vals))]

    for d in ALL7:
        n = dn(d)
        err = "Boolean inputs not supported for relu" if d == B else None
        yield Case("relu", n, fn(d, (2, 3)), error=err)
        yield Case(
            "relu_", f"{n}_inplace", fn(d, (2, 3)), error=err, result=None if err else "self"
        )
        if d != B:
            yield Case("relu", f"{n}_noncontig", fn(d, (3, 4), "T"))
    yield Case("relu", "float32_noncontig_step", fn(F32, (2, 5), "step"))
    yield Case("relu", "float32_expanded_input", fn(F32, (3, 4), "expand:1,4"))
    yield Case("relu", "float32_size0", fn(F32, (0, 3)))
    yield Case("relu", "int64_size0", fn(I64, (0,)))
    yield Case("relu", "float32_size1", fn(F32, (1,)))
    yield Case("relu", "float64_size1_2d", fn(F64, (1, 1)))
    yield Case("relu", "float32_zerodim", fn(F32, ()))
    yield Case("relu", "int32_zerodim_negative", fn(I32, (), vals=-5))
    special = [float("nan"), float("-inf"), float("inf"), -0.0, 0.0, -1.5, 2.5]
    for d in (F32, F64):
        yield Case("relu", f"{dn(d)}_special_values", fn(d, (7,), vals=special))
    yield Case("relu", "int8_extremes", fn(I8, (4,), vals=[-128, 127, 0, -1]))
    yield Case("relu_", "float32_inplace_noncontig", fn(F32, (3, 4), "T"), result="self")
    yield Case("relu_", "int64_inplace_noncontig_step", fn(I64, (2, 3), "step"), result="self")
    yield Case("relu_", "float32_inplace_size0", fn(F32, (0, 2)), result="self")
    yield Case("relu_", "float32_inplace_size1", fn(F32, (1,)), result="self")
    yield Case("relu_", "float64_inplace_zerodim", fn(F64, (), vals=-2.0), result="self")
    yield Case(
        "relu_", "float32_inplace_special_values", fn(F32, (7,), vals=special), result="self"
    )


@dataclass(frozen=True)
class Activation:
    name: str
    kernel: str  # PyTorch's kernel name in its dtype error
    extra: tuple = ()  # ((argument, default Scalar/Str), ...) after self
    approximate: bool = False  # floating results carry a tolerance
    tol: dict | None = None  # per-dtype (rtol, atol) instead of TOL


# gelu: 1 + erf(x) cancels for negative x, so the error is absolute (atol); on contiguous
# float32 PyTorch calls oneDNN, whose gelu(inf) is nan (not inf) and whose out= ignores a
# non-contiguous out's strides: those two cases are left out (float64 covers them).
ACTIVATIONS = [
    Activation(
        "gelu",
        "GeluKernelImpl",
        (("approximate", "none"),),
        True,
        {F32: (2e-6, 1e-6), F64: (1e-14, 1e-15)},
    ),
    Activation("silu", "silu_cpu", (), True),
    # exp(x) - 1 cancels near 0: the error is absolute.
    Activation(
        "elu",
        "elu_cpu",
        (("alpha", 1.0), ("scale", 1.0), ("input_scale", 1.0)),
        True,
        {F32: (2e-6, 1e-6), F64: (1e-14, 1e-15)},
    ),
    Activation("hardsigmoid", "hardsigmoid_cpu"),
    Activation("hardswish", "hardswish_cpu"),
    Activation("leaky_relu", "leaky_relu_cpu", (("negative_slope", 0.01),)),
]
SPECIAL = [NAN, INF, -INF, -0.0, 0.0, -3.0, 3.0, -4.5, 4.5, 1.25, -1.25, 100.0, -100.0]


def _arg(value):
    return Str(value) if isinstance(value, str) else Scalar(value)


def activation_cases(a: Activation) -> Iterator[Case]:
    """Cases of <name>, <name>_ and <name>.out: floating dtypes, others raise."""
    op, op_in, op_out = a.name, f"{a.name}_", f"{a.name}.out"

    def fn(d, shape, layout="contig", vals=None, out=None, **over):
        def build(r):
            args = [("self", r.t(d, shape, layout, vals))]
            args += [(k, _arg(over.get(k, v))) for k, v in a.extra]
            if out is not None:
                args.append(("out", r.t(*out)))
            return args

        return build

    def tol(d):
        return (a.tol or TOL)[d] if a.approximate else None

    def special(d):
        return [v for v in SPECIAL if not (a.name == "gelu" and d == F32 and v == INF)]

    for d in ALL7:
        n = dn(d)
        if not d.is_floating_point:
            err = f"\"{a.kernel}\" not implemented for '{ATEN[d]}'"
            yield Case(op, n, fn(d, (2, 3)), error=err)
            yield Case(op_in, f"{n}_inplace", fn(d, (2, 3)), error=err)
            yield Case(op_out, f"{n}_out", fn(d, (2, 3), out=(d, (2, 3))), error=err)
            continue
        yield Case(op, n, fn(d, (2, 3)), tol=tol(d))
        yield Case(op, f"{n}_noncontig", fn(d, (3, 4), "T"), tol=tol(d))
        yield Case(
            op, f"{n}_special_values", fn(d, (len(special(d)),), vals=special(d)), tol=tol(d)
        )
        yield Case(op_in, f"{n}_inplace", fn(d, (2, 3)), result="self", tol=tol(d))
        yield Case(op_out, f"{n}_out", fn(d, (2, 3), out=(d, (2, 3))), result="out", tol=tol(d))
    # Runs long enough for the kernels' vector loops (8 float32 / 4 float64 lanes) and a tail.
    yield Case(op, "float32_long_run", fn(F32, (5, 9)), tol=tol(F32))
    yield Case(op, "float64_long_run", fn(F64, (3, 7)), tol=tol(F64))
    yield Case(op, "float32_step", fn(F32, (2, 5), "step"), tol=tol(F32))
    yield Case(op, "float32_expanded", fn(F32, (3, 4), "expand:1,4"), tol=tol(F32))
    yield Case(op, "float32_size0", fn(F32, (0, 3)))
    yield Case(op, "float32_size1", fn(F32, (1,)), tol=tol(F32))
    yield Case(op, "float64_zerodim", fn(F64, (), vals=-0.75), tol=tol(F64))
    yield Case(
        op_in, "float32_inplace_noncontig", fn(F32, (3, 4), "T"), result="self", tol=tol(F32)
    )
    yield Case(
        op_in, "float32_inplace_expanded_error", fn(F32, (2, 3), "expand:3"), error=EXPANDED_ERROR
    )
    yield Case(
        op_out, "float32_out_resize", fn(F32, (2, 3), out=(F32, (0,))), result="out", tol=tol(F32)
    )
    nc = F64 if a.name == "gelu" else F32
    yield Case(
        op_out,
        f"{dn(nc)}_out_noncontig",
        fn(nc, (2, 3), out=(nc, (2, 3), "T")),
        result="out",
        tol=tol(nc),
    )
    yield Case(
        op_out,
        "float32_into_float64_out_error",
        fn(F32, (2, 3), out=(F64, (2, 3))),
        error="Found dtype Double but expected Float",
    )
    if a.name == "elu":
        # alpha, scale and input_scale apart (SELU's constants, a negative alpha).
        selu = {"alpha": 1.6732632423543772, "scale": 1.0507009873554805}
        for d in (F32, F64):
            yield Case(op, f"{dn(d)}_selu", fn(d, (3, 4), **selu), tol=tol(d))
        yield Case(
            op,
            "float32_input_scale",
            fn(F32, (len(SPECIAL),), vals=SPECIAL, alpha=0.5, input_scale=2.0),
            tol=tol(F32),
        )
        yield Case(
            op_in,
            "float64_inplace_negative_alpha",
            fn(F64, (2, 5), alpha=-0.5),
            result="self",
            tol=tol(F64),
        )
        yield Case(
            op_out,
            "float32_out_scales",
            fn(F32, (2, 3), out=(F32, (0,)), alpha=2.0, scale=0.5, input_scale=1.5),
            result="out",
            tol=tol(F32),
        )
    if a.name == "gelu":
        for d in (F32, F64):
            yield Case(op, f"{dn(d)}_tanh", fn(d, (2, 3), approximate="tanh"), tol=tol(d))
            yield Case(
                op,
                f"{dn(d)}_tanh_special_values",
                fn(d, (len(SPECIAL),), vals=SPECIAL, approximate="tanh"),
                tol=tol(d),
            )
        yield Case(
            op_in,
            "float32_inplace_tanh",
            fn(F32, (2, 3), approximate="tanh"),
            result="self",
            tol=tol(F32),
        )
        yield Case(
            op_out,
            "float64_out_tanh",
            fn(F64, (2, 3), out=(F64, (2, 3)), approximate="tanh"),
            result="out",
            tol=tol(F64),
        )
        yield Case(
            op,
            "bad_approximate_error",
            fn(F32, (2, 3), approximate="erf"),
            error="approximate argument must be either none or tanh.",
        )
    if a.name == "leaky_relu":
        for name, slope in (
            ("slope_quarter", 0.25),
            ("slope_zero", 0.0),
            ("slope_negative", -2.0),
            ("slope_int", 2),
            ("slope_bool", True),
            ("slope_large", 3.5),
        ):
            yield Case(op, f"float32_{name}", fn(F32, (2, 3), negative_slope=slope))
        yield Case(
            op,
            "float64_special_values_slope",
            fn(F64, (len(SPECIAL),), vals=SPECIAL, negative_slope=0.5),
        )
        yield Case(
            op_in, "float64_inplace_slope", fn(F64, (2, 3), negative_slope=-0.5), result="self"
        )


def hardtanh_cases() -> Iterator[Case]:
    """Cases of hardtanh, hardtanh_ and hardtanh.out (integral bounds for integral tensors)."""
    H, H_in, H_out = "hardtanh", "hardtanh_", "hardtanh.out"

    def fn(d, shape, lo=-1, hi=1, layout="contig", vals=None, out=None, rng=None):
        def build(r):
            args = [
                ("self", r.t(d, shape, layout, vals, rng)),
                ("min_val", Scalar(lo)),
                ("max_val", Scalar(hi)),
            ]
            if out is not None:
                args.append(("out", r.t(*out)))
            return args

        return build

    for d in ALL7:
        n = dn(d)
        if d == B:
            for o, extra in ((H, {}), (H_in, {}), (H_out, {"out": (B, (2, 3))})):
                yield Case(
                    o,
                    n + ("" if o == H else "_variant"),
                    fn(d, (2, 3), **extra),
                    error="Bool inputs not supported for hardtanh",
                )
            continue
        lo = 0 if d == U8 else -1
        yield Case(H, n, fn(d, (2, 3), lo, 2, rng=(-3, 3) if d != U8 else (0, 5)))
        yield Case(H, f"{n}_noncontig", fn(d, (3, 4), lo, 1, "T"))
        yield Case(H_in, f"{n}_inplace", fn(d, (2, 3), lo, 3), result="self")
        yield Case(H_out, f"{n}_out", fn(d, (2, 3), lo, 3, out=(d, (2, 3))), result="out")
    yield Case(
        H,
        "uint8_default_bounds_error",
        fn(U8, (2, 3)),
        error="cannot do hardtanh on an unsigned type with negative limits",
    )
    yield Case(H, "int64_double_bounds_truncate", fn(I64, (2, 3), -1.5, 2.7, rng=(-4, 4)))
    yield Case(H, "float32_double_bounds", fn(F32, (2, 3), -0.75, 1.25))
    yield Case(H, "float32_int_bounds", fn(F32, (2, 3), -2, 2))
    yield Case(H, "float32_min_above_max", fn(F32, (2, 3), 2.0, -2.0))
    yield Case(
        H,
        "float64_special_values",
        fn(F64, (7,), -0.5, 0.5, vals=[NAN, INF, -INF, -0.0, 0.0, 0.25, -3.0]),
    )
    yield Case(H, "float32_nan_bound", fn(F32, (3,), NAN, 1.0))
    yield Case(
        H,
        "int8_out_of_range_bound_error",
        fn(I8, (3,), -1000, 1),
        error="value cannot be converted to type int8_t without overflow",
    )
    yield Case(H, "float32_step", fn(F32, (2, 5), layout="step"))
    yield Case(H, "float32_expanded", fn(F32, (3, 4), layout="expand:1,4"))
    yield Case(H, "float32_size0", fn(F32, (0, 3)))
    yield Case(H, "int64_size1", fn(I64, (1,)))
    yield Case(H, "float64_zerodim", fn(F64, (), vals=-2.5))
    yield Case(H_in, "float32_inplace_noncontig", fn(F32, (3, 4), layout="T"), result="self")
    yield Case(
        H_in,
        "float32_inplace_expanded_error",
        fn(F32, (2, 3), layout="expand:3"),
        error=EXPANDED_ERROR,
    )
    yield Case(H_out, "float32_out_resize", fn(F32, (2, 3), out=(F32, (0,))), result="out")
    yield Case(
        H_out, "float32_out_noncontig", fn(F32, (2, 3), out=(F32, (2, 3), "T")), result="out"
    )
    yield Case(
        H_out,
        "int64_into_float64_out_error",
        fn(I64, (2, 3), out=(F64, (2, 3))),
        error="Found dtype Double but expected Long",
    )


def clamp_cases() -> Iterator[Case]:
    """Cases of clamp, clamp_ and clamp.out (Scalar? bounds, promoted as numbers)."""
    C, C_in, C_out = "clamp", "clamp_", "clamp.out"

    def fn(d, shape, lo=None, hi=None, layout="contig", vals=None, out=None, rng=None):
        def build(r):
            args = [
                ("self", r.t(d, shape, layout, vals, rng)),
                ("min", NONE if lo is None else Scalar(lo)),
                ("max", NONE if hi is None else Scalar(hi)),
            ]
            if out is not None:
                args.append(("out", r.t(*out)))
            return args

        return build

    for d in ALL7:
        n = dn(d)
        if d == B:
            yield Case(
                C,
                f"{n}_both",
                fn(d, (2, 3), False, True),
                error="\"clamp_scalar_cpu\" not implemented for 'Bool'",
            )
            yield Case(
                C,
                f"{n}_min",
                fn(d, (2, 3), True),
                error="\"clamp_min_scalar_cpu\" not implemented for 'Bool'",
            )
            yield Case(
                C,
                f"{n}_max",
                fn(d, (2, 3), None, False),
                error="\"clamp_max_scalar_cpu\" not implemented for 'Bool'",
            )
            yield Case(C, f"{n}_int_bound_promotes", fn(d, (2, 3), 0, 1))
            continue
        lo, hi = (1, 3) if d == U8 else (-1, 2)
        yield Case(C, f"{n}_both", fn(d, (2, 3), lo, hi))
        yield Case(C, f"{n}_min", fn(d, (2, 3), lo))
        yield Case(C, f"{n}_max", fn(d, (2, 3), None, hi))
        yield Case(C, f"{n}_noncontig", fn(d, (3, 4), lo, hi, "T"))
        yield Case(C_in, f"{n}_inplace", fn(d, (2, 3), lo, hi), result="self")
        yield Case(C_out, f"{n}_out", fn(d, (2, 3), lo, hi, out=(d, (2, 3))), result="out")
    yield Case(
        C,
        "no_bounds_error",
        fn(F32, (2, 3)),
        error="torch.clamp: At least one of 'min' or 'max' must not be None",
    )
    yield Case(C, "int64_double_min_promotes", fn(I64, (2, 3), 1.5))
    yield Case(C, "int32_double_max_promotes", fn(I32, (2, 3), None, -0.5))
    yield Case(C, "uint8_negative_min_wraps", fn(U8, (4,), -1, vals=[0, 1, 254, 255]))
    yield Case(
        C,
        "int8_out_of_range_min_error",
        fn(I8, (3,), -1000, 5),
        error="value cannot be converted to type int8_t without overflow",
    )
    yield Case(C, "float32_min_above_max", fn(F32, (2, 3), 1.0, -1.0))
    yield Case(
        C,
        "float64_special_values",
        fn(F64, (7,), -0.5, 0.5, vals=[NAN, INF, -INF, -0.0, 0.0, 0.25, -3.0]),
    )
    yield Case(
        C, "float32_special_values_min", fn(F32, (5,), -0.5, vals=[NAN, INF, -INF, -0.0, -3.0])
    )
    yield Case(C, "float32_nan_min_fills_nan", fn(F32, (3,), NAN, 1.0))
    yield Case(C, "int64_nan_max_fills_nan", fn(I64, (3,), 0, NAN))
    yield Case(C, "float32_inf_bounds", fn(F32, (3,), -INF, INF, vals=[NAN, 1.0, -INF]))
    yield Case(C, "float32_step", fn(F32, (2, 5), -1, 1, "step"))
    yield Case(C, "float32_expanded", fn(F32, (3, 4), 0.5, None, "expand:1,4"))
    yield Case(C, "float32_size0", fn(F32, (0, 3), 0))
    yield Case(C, "int64_size1", fn(I64, (1,), None, 0))
    yield Case(C, "float64_zerodim", fn(F64, (), -1, 1, vals=2.5))
    yield Case(C, "int64_zerodim_double_bound", fn(I64, (), 0.5, None, vals=0))
    yield Case(
        C_in,
        "int64_inplace_double_error",
        fn(I64, (2, 3), 2.5),
        error="result type Float can't be cast to the desired output type long int",
    )
    yield Case(C_in, "float32_inplace_noncontig", fn(F32, (3, 4), -1, 1, "T"), result="self")
    yield Case(
        C_in,
        "float32_inplace_expanded_error",
        fn(F32, (2, 3), -1, 1, "expand:3"),
        error=EXPANDED_ERROR,
    )
    yield Case(C_out, "float32_out_resize", fn(F32, (2, 3), 0, out=(F32, (0,))), result="out")
    yield Case(
        C_out,
        "float32_out_noncontig",
        fn(F32, (2, 3), None, 0, out=(F32, (2, 3), "T")),
        result="out",
    )
    yield Case(
        C_out,
        "int64_double_bound_into_float32_out",
        fn(I64, (2, 3), 0.5, out=(F32, (2, 3))),
        result="out",
    )
    yield Case(
        C_out,
        "int64_into_float64_out_error",
        fn(I64, (2, 3), 0, 1, out=(F64, (2, 3))),
        error="Found dtype Double but expected Long",
    )


FAMILIES = [
    FamilyInfo("relu", ops=("relu", "relu_"), sample_inputs=relu_cases),
    *[
        FamilyInfo(
            a.name,
            ops=(a.name, f"{a.name}_", f"{a.name}.out"),
            sample_inputs=partial(activation_cases, a),
        )
        for a in ACTIVATIONS
    ],
    FamilyInfo(
        "hardtanh", ops=("hardtanh", "hardtanh_", "hardtanh.out"), sample_inputs=hardtanh_cases
    ),
    FamilyInfo("clamp", ops=("clamp", "clamp_", "clamp.out"), sample_inputs=clamp_cases),
]
