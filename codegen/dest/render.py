"""Rendering: each generated file is one template over one context of codegen/dest/files.py."""

from __future__ import annotations

import os

import jinja2

from codegen.dest import files
from codegen.dest.library import Library

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["cpp_string"] = cpp_string
    env.filters["named"] = lambda expr: ("name", expr)  # a value for macros.j2's `returned`
    return env


def cpp_string(text: str) -> str:
    """A C++ string literal for text (schemas hold no control characters)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(lib: Library, out: files.OutputFile, base: dict, env: jinja2.Environment) -> str:
    """The text of one generated file. `base`: source, namespace and include_prefix."""
    context = files.CONTEXTS[out.context](lib, out)
    return env.get_template(out.template).render(base, **context)
