"""The schema front end: read a native_functions.yaml, check it, expand autogen, group.

    parsed = load_native_yaml("ops/native_functions.yaml", "ops/tags.yaml")
    if parsed.diagnostics.has_errors(): ...
    for f in parsed.functions: ...           # as written, then the generated ones
    for g in parsed.groups: ...              # functional/inplace/mutable/out groups

Mistakes never raise: they are collected in `parsed.diagnostics`, all of them.
"""

from __future__ import annotations

import contextlib
import gc
import os
from dataclasses import dataclass, field

from codegen.diagnostics import Diagnostics, Position
from codegen.model import autogen, backend_kernels
from codegen.model.entry import NativeFunction
from codegen.model.entry_parser import EntryParser
from codegen.model.groups import NativeFunctionsGroup, group_functions, pre_group
from codegen.model.tags import load_tags
from codegen.validate import check_entry, check_file, check_schema, remove_duplicates
from codegen.validate.cpp_checks import check_cpp
from codegen.yaml_loader import (
    NULL_TAG,
    ScalarNode,
    SequenceNode,
    compose,
    describe,
    position,
    read_text,
)

TAGS_FILE = "tags.yaml"


@dataclass
class NativeYaml:
    path: str
    functions: list[NativeFunction] = field(default_factory=list)
    groups: list[NativeFunctionsGroup] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    tags_path: str | None = None

    def role_of(self) -> dict[int, tuple[NativeFunctionsGroup, str]]:
        """id(function) -> (its group, its role in it)."""
        return {id(f): (g, role) for g in self.groups for role, f in g.members()}


def default_tags_path(path: str) -> str | None:
    """tags.yaml next to the yaml file, if there is one."""
    candidate = os.path.join(os.path.dirname(path), TAGS_FILE)
    return (
        candidate
        if os.path.isfile(candidate) and os.path.abspath(candidate) != os.path.abspath(path)
        else None
    )


@contextlib.contextmanager
def _gc_paused():
    """The model is a large, acyclic tree: collecting garbage while it grows only costs time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_native_yaml(
    path: str, tags_path: str | None = None, autogen_kernels: str | None = None
) -> NativeYaml:
    """Parse and check `path`; tags come from `tags_path` (default: a tags.yaml beside it);
    `autogen_kernels` names a backend's kernels for variants autogen makes
    (codegen/model/backend_kernels.py)."""
    with _gc_paused():
        return _load(path, tags_path, autogen_kernels)


def _load(path: str, tags_path: str | None, autogen_kernels: str | None = None) -> NativeYaml:
    result = NativeYaml(path)
    diags = result.diagnostics
    if tags_path is None:
        tags_path = default_tags_path(path)
    result.tags_path = tags_path
    valid_tags = load_tags(tags_path, diags) if tags_path is not None else None

    text = read_text(path, diags)
    if text is None:
        return result
    root = compose(text, path, diags)
    if root is None:
        if not diags.has_errors():
            diags.warning(
                Position(path, 1, 1),
                "the file has no entries",
                "add entries such as `- func: my_op(Tensor self) -> Tensor`",
            )
        return result
    if isinstance(root, ScalarNode) and root.tag == NULL_TAG:
        diags.warning(
            position(root, path),
            "the file has no entries",
            "add entries such as `- func: my_op(Tensor self) -> Tensor`",
        )
        return result
    if not isinstance(root, SequenceNode):
        diags.error(
            position(root, path),
            f"the file must be a list of entries, not {describe(root)}",
            "start each entry with `- func: ...`",
        )
        return result

    parser = EntryParser(path, diags, valid_tags)
    written = []
    for node in root.value:
        f = parser.parse(node)
        if f is not None:
            written.append(f)
    for f in written:
        check_schema(f, diags)
        check_entry(f, valid_tags, diags)
    written = remove_duplicates(written, diags)

    generated = autogen.generate(pre_group(written))
    if autogen_kernels is not None:
        generated = backend_kernels.apply(generated, autogen_kernels, diags)
    functions = written + generated
    pre_groups = pre_group(functions)
    groups = group_functions(pre_groups)
    check_file(functions, pre_groups, groups, diags, parser.unparsed)
    if not diags.has_errors():  # what only the C++ mapping sees, on a file that is otherwise sound
        check_cpp(functions, groups, diags)
    for f in functions:
        f.source.release()  # lets the YAML node tree go
    result.functions = functions
    result.groups = groups
    return result
