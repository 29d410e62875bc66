"""The generator that Bazel runs: native_functions.yaml in, C++ sources out.

    generate.py --yaml ops.yaml --namespace my::ops --backends CPU --shards 2 OUT_FILE...

The OUT_FILEs are exactly the files of `codegen.dest.files.output_names` (the Starlark
rule declares the same list at analysis time); each file's name selects what is
written there. Output is a pure function of the yaml and the flags: sorted, no
timestamps, no absolute paths.

Errors in the yaml are the user's: they are printed as `file:line:col: error: ...`
with a hint, all at once, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

import jinja2

from codegen.dest import files
from codegen.dest.library import build_library
from codegen.frontend import load_native_yaml

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
_SHARDED = re.compile(r"^Register(?P<family>\w+)_(?P<shard>\d+)\.cpp$")
_STATIC = re.compile(r"^(?P<key>\w+)Functions\.h$")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["cpp_string"] = _cpp_string
    env.filters["tensor_ref_param"] = lambda name: f"Tensor& {name}"
    env.filters["std_ref"] = lambda name: f"std::ref({name})"
    return env


def _cpp_string(text: str) -> str:
    """A C++ string literal for text (schemas hold no control characters)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(lib, name: str, base: dict, env: jinja2.Environment) -> str:
    """The text of the generated file `name`."""
    if name in ("Operators.h", "Operators.cpp"):
        return env.get_template(name + ".j2").render(base, **files.operators_context(lib))
    if name == "Types.h":
        return env.get_template("Types.h.j2").render(base, runtime_types=files.RUNTIME_TYPES)
    if name == "NativeMetaFunctions.h":
        return env.get_template("NativeMetaFunctions.h.j2").render(base, **files.meta_context(lib))
    if name == "NativeFunctions.h":
        return env.get_template("NativeFunctions.h.j2").render(base, **files.natives_context(lib))
    if name in ("Functions.h", "Functions.cpp"):
        return env.get_template(name + ".j2").render(base, **files.functions_context(lib))
    if m := _SHARDED.match(name):
        context = files.register_context(lib, m["family"], int(m["shard"]))
        return env.get_template("Register.cpp.j2").render(base, **context)
    if m := _STATIC.match(name):
        context = files.static_functions_context(lib, m["key"])
        namespace = f"{base['namespace']}::{context['static_namespace']}"
        return env.get_template("Functions.h.j2").render(base, **context, namespace=namespace)
    raise AssertionError(f"no template for {name}")  # output_names and render disagree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="generate", description=__doc__.splitlines()[0], fromfile_prefix_chars="@")
    parser.add_argument("--yaml", required=True, help="the native_functions.yaml to read")
    parser.add_argument("--tags", help="the tags.yaml (default: one beside the yaml, if any)")
    parser.add_argument("--yaml-label", help="how generated comments name the yaml (default: --yaml)")
    parser.add_argument("--namespace", required=True, help="C++ namespace of the generated code")
    parser.add_argument("--include-prefix", required=True,
                        help="how generated files include each other: <prefix>/Functions.h")
    parser.add_argument("--backends", default="CPU", help="comma-separated backend dispatch keys")
    parser.add_argument("--shards", type=int, default=1, help="registration files per dispatch key")
    parser.add_argument("outputs", nargs="+", help="files to write; their names select the content")
    args = parser.parse_args(argv)

    backends = tuple(b for b in args.backends.split(",") if b)
    expected = files.output_names(backends, args.shards)
    given = [os.path.basename(o) for o in args.outputs]
    if sorted(given) != sorted(expected):
        parser.error(f"the output files must be exactly: {' '.join(expected)}; "
                     f"unknown: {' '.join(sorted(set(given) - set(expected))) or '-'}; "
                     f"missing: {' '.join(sorted(set(expected) - set(given))) or '-'}")

    parsed = load_native_yaml(args.yaml, args.tags)
    lib = None
    if not parsed.diagnostics.has_errors():
        lib = build_library(args.namespace, backends, parsed.functions, parsed.groups, args.shards,
                            parsed.diagnostics)
    if parsed.diagnostics.items:
        print(parsed.diagnostics.format(), file=sys.stderr)
    if parsed.diagnostics.has_errors():
        return 1

    env = _environment()
    base = {"source": args.yaml_label or args.yaml, "namespace": args.namespace,
            "include_prefix": args.include_prefix}
    for path in args.outputs:
        text = render(lib, os.path.basename(path), base, env)
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
