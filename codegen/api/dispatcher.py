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

from dataclasses import dataclass

from codegen.api import native
from codegen.api.types import Binding
from codegen.model.entry import NativeFunction


@dataclass(frozen=True)
class CppFunction:
    """One C++ function of the dispatcher API: `ret name(params)` calling the kernel with `args`."""

    ret: str
    name: str
    params: str  # declaration, with defaults
    params_no_defaults: str  # definition
    args: str  # the kernel's arguments, in kernel order, as expressions


def kernel_bindings(f: NativeFunction) -> list[Binding]:
    return native.arguments(f, symint=False)


def kernel_return(f: NativeFunction) -> str:
    return native.returns_type(f.func.returns, f.use_const_ref_for_mutable_tensors).cpp()


def kernel_params(f: NativeFunction) -> str:
    return ", ".join(b.decl(with_default=False) for b in kernel_bindings(f))


def kernel_signature(f: NativeFunction) -> str:
    """The C++ function type of every kernel of f, e.g. `Tensor (const Tensor &, int64_t)`."""
    return f"{kernel_return(f)} ({', '.join(b.type.cpp() for b in kernel_bindings(f))})"


def kernel_args(f: NativeFunction) -> str:
    return ", ".join(b.name for b in kernel_bindings(f))


def cpp_functions(f: NativeFunction) -> list[CppFunction]:
    """The C++ functions that call f: one, or `name_out` and `name_outf` for out= functions."""
    bindings = kernel_bindings(f)
    ret = kernel_return(f)
    name = str(f.func.name.name)
    args = ", ".join(b.name for b in bindings)
    in_order = ", ".join(b.decl(with_default=False) for b in bindings)
    if not f.func.arguments.out:
        with_defaults = [_with_default(b, a) for b, a in zip(bindings, f.func.arguments.flat_all)]
        return [CppFunction(ret, name, ", ".join(b.decl() for b in with_defaults), in_order, args)]
    n_out = len(f.func.arguments.out)
    non_out = [_with_default(b, a) for b, a in zip(bindings, f.func.arguments.flat_all)][:-n_out]
    out_first = bindings[-n_out:] + non_out
    return [
        CppFunction(ret, name + "_out", ", ".join(b.decl() for b in out_first),
                    ", ".join(b.decl(with_default=False) for b in out_first), args),
        CppFunction(ret, name + "_outf", in_order, in_order, args),
    ]


def _with_default(b: Binding, a) -> Binding:
    if a.default is None:
        return b
    return Binding(b.name, b.type, native.default_expr(a))
