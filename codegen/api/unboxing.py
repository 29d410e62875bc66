"""The unboxing API: boxed values (runtime/value.h) to the dispatcher API's C++ arguments,
and its returns back to values; each schema as constant data for the registry.

    - func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
    =>  void add_out(::sops::Stack& stack) {
          ::sops::Value* args = ::sops::unbox::arguments(stack, 4);
          auto result = ::my::ops::add_outf(::sops::unbox::tensor(args[0]),
              ::sops::unbox::tensor(args[1]), ::sops::unbox::scalar(args[2]),
              ::sops::unbox::mutable_tensor(args[3]));
          ::sops::unbox::finish(stack, 4, std::move(result));
        }

Values sit on the stack in schema order (positional, keyword-only, out); the call's
arguments are translated from the dispatcher API's bindings through the schema argument
each remembers, never by name. An operator with a type that a Value cannot hold
(Stream, Storage, Dimname, ...) gets no wrapper: `unboxable` says why.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from codegen.api import dispatcher
from codegen.api import types as ct
from codegen.model import defaults
from codegen.model.dispatch import COMPOSITE_EXPLICIT
from codegen.model.entry import NativeFunction
from codegen.model.schema import Argument, Return
from codegen.model.types import BaseType, ListType, OptionalType, Type

# Schema base types a Value holds, and their TypeSchema::Kind.
_KINDS = {
    "Tensor": "Tensor",
    "int": "Int",
    "SymInt": "Int",
    "float": "Float",
    "bool": "Bool",
    "str": "Str",
    "Scalar": "Scalar",
    "ScalarType": "ScalarType",
    "Layout": "Layout",
    "Device": "Device",
    "MemoryFormat": "MemoryFormat",
    "Generator": "Generator",
    "DeviceIndex": "Int",
    "SymBool": "Bool",
}
# Converters of runtime/unboxing.h for a base type (Tensor and lists apart).
_CONVERTERS = {
    "int": "integer",
    "SymInt": "integer",
    "DeviceIndex": "integer",
    "SymBool": "boolean",
    "float": "floating",
    "bool": "boolean",
    "str": "string",
    "Scalar": "scalar",
    "ScalarType": "scalar_type",
    "Layout": "layout",
    "Device": "device",
    "MemoryFormat": "memory_format",
    "Generator": "generator",
}
_UNBOX = "::sops::unbox::"


class NotBoxable(Exception):
    """An argument or return that a Value cannot hold, or a default it cannot give."""


@dataclass(frozen=True)
class TypeData:
    """A runtime TypeSchema initializer."""

    kind: str
    elem_optional: bool
    is_list: bool
    size: int
    optional: bool
    text: str

    @functools.cached_property
    def cpp(self) -> str:  # a TypeSchema initializer, computed once per type
        return (
            f"{{K::{self.kind}, {_BOOL[self.elem_optional]}, {_BOOL[self.is_list]}, "
            f'{_BOOL[self.optional]}, {self.size}, "{self.text}"}}'
        )


_BOOL = {False: "false", True: "true"}


@functools.cache
def type_data(t: Type) -> TypeData:
    text = str(t)
    optional = isinstance(t, OptionalType)
    if isinstance(t, OptionalType):
        t = t.elem
    is_list, size = isinstance(t, ListType), 0
    if isinstance(t, ListType):
        size = t.size or 0
        t = t.elem
    elem_optional = isinstance(t, OptionalType)
    if isinstance(t, OptionalType):
        t = t.elem
    kind = _KINDS.get(t.name, "Other") if isinstance(t, BaseType) else "Other"
    return TypeData(kind, elem_optional, is_list, size, optional, text)


def convert(a: Argument, cpp_type: ct.CType, value: str) -> str:
    """The C++ expression that turns the Value `value` into argument `a` of type cpp_type."""
    t = a.type
    optional = isinstance(t, OptionalType)
    inner = t.elem if isinstance(t, OptionalType) else t
    if isinstance(inner, BaseType) and inner.name == "Tensor":
        if optional:
            return f"{_UNBOX}optional_tensor({value})"
        mutable = isinstance(cpp_type, ct.MutRefCType)
        return f"{_UNBOX}{'mutable_tensor' if mutable else 'tensor'}({value})"
    if isinstance(inner, ListType):
        return _convert_list(inner, optional, value)
    if isinstance(inner, BaseType) and inner.name in _CONVERTERS:
        fn = _UNBOX + _CONVERTERS[inner.name]
        return f"{_UNBOX}optional({value}, {fn})" if optional else f"{fn}({value})"
    raise NotBoxable(f"argument `{a.name}` has type `{t}`, which a boxed value cannot hold")


def _convert_list(t: ListType, optional: bool, value: str) -> str:
    elem = str(t.elem)
    size = t.size or 0
    if elem in ("int", "SymInt"):
        return (
            f"{_UNBOX}optional_int_list({value}, {size})"
            if optional
            else f"{_UNBOX}int_list({value}, {size})"
        )
    if elem == "float":
        return (
            f"{_UNBOX}optional_double_list({value})"
            if optional
            else f"{_UNBOX}double_list({value})"
        )
    if not optional:
        if elem == "Tensor":
            return f"{_UNBOX}tensor_list({value})"
        if elem == "Tensor?":
            return f"{_UNBOX}optional_tensor_list({value})"
        if elem == "Scalar":
            return f"{_UNBOX}scalar_list({value})"
        if elem == "bool" and size:
            return f"{_UNBOX}bool_array<{size}>({value})"
    raise NotBoxable(f"type `{t}{'?' if optional else ''}` cannot be unboxed")


def check_return(r: Return) -> None:
    t = r.type
    if isinstance(t, OptionalType):
        t = t.elem
    if isinstance(t, ListType):
        t = t.elem
    if not (isinstance(t, BaseType) and t.name in _KINDS and t.name != "Generator"):
        raise NotBoxable(f"return type `{r.type}` cannot be boxed")


# ---------------------------------------------------------------------------------------
# Defaults as DefaultValue initializers (runtime/operator_registry.h).


def _double_literal(text: str) -> str:
    value = float(text)
    if math.isinf(value):
        return ("-" if value < 0 else "") + "::std::numeric_limits<double>::infinity()"
    if math.isnan(value):
        return "::std::numeric_limits<double>::quiet_NaN()"
    return repr(value)


def _int_literal(text: str) -> str:
    value = int(text)
    return "(-9223372036854775807 - 1)" if value == -(2**63) else str(value)


def default_value(a: Argument, constant: str) -> tuple[str, str | None]:
    """(DefaultValue initializer, definition of a list constant named `constant` or None)."""
    d, t = a.default, a.type
    assert d is not None, f"`{a}` has no default"  # the caller asks only for arguments with one
    if d == "None":
        return "D::none()", None
    if isinstance(t, OptionalType):
        t = t.elem
    if isinstance(t, ListType):
        return _default_list(t, d, constant)
    name = t.base_name()
    if d in ("True", "False") and name in ("bool", "Scalar"):
        return f"D::of_bool({d.lower()})", None
    if name in ("int", "SymInt") and d in defaults.REDUCTIONS:
        return f"D::of_int(::sops::{defaults.REDUCTIONS[d]})", None
    if name in ("int", "SymInt", "Scalar") and defaults.INT_RE.match(d):
        return f"D::of_int({_int_literal(d)})", None
    if name in ("float", "Scalar"):
        return f"D::of_double({_double_literal(d)})", None
    if name == "str" and len(d) >= 2 and d[0] in "'\"":
        return f"D::of_string({_cpp_string(d[1:-1])})", None
    if name == "ScalarType" and d in defaults.SCALAR_TYPES:
        return f"D::of(::sops::ScalarType::{defaults.SCALAR_TYPES[d]})", None
    if name == "Layout" and d in defaults.LAYOUTS:
        return f"D::of(::sops::Layout::{defaults.LAYOUTS[d]})", None
    if name == "MemoryFormat" and d in defaults.MEMORY_FORMATS:
        return f"D::of(::sops::MemoryFormat::{defaults.MEMORY_FORMATS[d]})", None
    if name == "Device" and len(d) >= 2 and d[0] in "'\"":
        kind, _, index = d[1:-1].partition(":")
        device_type = {"cpu": "CPU", "cuda": "CUDA", "meta": "Meta"}[kind]
        return f"D::of(::sops::Device(::sops::DeviceType::{device_type}, {index or -1}))", None
    raise NotBoxable(f"the default `{d}` of argument `{a.name}` cannot be boxed")


def _default_list(t: ListType, d: str, constant: str) -> tuple[str, str | None]:
    items = (
        [x.strip() for x in d[1:-1].split(",") if x.strip()]
        if d.startswith("[")
        else [d] * (t.size or 1)
    )
    elem = str(t.elem)
    if elem in ("int", "SymInt"):
        cpp_type, factory, values = "int64_t", "of_ints", [_int_literal(x) for x in items]
    elif elem == "float":
        cpp_type, factory, values = "double", "of_doubles", [_double_literal(x) for x in items]
    elif elem == "bool":
        cpp_type, factory, values = "bool", "of_bools", [x.lower() for x in items]
    else:
        raise NotBoxable(f"the default `{d}` of a `{t}` argument cannot be boxed")
    if not values:
        return f"D::{factory}(nullptr, 0)", None
    return (
        f"D::{factory}({constant}, {len(values)})",
        f"constexpr {cpp_type} {constant}[] = {{{', '.join(values)}}};",
    )


def _copies(f: NativeFunction) -> bool:
    """FunctionSchema::generated: autogen wrote f's kernel and no backend gave its own
    (--autogen-kernels), so an out= variant runs the functional kernel and copies."""
    return f.generated and all(key == COMPOSITE_EXPLICIT for key in f.dispatch)


def _cpp_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------------------
# One operator.

_FUNCTION = "{function}"  # stands for the operator's C++ name in a cached argument line


@functools.cache
def _argument_line(a: Argument, kwarg_only: bool, is_out: bool) -> tuple[str, str | None]:
    """(an ArgumentSchema initializer, the definition of its default list or None); a
    list default's constant is named after the operator: `_FUNCTION` is replaced."""
    default, constant = (
        (None, None) if a.default is None else default_value(a, f"k_{_FUNCTION}_{a.name}_default")
    )
    line = (
        f'{{"{a.name}", {type_data(a.type).cpp}, "{a.annotation or ""}", {default or "{}"}, '
        f"{_cpp_string(a.default or '')}, {_BOOL[kwarg_only]}, {_BOOL[is_out]}, {_BOOL[default is not None]}}}"
    )
    return line, constant


@functools.cache
def _return_line(r: Return) -> str:
    check_return(r)
    return f'{{"{r.name or ""}", {type_data(r.type).cpp}, "{r.annotation or ""}"}}'


@dataclass(frozen=True)
class UnboxedOperator:
    """One operator's boxed kernel and its schema, as the templates write them."""

    full_name: str  # "aten::add.Tensor"
    root: str  # its root name (NativeFunction.root): its shard and the header it calls through
    schema: str  # the schema's text
    function: str  # the wrapper's C++ name, in <ns>::unboxing
    n_arguments: int
    callee: str  # the dispatcher-API function
    call_arguments: tuple[str, ...]  # its arguments, from the values `args[i]`
    returns_void: bool
    schema_data: str  # the C++ constants of its schema, `<function>_schema` among them


def unboxed_operator(f: NativeFunction, namespace: str) -> UnboxedOperator:
    """f's boxed kernel and schema data; NotBoxable if a Value cannot carry one of its types."""
    func = f.func
    arguments = func.arguments
    flat = arguments.flat_all
    position = {id(a): i for i, a in enumerate(flat)}
    c = dispatcher.cpp_functions(f)[
        -1
    ]  # `name_outf` for out= functions: every argument, in kernel order
    call = tuple(
        convert(b.argument, b.type, f"args[{position[id(b.argument)]}]") for b in c.bindings
    )
    returns = [_return_line(r) for r in func.returns]
    function = func.name.unambiguous_name()
    n_positional, n_out = len(arguments.positional), len(arguments.out)
    schema = str(func)
    lines = [f"// {schema}"]
    argument_lines = []
    for i, a in enumerate(flat):
        line, constant = _argument_line(a, i >= n_positional, i >= len(flat) - n_out)
        if constant is not None:
            lines.append(constant.replace(_FUNCTION, function))
            line = line.replace(_FUNCTION, function)
        argument_lines.append(f"    {line},")
    if argument_lines:
        lines += [
            f"constexpr ::sops::ArgumentSchema {function}_arguments[] = {{",
            *argument_lines,
            "};",
        ]
    if returns:
        lines += [
            f"constexpr ::sops::ReturnSchema {function}_returns[] = {{",
            *(f"    {r}," for r in returns),
            "};",
        ]
    ns = func.name.effective_namespace
    name = str(func.name.name)
    overload = func.name.overload_name
    full_name = func.name.full_name()
    lines += [
        f"constexpr ::sops::FunctionSchema {function}_schema{{",
        f"    {_cpp_string(full_name)}, {_cpp_string(ns)}, {_cpp_string(name)}, {_cpp_string(overload)},",
        f"    {function + '_arguments' if flat else '{}'}, {function + '_returns' if returns else '{}'}"
        + (", true};" if _copies(f) else "};"),
    ]
    return UnboxedOperator(
        full_name=full_name,
        root=f.root,
        schema=schema,
        function=function,
        n_arguments=len(flat),
        callee=f"::{namespace}::{c.name}",
        call_arguments=call,
        returns_void=not func.returns,
        schema_data="\n".join(lines),
    )
