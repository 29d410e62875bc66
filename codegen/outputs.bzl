"""The files one operator library generates: the one table of them.

The Starlark rule (rules/private/codegen.bzl) declares its outputs from it, and the
generator (codegen/dest/files.py reads this file's literal) writes and renders exactly
these; nothing else lists generated files. Each row is a file name, with `{key}` for
each static-entry-point key (the backends, then Meta), `{family}` and `{shard}` for
each registration family (the backends, Meta, Common, Composite) and shard, `{shard}`
alone for each shard, or `{op}` for each operator's root name (per-operator headers,
made only when a library asks for them; the aggregate headers then include them);
the template that renders it; the data it renders (a context of codegen/dest/files.py);
and whether it is a header.

Per-operator headers are not declared one by one: Bazel would have to know every
operator before the generator runs, and it keys each C++ compile on the set of headers
the compile could include, so a new header would re-run every compile. They go into
OPERATOR_HEADER_SHARDS directories declared once (tree artifacts), `<shard>/<prefix>/ops/`,
an operator's by the sha1 of its root name: adding an operator changes one directory,
and re-runs only the compiles that include a header from it.
"""

OPERATOR_HEADER_SHARDS = 256

GENERATED_FILES = [
    {"name": "Types.h", "template": "Types.h.j2", "context": "types", "header": True},
    {"name": "Operators.h", "template": "Operators.h.j2", "context": "operators", "header": True},
    {"name": "NativeMetaFunctions.h", "template": "NativeMetaFunctions.h.j2", "context": "metas", "header": True},
    {"name": "NativeFunctions.h", "template": "NativeFunctions.h.j2", "context": "natives", "header": True},
    {"name": "Functions.h", "template": "Functions.h.j2", "context": "functions", "header": True},
    {"name": "ops/{op}.h", "template": "Functions.h.j2", "context": "functions", "header": True},
    {"name": "ops/{op}_meta.h", "template": "NativeMetaFunctions.h.j2", "context": "metas", "header": True},
    {"name": "ops/{op}_native.h", "template": "NativeFunctions.h.j2", "context": "natives", "header": True},
    {"name": "{key}Functions.h", "template": "Functions.h.j2", "context": "static_functions", "header": True},
    {"name": "Operators.cpp", "template": "Operators.cpp.j2", "context": "operators", "header": False},
    {"name": "Operators_{shard}.cpp", "template": "OperatorShard.cpp.j2", "context": "operator_shard", "header": False},
    {"name": "Register{family}_{shard}.cpp", "template": "Register.cpp.j2", "context": "register", "header": False},
    {"name": "UnboxingFunctions.h", "template": "UnboxingFunctions.h.j2", "context": "unboxing", "header": True},
    {"name": "UnboxingFunctions.cpp", "template": "UnboxingFunctions.cpp.j2", "context": "unboxing", "header": False},
    {"name": "RegisterCodegenUnboxedKernels_{shard}.cpp", "template": "RegisterCodegenUnboxedKernels.cpp.j2", "context": "unboxing", "header": False},
]

# The registration families besides the backends: Meta, the Common path, and one
# family of files for both composite keys.
EXTRA_FAMILIES = ["Meta", "Common", "Composite"]
