#!/usr/bin/env python3
"""Benchmark: `codegen check` in-process on one yaml, against torchgen's parse + group.

    python3 bench/check_bench.py NATIVE_FUNCTIONS_YAML [--tags TAGS] [-n RUNS]

Prints the median (and min/max) seconds of our `check` over RUNS runs, then, when
torchgen can be run, the median of torchgen's parse_native_yaml +
get_grouped_native_functions on the same file, measured in the same run, and the
ratio.  torchgen is imported in-process when importable; otherwise it is run by the
Python of --torchgen-python (default: the conformance venv, if present).
This is a benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TORCHGEN_PYTHON = os.path.expanduser("~/.cache/structured-ops-conformance/bin/python")

TORCHGEN_TIMER = r"""
import json, statistics, sys, time
import torchgen.gen as g
yaml_path, tags_path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = []
for _ in range(runs):
    g._GLOBAL_PARSE_NATIVE_YAML_CACHE.clear()
    g._GLOBAL_PARSE_TAGS_YAML_CACHE.clear()
    g.parse_tags_yaml.cache_clear()
    t = time.perf_counter()
    parsed = g.parse_native_yaml(yaml_path, tags_path)
    g.get_grouped_native_functions(parsed.native_functions)
    times.append(time.perf_counter() - t)
print(json.dumps(times))
"""


def time_ours(yaml_path: str, tags: str | None, runs: int) -> list[float]:
    sys.path.insert(0, ROOT)
    from codegen.cli import main

    argv = ["check", yaml_path] + (["--tags", tags] if tags else [])
    times = []
    for _ in range(runs):
        out, err = io.StringIO(), io.StringIO()
        t = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
        times.append(time.perf_counter() - t)
        if status != 0:
            sys.exit(f"check failed (status {status}):\n{err.getvalue()}")
    return times


def time_torchgen(
    yaml_path: str, tags: str | None, runs: int, python: str | None
) -> list[float] | None:
    if tags is None:
        tags = os.path.join(os.path.dirname(yaml_path), "tags.yaml")
    try:
        import torchgen.gen  # noqa: F401  (only to know whether it is importable here)

        python = sys.executable
    except ImportError:
        if not python or not os.path.exists(python):
            return None
    proc = subprocess.run(
        [python, "-c", TORCHGEN_TIMER, yaml_path, tags, str(runs)], capture_output=True, text=True
    )
    if proc.returncode != 0:
        print(f"torchgen: could not run ({proc.stderr.strip().splitlines()[-1:]})")
        return None
    return json.loads(proc.stdout)


def describe(name: str, times: list[float]) -> str:
    return (
        f"{name}: median {statistics.median(times):.3f} s (min {min(times):.3f}, "
        f"max {max(times):.3f}) over {len(times)} runs"
    )


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("yaml")
    p.add_argument("--tags")
    p.add_argument("-n", "--runs", type=int, default=15)
    p.add_argument(
        "--torchgen-python",
        default=DEFAULT_TORCHGEN_PYTHON,
        help="a Python with torch installed, used when torchgen is not importable here",
    )
    args = p.parse_args()
    ours = time_ours(args.yaml, args.tags, args.runs)
    print(describe("ours (check, in-process)", ours))
    theirs = time_torchgen(args.yaml, args.tags, args.runs, args.torchgen_python)
    if theirs is None:
        print("torchgen: not available; no ratio")
        return 0
    print(describe("torchgen (parse + group)", theirs))
    print(f"ratio: torchgen / ours = {statistics.median(theirs) / statistics.median(ours):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
