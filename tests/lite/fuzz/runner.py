"""Runs the lite_runtime command line on one case under limits and classifies the result.

A case is a model file and its .npy inputs on disk. Each run gets 2 threads, a time
limit and 2 GiB of address space (`ulimit -v`; under AddressSanitizer, whose shadow
memory needs more, ASAN_OPTIONS caps each allocation and the resident memory instead).

OK:  exit 0, or exit 1 with one `lite_runtime: error:` message (which may run over
     several lines, as the list of missing operators does);
BAD: a signal, a sanitizer report, a time-out, or any other exit or output.
"""

import os
import re
import resource
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

ADDRESS_SPACE = 2 << 30
ERROR_PREFIX = "lite_runtime: error: "
CRASH_MARKERS = (
    "Sanitizer",
    "runtime error:",
    "terminate called",
    "Aborted",
    "Segmentation",
    "double free",
    "corrupted",
)


@dataclass
class Result:
    verdict: str  # "ran", "refused" (OK); "signal", "sanitizer", "timeout", "other" (BAD)
    returncode: int
    stderr: str

    @property
    def bad(self) -> bool:
        return self.verdict not in ("ran", "refused")


def is_asan(binary: str) -> bool:
    """Whether `binary` was built with AddressSanitizer (--config=asan)."""
    with open(binary, "rb") as f:
        return b"__asan_init" in f.read()


def child_env(asan: bool) -> dict:
    env = dict(os.environ)
    if asan:
        # A model asking for more than 2 GiB at once gets std::bad_alloc (a clean "out of
        # memory" error), as the address-space limit gives it without ASan; more than
        # 3 GiB resident is a report, and BAD.
        extra = "allocator_may_return_null=1:max_allocation_size_mb=2048:hard_rss_limit_mb=3072"
        env["ASAN_OPTIONS"] = ":".join(filter(None, (env.get("ASAN_OPTIONS"), extra)))
    return env


def _limits(asan: bool):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if not asan:
            resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return apply


# What ASan prints when allocator_may_return_null lets an allocation fail (the runtime
# then reports "out of memory"): a notice, not a report.
ASAN_ALLOCATION_FAILED = re.compile(
    r"^==\d+==WARNING: AddressSanitizer failed to allocate 0x[0-9a-f]+ bytes\n", re.M
)


def classify(returncode: int, stderr: str) -> str:
    stderr = ASAN_ALLOCATION_FAILED.sub("", stderr)
    if any(marker in stderr for marker in CRASH_MARKERS):
        return "sanitizer" if "Sanitizer" in stderr or "runtime error:" in stderr else "signal"
    if returncode < 0:
        return "signal"
    if returncode == 0:
        return "ran"
    if returncode == 1 and stderr.startswith(ERROR_PREFIX) and stderr.count(ERROR_PREFIX) == 1:
        return "refused"
    return "other"


def run_case(binary, command, model_path, input_paths, timeout_s, asan) -> Result:
    """Runs `lite_runtime COMMAND MODEL --input ...` (run: into a fresh folder)."""
    out_dir = tempfile.mkdtemp(prefix="fuzz_out_")
    args = [binary, command, model_path, "--threads", "2"]
    for path in input_paths:
        args += ["--input", path]
    if command == "run":
        args += ["--output-dir", out_dir]
    try:
        proc = subprocess.run(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout_s,
            env=child_env(asan),
            preexec_fn=_limits(asan),
            check=False,
        )
    except subprocess.TimeoutExpired as e:
        stderr = (e.stderr or b"").decode("utf-8", "replace")
        return Result("timeout", -9, stderr)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
    stderr = proc.stderr.decode("utf-8", "replace")
    return Result(classify(proc.returncode, stderr), proc.returncode, stderr)
