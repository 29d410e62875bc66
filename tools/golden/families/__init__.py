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

from families import (activation, binary, convolution, copy_fill, factory, linalg,
                      normalization, pooling, reduction, shape, softmax, upsample)

FAMILIES = [
    *binary.FAMILIES,       # add, mul
    *activation.FAMILIES,   # relu
    *reduction.FAMILIES,    # sum
    *linalg.FAMILIES,       # mm, addmm, linear
    *upsample.FAMILIES,     # upsample_nearest
    *shape.FAMILIES,        # cat, view, permute
    *factory.FAMILIES,      # zeros, empty
    *copy_fill.FAMILIES,    # copy, fill
    *softmax.FAMILIES,      # _softmax, _log_softmax
    *normalization.FAMILIES,  # native_layer_norm, _native_batch_norm_legit_no_training
    *pooling.FAMILIES,      # max_pool2d_with_indices, avg_pool2d, adaptive_avg_pool2d
    *convolution.FAMILIES,  # convolution
]

_names = [f.name for f in FAMILIES]
assert len(_names) == len(set(_names)), f"two families write one file: {_names}"
