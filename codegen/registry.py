"""The operator registry read from a native_functions.yaml: names and schemas.

This is the first slice of the front end that the generator uses: each entry's
`func:` gives an operator name, an overload name and its schema string. Problems are
reported as diagnostics with the yaml position, never raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from codegen.diagnostics import Diagnostics, Position

# NAME[.OVERLOAD](ARGUMENTS) -> RETURNS
_FUNC = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(\.(?P<overload>[A-Za-z0-9_]+))?\(.*\)\s*->\s*\S")


@dataclass(frozen=True)
class Operator:
    name: str
    overload: str
    schema: str

    @property
    def key(self) -> str:
        return f"{self.name}.{self.overload}" if self.overload else self.name


def _position(path: str, node: yaml.Node) -> Position:
    return Position(path, node.start_mark.line + 1, node.start_mark.column + 1)


def _load(path: str, diagnostics: Diagnostics) -> yaml.Node | None:
    try:
        with open(path, encoding="utf-8") as f:
            return yaml.compose(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError as e:
        diagnostics.error(Position(path, 1, 1), f"cannot read the file: {e.strerror}",
                          "check the path given to the generator")
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        diagnostics.error(Position(path, line, column), f"invalid YAML: {e.problem or e.context}",
                          "fix the YAML syntax at this place (indentation, quoting, a missing ':')")
    return None


def read_operators(path: str, diagnostics: Diagnostics) -> list[Operator]:
    """The operators of a native_functions.yaml, sorted by (name, overload)."""
    root = _load(path, diagnostics)
    if root is None:
        return []
    if not isinstance(root, yaml.SequenceNode):
        diagnostics.error(_position(path, root), "the file must be a list of entries",
                          "start each entry with `- func: name(args) -> returns`")
        return []
    seen: dict[str, Position] = {}
    operators = []
    for entry in root.value:
        func = None
        if isinstance(entry, yaml.MappingNode):
            func = next((v for k, v in entry.value if k.value == "func"), None)
        if func is None:
            diagnostics.error(_position(path, entry), "an entry without `func:`",
                              "each entry is a mapping whose `func:` holds the schema")
            continue
        match = _FUNC.match(func.value) if isinstance(func, yaml.ScalarNode) else None
        if match is None:
            diagnostics.error(_position(path, func), f"not a schema: {func.value!r}",
                              "write `name.overload(Type arg, ...) -> ReturnType`")
            continue
        op = Operator(match["name"], match["overload"] or "", func.value)
        pos = _position(path, func)
        if op.key in seen:
            first = seen[op.key]
            diagnostics.error(pos, f"`{op.key}` is declared twice (first at line {first.line})",
                              "give one of them another overload name")
            continue
        seen[op.key] = pos
        operators.append(op)
    return sorted(operators, key=lambda op: (op.name, op.overload))
