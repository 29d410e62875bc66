"""The promise of issue 7, as checks on one yaml file.

    What `python3 -m codegen check FILE` accepts, the generator writes, and what it
    writes compiles against our runtime; anything else is a `file:line:col: error:`
    with a hint -- never a crash, a traceback, an internal error, a time-out or a
    silent drop.

`check_problems` runs `check` in-process and returns what breaks the promise;
`generate_problems` runs `generate` on a file check accepted; `compile_problems`
runs `g++ -fsyntax-only` on what it wrote.  `record_finding` writes a failing yaml,
minimized, with a one-line comment on top saying what fails.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from codegen import cli

# The repo root: where codegen/ and (when carried as data) runtime/ are.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(cli.__file__)))
TESTDATA = os.path.join(ROOT, "tests", "schema", "testdata")
TAGS = os.path.join(TESTDATA, "tags.yaml")

# `check` may take this long on a file of `size` bytes: a constant plus a linear term,
# far above what it needs (PyTorch's 600 kB yaml: 0.25 s), far below a quadratic blowup.
TIME_BASE_S = 3.0
TIME_PER_BYTE_S = 20e-6

_DIAG = re.compile(
    r"(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): (?P<msg>.+)\Z"
)
_HINT = re.compile(r"  hint: \S.*\Z")
_SUMMARY_ERRORS = re.compile(r".+: \d+ errors?, \d+ warnings?\Z")


@dataclass
class Run:
    rc: int
    stdout: str
    stderr: str
    seconds: float


def run_cli(argv: list[str]) -> Run:
    """`python3 -m codegen ARGV`, in-process, with its output captured."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(argv)
        except SystemExit as e:  # argparse
            rc = e.code if isinstance(e.code, int) else 2
        except BaseException as e:  # noqa: BLE001 -- the promise is that nothing escapes
            rc = -1
            err.write(f"EXCEPTION ESCAPED cli.main: {type(e).__name__}: {e}\n")
    return Run(rc, out.getvalue(), err.getvalue(), time.perf_counter() - start)


def has_generate() -> bool:
    """Whether the CLI has the `generate` subcommand (it is being landed)."""
    return "generate" in cli._parser().format_help()


def check_file(path: str, tags: str | None = TAGS) -> Run:
    return run_cli(["check", path] + (["--tags", tags] if tags else []))


def check_problems(path: str, run: Run, tags: str | None = TAGS) -> list[str]:
    """What in `run` (a `check` of `path`) breaks the promise; [] if nothing."""
    problems = []
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        n_lines = f.read().count(b"\n") + 1
    if run.rc not in (0, 1):
        problems.append(f"exit status {run.rc} (expected 0 or 1)")
    text = run.stdout + run.stderr
    for bad in ("Traceback", "internal error", "EXCEPTION ESCAPED"):
        if bad in text:
            problems.append(f"output has `{bad}`: {_first_line_with(text, bad)}")
    limit = TIME_BASE_S + TIME_PER_BYTE_S * size
    if run.seconds > limit:
        problems.append(f"took {run.seconds:.2f} s on {size} bytes (limit {limit:.2f} s)")
    lines = run.stderr.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    errors = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _DIAG.match(line)
        if m is not None:
            if m["path"] not in (path, tags):
                problems.append(f"diagnostic names another file: {line}")
            if (
                int(m["line"]) < 1
                or int(m["col"]) < 1
                or (m["path"] == path and int(m["line"]) > n_lines + 1)
            ):
                problems.append(f"diagnostic points outside the file ({n_lines} lines): {line}")
            errors += m["sev"] == "error"
            if i + 1 >= len(lines) or not _HINT.match(lines[i + 1]):
                problems.append(f"diagnostic without a `  hint:` line after it: {line}")
            else:
                i += 1
        elif not (run.rc == 1 and _SUMMARY_ERRORS.match(line) and i == len(lines) - 1):
            problems.append(f"stderr line is neither a diagnostic nor its hint: {line!r}")
        i += 1
    if run.rc == 0 and errors:
        problems.append("exit status 0 with errors reported")
    if run.rc == 1 and not errors:
        problems.append("exit status 1 without an error reported")
    if run.rc == 0 and ": ok: " not in run.stdout:
        problems.append(f"exit status 0 without the `ok` summary: {run.stdout!r}")
    return problems


def _first_line_with(text: str, needle: str) -> str:
    for line in text.splitlines():
        if needle in line:
            return line.strip()
    return ""


def generate(
    path: str,
    out_dir: str,
    namespace: str = "fuzz::ops",
    backends: str = "CPU",
    shards: int = 1,
    include_prefix: str | None = None,
    tags: str | None = TAGS,
) -> Run:
    argv = [
        "generate",
        path,
        "--namespace",
        namespace,
        "--backends",
        backends,
        "--output-dir",
        out_dir,
        "--shards",
        str(shards),
    ]
    if include_prefix:
        argv += ["--include-prefix", include_prefix]
    if tags:
        argv += ["--tags", tags]
    return run_cli(argv)


def generate_problems(run: Run) -> list[str]:
    if run.rc == 0:
        return []
    first = next(
        (line for line in run.stderr.splitlines() if ": error: " in line), run.stderr.strip()[:300]
    )
    what = {1: "generate rejects what check accepted", 2: "internal error of generate"}.get(
        run.rc, "generate failed"
    )
    return [f"{what} (exit {run.rc}): {first}"]


def compiler() -> str | None:
    return os.environ.get("CXX_FOR_FUZZ") or shutil.which("g++") or shutil.which("c++")


def runtime_headers_present(root: str = ROOT) -> bool:
    return os.path.isfile(os.path.join(root, "runtime", "tensor.h"))


def compile_problems(
    out_dir: str, include_root: str, root: str = ROOT, jobs: int = 2, only: str | None = None
) -> list[str]:
    """`g++ -std=c++17 -fsyntax-only` on every generated .h/.cpp of `out_dir`: its errors.

    `include_root` is where the generated files' include prefix starts (`-I` it).
    """
    cxx = compiler()
    files = sorted(
        f for f in os.listdir(out_dir) if f.endswith((".h", ".cpp")) and only in (None, f)
    )

    def one(name: str) -> str | None:
        cmd = [
            cxx,
            "-std=c++17",
            "-fsyntax-only",
            "-Wno-pragma-once-outside-header",
            "-x",
            "c++",
            "-I",
            root,
            "-I",
            include_root,
            os.path.join(out_dir, name),
        ]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode == 0:
            return None
        first = next(
            (line for line in p.stderr.splitlines() if "error" in line), p.stderr.strip()[:300]
        )
        return f"{name} does not compile: {first}"

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return [p for p in pool.map(one, files) if p is not None]


# --- One file through every stage. ---

CHECK, GENERATE, COMPILE = "check", "generate", "compile"


@dataclass
class Options:
    """How far to take an accepted file, and how to generate it."""

    generate: bool = True
    compile: bool = False
    backends: str = "CPU"
    shards: int = 1
    namespace: str = "fuzz::ops"
    include_prefix: str | None = None  # default: the output directory's name
    tags: str | None = TAGS
    compile_only: str | None = None  # one generated file (when minimizing its failure)


def examine(
    text: str, work_dir: str, opts: Options | None = None, name: str = "native_functions.yaml"
):
    """(the check's Run, [(stage, problem), ...]) for `text` as a yaml file."""
    opts = opts if opts is not None else Options()
    os.makedirs(work_dir, exist_ok=True)
    path = os.path.join(work_dir, name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    run = check_file(path, opts.tags)
    problems = [(CHECK, p) for p in check_problems(path, run, opts.tags)]
    if problems or run.rc != 0 or not opts.generate or not has_generate():
        return run, problems
    opts = without_absent_backends(opts, text)
    include_root = os.path.join(work_dir, "gen")
    out_dir = os.path.join(include_root, opts.include_prefix or "fuzz_ops")
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    gen = generate(
        path, out_dir, opts.namespace, opts.backends, opts.shards, opts.include_prefix, opts.tags
    )
    problems += [(GENERATE, p) for p in generate_problems(gen)]
    if not problems and opts.compile and compiler() and runtime_headers_present():
        problems += [
            (COMPILE, p) for p in compile_problems(out_dir, include_root, only=opts.compile_only)
        ]
    return run, problems


def without_absent_backends(opts: Options, text: str) -> Options:
    """`opts` with only the backends that `text` names: generating a library for a backend
    no operator has a kernel for is refused (there is nothing to register), so a file drawn
    without `CUDA:` kernels is generated for CPU alone, one with CUDA kernels only for
    CUDA, and one without any backend kernel (composites only: nothing refused) with the
    backends as drawn.  Judged on the text, not on our parser's model of it, so a parser
    that loses a kernel still fails."""

    def named(backends):
        return [b for b in backends if re.search(rf"\b{b}\b", text)]

    drawn = opts.backends.split(",")
    backends = named(drawn) or named(("CPU", "CUDA")) or drawn
    return dataclasses.replace(opts, backends=",".join(backends))


def command(stage: str, opts: Options, problem: str = "") -> str:
    """The commands that show a failure of `stage` on a file FILE (DIR: a scratch directory)."""
    tags = " --tags tests/schema/testdata/tags.yaml" if opts.tags else ""
    if stage == CHECK:
        return f"python3 -m codegen check FILE{tags}"
    prefix = opts.include_prefix or "fuzz_ops"
    cmd = (
        f"python3 -m codegen generate FILE{tags} --namespace {opts.namespace} --backends {opts.backends} "
        f"--shards {opts.shards} --output-dir DIR/{prefix}"
        + (f" --include-prefix {opts.include_prefix}" if opts.include_prefix else "")
    )
    if stage == COMPILE:
        name = problem.split(" ", 1)[0] if problem else "EACH_FILE"
        cmd += f" && g++ -std=c++17 -fsyntax-only -x c++ -I. -IDIR DIR/{prefix}/{name}"
    return cmd


def problem_kind(problem: str) -> str:
    """What stays when a failing file is made smaller: the message without names and numbers."""
    problem = problem.split(" error: ", 1)[-1]
    problem = re.sub(r"\S*/\S*|`[^`]*`|‘[^’]*’|'[^']*'|\d+", "_", problem)
    return problem[:120]


def minimized(
    text: str, stage: str, problem: str, work_dir: str, opts: Options, budget_s: float = 60.0
) -> str:
    """`text`, made smaller while it still fails at `stage` with a problem of the same kind."""
    want = problem_kind(problem)
    if stage == COMPILE:
        opts = dataclasses.replace(opts, compile=True, compile_only=problem.split(" ", 1)[0])

    def still_fails(candidate: str) -> bool:
        _, problems = examine(candidate, work_dir, opts)
        return any(s == stage and problem_kind(p) == want for s, p in problems)

    return minimize(text, still_fails, budget_s)


# --- Findings: failing files, minimized, for people to read. ---


def minimize(text: str, still_fails, budget_s: float = 60.0) -> str:
    """A smaller `text` (whole entries, then lines) for which `still_fails(text)` holds."""
    deadline = time.monotonic() + budget_s
    for unit in ("entries", "lines"):
        chunks = _split(text, unit)
        n = 2
        while len(chunks) >= 2 and time.monotonic() < deadline:
            size = max(1, len(chunks) // n)
            reduced = False
            for start in range(0, len(chunks), size):
                candidate = chunks[:start] + chunks[start + size :]
                if candidate and still_fails("".join(candidate)):
                    chunks = candidate
                    n = max(n - 1, 2)
                    reduced = True
                    break
                if time.monotonic() >= deadline:
                    break
            if not reduced:
                if size == 1:
                    break
                n = min(len(chunks), n * 2)
        text = "".join(chunks)
    return text


def _split(text: str, unit: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if unit == "lines":
        return lines
    chunks: list[str] = []
    for line in lines:
        if line.startswith("- ") or not chunks:
            chunks.append(line)
        else:
            chunks[-1] += line
    return chunks


def findings_dir() -> str:
    return os.environ.get("FUZZ_FINDINGS", "/tmp/fuzz_findings")


def record_finding(text: str, what: str, directory: str | None = None) -> str:
    """Write `text` as the next NNN.yaml of the findings directory, `# what` on top."""
    directory = directory or findings_dir()
    os.makedirs(directory, exist_ok=True)
    taken = [int(f[:3]) for f in os.listdir(directory) if re.match(r"\d{3}\.yaml\Z", f)]
    path = os.path.join(directory, f"{max(taken, default=0) + 1:03d}.yaml")
    what = " ".join(what.split())
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# {what}\n{text}")
    return path


def print_to_stderr(*parts: object) -> None:
    print(*parts, file=sys.stderr)
