"""p-norm distances: _cdist_forward (each row of x1 with each row of x2, over broadcast batch
dimensions) and _pdist_forward (each pair of rows of one matrix), p = 0, 1, 2, inf and
others; float32 and float64. Sums of powers round, so the value cases draw normal values
(`_randn`, tolerance compare); p = 2 with more than 25 rows (or compute_mode 1) takes
PyTorch's matrix-product form, whose results move in the last bits (`tol`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from golden_format import (
    ALL7,
    F32,
    F64,
    I64,
    NONE,
    TORCH_MESSAGE,
    Case,
    FamilyInfo,
    Float,
    Int,
    dn,
)

CD, PD = "_cdist_forward", "_pdist_forward"
PS = {"p0": 0.0, "p1": 1.0, "p2": 2.0, "pinf": math.inf, "p3": 3.0, "p0_5": 0.5}
TOL = (1e-5, 1e-5)


def distance_cases() -> Iterator[Case]:
    """Cases of _cdist_forward and _pdist_forward."""

    def cd(d, s1, s2, p=2.0, mode=None, l1="contig", l2="contig", d2=None, randn=True):
        def build(r):
            rn = randn and d.is_floating_point
            return [
                ("x1", r.t(d, s1, l1, randn=rn)),
                ("x2", r.t(d2 or d, s2, l2, randn=rn)),
                ("p", Float(p)),
                ("compute_mode", NONE if mode is None else Int(mode)),
            ]

        return build

    def pd(d, shape, p=2.0, layout="contig", randn=True):
        return lambda r: [
            ("self", r.t(d, shape, layout, randn=randn and d.is_floating_point)),
            ("p", Float(p)),
        ]

    for d in ALL7:
        yield Case(CD, dn(d), cd(d, (3, 4), (2, 4), randn=False), error=TORCH_MESSAGE)
        yield Case(PD, dn(d), pd(d, (4, 3), randn=False), error=TORCH_MESSAGE)
    for d in (F32, F64):
        for name, p in PS.items():
            yield Case(CD, f"{dn(d)}_{name}_randn", cd(d, (3, 5), (4, 5), p), tol=TOL)
            yield Case(PD, f"{dn(d)}_{name}_randn", pd(d, (5, 4), p), tol=TOL)
        # Whole-number values: p = 0 counts the columns that differ.
        yield Case(CD, f"{dn(d)}_p0_ties", cd(d, (4, 3), (3, 3), 0.0, randn=False))
        yield Case(PD, f"{dn(d)}_p0_ties", pd(d, (4, 3), 0.0, randn=False))
        yield Case(CD, f"{dn(d)}_mm_rows_randn", cd(d, (27, 3), (4, 3)), tol=TOL)
        yield Case(CD, f"{dn(d)}_mm_mode1_randn", cd(d, (3, 4), (5, 4), mode=1), tol=TOL)
        yield Case(CD, f"{dn(d)}_mm_mode2_rows_randn", cd(d, (27, 3), (2, 3), mode=2), tol=TOL)
    yield Case(CD, "float32_batch_randn", cd(F32, (2, 3, 4), (2, 2, 4)), tol=TOL)
    yield Case(CD, "float32_batch_broadcast_randn", cd(F32, (2, 1, 3, 2), (4, 2, 2), 1.0), tol=TOL)
    yield Case(CD, "float64_batch_broadcast_mm_randn", cd(F64, (1, 30, 2), (3, 4, 2)), tol=TOL)
    yield Case(CD, "float32_noncontig_T_randn", cd(F32, (3, 4), (2, 4), 3.0, l1="T"), tol=TOL)
    yield Case(CD, "float32_noncontig_step_randn", cd(F32, (3, 4), (2, 4), 1.0, l2="step"), tol=TOL)
    yield Case(CD, "float32_size0_rows", cd(F32, (0, 4), (2, 4)))
    yield Case(CD, "float32_size0_columns", cd(F32, (3, 0), (2, 0)))
    yield Case(CD, "float32_size0_batch", cd(F32, (0, 3, 2), (1, 2, 2)))
    yield Case(CD, "float32_size1", cd(F32, (1, 1), (1, 1), randn=False))
    yield Case(PD, "float32_size1_rows", pd(F32, (1, 3)))
    yield Case(PD, "float32_size0_columns", pd(F32, (3, 0)))
    yield Case(PD, "float32_size0_rows", pd(F32, (0, 2)))
    yield Case(PD, "float32_big_randn", pd(F32, (9, 17), 2.0), tol=TOL)
    cd_errors = {
        "columns_error": cd(F32, (3, 3), (2, 4)),
        "x1_1d_error": cd(F32, (3,), (2, 3)),
        "x2_1d_error": cd(F32, (2, 3), (3,)),
        "negative_p_error": cd(F32, (3, 2), (2, 2), -1.0),
        "mode_error": cd(F32, (3, 2), (2, 2), mode=3),
        "x2_int64_error": cd(F32, (3, 2), (2, 2), d2=I64),
        "x2_float64_error": cd(F32, (3, 2), (2, 2), d2=F64),
        "batch_error": cd(F32, (2, 3, 2), (3, 2, 2)),
    }
    for cid, build in cd_errors.items():
        yield Case(CD, cid, build, error=TORCH_MESSAGE)
    yield Case(
        PD,
        "noncontig_error",
        pd(F32, (3, 4), layout="T"),
        error="_pdist_forward requires contiguous input",
    )


FAMILIES = [
    FamilyInfo("distance", ops=(CD, PD), sample_inputs=distance_cases, broadcast="x2"),
]
