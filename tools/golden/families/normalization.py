"""Normalization: native_layer_norm, batch norm in inference
(_native_batch_norm_legit_no_training) and in training (_native_batch_norm_legit, its
.no_stats overload, and _native_batch_norm_legit_functional, which also returns the updated
running statistics: the other two update them in place, which the runner does not see).

They return three tensors (`expect tuple 3`; the functional one five). Their values are inexact (a square root),
so the floating value cases draw normal values and end in `_randn` (tolerance compare).
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
    TORCH_MESSAGE,
    U8,
    B,
    Bool,
    Case,
    FamilyInfo,
    Float,
    Ints,
    dn,
)

NYI = {I64: "Long", I32: "Int", I8: "Char", U8: "Byte", B: "Bool"}


def layer_norm_cases() -> Iterator[Case]:
    """Cases of native_layer_norm: normalized shapes of 1 and 2 dims, weight/bias or not."""
    LN = "native_layer_norm"

    def fn(
        d,
        shape,
        norm,
        weight=True,
        bias=True,
        layout="contig",
        eps=1e-5,
        wd=None,
        wshape=None,
        bshape=None,
        randn=True,
    ):
        def build(r):
            rn = randn and d.is_floating_point
            w = r.t(wd or d, wshape or norm, randn=rn) if weight else NONE
            b = r.t(wd or d, bshape or norm, randn=rn) if bias else NONE
            return [
                ("input", r.t(d, shape, layout, randn=rn)),
                ("normalized_shape", Ints(norm)),
                ("weight", w),
                ("bias", b),
                ("eps", Float(eps)),
            ]

        return build

    for d in ALL7:
        n = dn(d)
        if d in NYI:
            yield Case(
                LN,
                n,
                fn(d, (2, 3), [3], weight=False, bias=False),
                error=f"\"LayerNormKernelImpl\" not implemented for '{NYI[d]}'",
            )
        else:
            yield Case(LN, f"{n}_affine_randn", fn(d, (4, 11), [11]))
            yield Case(LN, f"{n}_no_affine_randn", fn(d, (3, 5), [5], weight=False, bias=False))
            yield Case(LN, f"{n}_2d_normalized_randn", fn(d, (2, 3, 4), [3, 4]))
    yield Case(LN, "float32_weight_only_randn", fn(F32, (3, 6), [6], bias=False))
    yield Case(LN, "float32_bias_only_randn", fn(F32, (3, 6), [6], weight=False))
    yield Case(LN, "float32_all_dims_randn", fn(F32, (2, 3, 4), [2, 3, 4]))
    yield Case(LN, "float32_large_eps_randn", fn(F32, (2, 8), [8], eps=0.5))
    yield Case(LN, "float32_noncontig_T_randn", fn(F32, (4, 5), [5], layout="T"))
    yield Case(LN, "float64_noncontig_step_randn", fn(F64, (2, 3, 4), [4], layout="step"))
    yield Case(
        LN, "float32_channels_last_randn", fn(F32, (2, 3, 2, 2), [2, 2], layout="channels_last")
    )
    yield Case(LN, "float32_size0_rows", fn(F32, (0, 4), [4]))
    yield Case(LN, "float32_size0_normalized", fn(F32, (2, 0), [0]))
    yield Case(LN, "float32_size1", fn(F32, (1,), [1], randn=False))
    yield Case(
        LN,
        "empty_normalized_shape_error",
        fn(F32, (2, 3), [], weight=False, bias=False),
        error="Expected normalized_shape to be at least 1-dimensional",
    )
    yield Case(
        LN,
        "input_shape_error",
        fn(F32, (2, 3, 4), [3], weight=False, bias=False),
        error="Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 3, 4]",
    )
    yield Case(
        LN,
        "input_too_small_error",
        fn(F32, (4,), [2, 4], weight=False, bias=False),
        error="Given normalized_shape=[2, 4], expected input with shape [*, 2, 4]",
    )
    yield Case(
        LN,
        "weight_shape_error",
        fn(F32, (2, 4), [4], wshape=(3,)),
        error="Expected weight to be of same shape as normalized_shape, but got weight of shape [3] and normalized_shape = [4]",
    )
    yield Case(
        LN,
        "bias_shape_error",
        fn(F32, (2, 4), [4], bshape=(2, 2)),
        error="Expected bias to be of same shape as normalized_shape, but got bias of shape [2, 2] and normalized_shape = [4]",
    )
    yield Case(
        LN,
        "float64_weight_error",
        fn(F32, (2, 4), [4], wd=F64),
        error="mixed dtype (CPU): expect parameter to have scalar type of Float",
    )
    yield Case(
        LN,
        "float32_weight_float64_input_error",
        fn(F64, (2, 4), [4], wd=F32),
        error="mixed dtype (CPU): all inputs must share same datatype.",
    )


def batch_norm_cases() -> Iterator[Case]:
    """Cases of _native_batch_norm_legit_no_training (inference with running stats)."""
    BN = "_native_batch_norm_legit_no_training"

    def fn(d, shape, weight=True, bias=True, layout="contig", eps=1e-5, pd=None, randn=True):
        def build(r):
            rn = randn and d.is_floating_point
            c = shape[1] if len(shape) > 1 else shape[0]
            p = pd or d
            w = r.t(p, (c,), randn=rn) if weight else NONE
            b = r.t(p, (c,), randn=rn) if bias else NONE
            mean = r.t(p, (c,), randn=rn)
            var = r.t(p, (c,), rng=(0.25, 4) if p.is_floating_point else (0, 4))
            return [
                ("input", r.t(d, shape, layout, randn=rn)),
                ("weight", w),
                ("bias", b),
                ("running_mean", mean),
                ("running_var", var),
                ("momentum", Float(0.1)),
                ("eps", Float(eps)),
            ]

        return build

    for d in ALL7:
        n = dn(d)
        if d in NYI:
            yield Case(
                BN,
                n,
                fn(d, (2, 3, 4), weight=False, bias=False),
                error=f"\"batch_norm\" not implemented for '{NYI[d]}'",
            )
        else:
            yield Case(BN, f"{n}_affine_randn", fn(d, (2, 3, 4)))
            yield Case(BN, f"{n}_no_affine_randn", fn(d, (2, 3, 2, 2), weight=False, bias=False))
            yield Case(BN, f"{n}_2d_input_randn", fn(d, (4, 5)))
    yield Case(BN, "float32_weight_only_randn", fn(F32, (2, 3, 3), bias=False))
    yield Case(BN, "float32_bias_only_randn", fn(F32, (2, 3, 3), weight=False))
    yield Case(BN, "float32_large_eps_randn", fn(F32, (2, 2, 3), eps=0.5))
    yield Case(BN, "float32_channels_last_randn", fn(F32, (2, 3, 2, 2), layout="channels_last"))
    yield Case(BN, "float64_channels_last_randn", fn(F64, (2, 4, 1, 3), layout="channels_last"))
    yield Case(BN, "float32_noncontig_T_randn", fn(F32, (2, 3, 4), layout="T"))
    yield Case(BN, "float32_noncontig_step_randn", fn(F32, (2, 3, 4), layout="step"))
    yield Case(BN, "float32_5d_randn", fn(F32, (1, 2, 2, 2, 3)))
    yield Case(BN, "float32_size0_batch", fn(F32, (0, 3, 2)))
    yield Case(BN, "float32_size0_channels", fn(F32, (2, 0, 2)))
    yield Case(BN, "float32_size1_randn", fn(F32, (1, 1)))
    yield Case(
        BN,
        "input_1d_error",
        fn(F32, (3,)),
        error="Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    )
    yield Case(
        BN,
        "float64_params_error",
        fn(F32, (2, 3, 2), pd=F64),
        error="mixed dtype (CPU): expect parameter to have scalar type of Float",
    )
    yield Case(
        BN,
        "float32_params_float64_input_error",
        fn(F64, (2, 3, 2), pd=F32),
        error="mixed dtype (CPU): all inputs must share same datatype.",
    )


def batch_norm_training_cases() -> Iterator[Case]:
    """Cases of _native_batch_norm_legit (.no_stats, _functional) in training: the batch's
    mean and 1 / sqrt(biased variance + eps) per channel, the running statistics moved
    towards the mean and the unbiased variance; training=False uses the running ones."""
    BN, NS, FN = (
        "_native_batch_norm_legit",
        "_native_batch_norm_legit.no_stats",
        "_native_batch_norm_legit_functional",
    )

    def fn(
        d,
        shape,
        stats=True,
        weight=True,
        bias=True,
        layout="contig",
        training=True,
        momentum=0.1,
        eps=1e-5,
        pd=None,
    ):
        def build(r):
            rn = d.is_floating_point
            c = shape[1] if len(shape) > 1 else shape[0]
            p = pd or d
            args = [
                ("input", r.t(d, shape, layout, randn=rn)),
                ("weight", r.t(p, (c,), randn=rn) if weight else NONE),
                ("bias", r.t(p, (c,), randn=rn) if bias else NONE),
            ]
            if stats:
                args.append(("running_mean", r.t(p, (c,), randn=rn)))
                args.append(
                    ("running_var", r.t(p, (c,), rng=(0.25, 4) if p.is_floating_point else (0, 4)))
                )
            return args + [
                ("training", Bool(training)),
                ("momentum", Float(momentum)),
                ("eps", Float(eps)),
            ]

        return build

    for d in ALL7:
        n = dn(d)
        for op, stats in ((BN, True), (NS, False), (FN, True)):
            yield Case(op, f"{n}_randn", fn(d, (3, 2, 4), stats=stats), error=TORCH_MESSAGE)
    for op, stats in ((BN, True), (NS, False), (FN, True)):
        yield Case(op, "float32_no_affine_randn", fn(F32, (2, 3, 2, 2), stats, False, False))
        yield Case(op, "float64_2d_input_randn", fn(F64, (5, 3), stats))
        yield Case(
            op, "float32_channels_last_randn", fn(F32, (2, 3, 2, 2), stats, layout="channels_last")
        )
        yield Case(op, "float32_noncontig_T_randn", fn(F32, (2, 3, 4), stats, layout="T"))
        yield Case(op, "float64_noncontig_step_randn", fn(F64, (2, 3, 4), stats, layout="step"))
        yield Case(op, "float32_5d_randn", fn(F32, (2, 2, 1, 2, 3), stats))
        if op != FN:  # one value per channel: an unbiased variance of 0 / 0 (NaN)
            yield Case(op, "float32_one_per_channel_randn", fn(F32, (1, 3), stats))
            yield Case(op, "float32_size1_randn", fn(F32, (1, 1, 1), stats))
        yield Case(
            op,
            "float32_size0_error",
            fn(F32, (0, 3, 2), stats),
            error="input tensor must have at least one element, but got input_sizes = [0, 3, 2]",
        )
        yield Case(
            op,
            "input_1d_error",
            fn(F32, (3,), stats),
            error="Dimension out of range (expected to be in range of [-1, 0], but got 1)",
        )
        yield Case(
            op,
            "float64_params_error",
            fn(F32, (2, 3, 2), stats, pd=F64),
            error="mixed dtype (CPU): expect parameter to have scalar type of Float",
        )
    for op in (BN, FN):
        yield Case(op, "float32_eval_randn", fn(F32, (2, 3, 4), training=False))
        yield Case(op, "float64_momentum_half_randn", fn(F64, (4, 2, 3), momentum=0.5))
        yield Case(op, "float32_zero_eps_randn", fn(F32, (2, 2, 3), eps=0.0))
        yield Case(op, "float32_weight_only_randn", fn(F32, (3, 2, 2), bias=False))
        yield Case(op, "float32_eval_size0_batch", fn(F32, (0, 3, 2), training=False))
    yield Case(NS, "float32_bias_only_randn", fn(F32, (3, 2, 2), stats=False, weight=False))


FAMILIES = [
    FamilyInfo(
        "layer_norm",
        ops=("native_layer_norm",),
        sample_inputs=layer_norm_cases,
        broadcast="weight",
    ),
    FamilyInfo(
        "batch_norm",
        ops=("_native_batch_norm_legit_no_training",),
        sample_inputs=batch_norm_cases,
        broadcast="running_mean",
    ),
    FamilyInfo(
        "batch_norm_training",
        ops=(
            "_native_batch_norm_legit",
            "_native_batch_norm_legit.no_stats",
            "_native_batch_norm_legit_functional",
        ),
        sample_inputs=batch_norm_training_cases,
        broadcast="weight",
    ),
]
