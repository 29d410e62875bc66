"""The operator families of the golden files, as OpInfo-style tables.

Each module below holds one group of ops: its case generators and a `FAMILIES` list of
`golden_format.FamilyInfo` records, one per .golden file:

    FamilyInfo("relu", ops=("relu", "relu_"), sample_inputs=relu_cases)

`name` is the file (tests/golden/data/relu.golden), `ops` the aten overloads its cases call,
and `sample_inputs` a generator of `golden_format.Case`s (sample inputs, and error inputs
with `error="<substring of torch's message>"`), in file order; `factory`, `broadcast` and
`size0` say what the cases must cover where that differs from the default (see
`FamilyInfo`). These entries are the one list of the families: make_golden.py writes each
entry's facts into its file's header (`family` lines), and the C++ test
(tests/golden/golden_format_test.cc) reads them from there. Adding an operator is one
generator plus one entry in its module's FAMILIES; a new module is also listed below.
FAMILIES here is the registry that tools/golden/make_golden.py writes, one file per entry.
"""

from __future__ import annotations

from families import (
    activation,
    arithmetic,
    binary,
    col2im,
    comparison,
    convolution,
    copies,
    copy_fill,
    distance,
    embedding,
    factory,
    indexing,
    linalg,
    normalization,
    padding,
    pointwise,
    pooling,
    pooling1d,
    pooling3d,
    random,
    reduction,
    sampling,
    scatter_reduce,
    scatter_sort,
    shape,
    softmax,
    statistics,
    sym_queries,
    unary,
    upsample,
    views,
)

FAMILIES = [
    *binary.FAMILIES,
    *arithmetic.FAMILIES,
    *comparison.FAMILIES,
    *unary.FAMILIES,
    *pointwise.FAMILIES,
    *indexing.FAMILIES,
    *statistics.FAMILIES,
    *scatter_sort.FAMILIES,
    *scatter_reduce.FAMILIES,
    *activation.FAMILIES,
    *reduction.FAMILIES,
    *linalg.FAMILIES,
    *upsample.FAMILIES,
    *shape.FAMILIES,
    *views.FAMILIES,
    *factory.FAMILIES,
    *random.FAMILIES,
    *copy_fill.FAMILIES,
    *copies.FAMILIES,
    *embedding.FAMILIES,
    *softmax.FAMILIES,
    *normalization.FAMILIES,
    *pooling.FAMILIES,
    *pooling1d.FAMILIES,
    *pooling3d.FAMILIES,
    *col2im.FAMILIES,
    *convolution.FAMILIES,
    *padding.FAMILIES,
    *sampling.FAMILIES,
    *distance.FAMILIES,
    *sym_queries.FAMILIES,
]

_names = [f.name for f in FAMILIES]
assert len(_names) == len(set(_names)), f"two families write one file: {_names}"
