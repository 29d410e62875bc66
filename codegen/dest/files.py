"""The files one library generates, and the data each template renders.

The list of files lives once, in codegen/outputs.bzl (the Starlark rule loads it);
`output_files` expands it for a library's backends and shards, and each row's
`context` names one of the functions below.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import cast

from codegen.api import dispatcher, native, structured
from codegen.api.types import RUNTIME_TYPES, parameter_types
from codegen.bzl_table import read_table
from codegen.dest.library import (
    COMPOSITES,
    COPY_SCHEMA,
    META,
    KernelWrapper,
    Library,
    Locals,
    fresh,
    kernel_namespace,
    stable_shard,
)
from codegen.model.entry import NativeFunction

COMPOSITE = "Composite"  # one family of registration files for both composite keys
_OUTPUTS = read_table("outputs.bzl")
GENERATED_FILES: list[dict] = _OUTPUTS["GENERATED_FILES"]
EXTRA_FAMILIES: list[str] = _OUTPUTS["EXTRA_FAMILIES"]
OPERATOR_HEADER_SHARDS: int = _OUTPUTS["OPERATOR_HEADER_SHARDS"]


@dataclass(frozen=True)
class OutputFile:
    """One generated file: its name, template, and the parameters of its context."""

    name: str
    template: str
    context: str
    header: bool
    key: str | None = None  # a static-entry-point key
    family: str | None = None  # a registration family
    shard: int | None = None
    op: str | None = None  # an operator's root name: one of its per-operator headers


@dataclass(frozen=True)
class OperatorHeaderDirs:
    """Where the per-operator headers go: `root/<prefix>/ops/`, or with shards
    `root/<shard>/<prefix>/ops/`, an operator's shard by the sha1 of its root name."""

    root: str
    include_prefix: str
    shards: int = 0

    def path(self, out: OutputFile) -> str:
        assert out.op is not None  # a per-operator header
        shard = [str(stable_shard(out.op, self.shards))] if self.shards else []
        return os.path.join(self.root, *shard, self.include_prefix, out.name)

    def directories(self) -> list[str]:
        """Every folder, those of shards without an operator too (Bazel declares them all)."""
        if not self.shards:
            return [os.path.join(self.root, self.include_prefix, "ops")]
        return [
            os.path.join(self.root, str(i), self.include_prefix, "ops") for i in range(self.shards)
        ]


def register_families(backends: tuple[str, ...]) -> tuple[str, ...]:
    return backends + tuple(EXTRA_FAMILIES)


def output_files(
    backends: tuple[str, ...], shards: int, operators: tuple[str, ...] = ()
) -> list[OutputFile]:
    """Every file of a library with these backends and shards, in table order; with
    `operators` (root names), their per-operator headers too."""
    result = []
    for row in GENERATED_FILES:
        common = (row["template"], row["context"], row["header"])
        if "{op}" in row["name"]:
            result += [OutputFile(row["name"].format(op=op), *common, op=op) for op in operators]
        elif "{key}" in row["name"]:
            result += [
                OutputFile(row["name"].format(key=k), *common, key=k) for k in backends + (META,)
            ]
        elif "{shard}" in row["name"] and "{family}" not in row["name"]:
            result += [
                OutputFile(row["name"].format(shard=i), *common, shard=i) for i in range(shards)
            ]
        elif "{family}" in row["name"]:
            result += [
                OutputFile(row["name"].format(family=fam, shard=i), *common, family=fam, shard=i)
                for fam in register_families(backends)
                for i in range(shards)
            ]
        else:
            result.append(OutputFile(row["name"], *common))
    return result


def output_names(
    backends: tuple[str, ...], shards: int, operators: tuple[str, ...] = ()
) -> list[str]:
    return [o.name for o in output_files(backends, shards, operators)]


# What a generated source includes to call an operator (its dispatcher API) or to name
# its kernels and meta struct: the operator's own header, or the aggregate one when the
# library has no per-operator headers.
def api_header(lib: Library, root: str) -> str:
    return f"ops/{root}.h" if lib.per_operator_headers else "Functions.h"


def native_header(lib: Library, root: str) -> str:
    return f"ops/{root}_native.h" if lib.per_operator_headers else "NativeFunctions.h"


def _aggregate(lib: Library, out: OutputFile, suffix: str) -> list[str]:
    """What an aggregate header (Functions.h, NativeFunctions.h, ...) includes: every
    per-operator header of its kind, when the library has them."""
    if not (lib.per_operator_headers and out.op is None and out.header):
        return []
    return [f"ops/{root}{suffix}.h" for root in lib.roots]


def family_keys(family: str) -> tuple[str, ...]:
    return COMPOSITES if family == COMPOSITE else (family,)


def types_context(lib: Library, out: OutputFile) -> dict:
    return {"runtime_types": RUNTIME_TYPES}


@dataclass(frozen=True)
class OperatorEntry:
    name: str
    overload: str
    schema: str


def operators_context(lib: Library, out: OutputFile) -> dict:
    # A shard's source lists the operators of the shard that the library links (the
    # header and Operators.cpp, none: they merge the shards' tables).
    chosen = [
        f for f in lib.needed_functions if out.shard is not None and lib.shard_of(f) == out.shard
    ]
    ops = sorted(chosen, key=lambda f: (str(f.func.name.name), f.func.name.overload_name))
    return {
        "shards": lib.shards,
        "shard": out.shard,
        "operators": [
            OperatorEntry(str(f.func.name.name), f.func.name.overload_name, str(f.func))
            for f in ops
        ],
        "static_dispatch": lib.static_dispatch,
    }


def metas_context(lib: Library, out: OutputFile) -> dict:
    op_headers = _aggregate(lib, out, "_meta")
    metas = []
    for g in [] if op_headers else lib.structured_groups:
        if out.op is not None and g.out.root != out.op:
            continue
        decl = structured.meta_declaration(g)
        pre = g.out.precomputed
        metas.append(
            {
                "ops": ", ".join(f.key for f in g.functions()),
                "struct": decl["struct"],
                "parent": _qualified(decl["parent"]),
                "declaration": decl["declaration"],
                "precomputed": decl.get("precomputed", []),
                "replaced": ", ".join(name for name, _ in pre.replace) if pre is not None else "",
            }
        )
    empty = out.op is not None and not metas
    return {
        "metas": metas,
        "op_headers": op_headers,
        "note": f"{out.op} has no structured kernel, so no meta struct: this header is here "
        "for every operator alike."
        if empty
        else None,
    }


def _qualified(parent: str) -> str:
    """A base class named in the yaml: ours (MetaBase, TensorIteratorBase) or the author's."""
    return parent if "::" in parent else f"::sops::{parent}"


def natives_context(lib: Library, out: OutputFile) -> dict:
    op_headers = _aggregate(lib, out, "_native")
    if op_headers:
        return {"natives": [], "includes": op_headers}
    by_ns = _native_declarations(lib)
    includes = ["NativeMetaFunctions.h"] if out.op is None else [f"ops/{out.op}_meta.h"]
    if out.op is not None:
        # An operator's header declares the kernels it owns: those no operator with a
        # smaller root name shares; the others come from their owner's header.
        includes += sorted(
            {
                f"ops/{min(d['roots'])}_native.h"
                for decls in by_ns.values()
                for d in decls.values()
                if out.op in d["roots"] and min(d["roots"]) != out.op
            }
        )
        by_ns = {
            ns: {sig: d for sig, d in decls.items() if min(d["roots"]) == out.op}
            for ns, decls in by_ns.items()
        }
    natives = []
    for ns in sorted(by_ns):
        if not by_ns[ns]:
            continue
        decls = [
            dict(d, dispatch_keys=", ".join(d["keys_list"])) for _, d in sorted(by_ns[ns].items())
        ]
        # Kernels the yaml places outside the library's namespace (`CPU: my::k`) see the
        # runtime's types through using-declarations of their own.
        inside = ns == lib.namespace or ns.startswith(lib.namespace + "::")
        natives.append(
            {"namespace": ns, "decls": decls, "runtime_types": () if inside else RUNTIME_TYPES}
        )
    return {"natives": natives, "includes": includes}


def _native_declarations(lib: Library) -> dict[str, dict[tuple[str, tuple[str, ...]], dict]]:
    """namespace -> (C++ name, parameter types) -> the declaration of a kernel, with the
    root names of the operators that share it (`roots`); computed once per library."""
    if "native_declarations" not in lib.derived:
        lib.derived["native_declarations"] = _compute_native_declarations(lib)
    return cast(dict, lib.derived["native_declarations"])


def _compute_native_declarations(
    lib: Library,
) -> dict[str, dict[tuple[str, tuple[str, ...]], dict]]:
    by_ns: dict[str, dict[tuple[str, tuple[str, ...]], dict]] = {}
    for g in lib.structured_groups:
        for key, m in sorted(g.out.dispatch.items()):
            if key in lib.backends and m.structured:
                ns = kernel_namespace(lib.namespace, m.cpp_namespace)
                decl = by_ns.setdefault(ns, {}).setdefault(
                    (f"structured_{m.kernel}", ()),
                    {
                        "struct": f"structured_{m.kernel}",
                        "parent": f"::{lib.namespace}::meta::{structured.meta_name(g)}",
                        "params": ", ".join(b.decl() for b in structured.impl_arguments(g)),
                        "ops": g.out.key,
                        "keys_list": [],
                        "roots": set(),
                    },
                )
                decl["keys_list"].append(key)
                decl["roots"].add(g.out.root)
    for w in lib.wrappers:
        # Structured kernels are declared above; autogen ones are generated.
        if not isinstance(w.body, KernelWrapper):
            continue
        ns, name = w.body.kernel.rsplit("::", 1)
        # One declaration per C++ function: operators may share a kernel (with their own
        # argument names), and C++ refuses a default argument given twice.
        symint = "_symint" in name
        signature = (name, parameter_types(native.arguments(w.function, symint)))
        decl = by_ns.setdefault(ns, {}).setdefault(
            signature,
            {
                "struct": None,
                "declaration": native.declaration(w.function, name),
                "ops": w.op,
                "keys_list": [],
                "roots": set(),
            },
        )
        decl["keys_list"].append(w.key)
        decl["roots"].add(w.function.root)
    return by_ns


@dataclass(frozen=True)
class FunctionEntry:
    """One C++ function of an operator, as the templates write it (objects, not dicts:
    Jinja reads attributes of objects fastest)."""

    ret: str
    name: str
    params: str  # with defaults
    params_no_defaults: str
    args: str  # the kernel's arguments
    op: str
    signature: str  # the kernel's C++ function type
    handle: str  # Operators_<shard>.cpp's variable holding the operator (no argument's name)
    wrapper: str | None = None  # what a static entry point calls
    across_devices: bool = (
        False  # device_check: NoCheck: cpu beside another device dispatches to it
    )


@functools.cache
def _cpp_function_entries(f) -> tuple[FunctionEntry, ...]:
    """The C++ functions of f for a template (several templates render each)."""
    signature = dispatcher.kernel_signature(f)
    handle = Locals.of(f).op
    across = f.device_check == "NoCheck"
    return tuple(
        FunctionEntry(
            c.ret,
            c.name,
            c.params_decl,
            c.params_no_defaults,
            c.args,
            f.key,
            signature,
            handle,
            across_devices=across,
        )
        for c in dispatcher.cpp_functions(f)
    )


def _static_entries(w) -> list[FunctionEntry]:
    """The static entry points of a wrapper: its operator's C++ functions, calling it."""
    return [
        FunctionEntry(
            e.ret,
            e.name,
            e.params,
            e.params_no_defaults,
            e.args,
            e.op,
            e.signature,
            e.handle,
            w.name,
        )
        for e in _cpp_function_entries(w.function)
    ]


def _api_functions(lib: Library, out: OutputFile) -> list[NativeFunction]:
    """The functions of the dispatcher API in `out`, by key: a header declares all (an
    operator's header, its own), a source defines the selected ones of its shard."""
    if out.header:
        chosen = [f for f in lib.functions if out.op is None or f.root == out.op]
    else:
        chosen = [f for f in lib.needed_functions if lib.shard_of(f) == out.shard]
    return sorted(chosen, key=lambda f: f.key)


def _api_includes(lib: Library, functions: list[NativeFunction]) -> list[str]:
    return sorted({api_header(lib, f.root) for f in functions})


def functions_context(lib: Library, out: OutputFile) -> dict:
    op_headers = _aggregate(lib, out, "")
    if lib.static_dispatch and not op_headers:
        return _static_dispatch_functions_context(lib, out)
    chosen = [] if op_headers else _api_functions(lib, out)
    return {
        "functions": [e for f in chosen for e in _cpp_function_entries(f)],
        "op_headers": op_headers,
        "includes": _api_includes(lib, chosen),
        "namespace_suffix": "",
        "static_dispatch": False,
        "title": "The dispatcher API: one function per operator (out= ones twice)."
        if out.op is None
        else f"The dispatcher API of {out.op}: one function per overload (out= ones twice).",
    }


@dataclass(frozen=True)
class StaticSwitch:
    """A function of the dispatcher API under static dispatch: it computes the backend
    of its arguments and calls the static entry point serving it."""

    f: FunctionEntry
    key_var: str  # the local variable holding the backend key
    key_args: tuple[str, ...]  # the arguments whose devices choose the backend
    call_args: str  # its parameters, in declaration order (how the entry point is called)
    cases: tuple[
        tuple[tuple[str, ...], str], ...
    ]  # (backend keys, the static entry point they call)
    registered: str  # the keys with static entry points, for the error of a missing one


def _device_bindings(bindings) -> tuple[str, ...]:
    """The arguments the dispatcher collects devices from (runtime/static_dispatch.h):
    tensors, tensor lists, TensorOptions, devices."""
    return tuple(b.name for b in bindings if "Tensor" in b.type.cpp() or "Device" in b.type.cpp())


def _static_dispatch_functions_context(lib: Library, out: OutputFile) -> dict:
    switches = []
    declared: dict[str, list[FunctionEntry]] = {}  # fallback keys' entry points to declare
    for f in _api_functions(lib, out):
        # The backends of this library, and Meta: tensors of any other backend cannot
        # reach a kernel here (no other library is reachable without a dispatcher).
        targets = [(k, lib.static_target(f, k)) for k in lib.static_keys]
        taken = {a.name for a in f.func.arguments.flat_all}
        key_var = fresh("dispatch_key", taken)
        key_args = _device_bindings(dispatcher.kernel_bindings(f))
        registered = ", ".join(lib.keys_of(f))
        entries = _cpp_function_entries(f)
        for c, e in zip(dispatcher.cpp_functions(f), entries):
            keys_of_target: dict[
                str, list[str]
            ] = {}  # backends sharing an entry point share a case
            for k, t in targets:
                if t is not None:
                    keys_of_target.setdefault(
                        f"::{lib.namespace}::{t.lower()}::{e.name}", []
                    ).append(k)
            cases = tuple((tuple(keys), target) for target, keys in keys_of_target.items())
            switches.append(
                StaticSwitch(
                    e, key_var, key_args, ", ".join(b.name for b in c.params), cases, registered
                )
            )
        for t in sorted({t for _, t in targets if t is not None and t not in lib.static_keys}):
            declared.setdefault(t, []).extend(entries)
    return {
        "functions": [s.f for s in switches],
        "switches": switches,
        "namespace_suffix": "",
        "static_dispatch": True,
        "includes": _api_includes(lib, _api_functions(lib, out))
        + [f"{k}Functions.h" for k in lib.static_keys],
        "declarations": [(k, k.lower(), declared[k]) for k in sorted(declared)],
        "op_headers": [],
        "title": "The dispatcher API, statically dispatched: one function per operator (out= ones twice).",
    }


def static_functions_context(lib: Library, out: OutputFile) -> dict:
    assert out.key is not None  # a static entry points file is per key
    functions = [e for w in lib.wrappers if w.key == out.key for e in _static_entries(w)]
    return {
        "functions": functions,
        "op_headers": [],
        "namespace_suffix": "::" + out.key.lower(),
        "title": f"Static entry points of the {out.key} kernels: they bypass the dispatcher.",
    }


def register_context(lib: Library, out: OutputFile) -> dict:
    family = out.family
    assert family is not None and out.shard is not None  # a register file is per family and shard
    wrappers = lib.wrappers_for(family_keys(family), out.shard)
    static = []
    roots = {w.function.root for w in wrappers}
    includes = ["Types.h"] + sorted(
        {native_header(lib, r) for r in roots} | {api_header(lib, r) for r in roots}
    )
    if family in lib.static_keys:
        entries = [e for w in wrappers for e in _static_entries(w)]
        static = [(family.lower(), entries)] if entries else []
        if not lib.per_operator_headers:
            # The declarations the definitions below must match. With per-operator
            # headers a shard leaves the whole key's list out: it would recompile the
            # shard whenever any operator is added.
            includes.append(f"{family}Functions.h")
    elif lib.static_dispatch:  # the fallback keys' entry points, which Operators_<shard>.cpp calls
        for key in family_keys(family):
            entries = [e for w in wrappers if w.key == key for e in _static_entries(w)]
            static += [(key.lower(), entries)] if entries else []
    autogen = any(w.kind.startswith("autogen") for w in wrappers)
    if autogen and lib.static_dispatch and lib.copy_function is not None:
        copy_header = api_header(lib, lib.copy_function.root)
        includes += [] if copy_header in includes else [copy_header]
    return {
        "wrappers": wrappers,
        "static_entry_points": static,
        "includes": includes,
        "autogen": autogen,
        "static_dispatch": lib.static_dispatch,
        "autogen_copy": _autogen_copy(lib) if autogen and lib.static_dispatch else None,
        "title": f"{family} kernels, shard {out.shard} of {lib.shards}: wrappers and their "
        + (
            "static entry points (static dispatch: nothing is registered)."
            if lib.static_dispatch
            else "registration."
        ),
    }


def unboxing_context(lib: Library, out: OutputFile) -> dict:
    boxed, skipped = lib.boxed_operators
    if not out.header and lib.selection is not None:  # the header declares them all
        registered = lib.registered_names
        boxed = [op for op in boxed if op.full_name in registered]
        skipped = [(op, why) for op, why in skipped if op in lib.selection.registered]
    if out.shard is not None:
        boxed = [op for op in boxed if lib.shard_of_root(op.root) == out.shard]
    return {
        "operators": boxed,
        "skipped": skipped,
        "shards": lib.shards,
        "shard": out.shard,
        "includes": sorted({api_header(lib, op.root) for op in boxed}),
    }


def _autogen_copy(lib: Library) -> dict:
    """Under static dispatch, autogen kernels copy with the library's own copy_ (there is
    no dispatcher to find another library's): its C++ function, or None if it has none."""
    return {
        "function": f"::{lib.namespace}::copy_" if lib.copy_function is not None else None,
        "schema": COPY_SCHEMA,
    }


# The `context` column of codegen/outputs.bzl.
CONTEXTS = {
    "types": types_context,
    "operators": operators_context,
    "operator_shard": lambda lib, out: operators_context(lib, out) | functions_context(lib, out),
    "metas": metas_context,
    "natives": natives_context,
    "functions": functions_context,
    "static_functions": static_functions_context,
    "register": register_context,
    "unboxing": unboxing_context,
}
