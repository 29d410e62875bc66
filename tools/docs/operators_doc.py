#!/usr/bin/env python3
"""Writes docs/operators.md, the operators of //ops:aten, from ops/native_functions.yaml
(the one list of them): each schema under its section of the yaml (the
`# ---- <section>` comment lines), with how it is implemented and which kernels serve it.

    python3 tools/docs/operators_doc.py            # rewrite docs/operators.md
    python3 tools/docs/operators_doc.py --check    # exit 1 when docs/operators.md is stale
"""

from __future__ import annotations

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
YAML = "ops/native_functions.yaml"
OUTPUT = "docs/operators.md"
SECTION = re.compile(r"^# -+ (.+)$")


def sections(text: str) -> list[tuple[int, str]]:
    """(line, title) of each section comment of the yaml, in order."""
    return [
        (n, m[1].strip())
        for n, line in enumerate(text.splitlines(), 1)
        if (m := SECTION.match(line))
    ]


def how(f) -> str:
    """How the schema is implemented, in a few words."""
    if f.generated:
        return "autogen (from its functional variant)"
    if f.structured_delegate is not None:
        return f"structured, through `{f.structured_delegate}`"
    if f.structured:
        return "structured" + (f" on `{f.structured_inherits}`" if f.structured_inherits else "")
    written = set(f.written_dispatch or ())
    if not written:
        return "composite (CompositeImplicitAutograd)"
    if written <= {"CompositeExplicitAutograd", "CompositeImplicitAutograd"}:
        return f"composite ({', '.join(sorted(written))})"
    return "kernels"


def kernels(f, by_name) -> str:
    """The dispatch keys with a kernel for the schema (a delegate's: its out= variant's)."""
    source = by_name.get(str(f.structured_delegate), f) if f.structured_delegate else f
    keys = list(source.dispatch) if source.dispatch else ["CompositeImplicitAutograd"]
    return ", ".join(keys)


def render(root: str) -> str:
    sys.path.insert(0, root)
    from codegen.frontend import load_native_yaml

    path = os.path.join(root, YAML)
    parsed = load_native_yaml(path)
    if parsed.diagnostics.has_errors():
        sys.exit(f"operators_doc.py: {YAML} does not check: run `python3 -m codegen check {YAML}`")
    with open(path, encoding="utf-8") as f:
        heads = sections(f.read())
    by_name = {str(f.name): f for f in parsed.functions}
    rows: dict[str, list[str]] = {title: [] for _, title in heads}
    for f in parsed.functions:
        title = next((t for n, t in reversed(heads) if n <= f.source.line), "unsectioned")
        rows.setdefault(title, []).append(f"| `{f.name}` | {how(f)} | {kernels(f, by_name)} |")
    written = sum(1 for f in parsed.functions if not f.generated)
    out = [
        "# The operators of `//ops:aten`",
        "",
        f"{len(parsed.functions)} schemas: {written} written in `{YAML}` and "
        f"{len(parsed.functions) - written} made by `autogen:`,",
        f"in {len(parsed.groups)} groups of functional, inplace and out= variants. Where each",
        "one's code lives: [adding-an-operator.md](adding-an-operator.md).",
        "",
        "This page is written by `python3 tools/docs/operators_doc.py` from the yaml, the one",
        "list of the operators; `//tests/tools:operators_doc_test` fails when it is stale.",
    ]
    for title, lines in rows.items():
        if not lines:
            continue
        out += ["", f"## {title[0].upper() + title[1:]}", ""]
        out += ["| schema | implemented as | kernels for |", "|---|---|---|", *lines]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 when the page is stale")
    p.add_argument("--root", default=ROOT, help="the checkout")
    args = p.parse_args(argv)
    text = render(args.root)
    target = os.path.join(args.root, OUTPUT)
    if args.check:
        with open(target, encoding="utf-8") as f:
            if f.read() != text:
                print(
                    f"{OUTPUT} is stale: run `python3 tools/docs/operators_doc.py`",
                    file=sys.stderr,
                )
                return 1
        return 0
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
