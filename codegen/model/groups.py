"""Grouping the variants of one operator: functional, inplace, mutable and out=.

`add.Tensor`, `add_.Tensor` and `add.out` share a `FunctionSchema.group_key` (the
same arguments once annotations, defaults, out arguments and tensor options are
set aside) and differ in kind.  A group needs a functional and an out= member; the
inplace and mutable ones are optional.  Scratch functions are never grouped.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.model.entry import NativeFunction
from codegen.model.schema import FUNCTIONAL, INPLACE, MUTABLE, OUT, SCRATCH

ROLES = (FUNCTIONAL, INPLACE, MUTABLE, OUT)


@dataclass(frozen=True, eq=False)
class NativeFunctionsGroup:
    functional: NativeFunction
    inplace: NativeFunction | None
    mutable: NativeFunction | None
    out: NativeFunction

    @property
    def structured(self) -> bool:
        return self.out.structured

    @property
    def key(self) -> str:
        return self.functional.key

    def functions(self) -> list[NativeFunction]:
        return [f for f in (self.functional, self.out, self.inplace, self.mutable) if f is not None]

    def members(self) -> list[tuple[str, NativeFunction]]:
        """(role, function) for each member."""
        return [
            (role, f)
            for role, f in zip(ROLES, (self.functional, self.inplace, self.mutable, self.out))
            if f is not None
        ]


@dataclass(frozen=True, eq=False)
class PreGroup:
    """Functions with one group key, by kind; `clashes` holds later ones of a taken kind."""

    by_kind: dict[str, NativeFunction]
    clashes: list[NativeFunction]


def pre_group(functions: list[NativeFunction]) -> list[PreGroup]:
    """Functions bucketed by group key, in order of first appearance."""
    buckets: dict[str, PreGroup] = {}
    for f in functions:
        kind = f.func.kind
        if kind == SCRATCH:
            continue
        key = f.func.group_key
        g = buckets.get(key)
        if g is None:
            g = buckets[key] = PreGroup({}, [])
        if kind in g.by_kind:
            g.clashes.append(f)
        else:
            g.by_kind[kind] = f
    return list(buckets.values())


def make_group(d: dict[str, NativeFunction]) -> NativeFunctionsGroup | None:
    """A group from one pre-group, or None when it lacks a functional or an out= member."""
    functional, out = d.get(FUNCTIONAL), d.get(OUT)
    if len(d) < 2 or functional is None or out is None:
        return None
    return NativeFunctionsGroup(functional, d.get(INPLACE), d.get(MUTABLE), out)


def group_functions(pre_groups: list[PreGroup]) -> list[NativeFunctionsGroup]:
    return [g for g in (make_group(p.by_kind) for p in pre_groups) if g is not None]
