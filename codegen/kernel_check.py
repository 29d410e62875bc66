"""Every kernel and meta function the generated code calls, checked against the kernels'
compiled objects: a declared kernel that no source defines is an error at the yaml line
that declares it, when the library itself is built, instead of an undefined reference
with no file or line when something links it (`opgen check-kernels`, run by the Bazel
rule on `nm -A -C` of the kernels' archives).

Only names are compared, not signatures: a kernel defined with the wrong parameters
does not compile (SOPS_IMPL_FUNC / SOPS_META_FUNC define members of generated classes,
SOPS_KERNEL a function by its qualified name); one defined without SOPS_KERNEL passes
here and fails to link.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.dest.library import KernelWrapper, Library, StructuredWrapper
from codegen.model.entry import NativeFunction


@dataclass(frozen=True)
class Needed:
    """A function of the user's that the generated code calls."""

    name: str  # qualified, without the leading `::`: `my::ops::native::structured_add_out::impl`
    declared_by: NativeFunction  # the yaml entry that declares it
    what: str  # "the CPU kernel of relu"
    definition: str  # what to write: `SOPS_IMPL_FUNC(add_out)(...) { ... }`


def needed_definitions(lib: Library) -> list[Needed]:
    """What the library's wrappers call of hand-written code, once each, in yaml order."""
    found: dict[str, Needed] = {}

    def need(name: str, f: NativeFunction, what: str, definition: str) -> None:
        found.setdefault(name.lstrip(":"), Needed(name.lstrip(":"), f, what, definition))

    for w in lib.wrappers:
        body = w.body
        if isinstance(body, StructuredWrapper):
            group = lib.group_of(w.function)
            assert group is not None  # a structured wrapper wraps a member of its group
            out = group.out
            if body.impl_args is not None:
                impl = body.parent.rsplit("::", 1)[-1][len("structured_") :]
                need(
                    f"{body.parent}::impl",
                    out,
                    f"the {w.key} impl of {out.key}",
                    f"`SOPS_IMPL_FUNC({impl})(...) {{ ... }}`",
                )
            name = group.functional.func.name
            macro = (
                f"SOPS_META_FUNC2({name.name}, {name.overload_name})"
                if name.overload_name
                else f"SOPS_META_FUNC({name.name})"
            )
            need(
                f"{body.meta_struct}::meta",
                out,
                f"the meta function of {out.key}",
                f"`{macro}(...) {{ ... }}`",
            )
        elif isinstance(body, KernelWrapper):
            need(
                body.kernel,
                w.function,
                f"the {w.key} kernel of {w.op}",
                f"`{body.kernel.lstrip(':')}(...) {{ ... }}`",
            )
    return sorted(found.values(), key=lambda n: (n.declared_by.source.line, n.name))


def format_missing(missing: list[Needed], source_label: str, include_prefix: str) -> str:
    lines = []
    for n in missing:
        s = n.declared_by.source
        lines.append(
            f"{source_label}:{s.line}:{s.column}: error: `{n.name}`, {n.what}, is declared "
            "but no source of the library defines it"
        )
        lines.append(
            f"  hint: write {n.definition} in one of the library's srcs (or a cc_library of "
            f"its deps), as {include_prefix}/NativeFunctions.h declares it"
        )
    return "\n".join(lines)
