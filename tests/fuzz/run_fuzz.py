#!/usr/bin/env python3
"""The fuzz test's manual mode: the same properties, for as long as you like, random seeds.

    python3 tests/fuzz/run_fuzz.py --seconds 600 [--seed S] [--out DIR] [--compile-every K]
                                   [--sources valid,edgy,mutated,representative]

Each file is checked (`check` keeps the promise), generated when check accepts it
(`generate` exits 0), and every K-th accepted file is compiled with g++ -fsyntax-only
against the runtime's headers.  Every new kind of failure is minimized and written to
DIR/NNN.yaml (default: $FUZZ_FINDINGS or /tmp/fuzz_findings) with a one-line comment
on top saying which stage fails and its first error line.  Run it from the repo root;
the exit status is 1 when something was found.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(os.path.dirname(HERE)), HERE]

import harness  # noqa: E402
import mutations  # noqa: E402
import strategies  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SOURCES = {
    "valid": strategies.valid_files(max_families=10),
    "edgy": strategies.edgy_files(max_families=10),
    "mutated": st.one_of(strategies.valid_files(), strategies.edgy_files()).flatmap(
        mutations.mutation
    ),
    "representative": st.just(0).flatmap(
        lambda _: mutations.mutation(
            open(os.path.join(harness.TESTDATA, "native_functions.yaml"), encoding="utf-8").read()
        )
    ),
}
OPTIONS = st.builds(
    harness.Options,
    backends=st.sampled_from(["CPU", "CPU,CUDA"]),
    shards=st.integers(1, 3),
    namespace=st.sampled_from(["fuzz::ops", "f", "a::b::c"]),
    include_prefix=st.sampled_from([None, "fuzz/ops"]),
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=300, help="how long to run (default 300)")
    p.add_argument("--seed", type=int, default=None, help="first seed (default: random)")
    p.add_argument("--out", default=harness.findings_dir(), help="where failing files go")
    p.add_argument(
        "--compile-every",
        type=int,
        default=5,
        metavar="K",
        help="compile every K-th accepted file (0: never; default 5)",
    )
    p.add_argument(
        "--sources", default=",".join(SOURCES), help="which files to make (default: all)"
    )
    p.add_argument(
        "--minimize-seconds", type=float, default=90, help="time to minimize each finding"
    )
    args = p.parse_args(argv)
    first_seed = args.seed if args.seed is not None else random.randrange(2**32)
    sources = [SOURCES[s] for s in args.sources.split(",")]
    can_compile = (
        args.compile_every > 0 and harness.compiler() and harness.runtime_headers_present()
    )
    print(
        f"fuzzing for {args.seconds:.0f} s from seed {first_seed}; findings go to {args.out}; "
        f"compile: {'every %d accepted files' % args.compile_every if can_compile else 'no'}",
        file=sys.stderr,
    )

    deadline = time.monotonic() + args.seconds
    stats = {"files": 0, "accepted": 0, "compiled": 0}
    seen_kinds: set[tuple[str, str]] = set()
    written: list[str] = []
    work = tempfile.mkdtemp(prefix="fuzz_")

    def one(text, opts):
        if time.monotonic() > deadline:
            return
        stats["files"] += 1
        opts.compile = bool(can_compile) and (stats["accepted"] + 1) % args.compile_every == 0
        run, problems = harness.examine(text, work, opts)
        stats["accepted"] += run.rc == 0
        stats["compiled"] += opts.compile and run.rc == 0 and not problems
        for stage, problem in problems[:1]:  # the first: later ones often follow from it
            kind = (stage, harness.problem_kind(problem))
            if kind in seen_kinds:
                continue
            seen_kinds.add(kind)
            small = harness.minimized(text, stage, problem, work, opts, args.minimize_seconds)
            _, again = harness.examine(small, work, opts)
            shown = next((p for s, p in again if s == stage), problem)
            generated_with = harness.without_absent_backends(opts, small)
            what = (
                f"{stage} fails: {harness.command(stage, generated_with, shown)}: "
                + shown.replace(work, "DIR")
            )
            path = harness.record_finding(small, what, args.out)
            written.append(path)
            print(f"{path}: {what}", file=sys.stderr)

    chunk = 0
    while time.monotonic() < deadline:
        test = given(st.sampled_from(sources).flatmap(lambda s: s), OPTIONS)(one)
        test = settings(
            max_examples=200,
            deadline=None,
            database=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            phases=(Phase.generate,),
        )(test)
        seed(first_seed + chunk)(test)()
        chunk += 1
    print(
        f"{stats['files']} files, {stats['accepted']} accepted by check, {stats['compiled']} compiled; "
        f"{len(written)} findings",
        file=sys.stderr,
    )
    return 1 if written else 0


if __name__ == "__main__":
    sys.exit(main())
