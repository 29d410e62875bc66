"""Translation: the arguments of a call into one C++ API, from what another API has in scope.

A wrapper has its own parameters (bindings of the dispatcher API); the function it
calls takes parameters of another API (a structured `meta()`/`impl()`, a kernel, a
sibling operator of the same group). Each goal binding is matched through the schema
argument it stands for — its name and schema type, the same in every variant of a
group — never through C++ spellings. Expressions that are not parameters (an output
held by the structured class, a value `meta()` precomputed, the copy of `self` an
autogen kernel works on) enter as `Expr`s; a later entry of the context replaces an
earlier one for the same argument.

    translate(wrapper_bindings + [Expr("op.outputs_[0]", out_arg)], impl_bindings)
    ==> ["self", "other", "alpha", "op.outputs_[0]"]

A factory function's tensor options (dtype, layout, device, pin_memory) may also come
from a tensor: `options_of="out"` gives `out.scalar_type()`, ... for goals no binding
provides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from codegen.api.types import Binding
from codegen.model.schema import Argument

# A tensor option of a factory function, from a tensor `t` whose options it takes.
_OPTIONS_OF = {
    "dtype": "{t}.scalar_type()",
    "layout": "::sops::kStrided",  # sops tensors are dense and strided
    "device": "{t}.device()",
    "pin_memory": "false",
}


@dataclass(frozen=True)
class Expr:
    """A C++ expression in scope that stands for a schema argument. An `exact` one stands
    for that very argument object only: a value `meta()` precomputed may share the name
    and type of the argument it replaces (cat's `dim -> int dim`), yet is another value."""

    expr: str
    argument: Argument
    exact: bool = False


class TranslationError(AssertionError):
    """A goal that nothing in scope provides: a bug of the generator, not of the yaml
    (check rejects every yaml that could lead here)."""


def _key(a: Argument) -> tuple[str, str]:
    return a.name, str(a.type)


def translate(
    context: Sequence[Binding | Expr], goals: Sequence[Binding], *, options_of: str | None = None
) -> list[str]:
    """One C++ expression per goal, in the goals' order."""
    known: dict[tuple[str, str], str] = {}
    exact: dict[int, str] = {}
    for c in context:
        expr = c.name if isinstance(c, Binding) else c.expr
        exact[id(c.argument)] = expr
        if not (isinstance(c, Expr) and c.exact):
            known[_key(c.argument)] = expr
    exprs = []
    for goal in goals:
        found = exact.get(id(goal.argument)) or known.get(_key(goal.argument))
        if found is None and options_of is not None and goal.argument.name in _OPTIONS_OF:
            found = _OPTIONS_OF[goal.argument.name].format(t=options_of)
        if found is None:
            have = ", ".join(f"`{t} {n}`" for n, t in known) or "nothing"
            raise TranslationError(f"no value for `{goal.argument}`; in scope: {have}")
        exprs.append(found)
    return exprs
