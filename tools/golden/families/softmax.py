"""Softmax: _softmax and _log_softmax (half_to_float=False; float32 and float64 only).

Their values are inexact (exp and log), so every floating case draws normal values and
ends in `_randn` (compared with a tolerance); size-1 and empty inputs are exact.
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import ALL7, F32, F64, I8, I32, I64, U8, B, Bool, Case, FamilyInfo, Int, dn

NYI = {I64: "Long", I32: "Int", I8: "Char", U8: "Byte", B: "Bool"}


def softmax_cases() -> Iterator[Case]:
    """Cases of _softmax and _log_softmax: every dim, layouts, sizes 0 and 1, errors."""

    def fn(d, shape, dim, layout="contig", h2f=False, randn=True):
        return lambda r: [
            ("self", r.t(d, shape, layout, randn=randn and d.is_floating_point)),
            ("dim", Int(dim)),
            ("half_to_float", Bool(h2f)),
        ]

    for op, kernel in (("_softmax", "softmax"), ("_log_softmax", "log_softmax")):
        for d in ALL7:
            n = dn(d)
            if d in NYI:
                yield Case(
                    op,
                    f"{n}_lastdim",
                    fn(d, (2, 3), 1),
                    error=f"\"{kernel}_lastdim_kernel_impl\" not implemented for '{NYI[d]}'",
                )
                yield Case(
                    op,
                    f"{n}_dim0",
                    fn(d, (2, 3), 0),
                    error=f"\"{kernel}_kernel_impl\" not implemented for '{NYI[d]}'",
                )
            else:
                yield Case(op, f"{n}_lastdim_randn", fn(d, (3, 17), 1))
                yield Case(op, f"{n}_dim0_randn", fn(d, (3, 4, 5), 0))
                yield Case(op, f"{n}_middle_dim_randn", fn(d, (2, 3, 4), 1))
                yield Case(op, f"{n}_neg_dim_randn", fn(d, (2, 3, 4), -1))
        yield Case(op, "float32_1d_randn", fn(F32, (11,), 0))
        yield Case(op, "float32_noncontig_T_randn", fn(F32, (3, 5), 1, "T"))
        yield Case(op, "float32_noncontig_T_dim0_randn", fn(F32, (3, 5), 0, "T"))
        yield Case(op, "float64_noncontig_step_randn", fn(F64, (2, 3, 4), 2, "step"))
        yield Case(op, "float32_channels_last_randn", fn(F32, (2, 3, 2, 2), 1, "channels_last"))
        yield Case(op, "float32_expanded_randn", fn(F32, (3, 4), 1, "expand:1,4"))
        yield Case(op, "float32_size0", fn(F32, (0, 3), 1))
        yield Case(op, "float32_size0_reduced_dim", fn(F32, (3, 0), 1))
        yield Case(op, "float32_size1", fn(F32, (1,), 0, randn=False))
        yield Case(op, "float32_reduce_size1", fn(F32, (4, 1), 1, randn=False))
        yield Case(op, "float32_zero_dim", fn(F32, (), 0, randn=False))
        yield Case(op, "float64_zero_dim_neg", fn(F64, (), -1, randn=False))
        yield Case(
            op,
            "dim_out_of_range_error",
            fn(F32, (2, 3), 2),
            error="Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        )
        yield Case(
            op,
            "dim_out_of_range_neg_error",
            fn(F32, (2, 3), -3),
            error="Dimension out of range (expected to be in range of [-2, 1], but got -3)",
        )
        yield Case(
            op,
            "half_to_float_error",
            fn(F32, (2, 3), 1, h2f=True),
            error="softmax with half to float conversion is not supported on CPU",
        )


FAMILIES = [
    FamilyInfo("softmax", ops=("_softmax", "_log_softmax"), sample_inputs=softmax_cases),
]
