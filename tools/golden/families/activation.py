"""Unary activation ops: relu and its inplace variant relu_."""

from __future__ import annotations

from typing import Iterator

from golden_format import ALL7, B, F32, F64, I8, I32, I64, Case, FamilyInfo, dn


def relu_cases() -> Iterator[Case]:
    """Cases of relu and relu_ (bool raises)."""

    def fn(d, shape, layout="contig", vals=None):
        return lambda r: [("self", r.t(d, shape, layout, vals))]

    for d in ALL7:
        n = dn(d)
        err = "Boolean inputs not supported for relu" if d == B else None
        yield Case("relu", n, fn(d, (2, 3)), error=err)
        yield Case("relu_", f"{n}_inplace", fn(d, (2, 3)), error=err,
                   result=None if err else "self")
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
    yield Case("relu_", "float32_inplace_special_values", fn(F32, (7,), vals=special),
               result="self")


FAMILIES = [
    FamilyInfo("relu", ops=("relu", "relu_"), sample_inputs=relu_cases),
]
