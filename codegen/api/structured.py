"""The structured API: the `meta()` and `impl()` a structured kernel's author writes.

    struct structured_add_Tensor : public TensorIteratorBase {
      void meta(const Tensor & self, const Tensor & other, const Scalar & alpha);
    };
    struct structured_add_out : public structured_add_Tensor {
      void impl(const Tensor & self, const Tensor & other, const Scalar & alpha, const Tensor & out);
    };

Structured kernels never take defaults, never take SymInts, and receive every tensor
(out arguments included) as `const Tensor &`.  `precomputed:` replaces arguments of
`impl()` with values `meta()` computed.
"""

from __future__ import annotations

import functools
from typing import NotRequired, TypedDict

from codegen.api import types as ct
from codegen.api.native import value_type
from codegen.api.types import Binding, CType
from codegen.model.groups import NativeFunctionsGroup
from codegen.model.schema import Argument
from codegen.model.types import TENSOR, BaseType, ListType, OptionalType, Type

META_BASE = "MetaBase"


class MetaDeclaration(TypedDict):
    struct: str
    parent: str
    declaration: str
    precomputed: NotRequired[list[str]]  # `type name` of each precomputed member, if any


@functools.cache
def argument_type(t: Type) -> CType:
    v = value_type(t, symint=False)
    if v is not None:
        return v
    if isinstance(t, BaseType):
        return ct.ConstRefCType(ct.SCALAR if t.name == "Scalar" else ct.TENSOR)
    if isinstance(t, OptionalType):
        if t.elem == TENSOR:
            return ct.BaseCType("OptionalTensorRef")
        if t.elem == BaseType("Scalar"):
            return ct.BaseCType("OptionalScalarRef")
        if isinstance(t.elem, ListType) and str(t.elem.elem) in ("int", "SymInt"):
            return ct.OPTIONAL_INT_ARRAY_REF
        return ct.OptionalCType(_strip_ref(argument_type(t.elem)))
    if isinstance(t, ListType):
        elem = str(t.elem)
        if elem == "Tensor":
            return ct.ConstRefCType(ct.BaseCType("ITensorListRef"))
        if elem == "Tensor?":
            return ct.BaseCType("IOptTensorListRef")
        if elem in ("int", "SymInt"):
            return ct.INT_ARRAY_REF
        return ct.ArrayRefCType(_strip_ref(argument_type(t.elem)))
    return ct.BaseCType(str(t).replace(".", "::"))


def _strip_ref(t: CType) -> CType:
    return t.elem if isinstance(t, (ct.ConstRefCType, ct.MutRefCType)) else t


def _bindings(args) -> list[Binding]:
    return [Binding(a.name, argument_type(a.type), a) for a in args]


def meta_name(g: NativeFunctionsGroup) -> str:
    """`structured_<functional name>_<overload>`: the struct holding meta()."""
    return "structured_" + g.functional.func.name.unqualified().replace(".", "_")


@functools.cache
def meta_arguments(g: NativeFunctionsGroup) -> tuple[Binding, ...]:
    return tuple(_bindings(g.functional.func.arguments.flat_non_out))


@functools.cache
def impl_arguments(g: NativeFunctionsGroup) -> tuple[Binding, ...]:
    out = g.out
    args: list[Argument] = []
    pre = out.precomputed
    for a in out.func.arguments.flat_non_out:
        replacement = pre.replacement(a.name) if pre is not None else None
        args.extend(replacement if replacement is not None else (a,))
    if pre is not None:
        args.extend(pre.add)
    args.extend(out.func.arguments.out)
    return tuple(_bindings(args))


def meta_declaration(g: NativeFunctionsGroup) -> MetaDeclaration:
    """The meta struct of a group: meta() returns void; `precomputed:` values are members
    of the struct (`precomputed.<name>`) that meta() sets and the wrapper passes to impl()."""
    pre = g.out.precomputed
    decl: MetaDeclaration = {
        "struct": meta_name(g),
        "parent": g.out.structured_inherits or META_BASE,
        "declaration": f"void meta({', '.join(b.decl() for b in meta_arguments(g))})",
    }
    if pre is not None:
        decl["precomputed"] = [f"{argument_type(a.type).cpp()} {a.name}" for a in pre.arguments]
    return decl


def impl_declarations(g: NativeFunctionsGroup) -> dict[str, dict]:
    """kernel -> its impl struct and declaration, for each structured kernel of the group."""
    args = ", ".join(b.decl() for b in impl_arguments(g))
    return {
        m.kernel: {
            "struct": f"structured_{m.kernel}",
            "parent": meta_name(g),
            "declaration": f"void impl({args})",
        }
        for _, m in sorted(g.out.dispatch.items())
        if m.structured
    }
