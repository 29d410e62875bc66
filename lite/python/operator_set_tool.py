"""Writes one operator set (the `operator_set` rule's build action) as the generator reads it.

    operator_set_tool.py --output SET.json [--label LABEL] [--ops OPS.txt]
                         [--selected-operators-yaml FILE ...] [--model MODEL.sopsm ...]

Sources, in any number:
  --ops: a file of operator names, one per line (the rule's `ops` list);
  --selected-operators-yaml: PyTorch's selected_operators.yaml (what `lite_runtime trace`
    writes): its `operators` (a mapping, or a list of names), each one's
    `include_all_overloads`, and `include_all_operators`;
  --model: a lite model file (lite/FORMAT.md): the operators its nodes call (a
    version-2 file's `sym::` scalar operators are the interpreter's own, not library
    operators, and are left out).

The output: {"operators": [{"name", "all_overloads", "origin"}, ...], "all_operators": bool},
sorted, each name once. Names are checked for their form here and against the library
by the generator. A broken source fails with one line naming the file (and the line
of a yaml), exit status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)?\Z")


class SetError(Exception):
    pass


def from_list(path: str, origin: str) -> list[dict]:
    entries = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            name = line.split("#", 1)[0].strip()
            if name:
                entries.append(_entry(name, False, origin, f"{path}:{n}"))
    return entries


def from_selected_operators_yaml(path: str) -> tuple[list[dict], bool]:
    import yaml  # the generator's own dependency

    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else path
        raise SetError(f"{where}: not valid YAML: {getattr(e, 'problem', None) or e}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SetError(
            f"{path}:1: a selected_operators.yaml is a mapping with an `operators` key "
            f"(as `lite_runtime trace` writes it), not a {type(data).__name__}"
        )
    everything = data.get("include_all_operators", False) is True
    operators = data.get("operators") or {}
    entries = []
    if isinstance(operators, list):  # the older format: a list of names
        operators = {name: {} for name in operators}
    if not isinstance(operators, dict):
        raise SetError(
            f"{path}: `operators` must map operator names to their details, "
            f"not be a {type(operators).__name__}"
        )
    for name, details in operators.items():
        details = details or {}
        if not isinstance(details, dict):
            raise SetError(
                f"{path}: operator {name!r}: its details must be a mapping "
                "(is_root_operator, include_all_overloads, ...)"
            )
        entries.append(
            _entry(str(name), details.get("include_all_overloads", False) is True, path, path)
        )
    return entries, everything


def from_model(path: str) -> list[dict]:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from lite_model import LiteModelError
    from lite_parse import parse_model

    try:
        with open(path, "rb") as f:
            model = parse_model(f.read())
    except LiteModelError as e:
        raise SetError(f"{path}: not a lite model file (lite/FORMAT.md): {e}") from None
    from lite_model import SYM_PREFIX

    return [
        _entry(name, False, path, path)
        for name in model.operators
        if not name.startswith(SYM_PREFIX)
    ]


def _entry(name: str, all_overloads: bool, origin: str, where: str) -> dict:
    if not _NAME.match(name):
        raise SetError(
            f"{where}: {name!r} is not an operator name; write `namespace::name` or "
            "`namespace::name.overload` (e.g. `aten::add.Tensor`)"
        )
    return {"name": name, "all_overloads": all_overloads, "origin": origin}


def merge(entries: list[dict]) -> list[dict]:
    """Each name once (all overloads if any source asks so; the first origin), sorted."""
    merged: dict[str, dict] = {}
    for e in entries:
        kept = merged.setdefault(e["name"], dict(e))
        kept["all_overloads"] = kept["all_overloads"] or e["all_overloads"]
    return [merged[name] for name in sorted(merged)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="operator_set_tool")
    p.add_argument("--output", required=True)
    p.add_argument(
        "--label", default="", help="the operator_set's label, named as the origin of `ops`"
    )
    p.add_argument("--ops")
    p.add_argument("--selected-operators-yaml", action="append", default=[])
    p.add_argument("--model", action="append", default=[])
    args = p.parse_args(argv)
    entries: list[dict] = []
    everything = False
    try:
        if args.ops:
            entries += from_list(args.ops, args.label or args.ops)
        for path in args.selected_operators_yaml:
            found, all_ops = from_selected_operators_yaml(path)
            entries += found
            everything = everything or all_ops
        for path in args.model:
            entries += from_model(path)
    except (SetError, OSError) as e:
        message = (
            str(e) if isinstance(e, SetError) else f"{e.filename}: cannot read it: {e.strerror}"
        )
        print(f"operator_set {args.label}: error: {message}", file=sys.stderr)
        return 1
    with open(args.output, "w", encoding="utf-8", newline="\n") as out:
        json.dump(
            {"all_operators": everything, "operators": merge(entries)},
            out,
            indent=1,
            sort_keys=True,
        )
        out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
