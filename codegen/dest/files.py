"""The files one library generates, and the data each template renders.

`output_names` is the single list of generated files: the Starlark rule declares the
same names (rules/private/codegen.bzl) and the generator refuses any other set.
"""

from __future__ import annotations

from codegen.api import dispatcher, native, structured
from codegen.dest.library import COMMON, COMPOSITES, META, Library, Wrapper, kernel_namespace

HEADERS = ("Types.h", "Operators.h", "NativeMetaFunctions.h", "NativeFunctions.h", "Functions.h")
SOURCES = ("Operators.cpp", "Functions.cpp")
COMPOSITE = "Composite"  # one family of registration files for both composite keys

# The runtime types the generated signatures name, made visible in the library namespace.
RUNTIME_TYPES = (
    "ArrayRef", "Device", "IntArrayRef", "ITensorListRef", "Layout", "MemoryFormat",
    "OptionalIntArrayRef", "OptionalScalarRef", "OptionalTensorRef", "Scalar", "ScalarType",
    "SymInt", "SymIntArrayRef", "Tensor", "TensorList", "TensorOptions",
)


def register_families(backends: tuple[str, ...]) -> tuple[str, ...]:
    return backends + (META, COMMON, COMPOSITE)


def output_names(backends: tuple[str, ...], shards: int) -> list[str]:
    names = list(HEADERS) + [f"{k}Functions.h" for k in backends + (META,)] + list(SOURCES)
    names += [f"Register{family}_{i}.cpp" for family in register_families(backends) for i in range(shards)]
    return names


def _family_keys(family: str) -> tuple[str, ...]:
    return COMPOSITES if family == COMPOSITE else (family,)


def operators_context(lib: Library) -> dict:
    ops = sorted(lib.functions, key=lambda f: (str(f.func.name.name), f.func.name.overload_name))
    return {"operators": [{"name": str(f.func.name.name), "overload": f.func.name.overload_name,
                           "schema": str(f.func), "key": f.key} for f in ops]}


def meta_context(lib: Library) -> dict:
    metas = []
    for g in lib.structured_groups:
        decl = structured.meta_declaration(g)
        pre = g.out.precomputed
        metas.append({
            "ops": ", ".join(f.key for f in g.functions()),
            "struct": decl["struct"],
            "parent": _qualified(decl["parent"]),
            "declaration": decl["declaration"],
            "precomputed": decl.get("precomputed", []),
            "replaced": ", ".join(name for name, _ in pre.replace) if pre is not None else "",
        })
    return {"metas": metas}


def _qualified(parent: str) -> str:
    """A base class named in the yaml: ours (MetaBase, TensorIteratorBase) or the author's."""
    return parent if "::" in parent else f"::sops::{parent}"


def natives_context(lib: Library) -> dict:
    by_ns: dict[str, dict[str, dict]] = {}
    for g in lib.structured_groups:
        for key, m in sorted(g.out.dispatch.items()):
            if key in lib.backends and m.structured:
                ns = kernel_namespace(lib.namespace, m.cpp_namespace)
                decl = by_ns.setdefault(ns, {}).setdefault(f"structured_{m.kernel}", {
                    "struct": f"structured_{m.kernel}",
                    "parent": f"::{lib.namespace}::meta::{structured.meta_name(g)}",
                    "params": ", ".join(b.decl() for b in structured.impl_arguments(g)),
                    "ops": g.out.key, "keys_list": []})
                decl["keys_list"].append(key)
    for w in lib.wrappers:
        if w.structured or w.body.kernel is None:  # autogen kernels are generated, not declared
            continue
        ns, name = w.body.kernel.rsplit("::", 1)
        declaration = native.declaration(w.function, name)
        decl = by_ns.setdefault(ns, {}).setdefault(declaration, {
            "struct": None, "declaration": declaration, "ops": w.op, "keys_list": []})
        decl["keys_list"].append(w.key)
    natives = []
    for ns in sorted(by_ns):
        decls = [dict(d, dispatch_keys=", ".join(d["keys_list"])) for _, d in sorted(by_ns[ns].items())]
        natives.append((ns, decls))
    return {"natives": natives}


def _cpp_function_entries(f, wrapper: str | None = None) -> list[dict]:
    """The C++ functions of f for a template; `wrapper` is what a static entry point calls."""
    signature = dispatcher.kernel_signature(f)
    return [{"ret": c.ret, "name": c.name, "params": c.params, "params_no_defaults": c.params_no_defaults,
             "args": c.args, "op": f.key, "wrapper": wrapper, "signature": signature}
            for c in dispatcher.cpp_functions(f)]


def functions_context(lib: Library) -> dict:
    functions = [e for f in sorted(lib.functions, key=lambda f: f.key) for e in _cpp_function_entries(f)]
    return {"functions": functions, "title": "The dispatcher API: one function per operator (out= ones twice)."}


def static_functions_context(lib: Library, key: str) -> dict:
    functions = [e for w in lib.wrappers if w.key == key for e in _cpp_function_entries(w.function, w.name)]
    return {"functions": functions, "static_namespace": key.lower(),
            "title": f"Static entry points of the {key} kernels: they bypass the dispatcher."}


def register_context(lib: Library, family: str, shard: int) -> dict:
    keys = _family_keys(family)
    wrappers = lib.wrappers_for(keys, shard)
    static = []
    includes = ["NativeFunctions.h", "Functions.h"]
    if family in lib.static_keys:
        entries = [e for w in wrappers for e in _cpp_function_entries(w.function, w.name)]
        static = [(family.lower(), entries)] if entries else []
        includes.append(f"{family}Functions.h")
    return {"wrappers": wrappers, "static_entry_points": static, "includes": includes,
            "title": f"{family} kernels, shard {shard} of {lib.shards}: wrappers and their registration."}
