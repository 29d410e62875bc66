"""Positions of schema pieces (an argument, its name, its default, a return) in the file.

Schemas are parsed on a fast path that keeps no offsets; when a check needs to point
inside one, the careful scanner is run again on that schema only.
"""

from __future__ import annotations

from codegen.diagnostics import Position
from codegen.model.entry import NativeFunction
from codegen.model.schema_parser import SchemaSpans, parse_schema_with_spans
from codegen.model.types import SchemaError
from codegen.yaml_loader import SequenceNode, is_str, position


def _spans(f: NativeFunction) -> SchemaSpans | None:
    pair = f.source.fields.get("func")
    if pair is None or f.generated:
        return None
    try:
        return parse_schema_with_spans(pair[1].value)[1]
    except SchemaError:
        return None


def at_func(f: NativeFunction) -> Position:
    """The `func:` value, or for a generated function the `autogen:` that asked for it."""
    return f.source.value("autogen" if f.generated else "func")


def at_arg(f: NativeFunction, index: int, part: str = "start") -> Position:
    """Argument `index` of `f.func.arguments.flat_all`; part is start, name or default."""
    spans = _spans(f)
    if spans is None or index >= len(spans.args):
        return at_func(f)
    span = spans.args[index]
    offset = {"start": span.start, "name": span.name, "default": span.default}[part]
    return f.source.in_value("func", offset if offset >= 0 else span.start)


def at_arg_named(f: NativeFunction, name: str, part: str = "start") -> Position:
    for i, a in enumerate(f.func.arguments.flat_all):
        if a.name == name:
            return at_arg(f, i, part)
    return at_func(f)


def at_return(f: NativeFunction, index: int) -> Position:
    spans = _spans(f)
    if spans is None:
        return at_func(f)
    if index >= len(spans.returns):
        return f.source.in_value("func", spans.returns_start)
    return f.source.in_value("func", spans.returns[index].start)


def at_returns(f: NativeFunction) -> Position:
    spans = _spans(f)
    if spans is None:
        return at_func(f)
    return f.source.in_value("func", spans.returns_start)


def at_precomputed(f: NativeFunction, replaced: str | None) -> Position:
    """The `precomputed:` line that replaces argument `replaced`, or (None) the line that adds values."""
    pair = f.source.fields.get("precomputed")
    if pair is not None and isinstance(pair[1], SequenceNode):
        for node in pair[1].value:
            if not is_str(node):
                continue
            arg, arrow, _ = node.value.partition("->")
            if (arg.strip() == replaced) if arrow else replaced is None:
                return position(node, f.source.path)
    return f.source.value("precomputed")
