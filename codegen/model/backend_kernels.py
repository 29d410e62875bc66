"""A backend's own kernels for variants that `autogen:` writes (`--autogen-kernels FILE`).

native_functions.yaml stays as PyTorch's: `autogen: relu.out` makes the out= variant, whose
generated CompositeExplicitAutograd kernel runs the functional one and copies into `out`. A
backend that can write `out` directly lists its kernel in a yaml of its own, by dispatch key,
as torchgen's backend yamls list an external backend's kernels:

    CPU:
      relu.out: relu_out
      native_layer_norm.out: native_layer_norm_out

Each listed function then gets that key's kernel (`<namespace>::native::relu_out`, declared
in NativeFunctions.h like a written dispatch entry's) beside autogen's, which keeps serving
the keys without one. Only functions autogen made can be listed: a written function takes
its kernels from its `dispatch:`.
"""

from __future__ import annotations

import dataclasses
import re

import yaml

from codegen.diagnostics import Diagnostics, Position
from codegen.model.dispatch import BackendMetadata
from codegen.model.entry import NativeFunction

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def load(path: str, diags: Diagnostics) -> dict[str, dict[str, str]]:
    """The file's {function name: {dispatch key: kernel}}; problems go to `diags`."""
    where = Position(path, 1, 1)
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        diags.error(where, f"cannot read the autogen kernels file: {e}", "pass a readable yaml")
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        diags.error(
            where,
            "the autogen kernels file must map dispatch keys to {function: kernel}",
            "write e.g. `CPU:` then `  relu.out: relu_out`",
        )
        return {}
    kernels: dict[str, dict[str, str]] = {}
    for key, entries in data.items():
        if not isinstance(key, str) or not isinstance(entries, dict):
            diags.error(
                where,
                f"`{key}` must be a dispatch key mapping functions to kernels",
                "write e.g. `CPU:` then `  relu.out: relu_out`",
            )
            continue
        for name, kernel in entries.items():
            if not isinstance(kernel, str) or not _IDENTIFIER.match(kernel):
                diags.error(
                    where,
                    f"{key}: the kernel of `{name}` must be a C++ function name, not `{kernel}`",
                    "name a function of the backend's native namespace, e.g. relu_out",
                )
                continue
            kernels.setdefault(str(name), {})[key] = kernel
    return kernels


def apply(generated: list[NativeFunction], path: str, diags: Diagnostics) -> list[NativeFunction]:
    """`generated` (what autogen made) with the kernels of `path` added to their dispatch."""
    kernels = load(path, diags)
    by_name = {str(f.func.name): f for f in generated}
    for name in sorted(kernels):
        if name not in by_name:
            diags.error(
                Position(path, 1, 1),
                f"`{name}` is not a variant that `autogen:` makes",
                "list only functions named in an `autogen:` entry; a written function "
                "takes its kernels from its `dispatch:`",
            )
    out = []
    for f in generated:
        extra = kernels.get(str(f.func.name))
        if extra:
            dispatch = dict(f.dispatch)
            for key, kernel in extra.items():
                dispatch[key] = BackendMetadata(kernel, False)
            f = dataclasses.replace(f, dispatch=dispatch)
        out.append(f)
    return out
