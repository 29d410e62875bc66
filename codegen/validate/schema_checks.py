"""Rules about one schema: out arguments, returns, inplace operators, names, defaults."""

from __future__ import annotations

import functools
import re

from codegen.diagnostics import Diagnostics
from codegen.model.defaults import default_problem
from codegen.model.entry import NativeFunction
from codegen.model.schema import FUNCTIONAL, SCRATCH_PREFIX, TENSOR_OPTIONS, is_tensor_option
from codegen.model.types import TENSOR, BaseType, CustomClassType, ListType, OptionalType, Type
from codegen.validate.locate import at_arg, at_func, at_return, at_returns
from codegen.validate.names import CPP_KEYWORDS, PYTHON_KEYWORD_EXEMPT, PYTHON_KEYWORDS

_OUT_NAME_RE = re.compile(r"out\d*\Z")
KIND_PHRASE = {
    "functional": "a functional",
    "inplace": "an inplace",
    "out": "an out=",
    "mutable": "a mutable",
    "scratch": "a scratch",
}


def check_schema(f: NativeFunction, diags: Diagnostics) -> None:
    func = f.func
    args = func.arguments
    flat = args.flat_all
    name = func.name

    def at(a):  # where argument `a` is written (only looked up for a diagnostic)
        return at_arg(f, next(i for i, b in enumerate(flat) if b is a))

    _check_names(f, diags)
    _check_returns(f, diags)
    for i, a in enumerate(flat):
        t = a.type
        problem = (
            _GRAPH_MODULE
            if t.__class__ is BaseType and t.name == "GraphModule"
            else (None if t.__class__ is BaseType else type_problem(t))
        )
        if problem is not None:
            diags.error(at_arg(f, i), problem[0] + f" (argument `{a.name}`)", problem[1])
        if a.default is not None:
            problem = default_problem(a.type, a.default)
            if problem is not None:
                diags.error(
                    at_arg(f, i, "default"), problem[0] + f" (argument `{a.name}`)", problem[1]
                )

    for a in args.pre_self_positional:
        if a.is_write:
            diags.error(
                at(a),
                f"argument `{a.name}` comes before `self` and is written (`!`)",
                "only `self` and the arguments after it may be written; move it after `self`",
            )

    # Out arguments: keyword-only and written.
    for a in args.kwarg_only:
        if _OUT_NAME_RE.match(a.name) and a.type.is_tensor_like():
            diags.error(
                at(a),
                f"out argument `{a.name}` lacks a written alias annotation `(a!)`",
                f"write `Tensor(a!) {a.name}`; without `!` it is an ordinary input",
            )
    positional_outs = [
        a
        for a in args.post_self_positional
        if a.is_write and any(a.annotation == r.annotation for r in func.returns)
    ]
    for a in positional_outs:
        diags.error(
            at(a),
            f"out argument `{a.name}` must be keyword-only",
            f"put `*` before it: `..., *, {a}`",
        )

    if args.out and name.name.inplace:
        diags.error(
            at_func(f),
            f"`{name}` is inplace (its name ends in `_`) but has out= arguments",
            "an operator is either inplace or out=: drop the `_` or the out arguments",
        )

    reported = {
        id(r) for r in func.returns if any(r.annotation == a.annotation for a in positional_outs)
    }
    for i, (a, r) in enumerate(zip(args.out, func.returns)):
        if a.annotation != r.annotation:
            want = str(a).rsplit(" ", 1)[0]
            diags.error(
                at_return(f, i),
                f"return {i + 1} (`{r}`) does not alias out argument `{a.name}`",
                f"the returns of an out= function alias its out arguments in order: write `{want}`",
            )
            reported.add(id(r))

    written_returns = [r for r in func.returns if r.is_write]
    if written_returns and len(written_returns) != len(func.returns) and not name.name.inplace:
        diags.error(
            at_returns(f),
            "the returns mix written (`!`) and new values",
            "return only the written arguments (or nothing), or only new values",
        )
    aliasable = list(args.out) + ([args.self_arg] if args.self_arg is not None else [])
    for i, r in enumerate(func.returns):
        if (
            r.is_write
            and id(r) not in reported
            and not any(r.annotation == a.annotation for a in aliasable)
        ):
            diags.error(
                at_return(f, i),
                f"return `{r}` is written but aliases neither an out argument nor `self`",
                "did you forget the `*` before the out arguments?",
            )

    if args.out:
        if any(a.type != TENSOR for a in args.out):
            if func.returns:
                diags.error(
                    at_returns(f),
                    "an out= function with non-Tensor out arguments must return `()`",
                    "its out arguments (e.g. lists) cannot be returned; write `-> ()`",
                )
        else:
            n = len([a for a in args.out if not a.name.startswith(SCRATCH_PREFIX)])
            if n != len(func.returns):
                diags.error(
                    at_returns(f),
                    f"the function has {n} out argument(s) but {len(func.returns)} return(s)",
                    "an out= function returns each of its out arguments, in order",
                )

    if name.name.inplace:
        s = args.self_arg
        if s is None or not s.is_write:
            diags.error(
                at_func(f),
                f"inplace operator `{name}` has no written `self` argument",
                "an inplace operator (name ending in `_`) takes `Tensor(a!) self`",
            )
        elif s.type == TENSOR:
            if len(func.returns) != 1 or func.returns[0].annotation != s.annotation:
                diags.error(
                    at_returns(f),
                    f"inplace operator `{name}` must return `self`",
                    f"end the schema with `-> Tensor({s.annotation})`",
                )
        elif func.returns:
            diags.error(
                at_returns(f),
                f"inplace operator `{name}` with a `{s.type}` self must return `()`",
                "only a plain Tensor self can be returned",
            )

    to = args.tensor_options_index
    if to is not None and func.kind != FUNCTIONAL:
        diags.error(
            at_arg(f, len(args.positional) + to),
            f"{KIND_PHRASE[func.kind]} function cannot take tensor options (dtype, layout, device, "
            "pin_memory)",
            "tensor options are for functional (factory) functions only",
        )
    if to is not None:
        rest = args.kwarg_only[to + 4 :]
        for j in range(len(rest) - 3):
            if all(is_tensor_option(rest[j + k], n, b) for k, (n, b) in enumerate(TENSOR_OPTIONS)):
                diags.error(
                    at_arg(f, len(args.positional) + to + 4 + j),
                    "tensor options (dtype, layout, device, pin_memory) appear twice",
                    "keep one set",
                )
    if "functional" in name.overload_name and func.kind != FUNCTIONAL:
        diags.error(
            at_func(f),
            f"overload name `{name.overload_name}` contains `functional` but "
            f"`{name}` is not functional",
            "`functional` is reserved in overload names; choose another name",
        )

    arg_sets = {
        x
        for a in flat
        if a.annotation is not None
        for x in a.annotation.alias_set + a.annotation.alias_set_after
    }
    for i, r in enumerate(func.returns):
        if r.annotation is not None and not r.is_write:
            for x in r.annotation.alias_set:
                if x not in arg_sets:
                    diags.warning(
                        at_return(f, i),
                        f"return `{r}` aliases set `{x}`, which no argument is in",
                        f"annotate the input it aliases, e.g. `Tensor({x}) self`",
                    )


def _check_names(f: NativeFunction, diags: Diagnostics) -> None:
    func = f.func
    op = func.name.name
    if op.base in CPP_KEYWORDS and not (op.inplace or op.dunder_method or op.functional_overload):
        diags.error(
            at_func(f),
            f"operator name `{func.name.name}` is a C++ keyword",
            "rename the operator: its C++ functions are named after it",
        )
    seen: dict[str, int] = {}
    for i, a in enumerate(func.arguments.flat_all):
        if a.name in seen:
            diags.error(
                at_arg(f, i, "name"),
                f"argument name `{a.name}` is used twice",
                "give each argument its own name",
            )
        seen.setdefault(a.name, i)
        if a.name in CPP_KEYWORDS:
            diags.error(
                at_arg(f, i, "name"),
                f"argument name `{a.name}` is a C++ keyword",
                f"rename it (e.g. `{a.name}_`): the generated C++ would not compile",
            )
        elif a.name in PYTHON_KEYWORDS and not (
            f.namespace == "aten" and (func.name.unqualified(), a.name) in PYTHON_KEYWORD_EXEMPT
        ):
            diags.error(
                at_arg(f, i, "name"),
                f"argument name `{a.name}` is a Python keyword",
                "rename it: Python callers could not pass it by keyword",
            )
    for i, r in enumerate(func.returns):
        if r.name is not None and (r.name in CPP_KEYWORDS or r.name in PYTHON_KEYWORDS):
            diags.error(
                at_return(f, i),
                f"return name `{r.name}` is a reserved word",
                "rename it; return names become C++ and Python identifiers",
            )


# The C++ side: a type is supported when torchgen maps it to C++ (torchgen/api/cpp.py)
# and the runtime has it; anything else would only fail once the generated code is built.


@functools.cache  # types are few, and shared by many arguments
def type_problem(t: Type) -> tuple[str, str] | None:
    """(what is wrong, hint) if the type `t` has no C++ type in any position."""
    inner = t
    while isinstance(inner, (OptionalType, ListType)):
        inner = inner.elem
    if isinstance(inner, CustomClassType):
        return (
            f"`{t}` has no C++ type: structured_ops does not support custom classes "
            "(`__torch__.torch.classes.*`)",
            "pass what the object holds as tensors and scalars instead",
        )
    if isinstance(inner, BaseType) and inner.name == "GraphModule":
        return (
            f"`{t}` has no C++ type: the structured_ops runtime has no graph modules",
            "remove it, or pass what the kernel needs as tensors and scalars",
        )
    return None


_GRAPH_MODULE = type_problem(BaseType("GraphModule"))


def _is_value_type(t: Type) -> bool:
    """Passed and returned by value (torchgen's valuetype_type): neither Tensor nor Scalar."""
    if isinstance(t, BaseType):
        return t.name not in ("Tensor", "Scalar")
    if isinstance(t, OptionalType):
        return _is_value_type(t.elem)
    return isinstance(t, ListType) and t.elem == BaseType("bool") and t.size is not None


@functools.cache
def return_type_problem(t: Type, written: bool) -> tuple[str, str] | None:
    """(what is wrong, hint) if `t` cannot be a return type (torchgen's returntype_type)."""
    if _is_value_type(t) or (isinstance(t, BaseType) and t.name in ("Tensor", "Scalar")):
        return None
    if isinstance(t, ListType):
        if written:
            return (
                "a function cannot return a written (`!`) list",
                "return `()`: the caller already holds the list it passed in",
            )
        if t.size is not None:
            return (f"a fixed-size list (`{t}`) cannot be returned", f"return `{t.elem}[]`")
        return return_type_problem(t.elem, False)
    if isinstance(t, OptionalType) and t.elem != TENSOR:
        return (
            f"`{t}` cannot be returned: the only optional returns are `Tensor?` and optional "
            "numbers, booleans, strings and enums",
            f"return `{t.elem}` (or `Tensor?`)",
        )
    return None


def _check_returns(f: NativeFunction, diags: Diagnostics) -> None:
    for i, r in enumerate(f.func.returns):
        if r.type.__class__ is BaseType and r.type.name != "GraphModule":
            continue  # the common case, always fine
        problem = type_problem(r.type) or return_type_problem(r.type, r.is_write)
        if problem is not None:
            diags.error(at_return(f, i), problem[0], problem[1])
