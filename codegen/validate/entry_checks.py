"""Rules about one entry's fields: variants, structured fields, dispatch table, flags."""

from __future__ import annotations

import functools

from codegen.diagnostics import Diagnostics
from codegen.model.dispatch import (
    COMPOSITE_EXPLICIT_NON_FUNCTIONAL,
    COMPOSITE_IMPLICIT,
    COMPOSITE_IMPLICIT_NESTED,
    COMPOSITE_KEYS,
    DEFAULT_KERNEL_NAMESPACE,
    STRUCTURED_KEYS,
)
from codegen.model.entry import FUNCTION, METHOD, NativeFunction, Precompute, cpp_name
from codegen.model.schema import OUT, Argument
from codegen.validate.locate import at_func, at_precomputed
from codegen.validate.names import CPP_KEYWORDS
from codegen.validate.schema_checks import KIND_PHRASE, type_problem

NONDETERMINISTIC = "nondeterministic_seeded"


def check_entry(f: NativeFunction, valid_tags: frozenset[str] | None, diags: Diagnostics) -> None:
    src = f.source
    func = f.func
    kind = func.kind

    if func.arguments.out and f.variants != {FUNCTION}:
        diags.error(
            src.value("variants"),
            "a function with out= arguments can only have the `function` variant",
            "write `variants: function` (out= variants are not Tensor methods)",
        )
    if METHOD in f.variants and func.arguments.self_arg is None:
        diags.error(
            src.value("variants"),
            f"`{func.name}` has the `method` variant but no `self` argument",
            "a method is called on `self`: add a `Tensor self` argument or drop `method`",
        )
    if f.python_module is not None and METHOD in f.variants:
        diags.error(
            src.key("python_module"),
            "a function in a `python_module` cannot be a method",
            "drop `method` from `variants:` or drop `python_module:`",
        )
    if f.use_const_ref_for_mutable_tensors and func.arguments.out:
        diags.error(
            src.key("use_const_ref_for_mutable_tensors"),
            "`use_const_ref_for_mutable_tensors` cannot be used on an out= function",
            "remove it; out= arguments are passed as Tensor& by design",
        )
    if f.manual_kernel_registration and f.has_dispatch_table:
        diags.error(
            src.key("manual_kernel_registration"),
            "`manual_kernel_registration` and `dispatch:` cannot be used together",
            "with manual registration the dispatch table has no effect; remove one of them",
        )

    # Structured kernels.
    if f.structured:
        if kind != OUT:
            diags.error(
                src.key("structured"),
                f"`structured: True` is on {KIND_PHRASE[kind]} function",
                "put it on the out= variant; did you mean `structured_delegate:`?",
            )
        if not f.device_guard:
            diags.error(
                src.key("device_guard"),
                "structured kernels always use a device guard",
                "remove `device_guard: False`",
            )
        if COMPOSITE_IMPLICIT in f.dispatch or COMPOSITE_IMPLICIT_NESTED in f.dispatch:
            diags.error(
                src.dispatch_key(
                    COMPOSITE_IMPLICIT
                    if COMPOSITE_IMPLICIT in f.dispatch
                    else COMPOSITE_IMPLICIT_NESTED
                ),
                "a structured kernel cannot be CompositeImplicitAutograd",
                "give backend kernels (e.g. `CPU:`) or drop `structured: True`",
            )
    if f.structured_delegate is not None:
        if kind == OUT:
            diags.error(
                src.key("structured_delegate"),
                "`structured_delegate` is on an out= function",
                "an out= function is the structured kernel itself; did you mean `structured: True`?",
            )
        if f.structured:
            diags.error(
                src.key("structured_delegate"),
                "`structured` and `structured_delegate` cannot both be given",
                "the out= variant is `structured`; the others delegate to it",
            )
        if not f.device_guard:
            diags.error(
                src.key("device_guard"),
                "structured kernels always use a device guard",
                "remove `device_guard: False`",
            )
        for key in f.written_dispatch:
            if key in STRUCTURED_KEYS:
                diags.error(
                    src.dispatch_key(key),
                    f"`{key}` cannot have a kernel: the function delegates to `{f.structured_delegate}`",
                    f"remove `{key}:`; its kernel comes from the structured delegate",
                )
    if f.part_of_structured_group and "Meta" in f.written_dispatch:
        diags.error(
            src.dispatch_key("Meta"),
            "a structured operator cannot have an explicit `Meta` kernel",
            "remove `Meta:`; the Meta kernel is generated from the `meta()` function",
        )
    if f.structured_inherits is not None and not f.structured:
        diags.error(
            src.key("structured_inherits"),
            "`structured_inherits` requires `structured: True`",
            "add `structured: True` (on an out= function) or remove `structured_inherits`",
        )
    if f.precomputed is not None:
        if not f.structured:
            diags.error(
                src.key("precomputed"),
                "`precomputed` requires `structured: True`",
                "add `structured: True` (on an out= function) or remove `precomputed`",
            )
        _check_precomputed(f, f.precomputed, diags)
    if f.ufunc_inner_loop and not f.structured:
        diags.error(
            src.key("ufunc_inner_loop"),
            "`ufunc_inner_loop` requires `structured: True`",
            "ufunc kernels are structured; add `structured: True` on the out= function",
        )

    defaulted = {a.name for a in func.arguments.flat_all if a.default is not None}
    for name in sorted(f.cpp_no_default_args - defaulted):
        diags.error(
            src.value("cpp_no_default_args"),
            f"`cpp_no_default_args` names `{name}`, which is not an argument with a default",
            "list only arguments that have a default value",
        )

    if str(func.name).startswith("_foreach") and f.device_check != "NoCheck":
        diags.error(
            src.key("device_check") if "device_check" in src.fields else at_func(f),
            "`_foreach` operators must set `device_check: NoCheck`",
            "they fall back to a slow path for tensors on different devices",
        )
    if valid_tags and NONDETERMINISTIC in valid_tags and NONDETERMINISTIC not in f.tags:
        if func.arguments.has_generator_arg():
            diags.error(
                src.key("tags") if "tags" in src.fields else at_func(f),
                f"`{func.name}` takes a Generator but lacks the `{NONDETERMINISTIC}` tag",
                f"add `tags: {NONDETERMINISTIC}`",
            )
        elif _looks_random(f):
            diags.warning(
                at_func(f),
                f"`{func.name}` looks random but lacks the `{NONDETERMINISTIC}` tag",
                f"add `tags: {NONDETERMINISTIC}` if its results depend on a random seed",
            )

    _check_dispatch(f, diags)


def _check_precomputed(f: NativeFunction, pre: Precompute, diags: Diagnostics) -> None:
    """impl() takes the arguments with replacements in place, the added values and the out
    arguments: C++ needs their names distinct, and types it can spell."""
    args = f.func.arguments.flat_all
    names = {a.name for a in args}
    replaced: set[str] = set()
    for arg, _ in pre.replace:
        if arg not in names:
            diags.error(
                at_precomputed(f, arg),
                f"`precomputed` replaces `{arg}`, which is not an argument",
                "the name before `->` must be an argument of the function",
            )
        elif arg in replaced:
            diags.error(
                at_precomputed(f, arg),
                f"`precomputed` replaces `{arg}` twice",
                f"list every value that replaces `{arg}` on one line: `{arg} -> Type a, Type b`",
            )
        replaced.add(arg)
    # What impl() is passed, and what each name stands for.
    taken = {a.name: f"argument `{a.name}`" for a in args if a.name not in replaced}
    # (the argument a line replaces, or None for the line of adds; its values)
    lines: list[tuple[str | None, tuple[Argument, ...]]] = [*pre.replace, (None, pre.add)]
    for replaced_arg, values in lines:
        for a in values:
            at = at_precomputed(f, replaced_arg)
            problem = type_problem(a.type)
            if problem is not None:
                diags.error(at, f"in `precomputed`: {problem[0]}", problem[1])
            if a.name in CPP_KEYWORDS:
                diags.error(
                    at,
                    f"precomputed value `{a.name}` is named with a C++ keyword",
                    f"rename it (e.g. `{a.name}_`): the generated C++ would not compile",
                )
            if a.name in taken:
                diags.error(
                    at,
                    f"precomputed value `{a.name}` has the name of {taken[a.name]}",
                    "impl() receives both: give the precomputed value another name",
                )
                continue
            taken[a.name] = "another precomputed value"


def _looks_random(f: NativeFunction) -> bool:
    name = str(f.func.name)
    if "rand" in name:
        return True
    dropout = "dropout" in name or any("dropout" in a.name for a in f.func.arguments.flat_all)
    return dropout and "backward" not in name


@functools.cache  # a file has few distinct kernel namespaces and names
def _kernel_name_problem(namespace: str, kernel: str) -> tuple[str, str] | None:
    """(what is wrong, hint) if a kernel's C++ name or namespace cannot be one."""
    parts = namespace.split("::") + [kernel]
    keywords = [p for p in parts if p in CPP_KEYWORDS]
    if keywords:
        return (
            f"has the C++ keyword `{keywords[0]}` in its name",
            "rename the kernel (or its namespace): it is a C++ function",
        )
    if parts[0] == "std":
        return (
            "is in namespace `std`, which C++ reserves",
            "put the kernel in a namespace of your own, e.g. `my_ops::kernel`",
        )
    return None


def _check_dispatch(f: NativeFunction, diags: Diagnostics) -> None:
    src = f.source
    func = f.func
    written = f.written_dispatch
    for key in written:
        m = f.dispatch.get(key)
        if m is None or (
            m.cpp_namespace == DEFAULT_KERNEL_NAMESPACE and m.kernel not in CPP_KEYWORDS
        ):
            continue  # the common case: a plain name
        problem = _kernel_name_problem(m.cpp_namespace, m.kernel)
        if problem is not None:
            diags.error(src.dispatch_key(key), f"the {key} kernel {problem[0]}", problem[1])
    expected = cpp_name(func)
    if written == (COMPOSITE_IMPLICIT,):
        kernel = f.dispatch[COMPOSITE_IMPLICIT].kernel
        if kernel == expected:
            diags.error(
                src.key("dispatch"),
                "this dispatch table only repeats the default",
                f"delete `dispatch:`; `CompositeImplicitAutograd: {expected}` is what an entry without "
                "one gets",
            )
        elif f.structured_delegate is None and not f.dispatch[COMPOSITE_IMPLICIT].supports_symint():
            diags.error(
                src.dispatch_key(COMPOSITE_IMPLICIT),
                f"a lone CompositeImplicitAutograd kernel must be named `{expected}`, not `{kernel}`",
                f"rename the C++ function to `{expected}` and delete the dispatch table",
            )
    if not f.has_dispatch_table and not f.structured and f.structured_delegate is None:
        base = str(func.name.name)
        if (
            base.startswith("new_")
            or base.endswith("_like")
            or (
                func.arguments.tensor_options_index is not None
                and not func.arguments.has_tensor_arg()
            )
        ):
            diags.error(
                at_func(f),
                f"factory function `{func.name}` has no dispatch table",
                "give it `dispatch: CompositeExplicitAutograd: KERNEL`; factory functions must not "
                "decompose implicitly",
            )
    composites = [k for k in f.dispatch if k in COMPOSITE_KEYS]
    allowed_pair = (
        len(composites) == 2
        and COMPOSITE_IMPLICIT_NESTED in composites
        and COMPOSITE_EXPLICIT_NON_FUNCTIONAL not in composites
    )
    if len(composites) > 1 and not allowed_pair:
        diags.error(
            src.dispatch_key(composites[1]),
            "more than one of " + ", ".join(f"`{k}`" for k in composites) + " is given",
            "each composite key subsumes the others: keep CompositeExplicitAutograd for an explicit "
            "backward, or CompositeImplicitAutograd alone",
        )
