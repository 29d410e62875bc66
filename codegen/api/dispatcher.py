"""The dispatcher API: how every operator is called, through the dispatcher or statically.

    - func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
    =>  kernel signature:  Tensor & (const Tensor & self, const Tensor & other, const Scalar & alpha, Tensor & out)
        C++ functions:     Tensor & add_out(Tensor & out, const Tensor & self, const Tensor & other, const Scalar & alpha=1)
                           Tensor & add_outf(const Tensor & self, const Tensor & other, const Scalar & alpha, Tensor & out)

Kernels registered for an operator all share its kernel signature: the native API's
arguments without defaults (mutable tensors as `Tensor &`, no SymInts). The C++
functions drop the overload name (C++ overloading tells them apart), keep the
schema's defaults, and give an out= function two spellings, as ATen does.

`variants: method` gets the same free function, not a member: the runtime's Tensor
(`sops::Tensor`) is shared by every operator library in a process, so no library can
add members to it the way ATen generates its own `at::Tensor`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from codegen.api import native
from codegen.api.types import Binding
from codegen.model.entry import NativeFunction


@dataclass(frozen=True)
class CppFunction:
    """One C++ function of the dispatcher API: `ret name(params)`, calling f's kernel with
    its `bindings` in kernel order."""

    ret: str
    name: str
    params: tuple[Binding, ...]  # in declaration order, with the defaults the declaration keeps
    bindings: tuple[Binding, ...]  # the kernel's parameters, in kernel order

    @functools.cached_property
    def params_decl(self) -> str:
        return ", ".join(b.decl() for b in self.params)

    @functools.cached_property
    def params_no_defaults(self) -> str:
        return ", ".join(b.decl(with_default=False) for b in self.params)

    @functools.cached_property
    def args(self) -> str:
        return ", ".join(b.name for b in self.bindings)


@functools.cache
def kernel_bindings(f: NativeFunction) -> tuple[Binding, ...]:
    """The parameters of every kernel of f, without defaults."""
    return tuple(b.no_default() for b in native.arguments(f, symint=False))


@functools.cache
def kernel_return(f: NativeFunction) -> str:
    return native.returns_type(f.func.returns, f.use_const_ref_for_mutable_tensors).cpp()


def kernel_params(f: NativeFunction) -> str:
    return ", ".join(b.decl() for b in kernel_bindings(f))


@functools.cache
def kernel_signature(f: NativeFunction) -> str:
    """The C++ function type of every kernel of f, e.g. `Tensor (const Tensor &, int64_t)`."""
    return f"{kernel_return(f)} ({', '.join(b.type.cpp() for b in kernel_bindings(f))})"


@functools.cache
def cpp_functions(f: NativeFunction) -> tuple[CppFunction, ...]:
    """The C++ functions that call f: one, or `name_out` and `name_outf` for out= functions."""
    bindings = kernel_bindings(f)
    ret = kernel_return(f)
    name = str(f.func.name.name)
    if not f.func.arguments.out:
        return (CppFunction(ret, name, native.arguments(f, symint=False), bindings),)
    n_out = len(f.func.arguments.out)
    with_defaults = [
        b
        if b.argument.default is None
        else Binding(b.name, b.type, b.argument, native.default_expr(b.argument))
        for b in bindings[:-n_out]
    ]
    out_first = bindings[-n_out:] + tuple(
        native.trailing_defaults(with_defaults, f.cpp_no_default_args)
    )
    return (
        CppFunction(ret, name + "_out", out_first, bindings),
        CppFunction(ret, name + "_outf", bindings, bindings),
    )
