"""The operators each operator's code calls: its generated wrappers' calls, and those of
the hand-written kernels and meta functions they call (read off the objects)."""

from __future__ import annotations

from codegen.api import dispatcher
from codegen.dest.library import KernelWrapper, Library, StructuredWrapper
from codegen.selective.kernel_symbols import KernelSymbols


def api_index(lib: Library) -> dict[str, set[str]]:
    """C++ API name (`add`, `add_out`, `add_outf`) -> the keys of the operators it calls."""
    index: dict[str, set[str]] = {}
    for f in lib.functions:
        for c in dispatcher.cpp_functions(f):
            index.setdefault(c.name, set()).add(f.key)
    return index


def calls_of_operators(lib: Library, symbols: KernelSymbols | None):
    """A function: op key -> the op keys its code calls. Without `symbols` (no objects
    were given), only the generated wrappers' calls are known."""
    index = api_index(lib)
    prefix = f"::{lib.namespace}::"
    generated: dict[str, set[str]] = {}  # op -> API names its wrappers call
    kernels: dict[str, set[str]] = {}  # op -> hand-written functions and classes its wrappers call
    for w in lib.wrappers:
        body = w.body
        names = generated.setdefault(w.op, set())
        refs = kernels.setdefault(w.op, set())
        if isinstance(body, StructuredWrapper):
            refs.add(body.parent)
            refs.add(body.meta_struct)
            if body.redispatch is not None:
                names.add(body.redispatch.function)
        elif isinstance(body, KernelWrapper):
            refs.add(body.kernel)
        else:  # autogen: the base variant, then copies made with copy_
            names.add(body.call.function)
            if lib.copy_function is not None:
                names.add(f"{prefix}copy_")

    def calls(op: str) -> set[str]:
        api = {n[len(prefix) :] for n in generated.get(op, ()) if n.startswith(prefix)}
        if symbols is not None:
            api |= symbols.api_calls(sorted(kernels.get(op, ())), lib.namespace)
        return {callee for name in api for callee in index.get(name, ())} - {op}

    return calls
