"""The tables kept as Starlark literals beside the generator: one table per fact.

codegen/outputs.bzl (the generated files) and codegen/dispatch_keys.bzl (the runtime's
dispatch keys) are loaded by the Starlark rules and read here; their literals (lists,
dicts, strings, True/False/None) are Python literals too.
"""

from __future__ import annotations

import ast
import os
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))


def read_table(name: str) -> dict[str, Any]:
    """The top-level `NAME = literal` assignments of codegen/<name>."""
    path = os.path.join(HERE, name)
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    return {
        t.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
