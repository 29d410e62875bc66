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
dispatch table that the library builds (its backends, Meta, and the composite keys).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from codegen.api import dispatcher, structured
from codegen.api.types import Binding
from codegen.diagnostics import Diagnostics
from codegen.model.dispatch import COMPOSITE_EXPLICIT, COMPOSITE_IMPLICIT, DEFAULT_KERNEL_NAMESPACE
from codegen.model.entry import NativeFunction
from codegen.model.groups import NativeFunctionsGroup
from codegen.model.schema import FUNCTIONAL, INPLACE, OUT

META = "Meta"
COMMON = "Common"
COMPOSITES = (COMPOSITE_EXPLICIT, COMPOSITE_IMPLICIT)
# Keys whose kernels run on a device other than the CPU: their wrappers set the device
# and check that the tensors share it.
DEVICE_KEYS = frozenset(("CUDA",))


@dataclass
class StructuredWrapper:
    """A wrapper of one member of a structured group for one key (a backend, Meta or Common)."""

    function: NativeFunction
    role: str  # FUNCTIONAL, INPLACE or OUT
    key: str
    name: str  # the wrapper function's name
    class_name: str  # the final class
    parent: str  # the class it derives from: an impl struct, or the meta struct for Meta/Common
    outputs: list[str]  # names of the outputs, for messages
    meta_args: str
    impl_args: str | None  # None: no impl() call (Meta, Common)
    redispatch: str | None  # Common: the out= call through the dispatcher
    returns: str  # the return statement's expression

    @property
    def op(self) -> str:
        return self.function.key


@dataclass
class KernelWrapper:
    """A wrapper that calls a hand-written kernel (unstructured, composite), or, for a
    function that `autogen:` made, runs the statements generated in its place."""

    function: NativeFunction
    key: str
    name: str
    kernel: str | None  # the kernel's qualified name, e.g. `my::ops::native::relu`
    call: str | None  # the kernel call expression
    statements: list[str] = field(default_factory=list)  # the body of an autogen kernel


@dataclass
class Wrapper:
    """Common to both kinds: what registration and static entry points need."""

    body: StructuredWrapper | KernelWrapper
    ret: str
    params: str
    device_guard: str | None
    device_check: list[str]

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
    def structured(self) -> bool:
        return isinstance(self.body, StructuredWrapper)


@dataclass
class Library:
    namespace: str
    backends: tuple[str, ...]
    functions: list[NativeFunction]
    groups: list[NativeFunctionsGroup]
    shards: int
    wrappers: list[Wrapper] = field(default_factory=list)

    @property
    def structured_groups(self) -> list[NativeFunctionsGroup]:
        return [g for g in self.groups if g.structured]

    @property
    def static_keys(self) -> tuple[str, ...]:
        """Keys with static entry points: the backends, and Meta."""
        return self.backends + (META,)

    def group_of(self, f: NativeFunction) -> NativeFunctionsGroup | None:
        return self._group_of.get(id(f))

    def shard_of(self, wrapper: Wrapper) -> int:
        """A stable shard for a wrapper: by the sha1 of its operator's group, not hash()."""
        group = self.group_of(wrapper.function)
        key = group.key if group is not None else wrapper.op
        return int(hashlib.sha1(key.encode()).hexdigest(), 16) % self.shards

    def wrappers_for(self, keys: tuple[str, ...], shard: int) -> list[Wrapper]:
        return [w for w in self.wrappers if w.key in keys and self.shard_of(w) == shard]

    def __post_init__(self) -> None:
        self._group_of = {id(f): g for g in self.groups for f in g.functions()}


def kernel_namespace(library_namespace: str, cpp_namespace: str) -> str:
    """Where a kernel named in the yaml lives: `<library>::native` unless it says otherwise."""
    return f"{library_namespace}::native" if cpp_namespace == DEFAULT_KERNEL_NAMESPACE else cpp_namespace


def build_library(namespace: str, backends: tuple[str, ...], functions: list[NativeFunction],
                  groups: list[NativeFunctionsGroup], shards: int,
                  diagnostics: Diagnostics) -> Library:
    """The library's wrappers; what cannot be generated is reported to `diagnostics`."""
    lib = Library(namespace, backends, functions, groups, shards)
    wrapped = set()
    for g in lib.structured_groups:
        members = [(FUNCTIONAL, g.functional), (INPLACE, g.inplace), (OUT, g.out)]
        members = [(role, f) for role, f in members if f is not None and _delegates(f, g)]
        for role, f in members:
            wrapped.add(id(f))
        for key, metadata in sorted(g.out.dispatch.items()):
            if key in backends and metadata.structured:
                impl = f"::{kernel_namespace(namespace, metadata.cpp_namespace)}::structured_{metadata.kernel}"
                for role, f in members:
                    lib.wrappers.append(_structured(namespace, g, f, role, key, impl))
        for role, f in members:
            lib.wrappers.append(_structured(namespace, g, f, role, META, None))
            if role != OUT:
                lib.wrappers.append(_structured(namespace, g, f, role, COMMON, None))
    for f in functions:
        if id(f) in wrapped or f.manual_kernel_registration:
            continue
        if f.generated:
            wrapper = _autogen(f, lib.group_of(f), functions, diagnostics)
            if wrapper is not None:
                lib.wrappers.append(wrapper)
            continue
        for key, metadata in f.dispatch.items():
            if key in backends or key == META or key in COMPOSITES:
                kernel = f"{kernel_namespace(namespace, metadata.cpp_namespace)}::{metadata.kernel}"
                lib.wrappers.append(_kernel(f, key, kernel))
    lib.wrappers.sort(key=lambda w: (w.op, w.key))
    return lib


def _delegates(f: NativeFunction, g: NativeFunctionsGroup) -> bool:
    """f is implemented by its group's structured kernel (not by a table of its own)."""
    return f is g.out or f.structured_delegate is not None


def _wrapper_name(key: str, f: NativeFunction) -> str:
    return f"wrapper_{key}_{f.func.name.unambiguous_name()}"


def _device_code(f: NativeFunction, key: str) -> tuple[str | None, list[str]]:
    if key not in DEVICE_KEYS:
        return None, []
    tensors = [a.name for a in f.func.arguments.flat_all if str(a.type) == "Tensor"]
    guard = tensors[0] if tensors and f.device_guard else None
    check = tensors if f.device_check != "NoCheck" else []
    return guard, check


def _wrapper(body, f: NativeFunction, key: str) -> Wrapper:
    guard, check = _device_code(f, key)
    return Wrapper(body, dispatcher.kernel_return(f), dispatcher.kernel_params(f), guard, check)


def _kernel(f: NativeFunction, key: str, kernel: str) -> Wrapper:
    call = f"::{kernel}({dispatcher.kernel_args(f)})"
    return _wrapper(KernelWrapper(f, key, _wrapper_name(key, f), kernel, call), f, key)


def _autogen(f: NativeFunction, g: NativeFunctionsGroup | None, functions: list[NativeFunction],
             diagnostics: Diagnostics) -> Wrapper | None:
    """The CompositeExplicitAutograd kernel of a function that `autogen:` made: an out=
    variant computes the functional variant and copies it into `out`; a functional
    variant runs the inplace one on a copy of `self`. Both need `copy_`."""
    where = f.source.value("autogen")
    if not any(str(h.func.name) == "copy_" for h in functions):
        diagnostics.error(where, f"`{f.key}` needs a `copy_` operator to be generated",
                          "declare `copy_(Tensor(a!) self, Tensor src, bool non_blocking=False)"
                          " -> Tensor(a!)` in this yaml, or write the kernel yourself")
        return None
    args = f.func.arguments
    if args.out and g is not None and len(args.out) == 1 and g.functional is not f:
        out = args.out[0].name
        compute = dispatcher.cpp_functions(g.functional)[0]
        non_out = ", ".join(a.name for a in args.flat_all if a not in args.out)
        statements = [f"Tensor result = {compute.name}({non_out});",
                      f"{out}.resize_(result.sizes());",
                      f"copy_({out}, result);",
                      f"return {out};"]
    elif not args.out and g is not None and g.inplace is not None and args.self_arg is not None:
        inplace = dispatcher.cpp_functions(g.inplace)[0]
        rest = ", ".join(a.name for a in args.flat_all if a.name != "self")
        statements = ["Tensor result = ::sops::empty(self.sizes(), self.options());",
                      "copy_(result, self);",
                      f"{inplace.name}(result{', ' + rest if rest else ''});",
                      "return result;"]
    else:
        diagnostics.error(where, f"this generator cannot make `{f.key}` yet",
                          "autogen covers an out= variant of a functional operator, and a "
                          "functional variant of an inplace one; write this kernel yourself")
        return None
    key = COMPOSITE_EXPLICIT
    return _wrapper(KernelWrapper(f, key, _wrapper_name(key, f), None, None, statements), f, key)


def _structured(lib_namespace: str, g: NativeFunctionsGroup, f: NativeFunction, role: str,
                key: str, impl: str | None) -> Wrapper:
    meta_struct = f"::{lib_namespace}::meta::{structured.meta_name(g)}"
    parent = impl or meta_struct
    owner = impl.rsplit("::", 1)[1] if impl else structured.meta_name(g)
    out_args = g.out.func.arguments.out
    if role == INPLACE:
        outputs = [a.name for a in f.func.arguments.flat_all if a.is_write]
    else:
        outputs = [a.name for a in out_args]
    output_exprs = {a.name: (a.name if role == OUT else f"op.outputs_[{i}]")
                    for i, a in enumerate(out_args)}
    meta_args = ", ".join(b.name for b in structured.meta_arguments(g))
    impl_args = None
    if impl is not None:
        impl_args = ", ".join(_impl_arg(b, g, output_exprs) for b in structured.impl_arguments(g))
    redispatch = None
    if key == COMMON:
        # The out= variant of the same group, through the dispatcher, on the outputs.
        out_fn = dispatcher.cpp_functions(g.out)[-1]
        non_out = [b.name for b in structured.meta_arguments(g)]
        redispatch = f"{out_fn.name}({', '.join(non_out + list(output_exprs.values()))})"
    returns = _returns(f, role, outputs)
    body = StructuredWrapper(
        function=f, role=role, key=key, name=_wrapper_name(key, f),
        class_name=f"{owner}_{key}_{role}", parent=parent, outputs=outputs,
        meta_args=meta_args, impl_args=impl_args, redispatch=redispatch, returns=returns)
    return _wrapper(body, f, key)


def _impl_arg(b: Binding, g: NativeFunctionsGroup, outputs: dict[str, str]) -> str:
    if b.name in outputs:
        return outputs[b.name]
    pre = g.out.precomputed
    if pre is not None and any(b.name == a.name for a in pre.arguments):
        return f"op.precomputed.{b.name}"
    return b.name


def _returns(f: NativeFunction, role: str, outputs: list[str]) -> str:
    if role == FUNCTIONAL:
        values = [f"std::move(op.outputs_[{i}])" for i in range(len(f.func.returns))]
        return values[0] if len(values) == 1 else f"std::make_tuple({', '.join(values)})"
    if len(outputs) == 1:
        return outputs[0]
    return f"std::forward_as_tuple({', '.join(outputs)})"
