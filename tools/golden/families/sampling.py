"""grid_sampler_2d: input [N, C, H, W] sampled at grid [N, H_out, W_out, 2] points in
[-1, 1] coordinates (bilinear 0, nearest 1, bicubic 2; padding zeros 0, border 1,
reflection 2; align_corners), float32 and float64 only, as PyTorch's CPU kernel.

The grids of the exact cases are multiples of 1/4, so the sampling points fall on pixel
centers, edges and halfway points (nearest rounds those half to even); the `_randn` cases
draw normal grid points (tolerance compare: interpolation weights round).
"""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    F32,
    F64,
    TORCH_MESSAGE,
    Bool,
    Case,
    FamilyInfo,
    Int,
    dn,
)

GS = "grid_sampler_2d"
MODES = {0: "bilinear", 1: "nearest", 2: "bicubic"}
PADDINGS = {0: "zeros", 1: "border", 2: "reflection"}


def grid_sampler_cases() -> Iterator[Case]:
    """Cases of grid_sampler_2d: every mode, padding and align_corners, layouts, sizes."""

    def fn(
        d,
        shape,
        gshape,
        mode=0,
        padding=0,
        align=False,
        layout="contig",
        glayout="contig",
        gd=None,
        randn=False,
        span=1.5,
    ):
        def build(r):
            g = gd or d
            grid = (
                r.t(g, gshape, glayout, randn=True)
                if randn
                else r.t(g, gshape, glayout, rng=(-span, span) if g.is_floating_point else None)
            )
            return [
                ("input", r.t(d, shape, layout)),
                ("grid", grid),
                ("interpolation_mode", Int(mode)),
                ("padding_mode", Int(padding)),
                ("align_corners", Bool(align)),
            ]

        return build

    for d in ALL7:
        yield Case(GS, dn(d), fn(d, (2, 2, 3, 4), (2, 2, 3, 2)), error=TORCH_MESSAGE)
    for mode, m in MODES.items():
        for padding, p in PADDINGS.items():
            for align in (False, True):
                a = "align" if align else "noalign"
                yield Case(
                    GS,
                    f"float32_{m}_{p}_{a}",
                    fn(F32, (1, 2, 3, 4), (1, 3, 4, 2), mode, padding, align),
                )
                yield Case(
                    GS,
                    f"float64_{m}_{p}_{a}_randn",
                    fn(F64, (2, 2, 4, 3), (2, 3, 2, 2), mode, padding, align, randn=True),
                )
            yield Case(
                GS,
                f"float32_{m}_{p}_far_randn",
                fn(F32, (1, 1, 3, 5), (1, 4, 4, 2), mode, padding, False, span=3.75, randn=True),
            )
            yield Case(
                GS,
                f"float32_{m}_{p}_far",
                fn(F32, (1, 1, 4, 3), (1, 4, 4, 2), mode, padding, True, span=4),
            )
    yield Case(GS, "float32_bicubic_randn", fn(F32, (1, 3, 5, 5), (1, 4, 3, 2), 2, randn=True))
    yield Case(GS, "float32_noncontig_T", fn(F32, (2, 3, 3, 4), (2, 2, 2, 2), layout="T"))
    yield Case(
        GS, "float32_noncontig_grid_step", fn(F32, (2, 2, 3, 4), (2, 2, 3, 2), 1, glayout="step")
    )
    yield Case(
        GS,
        "float64_channels_last",
        fn(F64, (2, 3, 3, 4), (2, 2, 2, 2), 2, 1, layout="channels_last"),
    )
    yield Case(GS, "float32_size0_batch", fn(F32, (0, 2, 3, 4), (0, 2, 2, 2)))
    yield Case(GS, "float32_size0_channels", fn(F32, (2, 0, 3, 4), (2, 2, 2, 2)))
    yield Case(GS, "float32_size0_grid", fn(F32, (2, 2, 3, 4), (2, 0, 2, 2)))
    for mode, m in MODES.items():
        yield Case(
            GS,
            f"float32_{m}_size1_reflection_align",
            fn(F32, (1, 1, 1, 1), (1, 2, 2, 2), mode, 2, True),
        )
        yield Case(
            GS, f"float32_{m}_size1_zeros", fn(F32, (1, 1, 1, 1), (1, 2, 2, 2), mode, 0, False)
        )
    yield Case(
        GS,
        "grid_last_dim_error",
        fn(F32, (2, 2, 3, 4), (2, 2, 3, 1)),
        error="grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes [2, 2, 3, 1]",
    )
    yield Case(
        GS,
        "batch_error",
        fn(F32, (2, 2, 3, 4), (1, 2, 3, 2)),
        error="grid_sampler(): expected grid and input to have same batch size, but got input with sizes [2, 2, 3, 4] and grid with sizes [1, 2, 3, 2]",
    )
    yield Case(
        GS,
        "empty_spatial_error",
        fn(F32, (2, 2, 0, 4), (2, 2, 3, 2)),
        error="grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes [2, 2, 0, 4] with dimension 2 being empty",
    )
    yield Case(
        GS,
        "input_5d_error",
        fn(F32, (2, 2, 3, 4, 2), (2, 2, 3, 2)),
        error="grid_sampler(): expected grid to have size 3 in last dimension",
    )
    yield Case(GS, "input_3d_error", fn(F32, (2, 4, 3), (2, 2, 3, 1)), error=TORCH_MESSAGE)
    yield Case(
        GS, "grid_float64_error", fn(F32, (2, 2, 3, 4), (2, 2, 3, 2), gd=F64), error=TORCH_MESSAGE
    )
    yield Case(
        GS,
        "grid_float32_input_float64_error",
        fn(F64, (2, 2, 3, 4), (2, 2, 3, 2), gd=F32),
        error=TORCH_MESSAGE,
    )


FAMILIES = [
    FamilyInfo("grid_sampler", ops=(GS,), sample_inputs=grid_sampler_cases, broadcast="input"),
]
