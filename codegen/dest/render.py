"""Rendering: each generated file is one template over one context of codegen/dest/files.py."""

from __future__ import annotations

import os
import re

import jinja2

from codegen.dest import files
from codegen.dest.library import Library

TEMPLATE_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates"
)


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
    env.filters["identifier"] = lambda text: re.sub(r"\W", "_", text)  # register_<library>_kernels
    env.filters["named"] = lambda expr: ("name", expr)  # a value for macros.j2's `returned`
    return env


def cpp_string(text: str) -> str:
    """A C++ string literal for text (schemas hold no control characters)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Renderer:
    """Renders the files of one library; files with the same context share one
    computation of it (not a header and its source: under a selection, headers declare
    every operator and sources only the selected ones)."""

    def __init__(self, lib: Library, base: dict) -> None:
        self.lib = lib
        self.base = base  # source, namespace and include_prefix
        self.env = environment()
        self._contexts: dict[tuple, dict] = {}

    def render(self, out: files.OutputFile) -> str:
        # Headers declare every operator, sources define the selected ones: the two differ
        # only in a selective build.
        key = (
            out.context,
            out.key,
            out.family,
            out.shard,
            out.op,
            out.header and self.lib.selection is not None,
        )
        context = self._contexts.get(key)
        if context is None:
            context = self._contexts[key] = files.CONTEXTS[out.context](self.lib, out)
        return self.env.get_template(out.template).render(self.base, **context)
