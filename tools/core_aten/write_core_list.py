#!/usr/bin/env python3
"""Writes ops/core_aten.txt: the overloads PyTorch tags `core` in its native_functions.yaml
(the Core ATen IR that torch.export's run_decompositions() targets), without the
`*_backward` ones, which no inference graph holds.

    python3 tools/core_aten/write_core_list.py [--yaml PATH] [--check]

PATH defaults to the yaml torchgen ships in the installed torch (torch 2.13.0 wrote the
checked-in list). `codegen check ops/native_functions.yaml --core ops/core_aten.txt`
compares the library with it; tests/tools/test_core_aten.py keeps the two in step.
"""

from __future__ import annotations

import argparse
import os
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "ops", "core_aten.txt")


def core_overloads(entries: list[dict]) -> list[str]:
    names = []
    for e in entries:
        tags = e.get("tags", [])
        tags = [tags] if isinstance(tags, str) else tags
        name = e["func"].split("(", 1)[0].strip()
        if "core" in tags and "_backward" not in name:
            names.append(name)
    return sorted(set(names))


def text(names: list[str], version: str) -> str:
    head = [
        f"# PyTorch {version}'s core ATen overloads (tags: core), *_backward left out: {len(names)}.",
        "# Written by tools/core_aten/write_core_list.py; checked by",
        "# `python3 -m codegen check ops/native_functions.yaml --core ops/core_aten.txt`.",
    ]
    return "\n".join(head + names) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--yaml", help="PyTorch's native_functions.yaml (default: torchgen's)")
    p.add_argument("--check", action="store_true", help="compare with ops/core_aten.txt only")
    args = p.parse_args()
    version = "?"
    path = args.yaml
    if path is None:
        import torch  # noqa: PLC0415
        import torchgen  # noqa: PLC0415

        version = torch.__version__.split("+")[0]
        path = os.path.join(
            os.path.dirname(torchgen.__file__),
            "packaged",
            "ATen",
            "native",
            "native_functions.yaml",
        )
    with open(path, encoding="utf-8") as f:
        out = text(core_overloads(yaml.safe_load(f)), version)
    if args.check:
        with open(OUT, encoding="utf-8") as f:
            same = f.read() == out
        print(f"{OUT}: {'current' if same else 'stale'}")
        return 0 if same else 1
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
