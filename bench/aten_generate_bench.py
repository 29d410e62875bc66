"""The generator on PyTorch's own native_functions.yaml, against torchgen in the same run.

    python3 bench/aten_generate_bench.py [-n 5] [--backends CPU CPU,CUDA] [--compile]

Needs torch 2.13 for python3 (`pip install torch==2.13.0` takes the machine's CPU
wheel): its torchgen is the baseline, and its packaged yaml is the input. Each round
runs `python3 -m torchgen.gen` and then `python3 -m codegen generate` once per backend
set, as whole processes; the report gives medians and the ratio of medians. With
--compile, every file generated for each backend set must pass
`g++ -std=c++17 -fsyntax-only` against runtime/ (the promise of issue 7); the exit
status is 1 if one does not.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _torchgen_dir() -> str:
    try:
        import torchgen
    except ImportError:
        sys.exit("aten_generate_bench: needs torch for python3: pip install torch==2.13.0")
    return os.path.dirname(torchgen.__file__)


def _timed(cmd: list[str], **kwargs) -> float:
    start = time.perf_counter()
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(
            f"aten_generate_bench: `{' '.join(cmd)}` failed ({result.returncode}):\n{result.stderr[-3000:]}"
        )
    return elapsed


def _ours(yaml: str, tags: str, backends: str, out: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "codegen",
        "generate",
        yaml,
        "--tags",
        tags,
        "--no-warnings",
        "--namespace",
        "at_bench",
        "--backends",
        backends,
        "--output-dir",
        out,
    ]


def _syntax_check(directory: str, jobs: int) -> list[str]:
    """The generated files that g++ -fsyntax-only rejects, with their first error."""
    compiler = os.environ.get("CXX", "g++")
    names = sorted(n for n in os.listdir(directory) if n.endswith((".h", ".cpp")))

    def check(name: str) -> str | None:
        r = subprocess.run(
            [
                compiler,
                "-std=c++17",
                "-fsyntax-only",
                "-I",
                ROOT,
                "-I",
                os.path.dirname(directory),
                os.path.join(directory, name),
            ],
            capture_output=True,
            text=True,
        )
        if r.returncode == 0:
            return None
        first = next((line for line in r.stderr.splitlines() if "error" in line), r.stderr[:200])
        return f"{name}: {first}"

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        return [f for f in pool.map(check, names) if f is not None]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=5, help="rounds (default 5)")
    p.add_argument(
        "--backends", nargs="+", default=["CPU", "CPU,CUDA"], help="backend sets of ours"
    )
    p.add_argument(
        "--compile", action="store_true", help="syntax-check every generated file with g++"
    )
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel compilers")
    args = p.parse_args()

    tg = _torchgen_dir()
    yaml = os.path.join(tg, "packaged", "ATen", "native", "native_functions.yaml")
    tags = os.path.join(tg, "packaged", "ATen", "native", "tags.yaml")
    env = dict(os.environ, PYTHONPATH=ROOT)
    times: dict[str, list[float]] = {"torchgen": []} | {b: [] for b in args.backends}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.n):
            tg_out = os.path.join(tmp, "torchgen")
            times["torchgen"].append(
                _timed(
                    [
                        sys.executable,
                        "-m",
                        "torchgen.gen",
                        "-s",
                        os.path.join(tg, "packaged", "ATen"),
                        "-d",
                        tg_out,
                    ],
                    cwd=tmp,
                )
            )
            for b in args.backends:
                out = os.path.join(tmp, b.replace(",", "_"), "aten_bench")
                times[b].append(_timed(_ours(yaml, tags, b, out), env=env, cwd=ROOT))
        base = statistics.median(times["torchgen"])
        print(
            f"PyTorch's native_functions.yaml, {args.n} rounds, whole processes, medians (min-max):"
        )
        print(
            f"  torchgen (python -m torchgen.gen)     {base:7.2f} s  ({min(times['torchgen']):.2f}-{max(times['torchgen']):.2f})"
        )
        for b in args.backends:
            m = statistics.median(times[b])
            print(
                f"  codegen generate --backends {b:<9} {m:7.2f} s  ({min(times[b]):.2f}-{max(times[b]):.2f})"
                f"  = {m / base:.3f}x torchgen"
            )
        failed = False
        if args.compile:
            for b in args.backends:
                out = os.path.join(tmp, b.replace(",", "_"), "aten_bench")
                n = len([f for f in os.listdir(out) if f.endswith((".h", ".cpp"))])
                start = time.perf_counter()
                bad = _syntax_check(out, args.jobs)
                print(
                    f"  g++ -fsyntax-only, backends {b}: {n - len(bad)}/{n} files pass "
                    f"({time.perf_counter() - start:.0f} s)"
                )
                for line in bad:
                    print(f"    {line}")
                failed |= bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
