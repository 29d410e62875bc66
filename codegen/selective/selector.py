"""Which operators a selective build keeps: the requested ones, checked against the
library, and every operator their code calls.

The Bazel rules (rules/private/operator_set.bzl) hand the generator one JSON file per
operator set (`{"operators": [{"name": "aten::add.Tensor", "all_overloads": false,
"origin": "//app:ops"}, ...]}`, written by lite/python/operator_set_tool.py); their union
is the request. Each requested name is a library operator's full name (`aten::add.Tensor`,
`aten::relu` for a default overload); one with `all_overloads` (PyTorch's
`include_all_overloads`) stands for every overload of that name. A name the library does
not declare is an error, and every such name is reported at once.

The library then keeps:
  - registered: the requested operators. Only they get boxed kernels in the registry (and
    dispatcher registrations): a model needing anything else fails to load, naming it;
  - needed: the registered ones and, transitively, every operator that the code of a
    needed one calls through the dispatcher API (Functions.h) or a static entry point.
    The calls of generated wrappers are known here (a Common wrapper calls its out=
    variant, autogen kernels their base variant and copy_); those of hand-written kernels
    and meta functions are read off the kernels' compiled objects (kernel_symbols.py).
    Needed operators get wrappers, static entry points and Operators_<shard>.cpp definitions,
    so every call the linked kernels make resolves; nothing of any other operator is
    generated.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from codegen.model.entry import NativeFunction

ALL = "*"  # every operator of the library
_OPERATOR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)?\Z")


class SelectionError(Exception):
    """A request the library cannot serve; the message lists every problem."""


@dataclass(frozen=True)
class Request:
    """One requested operator name, and where it came from (for messages)."""

    name: str
    all_overloads: bool
    origin: str


def read_requests(paths: list[str]) -> list[Request]:
    """The requests of every operator-set file, in order."""
    requests = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            entries = data["operators"]
            requests += [
                Request(e["name"], bool(e.get("all_overloads", False)), e.get("origin", path))
                for e in entries
            ]
            if data.get("all_operators"):  # selected_operators.yaml's include_all_operators
                requests.append(Request(ALL, True, path))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SelectionError(
                f"{path}: not an operator-set file written by operator_set ({e})"
            ) from None
    return requests


@dataclass
class Selection:
    registered: frozenset[str]  # NativeFunction.key of the requested operators
    needed: frozenset[str]  # registered, and all they call
    why: dict[str, tuple[str, str]] = field(
        default_factory=dict
    )  # op key -> ("requested by", origin)
    #                                                                   or ("called by", op key)

    def report(self, functions: list[NativeFunction]) -> str:
        """One line per kept operator, saying why (the build's selection report)."""
        names = {f.key: f.func.name.full_name() for f in functions}
        lines = [
            f"# {len(self.registered)} operators requested, {len(self.needed)} generated "
            f"(of {len(functions)} declared)"
        ]
        for f in sorted(functions, key=lambda f: names[f.key]):
            if f.key in self.needed:
                how, what = self.why[f.key]
                lines.append(f"{names[f.key]}: {how} {names.get(what, what)}")
        return "\n".join(lines) + "\n"


def resolve(requests: list[Request], functions: list[NativeFunction]) -> dict[str, str]:
    """op key -> the origin of its request; SelectionError listing every bad name."""
    by_name = {f.func.name.full_name(): f for f in functions}
    overloads: dict[str, list[NativeFunction]] = {}
    for f in functions:
        overloads.setdefault(f"{f.func.name.effective_namespace}::{f.func.name.name}", []).append(f)
    chosen: dict[str, str] = {}
    malformed, unknown = [], []
    for r in requests:
        if r.name == ALL:
            for f in functions:
                chosen.setdefault(f.key, r.origin)
        elif not _OPERATOR_NAME.match(r.name):
            malformed.append(r)
        elif r.all_overloads:
            base = r.name.split(".", 1)[0]
            for f in overloads.get(base, ()):
                chosen.setdefault(f.key, r.origin)
            if base not in overloads:
                unknown.append(r)
        elif r.name in by_name:
            chosen.setdefault(by_name[r.name].key, r.origin)
        else:
            unknown.append(r)
    if malformed or unknown:
        lines = []
        if malformed:
            lines.append(
                f"{len(malformed)} operator name(s) are not of the form `namespace::name` or "
                "`namespace::name.overload`:"
            )
            lines += [f"  {r.name!r} (from {r.origin})" for r in sorted(set(malformed), key=_order)]
        if unknown:
            lines.append(f"{len(unknown)} selected operator(s) are not declared by this library:")
            for r in sorted(set(unknown), key=_order):
                near = _near(r.name, by_name, overloads)
                lines.append(
                    f"  {r.name}{' (all overloads)' if r.all_overloads else ''} (from {r.origin})"
                    + (f"; did you mean {near}?" if near else "")
                )
        lines.append(
            "hint: remove them from the operator_set (ops, selected_operators_yaml or models) "
            "that asks for them, or declare them in the library's yaml"
        )
        raise SelectionError("\n".join(lines))
    return chosen


def _order(r: Request) -> tuple[str, str]:
    return (r.name, r.origin)


def _near(name: str, by_name: dict, overloads: dict) -> str | None:
    """A declared operator the name may have meant: its overloads, or the same name in
    another namespace."""
    base = name.split(".", 1)[0]
    if base in overloads:
        return ", ".join(sorted(f.func.name.full_name() for f in overloads[base])[:4])
    short = name.split("::", 1)[-1]
    same = sorted(n for n in by_name if n.split("::", 1)[-1] == short)
    return ", ".join(same[:2]) or None


def close(registered: dict[str, str], calls_of) -> Selection:
    """The needed operators: `registered` and, transitively, `calls_of(key)` (op keys that
    op's code calls), breadth first so each reason names the nearest requested caller."""
    why = {k: ("requested by", origin) for k, origin in registered.items()}
    frontier = sorted(registered)
    while frontier:
        nxt = []
        for k in frontier:
            for callee in sorted(calls_of(k)):
                if callee not in why:
                    why[callee] = ("called by", k)
                    nxt.append(callee)
        frontier = nxt
    return Selection(frozenset(registered), frozenset(why), why)
