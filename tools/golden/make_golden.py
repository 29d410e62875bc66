#!/usr/bin/env python3
"""Writes the PyTorch oracle data (golden files) for the first operator set.

Run OUTSIDE Bazel with a Python that has torch 2.13.0 (see tests/golden/README.md):

    python3 -m venv ~/.cache/structured-ops-golden
    ~/.cache/structured-ops-golden/bin/pip install torch==2.13.0
    ~/.cache/structured-ops-golden/bin/python tools/golden/make_golden.py          # write
    ~/.cache/structured-ops-golden/bin/python tools/golden/make_golden.py --check  # compare

This file is only the command line. The format, the argument writers and the seeded random
source are in golden_format.py; the cases, one OpInfo-style table entry per .golden file,
are in families/ (registry: families.FAMILIES); the files made from PyTorch's own OpInfo
test inputs (opinfo_*.golden) come from opinfo.py. The format is documented in
tests/golden/README.md; the C++ reader is tests/golden/golden.{h,cc}.

Every case is built from a generator seeded by a hash of its file, op and case id, so
the inputs are deterministic and adding a case does not change the others. Values are
chosen so that every result is exact in IEEE arithmetic regardless of the summation order
or the use of FMA (floating inputs are small multiples of 1/4), except for the cases whose
id ends in `_randn` (normal random values) and those with a `tol` (transcendental math):
their results may differ in the last bits on another CPU, where PyTorch picks other
vectorized kernels. --check therefore compares a rerun with the files within the
tolerances the C++ tests apply (golden_compare.py), and names each case that moved.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # golden_format and families/ sit next to this script
    sys.path.insert(0, HERE)

import torch  # noqa: E402
from families import FAMILIES  # noqa: E402
from golden_compare import compare  # noqa: E402
from golden_format import TORCH_VERSION  # noqa: E402
from opinfo import opinfo_families, summary  # noqa: E402


def check(out: str, texts: dict[str, tuple[str, int]], stale: list[str]) -> int:
    """Compares the files in `out` with this run's `texts` within the C++ tests'
    tolerances (golden_compare.py): names each case that moved and by how much; 1 when a
    file is missing or stale, or a case differs beyond them."""
    bad, problems, moved = [], [], []
    for name, (text, _) in texts.items():
        try:
            with open(os.path.join(out, name), encoding="utf-8", newline="") as f:
                on_disk = f.read()
        except FileNotFoundError:
            bad.append(name)
            problems.append(f"{name}: not in {out}")
            continue
        if on_disk == text:
            continue
        result = compare(name, on_disk, text)
        if not result.ok:
            bad.append(name)
            problems.extend(result.problems)
        moved.extend(f"{name}: {key}: {m}" for key, m in result.moved.items())
    bad += [f"{s} (not made by this script)" for s in stale]
    for line in moved:
        print(f"make_golden.py --check: within the tolerances: {line}")
    if bad:
        for line in problems:
            print(f"make_golden.py --check: {line}", file=sys.stderr)
        print("make_golden.py --check: differs: " + ", ".join(bad), file=sys.stderr)
        return 1
    within = len({line.split(":", 1)[0] for line in moved})
    print(
        f"make_golden.py --check: {len(texts)} files match "
        f"({len(texts) - within} byte for byte, {within} within the tests' tolerances)"
    )
    return 0


def main(argv=None) -> int:
    default_out = os.path.normpath(os.path.join(HERE, "..", "..", "tests", "golden", "data"))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=default_out, help="directory of the .golden files")
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; fail if the files on disk differ from a fresh run beyond the "
        "tolerances the C++ tests compare with (and name the cases that moved within them)",
    )
    p.add_argument(
        "--no-opinfo",
        action="store_true",
        help="leave out the files made from PyTorch's OpInfo samples (opinfo_*.golden; "
        "faster; with --check they count as stale)",
    )
    p.add_argument(
        "--opinfo-summary",
        action="store_true",
        help="print, per OpInfo, the cases kept and the samples skipped by reason",
    )
    p.add_argument(
        "--any-torch",
        action="store_true",
        help=f"run with a torch other than {TORCH_VERSION} (the output will differ)",
    )
    args = p.parse_args(argv)

    if torch.__version__.split("+")[0] != TORCH_VERSION and not args.any_torch:
        print(
            f"make_golden.py: needs torch {TORCH_VERSION}, found {torch.__version__} "
            f"(pip install torch=={TORCH_VERSION} into a venv outside the repo)",
            file=sys.stderr,
        )
        return 2
    torch.manual_seed(0)
    torch.set_default_dtype(torch.float32)
    torch.set_num_threads(1)

    opinfo, opinfo_files = ([], []) if args.no_opinfo else opinfo_families()
    texts = {}
    for info in FAMILIES + opinfo:
        fam = info.build()
        texts[f"{fam.name}.golden"] = (fam.text(), fam.count)

    stale = (
        sorted(f for f in os.listdir(args.out) if f.endswith(".golden") and f not in texts)
        if os.path.isdir(args.out)
        else []
    )
    if args.opinfo_summary:
        print(summary(opinfo_files))
    if args.check:
        return check(args.out, texts, stale)

    os.makedirs(args.out, exist_ok=True)
    for name, (text, count) in texts.items():
        with open(os.path.join(args.out, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(f"{name}: {count} cases, {len(text.encode())} bytes")
    for s in stale:
        print(f"warning: {s} in {args.out} is not made by this script", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
