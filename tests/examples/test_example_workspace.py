"""structured_ops as a Bazel module of another workspace: each example built end to end
(examples/basic: one structured operator; examples/operators: each kind of operator;
examples/cuda: a CPU and a CUDA backend).

Runs a nested Bazel (the one that runs this test, found on PATH) on a copy of the
example, with structured_ops overridden to this checkout. (In this workspace the same
BUILD file is a package too, so `bazel build //...` also covers it.)
"""

import os
import pathlib
import re
import shutil
import subprocess

import pytest

RUNFILES = pathlib.Path(os.path.abspath(__file__)).parents[2]
SOURCE_ROOT = (RUNFILES / "MODULE.bazel").resolve().parent  # this checkout
BAZEL = shutil.which("bazel")


# (example, its test target, a line its test prints when it passes)
EXAMPLES = [
    ("basic", "//:my_ops_test", "gelu([1, -1]) = [0.841345, -0.158655]"),
    ("operators", "//:operators_test", "all passed"),
    # A CPU and a CUDA backend: without --config=cuda its CUDA targets are skipped.
    ("cuda", "//:cpu_test", "scaled_add([1, 2, 3], [10, 20, 30], 2) = [21, 42, 63]"),
]


def bazel(workspace, tmp_path, command, *args, output_root="out"):
    """`bazel COMMAND ARGS` in the example's workspace, structured_ops overridden to this
    checkout, actions cached in tmp_path/disk_cache."""
    argv = [
        BAZEL,
        "--batch",
        f"--output_user_root={tmp_path / output_root}",
        command,
        f"--override_module=structured_ops={SOURCE_ROOT}",
        "--experimental_convenience_symlinks=ignore",
        f"--disk_cache={tmp_path / 'disk_cache'}",
        *args,
    ]
    return subprocess.run(
        argv,
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, HOME=str(tmp_path)),
    )


@pytest.mark.skipif(BAZEL is None, reason="no bazel on PATH to run the example workspace")
@pytest.mark.parametrize("example,target,printed", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_workspace_builds_and_tests_against_this_module(tmp_path, example, target, printed):
    workspace = tmp_path / example
    shutil.copytree(RUNFILES / "examples" / example, workspace, symlinks=False)
    result = bazel(workspace, tmp_path, "test", "--test_output=all", "//...")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert target in output and "PASSED" in output
    assert printed in output

    # A second build elsewhere (another output root, as another clone would have) takes
    # every generator, check and compile action from the cache: they are deterministic
    # and name no absolute path.
    result = bazel(workspace, tmp_path, "build", "//...", output_root="out2")
    summary = re.search(r"INFO: (\d+) process(?:es)?: (.*)\.", result.stderr)
    assert result.returncode == 0 and summary, result.stderr[-4000:]
    kinds = dict(
        (k.strip(), int(n))
        for n, k in (part.strip().split(" ", 1) for part in summary[2].split(","))
    )
    assert set(kinds) <= {"disk cache hit", "internal"}, f"not all cached: {summary[0]}"
    assert kinds.get("disk cache hit", 0) > 0, summary[0]

    # docs/writing-operators.md's way to check a yaml from the workspace.
    result = bazel(
        workspace,
        tmp_path,
        "run",
        "@structured_ops//codegen:opgen",
        "--",
        "check",
        "native_functions.yaml",
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    assert result.stdout.startswith("native_functions.yaml: ok: "), result.stdout


@pytest.mark.skipif(BAZEL is None, reason="no bazel on PATH to run the example workspace")
def test_a_declared_kernel_left_unwritten_fails_the_library_target_at_its_yaml_line(tmp_path):
    workspace = tmp_path / "operators"
    shutil.copytree(RUNFILES / "examples" / "operators", workspace, symlinks=False)
    (workspace / "ramp.cpp").unlink()
    result = bazel(workspace, tmp_path, "build", "//:my_ops")
    assert result.returncode != 0
    line = next(
        i
        for i, text in enumerate((workspace / "native_functions.yaml").read_text().splitlines(), 1)
        if text.startswith("- func: ramp(")
    )
    assert (
        f"native_functions.yaml:{line}:3: error: `my::ops::native::ramp`, the CPU kernel of ramp, is "
        "declared but no source of the library defines it"
    ) in result.stderr, result.stderr[-4000:]
    assert (
        "hint: write `my::ops::native::ramp(...) { ... }` in one of the library's srcs"
        in result.stderr
    )
