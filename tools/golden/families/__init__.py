"""The operator families of the golden files, as OpInfo-style tables.

Each module below holds one group of ops: its case generators and a `FAMILIES` list of
`golden_format.FamilyInfo` records, one per .golden file:

    FamilyInfo("relu", ops=("relu", "relu_"), sample_inputs=relu_cases)

`name` is the file (tests/golden/data/relu.golden), `ops` the aten overloads its cases call,
and `sample_inputs` a generator of `golden_format.Case`s (sample inputs, and error inputs
with `error="<substring of torch's message>"`), in file order. Adding an operator is one
generator plus one entry in its module's FAMILIES; a new module is also listed below.
FAMILIES here is the registry that tools/golden/make_golden.py writes, one file per entry.
"""

from __future__ import annotations

from families import (
    activation,
    arithmetic,
    binary,
    comparison,
    convolution,
    copies,
    copy_fill,
    embedding,
    factory,
    linalg,
    normalization,
    pooling,
    reduction,
    shape,
    softmax,
    unary,
    upsample,
    views,
)

FAMILIES = [
    *binary.FAMILIES,  # add, mul
    *arithmetic.FAMILIES,  # sub, div, the Scalar overloads of add/sub/mul/div
    *comparison.FAMILIES,  # eq, ne, lt, le, gt, ge, logical_not/and/or, where
    *unary.FAMILIES,  # neg, abs, exp, log, sqrt, rsqrt, sigmoid, tanh, pow
    *activation.FAMILIES,  # relu, gelu, silu, hardsigmoid, hardswish, leaky_relu, hardtanh,
    # clamp
    *reduction.FAMILIES,  # sum, mean, amax, amin, argmax, any
    *linalg.FAMILIES,  # mm, bmm, addmm, linear
    *upsample.FAMILIES,  # upsample_nearest
    *shape.FAMILIES,  # cat, view, permute
    *views.FAMILIES,  # _unsafe_view, reshape, expand, alias, squeeze, unsqueeze, slice,
    # select, split, split_with_sizes
    *factory.FAMILIES,  # zeros, empty, full, ones, *_like, arange
    *copy_fill.FAMILIES,  # copy, fill
    *copies.FAMILIES,  # clone, _to_copy, constant_pad_nd
    *embedding.FAMILIES,  # embedding
    *softmax.FAMILIES,  # _softmax, _log_softmax
    *normalization.FAMILIES,  # native_layer_norm, _native_batch_norm_legit_no_training
    *pooling.FAMILIES,  # max_pool2d_with_indices, avg_pool2d, adaptive_avg_pool2d
    *convolution.FAMILIES,  # convolution
]

_names = [f.name for f in FAMILIES]
assert len(_names) == len(set(_names)), f"two families write one file: {_names}"
