"""Writes docs/rules.md, the reference of structured_ops' public Starlark API, from the
docs where each macro, rule, aspect and provider is defined (rules/defs.bzl names the
public ones and where they come from), and checks that every argument, attribute and
field has one.

    python3 tools/docs/rules_doc.py            # rewrite docs/rules.md
    python3 tools/docs/rules_doc.py --check    # exit 1 when docs/rules.md is stale or a doc is missing

Starlark is read with Python's own parser (a .bzl file is Python syntax): stardoc needs
a Java toolchain and Bazel 7's starlark_doc_extract a bzl_library of every file that
rules_cc and bazel_tools load, neither of which this offline machine has.
"""

from __future__ import annotations

import argparse
import ast
import functools
import inspect
import os
import sys
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUBLIC = "rules/defs.bzl"
OUTPUT = "docs/rules.md"
KINDS = ("macro", "rule", "aspect", "provider")


@dataclass
class Entry:
    name: str  # the public name
    kind: str  # one of KINDS
    source: str  # the file that defines it, from ROOT
    doc: str
    params: list[tuple[str, str, str]] = field(default_factory=list)  # (name, default or "", doc)


class DocError(Exception):
    pass


def _string(node: ast.AST) -> str:
    """A string constant, or a sum of them (`"a " + "b"`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _string(node.left) + _string(node.right)
    raise DocError(f"line {node.lineno}: expected a string")


def _keywords(call: ast.Call) -> dict[str, ast.AST]:
    return {k.arg: k.value for k in call.keywords if k.arg}


def _loads(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """local name -> (file from ROOT, name there), for `load("//pkg:file.bzl", local = "name")`."""
    out = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", None) == "load"
        ):
            label = _string(node.value.args[0])
            if not label.startswith("//"):
                continue
            path = label[2:].replace(":", "/")
            for k in node.value.keywords:
                out[k.arg] = (path, _string(k.value))
            for a in node.value.args[1:]:
                out[_string(a)] = (path, _string(a))
    return out


@functools.cache
def _parse(root: str, path: str) -> ast.Module:
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return ast.parse(f.read(), filename=path)


def public_names(tree: ast.Module) -> list[tuple[str, str, str]]:
    """(public name, file, name there) of each `name = loaded` of the public file, in order."""
    loads = _loads(tree)
    out = []
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name)
            and node.value.id in loads
        ):
            path, name = loads[node.value.id]
            out.append((node.targets[0].id, path, name))
    return out


def _docstring_args(doc: str) -> tuple[str, dict[str, str]]:
    """A Google-style docstring: (text before `Args:`, {argument: its doc})."""
    lines = doc.expandtabs().splitlines()
    stripped = [line.strip() for line in lines]
    if "Args:" not in stripped:
        return doc.strip(), {}
    at = stripped.index("Args:")
    summary = "\n".join(lines[:at]).strip()
    args: dict[str, list[str]] = {}
    indent = None
    current = None
    for line in lines[at + 1 :]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if indent is None:
            indent = depth
        if depth == indent and ":" in line:
            name, text = line.strip().split(":", 1)
            current = name.strip().lstrip("*")
            args[current] = [text.strip()]
        elif depth > (indent or 0) and current is not None:
            args[current].append(line.strip())
        else:
            break
    return summary, {k: " ".join(v) for k, v in args.items()}


def _macro(public: str, path: str, fn: ast.FunctionDef) -> Entry:
    doc = ast.get_docstring(fn, clean=True) or ""
    if not doc:
        raise DocError(f"{path}:{fn.lineno}: macro `{fn.name}` has no docstring")
    summary, arg_docs = _docstring_args(doc)
    defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) + fn.args.defaults
    params = []
    for a, d in zip(fn.args.args, defaults):
        params.append((a.arg, "" if d is None else ast.unparse(d)))
    if fn.args.kwarg:
        params.append((fn.args.kwarg.arg, ""))
    names = [p for p, _ in params]
    missing = [p for p in names if p not in arg_docs]
    unknown = [a for a in arg_docs if a not in names]
    if missing or unknown:
        raise DocError(
            f"{path}:{fn.lineno}: the Args of `{fn.name}` "
            + "; ".join(
                filter(
                    None,
                    [
                        missing and f"miss {', '.join(missing)}",
                        unknown and f"name no argument {', '.join(unknown)}",
                    ],
                )
            )
        )
    return Entry(public, "macro", path, summary, [(p, d, arg_docs[p]) for p, d in params])


def _call_entry(public: str, path: str, kind: str, call: ast.Call) -> Entry:
    kw = _keywords(call)
    if "doc" not in kw:
        raise DocError(f"{path}:{call.lineno}: {kind} `{public}` has no doc")
    entry = Entry(public, kind, path, inspect.cleandoc(_string(kw["doc"])))
    table = kw.get("fields" if kind == "provider" else "attrs")
    if table is None:
        return entry
    if not isinstance(table, ast.Dict):
        raise DocError(
            f"{path}:{call.lineno}: the {'fields' if kind == 'provider' else 'attrs'} of "
            f"`{public}` are not a dict with a doc for each"
        )
    for key, value in zip(table.keys, table.values):
        name = _string(key)
        if name.startswith("_"):
            continue
        if kind == "provider":
            entry.params.append((name, "", _string(value)))
            continue
        akw = _keywords(value) if isinstance(value, ast.Call) else {}
        if "doc" not in akw:
            raise DocError(f"{path}:{key.lineno}: attribute `{name}` of `{public}` has no doc")
        default = (
            "(required)"
            if ast.unparse(akw.get("mandatory", ast.Constant(False))) == "True"
            else (ast.unparse(akw["default"]) if "default" in akw else "")
        )
        entry.params.append((name, default, _string(akw["doc"])))
    return entry


def entry_of(root: str, public: str, path: str, name: str) -> Entry:
    tree = _parse(root, path)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return _macro(public, path, node)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            targets = (
                node.targets[0].elts if isinstance(node.targets[0], ast.Tuple) else node.targets
            )
            kind = getattr(node.value.func, "id", None)
            if kind in KINDS and isinstance(targets[0], ast.Name) and targets[0].id == name:
                return _call_entry(public, path, kind, node.value)
    raise DocError(f"{path}: defines no macro, rule, aspect or provider `{name}`")


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render(entries: list[Entry]) -> str:
    out = [
        "# structured_ops: the public Starlark API",
        "",
        "<!-- Generated by tools/docs/rules_doc.py from the docs of rules/defs.bzl's",
        "     definitions; do not edit. //tests/tools:rules_doc_test checks it is current. -->",
        "",
        "Load everything from `@structured_ops//rules:defs.bzl`.",
        "",
    ]
    for kind in KINDS:
        for e in [e for e in entries if e.kind == kind]:
            out.append(f"- [`{e.name}`](#{e.name.lower()}) ({kind})")
    for kind in KINDS:
        for e in [e for e in entries if e.kind == kind]:
            out += ["", f"## {e.name}", "", f"*{kind}, defined in `{e.source}`*", "", e.doc, ""]
            if not e.params:
                continue
            head = (
                "field" if kind == "provider" else ("argument" if kind == "macro" else "attribute")
            )
            if kind == "provider":
                out += [f"| {head} | description |", "|---|---|"]
                out += [f"| `{n}` | {_cell(d)} |" for n, _, d in e.params]
            else:
                out += [f"| {head} | default | description |", "|---|---|---|"]
                out += [
                    f"| `{n}` | {f'`{_cell(v)}`' if v and v != '(required)' else v} | {_cell(d)} |"
                    for n, v, d in e.params
                ]
    return "\n".join(out) + "\n"


def generate(root: str = ROOT) -> str:
    return render([entry_of(root, *p) for p in public_names(_parse(root, PUBLIC))])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help=f"fail when {OUTPUT} is not what would be written"
    )
    parser.add_argument(
        "--root", default=ROOT, help="the checkout (default: the one holding this script)"
    )
    args = parser.parse_args(argv)
    try:
        text = generate(args.root)
    except DocError as e:
        print(f"rules_doc: error: {e}", file=sys.stderr)
        return 1
    path = os.path.join(args.root, OUTPUT)
    if args.check:
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print(
                f"rules_doc: {OUTPUT} is not up to date with the docs of {PUBLIC}'s definitions\n"
                "  hint: run `python3 tools/docs/rules_doc.py` and commit the result",
                file=sys.stderr,
            )
            return 1
        return 0
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
