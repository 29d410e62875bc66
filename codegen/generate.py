"""The generator that Bazel runs: native_functions.yaml in, C++ sources out.

    generate.py --yaml ops.yaml --namespace my_ops OUT_FILE...

Every OUT_FILE is a path whose file name selects what is written there (see
OUTPUTS); the Starlark rule declares them at analysis time and passes them all, so
the action writes exactly what it declared. Output is a pure function of the yaml
and the flags: sorted, no timestamps, no absolute paths.

Errors in the yaml are the user's: they are printed as `file:line:col: error: ...`
with a hint, all at once, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import os
import sys

import jinja2

from codegen.diagnostics import Diagnostics
from codegen.registry import read_operators

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")

# Output file name -> template that renders it.
OUTPUTS = {
    "Operators.h": "Operators.h.j2",
    "Operators.cpp": "Operators.cpp.j2",
}


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def _cpp_string(text: str) -> str:
    """A C++ string literal for text (schemas hold no control characters)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="generate", description=__doc__.splitlines()[0], fromfile_prefix_chars="@")
    parser.add_argument("--yaml", required=True, help="the native_functions.yaml to read")
    parser.add_argument("--yaml-label", help="how generated comments name the yaml (default: --yaml)")
    parser.add_argument("--namespace", required=True, help="C++ namespace of the generated code")
    parser.add_argument("outputs", nargs="+", help="files to write; their names select the content")
    args = parser.parse_args(argv)

    unknown = sorted({os.path.basename(o) for o in args.outputs} - set(OUTPUTS))
    if unknown:
        parser.error(f"unknown output file name(s) {', '.join(unknown)}; known: {', '.join(sorted(OUTPUTS))}")

    diagnostics = Diagnostics()
    operators = read_operators(args.yaml, diagnostics)
    if diagnostics.items:
        print(diagnostics.format(), file=sys.stderr)
    if diagnostics.has_errors():
        return 1

    env = _environment()
    env.filters["cpp_string"] = _cpp_string
    context = {
        "source": args.yaml_label or args.yaml,
        "namespace": args.namespace,
        "operators": operators,
    }
    for path in args.outputs:
        text = env.get_template(OUTPUTS[os.path.basename(path)]).render(context)
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
