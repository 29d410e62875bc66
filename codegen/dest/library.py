"""What one operator library generates: every kernel registration, decided once.

The yaml front end gives functions and groups; this module decides, for a library
with a C++ namespace and a list of backends, which wrapper each (operator, dispatch
key) pair gets and in which registration shard it lands. The emitters only render
these decisions.

A structured group (its out= function is `structured: True`) gets, for each backend
kernel of the out= function, a functional, an inplace and an out= wrapper around the
RFC's class hierarchy; a Meta wrapper of each for free; and, for external backends
that only have an out= kernel, `Common` wrappers of the functional and inplace
variants that run meta() and then call the out= variant through the dispatcher.
Every other function gets a wrapper that calls its kernel for each key of its
dispatch table that the library builds (its backends, Meta, and the composite keys;
a CompositeExplicitAutogradNonFunctional kernel serves as the CompositeExplicitAutograd
one, since the runtime has no functionalization pass to tell them apart). Keys of
layouts and devices the runtime lacks (Sparse*, Quantized*, NestedTensor*, MPS, ...)
have no tensors to serve and get no wrapper.

With static dispatch (`generate --static-dispatch`), nothing is registered: every key
with wrappers gets static entry points (`<ns>::cpu::`, `<ns>::meta::`, `<ns>::common::`,
`<ns>::compositeexplicitautograd::`, ...), and the dispatcher API switches on the
backend of its arguments to the first of (backend, Common, CompositeExplicitAutograd,
CompositeImplicitAutograd) that has one, as the dispatcher's fallback would
(`Library.static_target`).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field

from codegen.api import dispatcher, native, structured, unboxing
from codegen.api.translate import Expr, translate
from codegen.api.types import Binding
from codegen.bzl_table import read_table
from codegen.model.dispatch import (
    COMPOSITE_EXPLICIT,
    COMPOSITE_EXPLICIT_NON_FUNCTIONAL,
    COMPOSITE_IMPLICIT,
    DEFAULT_KERNEL_NAMESPACE,
)
from codegen.model.entry import NativeFunction
from codegen.model.groups import NativeFunctionsGroup
from codegen.model.schema import FUNCTIONAL, INPLACE, MUTABLE, OUT, is_tensor_option
from codegen.selective.selector import Selection

# What autogen kernels copy with (runtime/autogen_support.h).
COPY_SCHEMA = "copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"
# The runtime's dispatch keys (runtime/dispatch_key.h), from their one table,
# codegen/dispatch_keys.bzl: every key in the order of the enum; the backend keys a
# call's arguments select; the keys tried after a backend's own, in order; the backends
# a library may register kernels for (Meta is always registered); and the keys whose
# kernels run on another device than the CPU (their wrappers set the device and check
# that the tensors share it).
_KEYS: list[dict] = read_table("dispatch_keys.bzl")["DISPATCH_KEYS"]
DISPATCH_KEYS = tuple(k["name"] for k in _KEYS)
BACKEND_KEYS = tuple(k["name"] for k in _KEYS if k["kind"] == "backend")
FALLBACK_KEYS = tuple(k["name"] for k in _KEYS if k["kind"] == "fallback")
RUNTIME_BACKENDS = tuple(k["name"] for k in _KEYS if k["library_backend"])
DEVICE_KEYS = frozenset(k["name"] for k in _KEYS if k["device_code"])
META = "Meta"
COMMON = "Common"
COMPOSITES = (COMPOSITE_EXPLICIT, COMPOSITE_IMPLICIT)


@dataclass(frozen=True)
class Call:
    """A call the generated code makes: a C++ function and its argument expressions."""

    function: str
    args: list[str]


@dataclass
class StructuredWrapper:
    """A wrapper of one member of a structured group for one key (a backend, Meta or Common)."""

    function: NativeFunction
    role: str  # FUNCTIONAL, INPLACE or OUT
    key: str
    name: str  # the wrapper function's name
    class_name: str  # the final class
    parent: str  # the class it derives from: an impl struct, or the meta struct for Meta/Common
    meta_struct: str  # the group's meta struct, `::ns::meta::structured_<op>`
    outputs: list[str]  # names of the outputs (out= or written arguments), for messages
    n_returns: int
    meta_args: list[str]
    impl_args: list[str] | None  # None: no impl() call (Meta, Common)
    redispatch: Call | None  # Common: the out= variant through the dispatcher

    @property
    def op(self) -> str:
        return self.function.key


@dataclass
class KernelWrapper:
    """A wrapper that calls a hand-written kernel (unstructured, composite)."""

    function: NativeFunction
    key: str
    name: str
    kernel: str  # the kernel's qualified name, e.g. `my::ops::native::relu`
    call: Call


@dataclass
class AutogenOutWrapper:
    """The kernel `autogen:` writes for an out= variant: it computes the functional
    variant and copies each part of its result into an out= argument (or, for a mutable
    base operator, back into the written input); parts that are no tensors are returned."""

    function: NativeFunction
    key: str
    name: str
    call: Call  # the functional variant
    n_parts: int  # how many values the functional variant returns
    copies: list[tuple[int, str]]  # (part, argument it is copied into)
    returns: list[tuple[str, int | str]]  # ("name", out= argument) or ("part", i) of the result


@dataclass
class AutogenFunctionalWrapper:
    """The kernel `autogen:` writes for a functional variant of a mutating operator: it
    runs the inplace or mutable variant on copies of the written arguments and returns
    the base's results, then the copies of the written arguments it does not return."""

    function: NativeFunction
    key: str
    name: str
    clones: list[tuple[str, str]]  # (written argument, its copy)
    call: Call  # the mutating variant, on the copies
    n_parts: int  # how many values the mutating variant returns
    returns: list[tuple[str, int | str]]  # ("part", i) of the call's result, or ("name", a copy)

    @property
    def uses_result(self) -> bool:
        return any(kind == "part" for kind, _ in self.returns)


@dataclass(frozen=True)
class Locals:
    """The names of a wrapper's local variables: never one of its arguments' names."""

    op: str  # the structured class
    result: str  # what the called function returned
    guard: str  # the device guard
    scope: str  # the error scope naming the operator

    @staticmethod
    def of(f: NativeFunction, taken: set[str] | None = None) -> Locals:
        if taken is None:
            return _locals_of(f)
        taken = {a.name for a in f.func.arguments.flat_all} | taken
        return Locals(
            *(fresh(name, taken) for name in ("op", "result", "device_guard", "error_scope"))
        )


@functools.cache
def _locals_of(f: NativeFunction) -> Locals:
    return Locals.of(f, set())


def fresh(name: str, taken: set[str]) -> str:
    """`name`, or `name_`, `name__`, ... : the first not in `taken`, which then takes it."""
    while name in taken:
        name += "_"
    taken.add(name)
    return name


@dataclass
class Wrapper:
    """Common to every kind: what registration and static entry points need."""

    body: StructuredWrapper | KernelWrapper | AutogenOutWrapper | AutogenFunctionalWrapper
    ret: str
    bindings: tuple[Binding, ...]
    device_guard: str | None
    device_check: list[str]
    var: Locals

    @property
    def key(self) -> str:
        return self.body.key

    @property
    def name(self) -> str:
        return self.body.name

    @property
    def op(self) -> str:
        return self.body.function.key

    @property
    def function(self) -> NativeFunction:
        return self.body.function

    @property
    def kind(self) -> str:
        """Which body the template writes: structured, kernel, autogen_out, autogen_functional."""
        return _KINDS[type(self.body)]

    @property
    def params(self) -> str:
        return ", ".join(b.decl() for b in self.bindings)


_KINDS = {
    StructuredWrapper: "structured",
    KernelWrapper: "kernel",
    AutogenOutWrapper: "autogen_out",
    AutogenFunctionalWrapper: "autogen_functional",
}


@dataclass
class Library:
    namespace: str
    backends: tuple[str, ...]
    functions: list[NativeFunction]
    groups: list[NativeFunctionsGroup]
    shards: int
    wrappers: list[Wrapper] = field(default_factory=list)
    static_dispatch: bool = False  # no registration: the dispatcher API switches on backends
    # A selective build's operators (codegen/selective/selector.py); None: all of them.
    # Headers declare every operator (hand-written kernels include them); the sources
    # define and register only the selection.
    selection: Selection | None = None
    # Whether the library has per-operator headers (ops/<root>.h, ..._native.h,
    # ..._meta.h): its sources then include only their operators' headers.
    per_operator_headers: bool = False

    def __post_init__(self) -> None:
        self._group_of = {id(f): g for g in self.groups for f in g.functions()}
        self._shard_of_root: dict[str, int] = {}
        self.derived: dict[str, object] = {}  # what the emitters compute once per library
        self._by_key_and_shard: dict[tuple[str, int], list[Wrapper]] | None = None
        self._keys_of_op: dict[str, set[str]] | None = None

    def needs(self, f: NativeFunction) -> bool:
        """Whether the sources define f: selected, or called by the code of a selected one."""
        return self.selection is None or f.key in self.selection.needed

    def registers(self, f: NativeFunction) -> bool:
        """Whether f gets a boxed kernel in the registry: selected (not only called)."""
        return self.selection is None or f.key in self.selection.registered

    @property
    def needed_functions(self) -> list[NativeFunction]:
        return [f for f in self.functions if self.needs(f)]

    @property
    def registered_names(self) -> frozenset[str]:
        """The full names (`aten::add.Tensor`) of the operators with boxed kernels."""
        return frozenset(f.func.name.full_name() for f in self.functions if self.registers(f))

    @property
    def structured_groups(self) -> list[NativeFunctionsGroup]:
        return [g for g in self.groups if g.structured]

    @property
    def static_keys(self) -> tuple[str, ...]:
        """Keys with static entry points: the backends, and Meta."""
        return self.backends + (META,)

    def keys_of(self, f: NativeFunction) -> list[str]:
        """The keys f has wrappers for, in DispatchKey order."""
        if self._keys_of_op is None:  # once the wrappers are all there
            self._keys_of_op = {}
            for w in self.wrappers:
                self._keys_of_op.setdefault(w.op, set()).add(w.key)
        keys = self._keys_of_op.get(f.key, ())
        return [k for k in DISPATCH_KEYS if k in keys]

    def static_target(self, f: NativeFunction, backend: str) -> str | None:
        """The key whose wrapper serves f for tensors of `backend` (a BACKEND_KEYS one),
        falling back as the dispatcher does; None when no key has one."""
        keys = self.keys_of(f)
        return next((k for k in (backend,) + FALLBACK_KEYS if k in keys), None)

    def group_of(self, f: NativeFunction) -> NativeFunctionsGroup | None:
        return self._group_of.get(id(f))

    def shard_of(self, f: NativeFunction) -> int:
        """f's shard: by the sha1 of its root name (not hash()), so that an operator's
        overloads and variants share a shard, and adding one changes one shard's files."""
        return self.shard_of_root(f.root)

    def shard_of_root(self, root: str) -> int:
        shard = self._shard_of_root.get(root)
        if shard is None:
            shard = self._shard_of_root[root] = stable_shard(root, self.shards)
        return shard

    @functools.cached_property
    def roots(self) -> list[str]:
        """The root names of the operators (NativeFunction.root), sorted: one set of
        per-operator headers each."""
        return sorted({f.root for f in self.functions})

    @functools.cached_property
    def copy_function(self) -> NativeFunction | None:
        """The yaml's `copy_`, which autogen kernels copy with (COPY_SCHEMA), or None."""
        return next((f for f in self.functions if str(f.func) == COPY_SCHEMA), None)

    @functools.cached_property
    def boxed_operators(self) -> tuple[list[unboxing.UnboxedOperator], list[tuple[str, str]]]:
        """(the operators that get a boxed kernel, (operator, why not) for the others), by
        name, of the whole yaml; computed once for the three unboxing files."""
        boxed, skipped = [], []
        for f in sorted(self.functions, key=lambda f: f.key):
            try:
                boxed.append(unboxing.unboxed_operator(f, self.namespace))
            except unboxing.NotBoxable as e:
                skipped.append((f.key, str(e)))
        return boxed, skipped

    def wrappers_for(self, keys: tuple[str, ...], shard: int) -> list[Wrapper]:
        if self._by_key_and_shard is None:  # once the wrappers are all there
            self._by_key_and_shard = {}
            for w in self.wrappers:
                if not self.needs(w.function):
                    continue
                self._by_key_and_shard.setdefault((w.key, self.shard_of(w.function)), []).append(w)
        found = [w for k in keys for w in self._by_key_and_shard.get((k, shard), ())]
        return found if len(keys) == 1 else sorted(found, key=lambda w: (w.op, w.key))


def stable_shard(name: str, shards: int) -> int:
    """Which of `shards` a name falls in: by its sha1 (hash() changes between runs)."""
    return int(hashlib.sha1(name.encode()).hexdigest(), 16) % shards


def kernel_namespace(library_namespace: str, cpp_namespace: str) -> str:
    """Where a kernel named in the yaml lives: `<library>::native` unless it says otherwise."""
    return (
        f"{library_namespace}::native"
        if cpp_namespace == DEFAULT_KERNEL_NAMESPACE
        else cpp_namespace
    )


def build_library(
    namespace: str,
    backends: tuple[str, ...],
    functions: list[NativeFunction],
    groups: list[NativeFunctionsGroup],
    shards: int,
    static_dispatch: bool = False,
) -> Library:
    """Every wrapper of the library. The yaml has passed `check`, which rejects anything
    that could not be generated."""
    lib = Library(namespace, backends, functions, groups, shards, static_dispatch=static_dispatch)
    wrapped = set()
    for g in lib.structured_groups:
        variants = [(FUNCTIONAL, g.functional), (INPLACE, g.inplace), (OUT, g.out)]
        members = [(role, f) for role, f in variants if f is not None and _delegates(f, g)]
        for _role, f in members:
            wrapped.add(id(f))
        for key, metadata in sorted(g.out.dispatch.items()):
            if key in backends and metadata.structured:
                impl = f"::{kernel_namespace(namespace, metadata.cpp_namespace)}::structured_{metadata.kernel}"
                for role, f in members:
                    lib.wrappers.append(_structured(namespace, g, f, role, key, impl))
        # Common serves the backends without a kernel of their own. Through the
        # dispatcher that may be any backend another library adds; statically
        # dispatched, only those of this library can reach it.
        kernel_keys = {k for k, m in g.out.dispatch.items() if m.structured}
        common = not static_dispatch or any(b not in kernel_keys for b in backends)
        for role, f in members:
            lib.wrappers.append(_structured(namespace, g, f, role, META, None))
            if role != OUT and common:
                lib.wrappers.append(_structured(namespace, g, f, role, COMMON, None))
    mutating = _mutating_variants(functions)
    for f in functions:
        if id(f) in wrapped or f.manual_kernel_registration:
            continue
        if f.generated:
            lib.wrappers.append(_autogen(namespace, f, lib.group_of(f), mutating))
            # A backend's own kernel (--autogen-kernels) serves its key before autogen's.
            for key, metadata in f.dispatch.items():
                if key in backends:
                    kernel = (
                        f"{kernel_namespace(namespace, metadata.cpp_namespace)}::{metadata.kernel}"
                    )
                    lib.wrappers.append(_kernel(f, key, kernel, metadata.supports_symint()))
            continue
        for key, metadata in f.dispatch.items():
            if key == COMPOSITE_EXPLICIT_NON_FUNCTIONAL and COMPOSITE_EXPLICIT not in f.dispatch:
                key = COMPOSITE_EXPLICIT  # the runtime has no functionalization to keep them apart
            if key in backends or key == META or key in COMPOSITES:
                kernel = f"{kernel_namespace(namespace, metadata.cpp_namespace)}::{metadata.kernel}"
                lib.wrappers.append(_kernel(f, key, kernel, metadata.supports_symint()))
    lib.wrappers.sort(key=lambda w: (w.op, w.key))
    return lib


def _delegates(f: NativeFunction, g: NativeFunctionsGroup) -> bool:
    """f is implemented by its group's structured kernel (not by a table of its own)."""
    return f is g.out or f.structured_delegate is not None


def _api(namespace: str, c: dispatcher.CppFunction) -> str:
    """A dispatcher-API function, qualified: an argument may share its name."""
    return f"::{namespace}::{c.name}"


def _wrapper_name(key: str, f: NativeFunction) -> str:
    return f"wrapper_{key}_{f.func.name.unambiguous_name()}"


def _device_code(f: NativeFunction, key: str) -> tuple[str | None, list[str]]:
    """The argument a device key's wrapper guards on, and those it checks share its device.

    Every tensor-like argument counts (`Tensor`, `Tensor?`, `Tensor[]`, `Tensor?[]`), as
    in torchgen: the guard takes `self`, else the first out argument, else the first
    positional one; a factory (no tensor) takes its `Device? device`. The check covers them
    all in schema order (its message names the first one), unless the function says
    `device_check: NoCheck`.
    """
    if key not in DEVICE_KEYS:
        return None, []
    args = f.func.arguments
    guard = None
    if f.device_guard:
        candidates = (
            ((args.self_arg,) if args.self_arg is not None else ()) + args.out + args.positional
        )
        guard = next((a.name for a in candidates if a.type.is_tensor_like()), None) or next(
            (a.name for a in args.kwarg_only if is_tensor_option(a, "device", "Device")), None
        )
    checked = [a.name for a in args.flat_all if a.type.is_tensor_like()]
    return guard, checked if f.device_check != "NoCheck" else []


def _wrapper(body, f: NativeFunction, key: str, var: Locals | None = None) -> Wrapper:
    guard, check = _device_code(f, key)
    return Wrapper(
        body,
        dispatcher.kernel_return(f),
        dispatcher.kernel_bindings(f),
        guard,
        check,
        var or Locals.of(f),
    )


def _kernel(f: NativeFunction, key: str, kernel: str, symint: bool) -> Wrapper:
    args = translate(dispatcher.kernel_bindings(f), native.arguments(f, symint=symint))
    return _wrapper(
        KernelWrapper(f, key, _wrapper_name(key, f), kernel, Call(f"::{kernel}", args)), f, key
    )


def _mutating_variants(functions: list[NativeFunction]) -> dict[str, NativeFunction]:
    """Group key -> the variant a generated functional one comes from: the mutable one,
    else the inplace one (as codegen/model/autogen.py chose it)."""
    found: dict[str, NativeFunction] = {}
    for f in functions:
        if f.func.kind == MUTABLE or (f.func.kind == INPLACE and f.func.group_key not in found):
            found[f.func.group_key] = f
    return found


def _autogen(
    namespace: str,
    f: NativeFunction,
    g: NativeFunctionsGroup | None,
    mutating: dict[str, NativeFunction],
) -> Wrapper:
    """The CompositeExplicitAutograd kernel of a function that `autogen:` made (see
    codegen/model/autogen.py for which): an out= variant from the functional one, a
    functional variant from the inplace or mutable one. Both copy with the yaml's `copy_`."""
    key = COMPOSITE_EXPLICIT
    name = _wrapper_name(key, f)
    bindings = dispatcher.kernel_bindings(f)
    body: AutogenOutWrapper | AutogenFunctionalWrapper
    if f.func.arguments.out:
        assert g is not None  # a generated out= variant is grouped with its functional one
        body, var = _autogen_out(namespace, f, g.functional, bindings, name)
    else:
        body, var = _autogen_functional(namespace, f, mutating[f.func.group_key], bindings, name)
    return _wrapper(body, f, key, var)


def _autogen_out(
    namespace: str,
    f: NativeFunction,
    functional: NativeFunction,
    bindings: tuple[Binding, ...],
    name: str,
) -> tuple[AutogenOutWrapper, Locals]:
    compute = dispatcher.cpp_functions(functional)[0]
    out_args = list(f.func.arguments.out)
    options_of = out_args[0].name if out_args else None
    args = translate(bindings, compute.bindings, options_of=options_of)
    written = [a for a in f.func.arguments.flat_non_out if a.is_write]  # a mutable base's
    copies: list[tuple[int, str]] = []
    parts: list[tuple[str, int | str]] = []
    outs = iter(out_args)
    n_parts = len(functional.func.returns)
    for i, r in enumerate(functional.func.returns):
        if i >= n_parts - len(written):  # `NAME_out`: the new value of a written input
            copies.append((i, written[i - (n_parts - len(written))].name))
        elif r.type.is_tensor_like():
            copies.append((i, next(outs).name))
        else:
            parts.append(("part", i))
    # The out= variant returns its out= arguments, or else the parts that are no tensors.
    returns = parts or ([("name", a.name) for a in out_args] if f.func.returns else [])
    body = AutogenOutWrapper(
        f, COMPOSITE_EXPLICIT, name, Call(_api(namespace, compute), args), n_parts, copies, returns
    )
    return body, Locals.of(f)


def _autogen_functional(
    namespace: str,
    f: NativeFunction,
    base: NativeFunction,
    bindings: tuple[Binding, ...],
    name: str,
) -> tuple[AutogenFunctionalWrapper, Locals]:
    call_fn = dispatcher.cpp_functions(base)[-1]  # `_outf` order if the base is an out= variant
    taken = {a.name for a in base.func.arguments.flat_all}
    written = [a for a in base.func.arguments.flat_all if a.is_write]
    clones, copies = [], []
    for a in written:
        copy = fresh(f"{a.name}_copy", taken)
        clones.append((a.name, copy))
        copies.append(Expr(copy, a))
    args = translate([*bindings, *copies], call_fn.bindings)
    returns: list[tuple[str, int | str]] = []
    returned = set()
    for i, r in enumerate(base.func.returns):
        alias = next(
            (
                c
                for a, c in zip(written, clones)
                if r.annotation is not None
                and a.annotation is not None
                and r.annotation.alias_set == a.annotation.alias_set
            ),
            None,
        )
        if alias is not None:
            returns.append(("name", alias[1]))
            returned.add(alias[0])
        else:
            returns.append(("part", i))
    returns += [("name", c) for a, c in clones if a not in returned]
    body = AutogenFunctionalWrapper(
        f,
        COMPOSITE_EXPLICIT,
        name,
        clones,
        Call(_api(namespace, call_fn), args),
        len(base.func.returns),
        returns,
    )
    return body, Locals.of(f, taken)


def _structured(
    lib_namespace: str,
    g: NativeFunctionsGroup,
    f: NativeFunction,
    role: str,
    key: str,
    impl: str | None,
) -> Wrapper:
    meta_struct = f"::{lib_namespace}::meta::{structured.meta_name(g)}"
    parent = impl or meta_struct
    out_args = g.out.func.arguments.out
    if role == INPLACE:
        outputs = [a.name for a in f.func.arguments.flat_all if a.is_write]
    else:
        outputs = [a.name for a in out_args]
    bindings = dispatcher.kernel_bindings(f)
    var = Locals.of(f)
    # What the final class holds: the outputs (not for out=, whose outputs are parameters)
    # and the values meta() precomputed.
    held = (
        [] if role == OUT else [Expr(f"{var.op}.outputs_[{i}]", a) for i, a in enumerate(out_args)]
    )
    pre = g.out.precomputed
    if pre is not None:
        held += [Expr(f"{var.op}.precomputed.{a.name}", a, exact=True) for a in pre.arguments]
    meta_args = translate(bindings, structured.meta_arguments(g))
    impl_args = (
        translate([*bindings, *held], structured.impl_arguments(g)) if impl is not None else None
    )
    redispatch = None
    if key == COMMON:
        # The out= variant of the same group, through the dispatcher, on the outputs.
        out_fn = dispatcher.cpp_functions(g.out)[-1]
        redispatch = Call(
            _api(lib_namespace, out_fn), translate([*bindings, *held], out_fn.bindings)
        )
    body = StructuredWrapper(
        function=f,
        role=role,
        key=key,
        name=_wrapper_name(key, f),
        # One final class per wrapper, named after it: unique as the wrappers are.
        class_name=f"structured_{f.func.name.unambiguous_name()}_{key}",
        parent=parent,
        meta_struct=meta_struct,
        outputs=outputs,
        n_returns=len(f.func.returns),
        meta_args=meta_args,
        impl_args=impl_args,
        redispatch=redispatch,
    )
    return _wrapper(body, f, key, var)
