"""A library's operator list: the root names its per-operator headers are declared for.

Bazel declares every output of the generator before it runs, so the per-operator
headers (`ops/<root>.h`, `ops/<root>_native.h`, `ops/<root>_meta.h`) need the yaml's
operators at analysis time: a .bzl file beside the yaml holds them, written by
`opgen operators FILE --write LIST.bzl` and passed to structured_ops_library as
`operators`. The generator checks the list against the yaml on every run, so a stale
list fails the build at the yaml line of the first operator it lacks, naming the
command that rewrites it.
"""

from __future__ import annotations

from codegen.model.entry import NativeFunction

VARIABLE = "OPERATORS"


def roots(functions: list[NativeFunction]) -> list[str]:
    return sorted({f.root for f in functions})


def update_command(yaml_label: str, bzl: str = "<the .bzl the BUILD file loads it from>") -> str:
    return f"tools/bazel run //codegen:opgen -- operators {yaml_label} --write {bzl}"


def bzl_text(functions: list[NativeFunction], yaml_label: str, bzl: str) -> str:
    """The .bzl file of the list: a docstring saying where it comes from, then the list."""
    lines = [
        f'"""The operators of {yaml_label} by root name: the per-operator headers its library',
        "declares (structured_ops_library's `operators`). Written by",
        f"`{update_command(yaml_label, bzl)}`;",
        'the generator fails the build when it is out of date. Do not edit."""',
        "",
        f"{VARIABLE} = [",
        *(f'    "{root}",' for root in roots(functions)),
        "]",
        "",
    ]
    return "\n".join(lines)


def stale_list_error(
    functions: list[NativeFunction], listed: list[str], yaml_label: str
) -> str | None:
    """The error for a list that is not the yaml's operators (`file:line:col: error: ...`
    with a hint), or None when it is."""
    have = set(roots(functions))
    missing = sorted(have - set(listed))
    extra = sorted(set(listed) - have)
    duplicated = sorted({r for r in listed if listed.count(r) > 1})
    if not (missing or extra or duplicated):
        return None
    problems = []
    if missing:
        problems.append(f"lacks {_names(missing)}, which the yaml declares")
    if extra:
        problems.append(f"has {_names(extra)}, which the yaml does not declare")
    if duplicated:
        problems.append(f"lists {_names(duplicated)} twice")
    where = f"{yaml_label}:1:1"
    if missing:
        first = min((f.source for f in functions if f.root == missing[0]), key=lambda s: s.line)
        where = f"{yaml_label}:{first.line}:{first.column}"
    return (
        f"{where}: error: the library's operator list (structured_ops_library's `operators`) "
        f"{'; '.join(problems)}: its per-operator headers are declared from that list\n"
        f"  hint: rewrite the list from the yaml: {update_command(yaml_label)}"
    )


def _names(roots: list[str]) -> str:
    shown = ", ".join(f"`{r}`" for r in roots[:8])
    return shown + (f" and {len(roots) - 8} more" if len(roots) > 8 else "")
