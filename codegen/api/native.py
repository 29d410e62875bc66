"""The native API: the C++ functions a kernel author writes for a non-structured kernel.

    - func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
      dispatch: {CPU: add_out_cpu}
    =>  Tensor & add_out_cpu(const Tensor & self, const Tensor & other, const Scalar & alpha, Tensor & out)

Arguments come in schema order with out arguments last; written tensors are passed
as `Tensor &` (`const Tensor &` with use_const_ref_for_mutable_tensors); defaults are
kept except on out= functions.  A kernel whose name contains `_symint` takes SymInts.
"""

from __future__ import annotations

import functools

from codegen.api import types as ct
from codegen.api.types import Binding, CType
from codegen.model import defaults
from codegen.model.entry import NativeFunction
from codegen.model.schema import Argument, Return
from codegen.model.types import BaseType, ListType, OptionalType, Type


def value_type(t: Type, symint: bool) -> CType | None:
    """The C++ type of a by-value schema type, or None if `t` is not one."""
    if isinstance(t, BaseType):
        if t.name == "SymInt":
            return ct.SYMINT if symint else ct.INT64
        return ct.VALUE_TYPES.get(t.name)
    if isinstance(t, OptionalType):
        elem = value_type(t.elem, symint)
        return None if elem is None else ct.OptionalCType(elem)
    if isinstance(t, ListType) and t.elem == BaseType("bool") and t.size is not None:
        return ct.ArrayCType(ct.BOOL, t.size)
    return None


@functools.cache
def argument_type(t: Type, *, write: bool, symint: bool, const_ref: bool) -> CType:
    v = value_type(t, symint)
    if v is not None:
        return v
    if isinstance(t, BaseType):
        if t.name == "Tensor":
            return (
                ct.MutRefCType(ct.TENSOR)
                if write and not const_ref
                else ct.ConstRefCType(ct.TENSOR)
            )
        if t.name == "Scalar":
            return ct.ConstRefCType(ct.SCALAR)
    if isinstance(t, OptionalType):
        elem = t.elem
        if isinstance(elem, ListType) and str(elem.elem) == "int":
            return ct.OPTIONAL_INT_ARRAY_REF
        if isinstance(elem, ListType) and str(elem.elem) == "SymInt":
            return ct.OPTIONAL_SYMINT_ARRAY_REF if symint else ct.OPTIONAL_INT_ARRAY_REF
        inner = argument_type(elem, write=False, symint=symint, const_ref=const_ref)
        if isinstance(inner, ct.ConstRefCType):
            inner = inner.elem
        return ct.ConstRefCType(ct.OptionalCType(inner))
    if isinstance(t, ListType):
        elem_name = str(t.elem)
        if elem_name == "int":
            return ct.INT_ARRAY_REF
        if elem_name == "SymInt":
            return ct.SYMINT_ARRAY_REF if symint else ct.INT_ARRAY_REF
        if elem_name == "Tensor":
            return ct.BaseCType("TensorList")
        if elem_name == "Tensor?":
            return ct.ArrayRefCType(ct.OptionalCType(ct.TENSOR))
        inner = argument_type(t.elem, write=False, symint=symint, const_ref=const_ref)
        if isinstance(inner, ct.ConstRefCType):
            inner = inner.elem
        return ct.ArrayRefCType(inner)
    return ct.BaseCType(str(t).replace(".", "::"))  # custom classes


def return_type(r: Return, const_ref: bool) -> CType:
    t = r.type
    if isinstance(t, BaseType) and t.name == "Tensor":
        if r.is_write:
            return ct.ConstRefCType(ct.TENSOR) if const_ref else ct.MutRefCType(ct.TENSOR)
        return ct.TENSOR
    if isinstance(t, BaseType) and t.name == "Scalar":
        return ct.SCALAR
    v = value_type(t, symint=True)
    if v is not None:
        return v
    if isinstance(t, ListType):
        return ct.VectorCType(return_type(Return(None, t.elem, None), const_ref))
    if isinstance(t, OptionalType):
        return ct.OptionalCType(return_type(Return(None, t.elem, None), const_ref))
    return ct.BaseCType(str(t))


def returns_type(returns: tuple[Return, ...], const_ref: bool = False) -> CType:
    if not returns:
        return ct.VOID
    if len(returns) == 1:
        return return_type(returns[0], const_ref)
    return ct.TupleCType(tuple(return_type(r, const_ref) for r in returns))


@functools.cache
def default_expr(a: Argument) -> str:
    """The C++ expression for a schema default."""
    d, t = a.default, a.type
    assert d is not None, f"`{a}` has no default"  # callers ask only for arguments with one
    if d == "None":
        return "{}" if str(t) == "Tensor?" else "::std::nullopt"
    if isinstance(t, OptionalType):
        t = t.elem
    if d in ("True", "False"):
        return d.lower()
    if isinstance(t, ListType):
        items = (
            [x.strip() for x in d[1:-1].split(",")] if d.startswith("[") else [d] * (t.size or 1)
        )
        elem = Argument("", t.elem, None, None)
        return "{" + ", ".join(default_expr(_with_default(elem, x)) for x in items if x) + "}"
    name = t.base_name()
    if name == "str":
        return _cpp_string(d)
    if name == "Device":
        return (
            f"Device({_cpp_string(d)})"  # the constructor that parses a device string is explicit
        )
    if name == "int" and d in defaults.REDUCTIONS:
        return defaults.REDUCTIONS[d]
    if name == "ScalarType" and d in defaults.SCALAR_TYPES:
        return "ScalarType::" + defaults.SCALAR_TYPES[d]
    if name == "MemoryFormat" and d in defaults.MEMORY_FORMATS:
        return "MemoryFormat::" + defaults.MEMORY_FORMATS[d]
    if name == "Layout" and d in defaults.LAYOUTS:
        return "Layout::" + defaults.LAYOUTS[d]
    if name == "QScheme":
        return "QScheme::" + d.upper()
    if d == "[]":
        return "{}"
    if d == "-9223372036854775808":  # as a C++ literal, 9223372036854775808 does not fit int64_t
        return "(-9223372036854775807 - 1)"
    return d


def _with_default(a: Argument, default: str) -> Argument:
    return Argument(a.name, a.type, default, a.annotation)


def _cpp_string(d: str) -> str:
    """A schema string literal ('...' or "...") as a C++ string literal."""
    body, quote = d[1:-1], d[0]
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append("'" if nxt == "'" else c + nxt)
            i += 2
            continue
        out.append('\\"' if c == '"' and quote == "'" else c)
        i += 1
    return '"' + "".join(out) + '"'


@functools.cache
def arguments(f: NativeFunction, symint: bool) -> tuple[Binding, ...]:
    """f's parameters in schema order; defaults kept, except on out= functions."""
    func = f.func
    keep_defaults = not func.arguments.out
    out = []
    for a in func.arguments.flat_all:
        t = argument_type(
            a.type, write=a.is_write, symint=symint, const_ref=f.use_const_ref_for_mutable_tensors
        )
        out.append(
            Binding(
                a.name, t, a, default_expr(a) if keep_defaults and a.default is not None else None
            )
        )
    return tuple(trailing_defaults(out, f.cpp_no_default_args))


def trailing_defaults(
    bindings: list[Binding], no_defaults: frozenset[str] = frozenset()
) -> list[Binding]:
    """C++ allows defaults only on a trailing run of parameters: a default before a
    parameter without one (legal in a schema) is dropped, as are those the yaml names in
    `cpp_no_default_args` (which keeps overloads unambiguous)."""
    result = list(bindings)
    trailing = True
    for i in reversed(range(len(result))):
        b = result[i]
        if b.default is None or b.name in no_defaults:
            trailing = False
        if b.default is not None and not trailing:
            result[i] = b.no_default()
    return result


def declaration(f: NativeFunction, kernel: str) -> str:
    symint = "_symint" in kernel
    ret = returns_type(f.func.returns, f.use_const_ref_for_mutable_tensors).cpp()
    args = ", ".join(b.decl() for b in arguments(f, symint))
    return f"{ret} {kernel}({args})"


def declarations(f: NativeFunction) -> dict[str, str]:
    """kernel name -> declaration, for each kernel of `f` that is a plain native function."""
    return {
        m.kernel: declaration(f, m.kernel)
        for _, m in sorted(f.dispatch.items())
        if not m.structured
    }
