"""tags.yaml: the tags an entry may carry, each with a description.

- tag: pointwise
  desc: |
    This tag indicates that the operator is pointwise.
"""

from __future__ import annotations

import functools

from codegen.diagnostics import Diagnostics
from codegen.model.schema import DEFAULT_NAMESPACE, FunctionSchema
from codegen.yaml_loader import (
    MappingNode,
    SequenceNode,
    compose,
    describe,
    is_str,
    position,
    read_text,
)

# Tags that apply by themselves when tags.yaml defines them.
PT2_COMPLIANT = "pt2_compliant_tag"
OUT_TAG = "out"
INPLACE_TAG = "inplace"
GENERATED_TAG = "generated"


def load_tags(path: str, diags: Diagnostics) -> frozenset[str] | None:
    """The tag names of a tags.yaml; None (with errors reported) if it cannot be read."""
    text = read_text(path, diags)
    if text is None:
        return None
    root = compose(text, path, diags)
    if root is None and not diags.has_errors():
        return frozenset()
    if root is None:
        return None
    if not isinstance(root, SequenceNode):
        diags.error(
            position(root, path),
            f"a tags file must be a list, not {describe(root)}",
            "write entries as `- tag: NAME` with a `desc:` line",
        )
        return None
    tags: set[str] = set()
    for entry in root.value:
        at = position(entry, path)
        if not isinstance(entry, MappingNode):
            diags.error(
                at,
                f"a tag entry must be a mapping, not {describe(entry)}",
                "write `- tag: NAME` and `desc: WHAT IT MEANS`",
            )
            continue
        fields = {k.value: v for k, v in entry.value if is_str(k)}
        for k, _ in entry.value:
            if not is_str(k) or k.value not in ("tag", "desc"):
                diags.error(
                    position(k, path),
                    f"unknown key `{getattr(k, 'value', k)}` in a tag entry",
                    "a tag entry has `tag:` and `desc:`",
                )
        name = fields.get("tag")
        if name is None or not is_str(name):
            diags.error(at, "the tag entry has no `tag:` name", "write `- tag: NAME`")
            continue
        desc = fields.get("desc")
        if desc is None or not is_str(desc) or not desc.value.strip():
            diags.error(
                position(name, path),
                f"tag `{name.value}` has no description",
                "add a `desc:` that says what the tag means",
            )
        if name.value in tags:
            diags.error(
                position(name, path), f"tag `{name.value}` is defined twice", "keep one definition"
            )
        tags.add(name.value)
    return frozenset(tags)


def derived_tags(func: FunctionSchema, valid: frozenset[str] | None) -> frozenset[str]:
    """Tags a function gets without writing them: `out`, `inplace`, `pt2_compliant_tag`."""
    if not valid:
        return _NONE
    return _derived(
        func.name.effective_namespace == DEFAULT_NAMESPACE,
        bool(func.arguments.out),
        func.name.name.inplace,
        valid,
    )


_NONE: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=64)
def _derived(aten: bool, out: bool, inplace: bool, valid: frozenset[str]) -> frozenset[str]:
    tags = set()
    if aten and PT2_COMPLIANT in valid:
        tags.add(PT2_COMPLIANT)
    if out and OUT_TAG in valid:
        tags.add(OUT_TAG)
    if inplace and INPLACE_TAG in valid:
        tags.add(INPLACE_TAG)
    return frozenset(tags)
