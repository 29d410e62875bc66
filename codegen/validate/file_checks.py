"""Rules across entries: duplicate names, structured delegates, groups and autogen."""

from __future__ import annotations

from codegen.diagnostics import Diagnostics, NearMatches
from codegen.model.autogen import (
    COMPOSITE_IMPLICIT_SKIP,
    ONLY_OUT,
    base_variant,
    out_variant_problem,
    skip_reason,
)
from codegen.model.entry import INPLACE_VIEWS_TREATED_AS_INPLACE, SET_, NativeFunction
from codegen.model.groups import NativeFunctionsGroup, PreGroup
from codegen.model.schema import FUNCTIONAL, OUT
from codegen.validate.locate import at_arg_named, at_func
from codegen.validate.names import GROUPED_AS_IF_DEFAULTED, UNPAIRED_OUT_EXEMPT

INPLACE_VIEW = "inplace_view"


def _line(f: NativeFunction) -> int:
    return f.source.entry().line


def _name_key(f: NativeFunction) -> tuple[str, str]:
    return (f.namespace, f.func.name.unqualified())


def check_file(
    functions: list[NativeFunction],
    pre_groups: list[PreGroup],
    groups: list[NativeFunctionsGroup],
    diags: Diagnostics,
    unparsed: frozenset[str] | set[str] = frozenset(),
) -> None:
    """Checks on the whole file, after autogen and grouping.

    `unparsed`: names (`ns::name.overload` as written) of entries whose schema had a
    mistake, so that a reference to one is not reported again.
    """
    by_name: dict[tuple[str, str], NativeFunction] = {}
    for f in functions:
        first = by_name.setdefault(_name_key(f), f)
        if first is not f and f.generated:
            diags.error(
                at_func(f),
                f"autogen would generate `{f.func.name}`, which is already declared on "
                f"line {_line(first)}",
                "remove it from `autogen:`, or rename the declared operator",
            )
    group_of = {id(f): g for g in groups for f in g.functions()}
    _check_delegates(functions, by_name, group_of, unparsed, diags)
    _check_groups(pre_groups, groups, diags)
    _check_autogen(pre_groups, by_name, diags)
    _check_generated_names(functions, diags)
    _check_inplace_views(functions, diags)


def remove_duplicates(functions: list[NativeFunction], diags: Diagnostics) -> list[NativeFunction]:
    """The functions without redeclared names (each reported), so later checks see each once."""
    by_name: dict[tuple[str, str], NativeFunction] = {}
    unique = []
    for f in functions:
        first = by_name.setdefault(_name_key(f), f)
        if first is f:
            unique.append(f)
        elif not f.func.name.overload_name:
            diags.error(
                at_func(f),
                f"`{f.func.name}` is declared more than once without an overload name "
                f"(first on line {_line(first)})",
                f"at most one `{f.func.name}` may have no overload name; call this one "
                f"`{f.func.name}.SOMETHING`",
            )
        else:
            diags.error(
                at_func(f),
                f"overload `{f.func.name}` is declared twice (first on line {_line(first)})",
                "give each overload its own name, or delete the copy",
            )
    return unique


def _operator_of(name: str) -> str:
    """`add` of `add.Tensor`."""
    return name.split(".", 1)[0]


def _check_delegates(functions, by_name, group_of, unparsed, diags: Diagnostics) -> None:
    names: dict[str, NearMatches] = {}  # namespace -> its operators
    for f in functions:
        d = f.structured_delegate
        if d is None:
            continue
        at = f.source.value("structured_delegate")
        target = by_name.get((f.namespace, d.unqualified()))
        if target is None and (d.unqualified() in unparsed or f"{f.namespace}::{d}" in unparsed):
            continue  # its own mistake is reported already
        if target is None:
            near = names.get(f.namespace)
            if near is None:  # only a file with a wrong delegate pays for the index
                near = names[f.namespace] = NearMatches(
                    (k for ns, k in by_name if ns == f.namespace), group=_operator_of
                )
            close = near.closest(d.unqualified())
            diags.error(
                at,
                f"`structured_delegate` names `{d}`, which is not declared",
                f"did you mean `{close}`?"
                if close
                else "name the structured out= variant, e.g. `foo.out`",
            )
            continue
        if not target.structured:
            diags.error(
                at,
                f"`structured_delegate` names `{d}`, which is not structured",
                f"add `structured: True` to `{d}` (line {_line(target)})",
            )
            continue
        g = group_of.get(id(f))
        if g is None or g.out is not target:
            hint = (
                f"`{f.func.name}` groups with the out= variant `{g.out.func.name}`"
                if g is not None
                else f"`{d}` must have the same arguments as `{f.func.name}` (plus its out arguments)"
            )
            diags.error(at, f"`{d}` is not the out= variant of `{f.func.name}`", hint)


def _check_groups(
    pre_groups: list[PreGroup], groups: list[NativeFunctionsGroup], diags: Diagnostics
) -> None:
    grouped = {id(f) for g in groups for f in g.functions()}
    for p in pre_groups:
        d = p.by_kind
        for c in p.clashes:
            other = d[c.func.kind]
            diags.error(
                at_func(c),
                f"`{c.func.name}` and `{other.func.name}` (line {_line(other)}) are both "
                f"{c.func.kind} variants with the same arguments",
                "overloads must differ in their arguments (defaults and annotations do not count)",
            )
        if len(d) > 1 and FUNCTIONAL not in d:
            first = next(iter(d.values()))
            names = ", ".join(f"`{f.func.name}`" for f in d.values())
            reason = skip_reason(d)
            diags.error(
                at_func(first),
                f"{names} have no functional variant",
                f"declare `{first.func.name.name.base}` with the same arguments"
                + (f" (autogen does not make it: {reason})" if reason else ""),
            )
        if len(d) == 1 and OUT in d and skip_reason(d) == ONLY_OUT:
            f = d[OUT]
            exempt = f.namespace == "aten" and f.func.name.unqualified() in UNPAIRED_OUT_EXEMPT
            if not exempt and not f.structured:
                diags.warning(
                    at_func(f),
                    f"out= function `{f.func.name}` has no functional variant",
                    "declare the functional variant with the same arguments (minus the out arguments)"
                    " so the two are grouped",
                )
        for f in d.values():
            if f.structured and f.func.kind == OUT and id(f) not in grouped:
                diags.error(
                    f.source.key("structured"),
                    f"structured `{f.func.name}` has no functional variant",
                    f"declare `{f.func.name.name}(...)` with the same arguments and "
                    f"`structured_delegate: {f.func.name.unqualified()}`",
                )
    for g in groups:
        _check_group_defaults(g, diags)
        if not g.structured:
            continue
        for role, f in g.members():
            if role != OUT and f.structured_delegate is None:
                at = at_func(f) if f.generated else f.source.entry()
                diags.error(
                    at,
                    f"`{f.func.name}` is a variant of structured `{g.out.func.name}` but does "
                    "not delegate to it",
                    f"add `structured_delegate: {g.out.func.name.unqualified()}`"
                    if not f.generated
                    else "write this variant in the file with `structured_delegate:`",
                )


def _signature_defaults(f: NativeFunction) -> dict[str, str | None]:
    """The defaults of the arguments that group variants share (not out, not tensor options)."""
    args = f.func.arguments
    defaults = {a.name: a.default for a in args.positional + args.non_tensor_options_kwarg_only}
    if f.namespace == "aten":
        for (op, arg), default in GROUPED_AS_IF_DEFAULTED.items():
            if op == f.func.name.unqualified() and arg in defaults:
                defaults[arg] = default
    return defaults


def _default_texts(f: NativeFunction) -> tuple[str | None, ...]:
    args = f.func.arguments
    return tuple([a.default for a in args.positional + args.non_tensor_options_kwarg_only])


def _check_group_defaults(g: NativeFunctionsGroup, diags: Diagnostics) -> None:
    """The variants of an operator take the same arguments, defaults included (torchgen
    groups only variants whose signatures, defaults and all, are equal)."""
    first = _default_texts(g.functional)
    if all(f is None or _default_texts(f) == first for f in (g.out, g.inplace, g.mutable)):
        return  # the common case: one set of defaults
    want = _signature_defaults(g.functional)
    for role, f in g.members():
        if role == FUNCTIONAL:
            continue
        for name, default in _signature_defaults(f).items():
            if default == want.get(name, default):
                continue
            other = g.functional
            shown = [
                f"default `{x}`" if x is not None else "no default" for x in (default, want[name])
            ]
            where = at_arg_named(f, name, "default" if default is not None else "name")
            if f.generated:
                where = at_arg_named(other, name, "default" if want[name] is not None else "name")
            diags.error(
                where,
                f"argument `{name}` has {shown[0]} in `{f.func.name}` but {shown[1]} in "
                f"`{other.func.name}` (line {_line(other)})",
                "the variants of one operator must have the same defaults; make them equal",
            )


def _check_autogen(pre_groups: list[PreGroup], by_name, diags: Diagnostics) -> None:
    """`autogen:` must list exactly the variants autogen makes for the operator."""
    for p in pre_groups:
        d = p.by_kind
        members = list(d.values())
        generated = sorted(f.func.name.unqualified() for f in members if f.generated)
        listed: dict[str, tuple[NativeFunction, int]] = {}
        for f in members:
            text = f.source.fields.get("autogen")
            for n in f.autogen:
                offset = text[1].value.find(str(n)) if text is not None else 0
                listed.setdefault(n.unqualified(), (f, max(offset, 0)))
        if not listed and not generated:
            continue
        want = f"write `autogen: {', '.join(generated)}`" if generated else None
        wrong = False
        for name, (f, offset) in listed.items():
            if name in generated:
                continue
            wrong = True
            at = f.source.in_value("autogen", offset)
            written = by_name.get((f.namespace, name))
            if written is not None and not written.generated:
                diags.error(
                    at,
                    f"`autogen` lists `{name}`, which is declared on line {_line(written)}",
                    f"remove `{name}` from `autogen:`",
                )
                continue
            reason = skip_reason(_without_generated(d))
            if reason == COMPOSITE_IMPLICIT_SKIP:
                # Documented behaviour: autogen ignores decomposing operators.  Say so, gently.
                diags.warning(
                    at,
                    f"`autogen` lists `{name}`, which is not generated because the operator "
                    "is CompositeImplicitAutograd (it decomposes)",
                    f"remove `{name}` from `autogen:`, or give the operator a non-implicit kernel",
                )
                continue
            if reason is None:
                reason = out_variant_problem(base_variant(_without_generated(d)))
            diags.error(
                at,
                f"`autogen` lists `{name}`, which is not generated",
                want
                or (
                    f"remove it: autogen makes no variant because {reason}"
                    if reason
                    else "autogen makes an out= variant when `autogen:` names one, and a functional "
                    "variant when there is an out= variant but no functional one"
                ),
            )
        missing = [n for n in generated if n not in listed]
        if missing and not wrong:
            base = next(f for f in members if f.generated)
            at = (
                base.source.value("autogen")
                if "autogen" in base.source.fields
                else base.source.value("func")
            )
            diags.error(
                at,
                "autogen generates "
                + ", ".join(f"`{n}`" for n in missing)
                + ", which `autogen:` does not list",
                want,
            )


def _check_generated_names(functions: list[NativeFunction], diags: Diagnostics) -> None:
    """A variant autogen makes adds arguments (`out`, `out0`...) and returns (`NAME_out`);
    they must not take a name the operator already uses."""
    for f in functions:
        if not f.generated:
            continue
        for names, what in (
            ([a.name for a in f.func.arguments.flat_all], "argument"),
            ([r.name for r in f.func.returns if r.name is not None], "return"),
        ):
            if len(set(names)) == len(names):
                continue
            twice = sorted({n for n in names if names.count(n) > 1})[0]
            diags.error(
                at_func(f),
                f"autogen would make `{f.func}`, with two {what}s named `{twice}`",
                f"rename the {what} `{twice}`: the generated variant adds one of that name",
            )


def _without_generated(d: dict[str, NativeFunction]) -> dict[str, NativeFunction]:
    return {k: f for k, f in d.items() if not f.generated}


def _check_inplace_views(functions: list[NativeFunction], diags: Diagnostics) -> None:
    bases = {(f.namespace, str(f.func.name.name)) for f in functions}
    for f in functions:
        if (
            INPLACE_VIEW not in f.tags
            or str(f.func.name) in INPLACE_VIEWS_TREATED_AS_INPLACE
            or str(f.func.name.name) == SET_
        ):
            continue
        name = f.func.name.name
        at = f.source.value("tags")
        if not name.inplace:
            diags.error(
                at,
                f"`{f.func.name}` has the `{INPLACE_VIEW}` tag but is not inplace",
                "inplace operators end in `_`; rename it or drop the tag",
            )
        elif (
            f.namespace,
            name.base if not name.dunder_method else f"__{name.base}__",
        ) not in bases:
            diags.error(
                at,
                f"`{f.func.name}` has the `{INPLACE_VIEW}` tag but there is no `{name.base}` view "
                "operator",
                f"declare the out-of-place view `{name.base}` with the same arguments",
            )
