"""Element-wise ops of core ATen run over every dtype, PyTorch deciding each case's fate.

One table row per op (functional, inplace and out= overloads; one file each): the
rounding ops, sign, reciprocal, bitwise_not, isnan and isinf (unary); the bitwise ops,
maximum and minimum, fmod and remainder, atan2, pow with a tensor exponent and
logical_xor (binary), plus the Scalar overloads and clamp.Tensor. Every case runs over
every dtype with `error=TORCH_MESSAGE`: where PyTorch refuses a dtype ("bitwise_and_cpu"
not implemented for 'Float'), or an inplace self cannot hold the result, the case
records PyTorch's message and the library must raise it too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

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
    Case,
    FamilyInfo,
    Int,
    Scalar,
    dn,
)
from golden_format import (
    case_args as _args,
)

NAN, INF = float("nan"), float("inf")
TOL = {F32: (2e-6, 1e-7), F64: (1e-14, 1e-300)}
SPECIAL = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 0.25, -3.75]
# Small integers, so that pow and the products of the bitwise ops stay in range.
SMALL = {I64: (-6, 6), I32: (-6, 6), I8: (-5, 5), U8: (0, 7)}


@dataclass(frozen=True)
class Pointwise:
    """One op: its overloads, and how its results and inputs are drawn."""

    name: str  # the file
    functional: str
    inplace: str | None
    out: str
    arity: int = 1
    float_result: bool = False  # integral and bool inputs give float32
    bool_result: bool = False  # the result is bool (isnan, logical_xor)
    transcendental: bool = False  # floating results carry a tolerance
    other_rng: dict = field(default_factory=dict)  # ranges of `other` by dtype
    special: tuple = tuple(SPECIAL)
    extra: Callable[[], Iterator[Case]] | None = None  # Scalar overloads and the like
    extra_ops: tuple[str, ...] = ()

    @property
    def ops(self) -> tuple[str, ...]:
        own = (self.functional, self.out) + ((self.inplace,) if self.inplace else ())
        return own + self.extra_ops


def _result_dtype(p: Pointwise, d):
    if p.bool_result:
        return B
    return F32 if p.float_result and not d.is_floating_point else d


def _tol(p: Pointwise, d):
    return TOL.get(_result_dtype(p, d)) if p.transcendental else None


def _arg_names(p: Pointwise) -> tuple[str, ...]:
    if p.functional.startswith("pow."):
        return ("self", "exponent")
    return ("self", "other")[: p.arity]


def _build(p, specs, out=None):
    """specs: (dtype, shape, layout, vals, rng) per input, in argument order."""

    def build(r):
        args = [(n, r.t(d, s, lay, v, rng)) for n, (d, s, lay, v, rng) in zip(_arg_names(p), specs)]
        if out is not None:
            args.append(("out", r.t(*out)))
        return args

    return build


def _spec(p, d, shape, layout="contig", vals=None, k=0):
    rng = p.other_rng.get(d) if k == 1 else None
    return (d, shape, layout, vals, rng if rng else SMALL.get(d))


def pointwise_cases(p: Pointwise) -> Iterator[Case]:
    """The functional, out= and inplace overloads over every dtype, layouts, sizes 0 and 1,
    special values; then the op's extra cases."""
    fn, op_in, op_out = p.functional, p.inplace, p.out
    E = TORCH_MESSAGE

    def same(d, shape, layout="contig", vals=None):
        return [_spec(p, d, shape, layout, vals, k) for k in range(p.arity)]

    for d in ALL7:
        n, rd, tol = dn(d), _result_dtype(p, d), _tol(p, d)
        yield Case(fn, n, _build(p, same(d, (2, 3))), error=E, tol=tol)
        yield Case(fn, f"{n}_noncontig", _build(p, same(d, (3, 4), "T")), error=E, tol=tol)
        yield Case(
            op_out,
            f"{n}_out",
            _build(p, same(d, (2, 3)), out=(rd, (2, 3))),
            error=E,
            result="out",
            tol=tol,
        )
        if op_in:
            yield Case(
                op_in, f"{n}_inplace", _build(p, same(d, (2, 3))), error=E, result="self", tol=tol
            )
        if p.arity == 2:
            yield Case(
                fn,
                f"{n}_broadcast",
                _build(p, [_spec(p, d, (3, 1, 4)), _spec(p, d, (2, 4), k=1)]),
                error=E,
                tol=tol,
            )
            yield Case(
                fn,
                f"{n}_step_expanded",
                _build(p, [_spec(p, d, (3, 4), "step"), _spec(p, d, (3, 4), "expand:1,4", k=1)]),
                error=E,
                tol=tol,
            )
    for d in (F32, F64):
        sp = list(p.special)
        if p.arity == 1:
            yield Case(
                fn,
                f"{dn(d)}_special_values",
                _build(p, same(d, (len(sp),), vals=sp)),
                error=E,
                tol=_tol(p, d),
            )
        else:
            # Every pair of special values.
            a = [x for x in sp for _ in sp]
            b = [y for _ in sp for y in sp]
            yield Case(
                fn,
                f"{dn(d)}_special_pairs",
                _build(p, [(d, (len(a),), "contig", a, None), (d, (len(b),), "contig", b, None)]),
                error=E,
                tol=_tol(p, d),
            )
    yield Case(fn, "float32_long_run", _build(p, same(F32, (5, 9))), tol=_tol(p, F32), error=E)
    yield Case(fn, "float64_long_run", _build(p, same(F64, (3, 7))), tol=_tol(p, F64), error=E)
    yield Case(fn, "int32_long_run", _build(p, same(I32, (5, 9))), error=E, tol=_tol(p, I32))
    yield Case(fn, "float32_size0", _build(p, same(F32, (0, 3))), error=E)
    yield Case(fn, "int64_size0", _build(p, same(I64, (0,))), error=E)
    yield Case(fn, "float32_size1", _build(p, same(F32, (1,))), tol=_tol(p, F32), error=E)
    yield Case(fn, "float64_zerodim", _build(p, same(F64, ())), tol=_tol(p, F64), error=E)
    yield Case(fn, "int64_zerodim", _build(p, same(I64, ())), tol=_tol(p, I64), error=E)
    yield Case(
        op_out,
        "float32_out_resize",
        _build(p, same(F32, (2, 3)), out=(_result_dtype(p, F32), (0,))),
        result="out",
        tol=_tol(p, F32),
        error=E,
    )
    yield Case(
        op_out,
        "float32_out_noncontig",
        _build(p, same(F32, (2, 3)), out=(_result_dtype(p, F32), (2, 3), "T")),
        result="out",
        tol=_tol(p, F32),
        error=E,
    )
    yield Case(
        op_out,
        "float32_into_int64_out",
        _build(p, same(F32, (2, 3)), out=(I64, (2, 3))),
        result="out",
        error=E,
    )
    yield Case(
        op_out,
        "int64_into_float32_out",
        _build(p, same(I64, (2, 3)), out=(F32, (2, 3))),
        result="out",
        error=E,
        tol=_tol(p, F32),
    )
    if op_in:
        yield Case(
            op_in,
            "float32_inplace_noncontig",
            _build(p, same(F32, (3, 4), "T")),
            result="self",
            tol=_tol(p, F32),
            error=E,
        )
        yield Case(
            op_in,
            "float32_inplace_expanded_error",
            _build(p, same(F32, (2, 3), "expand:3")),
            error="unsupported operation: more than one element of the written-to tensor",
        )
    if p.arity == 2:
        # Type promotion: mixed dtypes, and a 0-dim operand of a wider category or kind.
        for sd, od in ((I64, F32), (I32, I64), (U8, I8), (B, I32), (F32, F64)):
            yield Case(
                fn,
                f"{dn(sd)}_with_{dn(od)}",
                _build(p, [_spec(p, sd, (2, 3)), _spec(p, od, (2, 3), k=1)]),
                error=E,
                tol=_tol(p, F64 if F64 in (sd, od) else F32),
            )
        yield Case(
            fn,
            "float32_with_float64_zerodim",
            _build(p, [_spec(p, F32, (2, 3)), _spec(p, F64, (), k=1)]),
            error=E,
            tol=_tol(p, F32),
        )
        yield Case(
            fn,
            "int32_with_float64_zerodim",
            _build(p, [_spec(p, I32, (2, 3)), _spec(p, F64, (), k=1)]),
            error=E,
            tol=_tol(p, F64),
        )
        if op_in:
            yield Case(
                op_in,
                "float32_inplace_broadcast_error",
                _build(p, [_spec(p, F32, (3,)), _spec(p, F32, (2, 3), k=1)]),
                error="doesn't match the broadcast shape",
            )
            yield Case(
                op_in,
                "int64_inplace_with_float32",
                _build(p, [_spec(p, I64, (2, 3)), _spec(p, F32, (2, 3), k=1)]),
                result="self",
                error=E,
            )
    if p.extra is not None:
        yield from p.extra()


# ---------------------------------------------------------------------------------------
# Extra cases: the Scalar overloads, the integer division by zero, pow.Scalar, clamp.Tensor.


def _t(d, shape, vals=None, rng=None, layout="contig"):
    return lambda r: r.t(d, shape, layout, vals, rng if rng else SMALL.get(d))


def scalar_other_cases(name: str, scalars=(3, 2.5, True, -2)) -> Iterator[Case]:
    """`name`.Scalar, `name`_.Scalar and `name`.Scalar_out over every dtype and Scalar kind."""
    E = TORCH_MESSAGE
    for d in ALL7:
        for k, s in enumerate(scalars):
            sid = f"{dn(d)}_scalar{k}"
            yield Case(
                f"{name}.Scalar", sid, _args(("self", _t(d, (2, 3))), ("other", Scalar(s))), error=E
            )
            yield Case(
                f"{name}_.Scalar",
                f"{sid}_inplace",
                _args(("self", _t(d, (2, 3))), ("other", Scalar(s))),
                result="self",
                error=E,
            )
        yield Case(
            f"{name}.Scalar_out",
            f"{dn(d)}_out",
            _args(("self", _t(d, (2, 3))), ("other", Scalar(scalars[0])), ("out", _t(d, (2, 3)))),
            result="out",
            error=E,
        )


def scalar_self_cases(op: str, scalars=(3, 2.5, True, -2)) -> Iterator[Case]:
    """`op` (a Scalar_Tensor overload) over every dtype and Scalar kind."""
    for d in ALL7:
        for k, s in enumerate(scalars):
            yield Case(
                op,
                f"{dn(d)}_scalar{k}",
                _args(
                    ("self", Scalar(s)), ("other", _t(d, (2, 3), rng=(1, 5) if d != B else None))
                ),
                error=TORCH_MESSAGE,
            )


def division_cases(name: str) -> Iterator[Case]:
    """fmod and remainder: signs of dividend and divisor, and integer division by zero."""
    a, b = [7, -7, 7, -7, 0, 5, 6], [3, 3, -3, -3, 2, -1, 4]
    for d in (I64, I32, I8, F32, F64):
        yield Case(
            f"{name}.Tensor",
            f"{dn(d)}_signs",
            _args(("self", _t(d, (7,), a)), ("other", _t(d, (7,), b))),
        )
    for d in (I64, I32, I8, U8):
        yield Case(
            f"{name}.Tensor",
            f"{dn(d)}_by_zero_error",
            _args(("self", _t(d, (3,), [1, 2, 3])), ("other", _t(d, (3,), [1, 0, 2]))),
            error="ZeroDivisionError",
        )
    yield Case(
        f"{name}.Scalar",
        "int64_by_zero_error",
        _args(("self", _t(I64, (3,))), ("other", Scalar(0))),
        error="ZeroDivisionError",
    )
    yield Case(
        f"{name}.Scalar", "float32_by_zero", _args(("self", _t(F32, (3,))), ("other", Scalar(0.0)))
    )
    yield Case(
        f"{name}.Tensor",
        "int64_extremes",
        _args(
            ("self", _t(I64, (3,), [-(2**63), 2**63 - 1, -5])),
            ("other", _t(I64, (3,), [-1, -1, 2**63 - 1])),
        ),
    )


def fmod_extra() -> Iterator[Case]:
    yield from scalar_other_cases("fmod")
    yield from division_cases("fmod")


def remainder_extra() -> Iterator[Case]:
    yield from scalar_other_cases("remainder")
    yield from scalar_self_cases("remainder.Scalar_Tensor")
    yield from division_cases("remainder")


def bitwise_extra(name: str) -> Iterator[Case]:
    yield from scalar_other_cases(name, scalars=(3, True, -2, 2.5))
    yield from scalar_self_cases(f"{name}.Scalar_Tensor", scalars=(3, True, -2))
    yield Case(
        f"{name}.Tensor",
        "int64_extremes",
        _args(
            ("self", _t(I64, (3,), [-(2**63), 2**63 - 1, -1])),
            ("other", _t(I64, (3,), [-1, 2**62, 2**63 - 1])),
        ),
    )
    yield Case(
        f"{name}.Tensor",
        "uint8_extremes",
        _args(("self", _t(U8, (3,), [255, 170, 15])), ("other", _t(U8, (3,), [85, 255, 240]))),
    )


def pow_extra() -> Iterator[Case]:
    E = TORCH_MESSAGE
    # Integral negative exponents: 0, except for the bases 1 and -1.
    yield Case(
        "pow.Tensor_Tensor",
        "int64_negative_exponents",
        _args(
            ("self", _t(I64, (6,), [1, -1, -1, 2, -2, 0])),
            ("exponent", _t(I64, (6,), [-3, -3, -2, -1, -2, 2])),
        ),
    )
    yield Case(
        "pow.Tensor_Tensor",
        "int64_wraps",
        _args(("self", _t(I64, (2,), [3, -7])), ("exponent", _t(I64, (2,), [41, 25]))),
    )
    for d in ALL7:
        for k, s in enumerate((2, 2.5, True, 1, -1)):
            yield Case(
                "pow.Scalar",
                f"{dn(d)}_base{k}",
                _args(
                    ("self", Scalar(s)),
                    ("exponent", _t(d, (2, 3), rng=(0, 4) if d not in (B, F32, F64) else None)),
                ),
                error=E,
                tol=TOL[F64] if d == F64 else TOL[F32],
            )
    yield Case(
        "pow.Scalar",
        "float32_base1_nan_exponent",
        _args(("self", Scalar(1)), ("exponent", _t(F32, (3,), [NAN, INF, -1.0]))),
    )
    yield Case(
        "pow.Scalar_out",
        "float32_out",
        _args(("self", Scalar(2.0)), ("exponent", _t(F32, (2, 3))), ("out", _t(F32, (2, 3)))),
        result="out",
        tol=TOL[F32],
    )
    yield Case(
        "pow.Scalar_out",
        "int64_into_float64_out",
        _args(
            ("self", Scalar(3)), ("exponent", _t(I64, (2, 3), rng=(0, 4))), ("out", _t(F64, (0,)))
        ),
        result="out",
    )


def clamp_cases() -> Iterator[Case]:
    """clamp.Tensor, clamp_.Tensor and clamp.Tensor_out: both bounds, one, none."""
    E = TORCH_MESSAGE
    for d in ALL7:
        n = dn(d)
        lo = _t(d, (3,), rng=(-3, 0) if d != U8 else (0, 2))
        hi = _t(d, (2, 1), rng=(0, 3) if d != U8 else (3, 5))
        x = _t(d, (2, 3))
        yield Case(
            "clamp.Tensor", f"{n}_both", _args(("self", x), ("min", lo), ("max", hi)), error=E
        )
        yield Case(
            "clamp.Tensor", f"{n}_min", _args(("self", x), ("min", lo), ("max", NONE)), error=E
        )
        yield Case(
            "clamp.Tensor", f"{n}_max", _args(("self", x), ("min", NONE), ("max", hi)), error=E
        )
        yield Case(
            "clamp.Tensor_out",
            f"{n}_out",
            _args(("self", x), ("min", lo), ("max", hi), ("out", _t(d, (2, 3)))),
            result="out",
            error=E,
        )
        yield Case(
            "clamp_.Tensor",
            f"{n}_inplace",
            _args(("self", x), ("min", lo), ("max", hi)),
            result="self",
            error=E,
        )
    yield Case(
        "clamp.Tensor",
        "float32_nan",
        _args(
            ("self", _t(F32, (4,), [NAN, 1.0, 2.0, -5.0])),
            ("min", _t(F32, (4,), [0.0, NAN, 0.0, -1.0])),
            ("max", _t(F32, (4,), [1.0, 2.0, NAN, 1.0])),
        ),
    )
    yield Case(
        "clamp.Tensor",
        "float32_min_above_max",
        _args(
            ("self", _t(F32, (3,), [-1.0, 0.5, 3.0])),
            ("min", _t(F32, (), 2.0)),
            ("max", _t(F32, (), 1.0)),
        ),
    )
    yield Case(
        "clamp.Tensor",
        "int64_with_float32_bound",
        _args(("self", _t(I64, (2, 3))), ("min", _t(F32, (3,))), ("max", NONE)),
    )
    yield Case(
        "clamp.Tensor",
        "float32_size0",
        _args(("self", _t(F32, (0, 3))), ("min", _t(F32, (3,))), ("max", NONE)),
    )
    yield Case(
        "clamp.Tensor",
        "float32_noncontig",
        _args(("self", _t(F32, (3, 4), layout="T")), ("min", _t(F32, (4,))), ("max", NONE)),
    )
    yield Case(
        "clamp.Tensor",
        "no_bounds_error",
        _args(("self", _t(F32, (2,))), ("min", NONE), ("max", NONE)),
        error="torch.clamp: At least one of 'min' or 'max' must not be None",
    )
    yield Case(
        "clamp_.Tensor",
        "int64_inplace_float_bound_error",
        _args(("self", _t(I64, (2, 3))), ("min", _t(F32, (3,))), ("max", NONE)),
        error="result type Float can't be cast to the desired output type Long",
    )


def round_decimals_cases() -> Iterator[Case]:
    E = TORCH_MESSAGE
    for d in ALL7:
        for dec in (0, 2, -1):
            yield Case(
                "round.decimals",
                f"{dn(d)}_decimals{dec}".replace("-", "m"),
                lambda r, d=d, dec=dec: [
                    ("self", r.t(d, (2, 3), randn=True) if d.is_floating_point else r.t(d, (2, 3))),
                    ("decimals", Int(dec)),
                ],
                error=E,
            )
    yield Case(
        "round.decimals",
        "float64_ties",
        _args(("self", _t(F64, (5,), [0.125, 0.375, -0.625, 1.5, 25.0])), ("decimals", Int(2))),
    )
    yield Case(
        "round.decimals",
        "float32_ties_negative",
        _args(("self", _t(F32, (4,), [25.0, 35.0, -150.0, 149.0])), ("decimals", Int(-1))),
    )
    yield Case(
        "round_.decimals",
        "float32_inplace",
        _args(("self", _t(F32, (2, 3))), ("decimals", Int(1))),
        result="self",
    )
    yield Case(
        "round.decimals_out",
        "float64_out",
        _args(("self", _t(F64, (2, 3))), ("decimals", Int(1)), ("out", _t(F64, (2, 3)))),
        result="out",
    )


def _unary(name, **kw):
    return Pointwise(name, name, f"{name}_", f"{name}.out", **kw)


def _binary(name, overload="Tensor", **kw):
    if overload:
        return Pointwise(
            name,
            f"{name}.{overload}",
            f"{name}_.{overload}",
            f"{name}.{overload}_out",
            arity=2,
            **kw,
        )
    return Pointwise(name, name, f"{name}_", f"{name}.out", arity=2, **kw)


NONZERO = {I64: (1, 6), I32: (1, 6), I8: (1, 5), U8: (1, 7)}

POINTWISE = [
    _unary("floor"),
    _unary("ceil"),
    _unary(
        "round",
        extra=round_decimals_cases,
        extra_ops=("round.decimals", "round_.decimals", "round.decimals_out"),
    ),
    _unary("trunc"),
    _unary("sign"),
    _unary("reciprocal", float_result=True),
    _unary("bitwise_not"),
    Pointwise("isnan", "isnan", None, "isnan.out", bool_result=True),
    Pointwise("isinf", "isinf", None, "isinf.out", bool_result=True),
    *(
        _binary(
            n,
            extra=partial(bitwise_extra, n),
            extra_ops=(f"{n}.Scalar", f"{n}_.Scalar", f"{n}.Scalar_out", f"{n}.Scalar_Tensor"),
        )
        for n in ("bitwise_and", "bitwise_or", "bitwise_xor")
    ),
    Pointwise("maximum", "maximum", None, "maximum.out", arity=2),
    Pointwise("minimum", "minimum", None, "minimum.out", arity=2),
    _binary(
        "fmod",
        other_rng=NONZERO,
        extra=fmod_extra,
        extra_ops=("fmod.Scalar", "fmod_.Scalar", "fmod.Scalar_out"),
    ),
    _binary(
        "remainder",
        other_rng=NONZERO,
        extra=remainder_extra,
        extra_ops=(
            "remainder.Scalar",
            "remainder_.Scalar",
            "remainder.Scalar_out",
            "remainder.Scalar_Tensor",
        ),
    ),
    _binary("atan2", overload=None, float_result=True, transcendental=True),
    Pointwise(
        "pow_tensor",
        "pow.Tensor_Tensor",
        "pow_.Tensor",
        "pow.Tensor_Tensor_out",
        arity=2,
        transcendental=True,
        other_rng={I64: (0, 5), I32: (0, 5), I8: (0, 3), U8: (0, 3)},
        extra=pow_extra,
        extra_ops=("pow.Scalar", "pow.Scalar_out"),
    ),
    _binary("logical_xor", overload=None, bool_result=True),
]

FAMILIES = [
    FamilyInfo(
        p.name,
        ops=p.ops,
        sample_inputs=partial(pointwise_cases, p),
        broadcast="any" if p.arity == 2 else None,
    )
    for p in POINTWISE
] + [
    FamilyInfo(
        "clamp_tensor",
        ops=("clamp.Tensor", "clamp_.Tensor", "clamp.Tensor_out"),
        sample_inputs=clamp_cases,
        broadcast="any",
    )
]
