#!/usr/bin/env python3
"""Benchmark: what adding one structured unary operator to //ops:aten costs.

    python3 bench/add_operator_rebuild.py [--target //ops:aten]

Builds the target, then adds `aten::erfc` as a library author would (its three schemas
in ops/native_functions.yaml, its meta function in ops/meta/unary_ops.cpp and its CPU
kernel in backends/cpu/kernels/unary_ops.cpp, each including erfc's header), builds
again with Bazel's --explain and prints the places and lines written by hand and the
actions Bazel ran, by kind (the compiled files named), then puts the three files back. Needs a clean checkout of those
files. This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAZEL = os.path.join(ROOT, "tools", "bazel")

SCHEMAS = """- func: erfc(Tensor self) -> Tensor
  device_check: NoCheck
  structured_delegate: erfc.out
  variants: function, method

- func: erfc_(Tensor(a!) self) -> Tensor(a!)
  device_check: NoCheck
  structured_delegate: erfc.out
  variants: function, method

- func: erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  device_check: NoCheck
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU: erfc_out

"""
# (file, the line the addition goes before or after, the addition, before?)
EDITS = [
    ("ops/native_functions.yaml", "- func: rsqrt(Tensor self) -> Tensor\n", SCHEMAS, True),
    (
        "ops/meta/unary_ops.cpp",
        '#include "aten/ops/exp_meta.h"\n',
        '#include "aten/ops/erfc_meta.h"\n',
        True,
    ),
    (
        "ops/meta/unary_ops.cpp",
        "SOPS_UNARY_FLOAT_META(rsqrt)\n",
        "SOPS_UNARY_FLOAT_META(erfc)\n",
        False,
    ),
    (
        "backends/cpu/kernels/unary_ops.cpp",
        '#include "aten/ops/exp_native.h"\n',
        '#include "aten/ops/erfc_native.h"\n',
        True,
    ),
    (
        "backends/cpu/kernels/unary_ops.cpp",
        "SOPS_UNARY_FLOAT_IMPL(rsqrt, scalar_t(1) / std::sqrt(x))\n",
        "SOPS_UNARY_FLOAT_IMPL(erfc, std::erfc(x))\n",
        False,
    ),
]


EXTRA = os.environ.get("EXTRA_BAZEL_FLAGS", "").split()  # e.g. --verbose_explanations


def bazel_build(target: str, *flags: str) -> str:
    run = subprocess.run([BAZEL, "build", target, *flags], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"add_operator_rebuild.py: {target} did not build:\n{run.stderr[-3000:]}")
    return run.stderr


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", default="//ops:aten")
    args = p.parse_args()
    paths = sorted({e[0] for e in EDITS})
    dirty = subprocess.run(["git", "diff", "--quiet", "--", *paths], cwd=ROOT).returncode
    if dirty:
        sys.exit(f"add_operator_rebuild.py: {', '.join(paths)} have changes: commit or stash them")
    bazel_build(args.target)
    explain = os.path.join(ROOT, ".tmp_out", "add_operator_explain.txt")
    os.makedirs(os.path.dirname(explain), exist_ok=True)
    try:
        lines = 0
        for path, anchor, addition, before in EDITS:
            full = os.path.join(ROOT, path)
            with open(full, encoding="utf-8") as f:
                text = f.read()
            if anchor not in text:
                sys.exit(f"add_operator_rebuild.py: {path} no longer holds {anchor.strip()!r}")
            new = anchor + addition if not before else addition + anchor
            with open(full, "w", encoding="utf-8") as f:
                f.write(text.replace(anchor, new, 1))
            lines += addition.count("\n")
        stderr = bazel_build(args.target, f"--explain={explain}", *EXTRA)
    finally:
        subprocess.run(["git", "checkout", "--", *paths], cwd=ROOT, check=True)
    processes = re.search(r"INFO: (\d+) process(?:es)?: (.*)", stderr)
    with open(explain, encoding="utf-8") as f:
        actions = re.findall(r"Executing action '([^']+)'", f.read())
    kinds = collections.Counter(a.split(" ", 1)[0] for a in actions)
    compiled = sorted(a.split(" ", 1)[1] for a in actions if a.startswith("Compiling "))
    print(f"by hand: {len(paths)} files, {lines} lines")
    print(
        f"bazel: {processes[1] if processes else '?'} processes ({processes[2] if processes else ''})"
    )
    print("actions: " + ", ".join(f"{n} {k}" for k, n in kinds.most_common()))
    print(f"compiled ({len(compiled)}): " + " ".join(compiled))
    return 0


if __name__ == "__main__":
    sys.exit(main())
