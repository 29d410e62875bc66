"""The files one library generates, and the data each template renders.

The list of files lives once, in codegen/outputs.bzl (the Starlark rule loads it);
`output_files` expands it for a library's backends and shards, and each row's
`context` names one of the functions below.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

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
)
from codegen.model.entry import NativeFunction

COMPOSITE = "Composite"  # one family of registration files for both composite keys
_OUTPUTS = read_table("outputs.bzl")
GENERATED_FILES: list[dict] = _OUTPUTS["GENERATED_FILES"]
EXTRA_FAMILIES: list[str] = _OUTPUTS["EXTRA_FAMILIES"]


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


def register_families(backends: tuple[str, ...]) -> tuple[str, ...]:
    return backends + tuple(EXTRA_FAMILIES)


def output_files(backends: tuple[str, ...], shards: int) -> list[OutputFile]:
    """Every file of a library with these backends and shards, in table order."""
    result = []
    for row in GENERATED_FILES:
        common = (row["template"], row["context"], row["header"])
        if "{key}" in row["name"]:
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


def output_names(backends: tuple[str, ...], shards: int) -> list[str]:
    return [o.name for o in output_files(backends, shards)]


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
    # The header declares the array; the source lists what the library links.
    ops = sorted(
        lib.needed_functions, key=lambda f: (str(f.func.name.name), f.func.name.overload_name)
    )
    return {
        "operators": [
            OperatorEntry(str(f.func.name.name), f.func.name.overload_name, str(f.func))
            for f in ops
        ],
        "static_dispatch": lib.static_dispatch,
    }


def metas_context(lib: Library, out: OutputFile) -> dict:
    metas = []
    for g in lib.structured_groups:
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
    return {"metas": metas}


def _qualified(parent: str) -> str:
    """A base class named in the yaml: ours (MetaBase, TensorIteratorBase) or the author's."""
    return parent if "::" in parent else f"::sops::{parent}"


def natives_context(lib: Library, out: OutputFile) -> dict:
    # namespace -> (C++ name, parameter types) -> declaration
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
                    },
                )
                decl["keys_list"].append(key)
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
            },
        )
        decl["keys_list"].append(w.key)
    natives = []
    for ns in sorted(by_ns):
        decls = [
            dict(d, dispatch_keys=", ".join(d["keys_list"])) for _, d in sorted(by_ns[ns].items())
        ]
        # Kernels the yaml places outside the library's namespace (`CPU: my::k`) see the
        # runtime's types through using-declarations of their own.
        inside = ns == lib.namespace or ns.startswith(lib.namespace + "::")
        natives.append(
            {"namespace": ns, "decls": decls, "runtime_types": () if inside else RUNTIME_TYPES}
        )
    return {"natives": natives}


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
    handle: str  # Functions.cpp's variable holding the operator (no argument's name)
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
    """The functions of the dispatcher API in `out`, by key: a header declares all, a
    source defines the selected ones."""
    return sorted(lib.functions if out.header else lib.needed_functions, key=lambda f: f.key)


def functions_context(lib: Library, out: OutputFile) -> dict:
    if lib.static_dispatch:
        return _static_dispatch_functions_context(lib, out)
    functions = [e for f in _api_functions(lib, out) for e in _cpp_function_entries(f)]
    return {
        "functions": functions,
        "namespace_suffix": "",
        "static_dispatch": False,
        "title": "The dispatcher API: one function per operator (out= ones twice).",
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
        "includes": [f"{k}Functions.h" for k in lib.static_keys],
        "declarations": [(k, k.lower(), declared[k]) for k in sorted(declared)],
        "title": "The dispatcher API, statically dispatched: one function per operator (out= ones twice).",
    }


def static_functions_context(lib: Library, out: OutputFile) -> dict:
    assert out.key is not None  # a static entry points file is per key
    functions = [e for w in lib.wrappers if w.key == out.key for e in _static_entries(w)]
    return {
        "functions": functions,
        "namespace_suffix": "::" + out.key.lower(),
        "title": f"Static entry points of the {out.key} kernels: they bypass the dispatcher.",
    }


def register_context(lib: Library, out: OutputFile) -> dict:
    family = out.family
    assert family is not None and out.shard is not None  # a register file is per family and shard
    wrappers = lib.wrappers_for(family_keys(family), out.shard)
    static = []
    includes = ["NativeFunctions.h", "Functions.h"]
    if family in lib.static_keys:
        entries = [e for w in wrappers for e in _static_entries(w)]
        static = [(family.lower(), entries)] if entries else []
        includes.append(f"{family}Functions.h")
    elif lib.static_dispatch:  # the fallback keys' entry points, which Functions.cpp calls
        for key in family_keys(family):
            entries = [e for w in wrappers if w.key == key for e in _static_entries(w)]
            static += [(key.lower(), entries)] if entries else []
    autogen = any(w.kind.startswith("autogen") for w in wrappers)
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
        boxed = [op for op in boxed if lib.shard_of_name(op.full_name) == out.shard]
    return {"operators": boxed, "skipped": skipped, "shards": lib.shards, "shard": out.shard}


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
    "metas": metas_context,
    "natives": natives_context,
    "functions": functions_context,
    "static_functions": static_functions_context,
    "register": register_context,
    "unboxing": unboxing_context,
}
