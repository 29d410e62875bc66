"""structured_ops as a Bazel module of another workspace: each example built end to end
(examples/basic: one structured operator; examples/operators: each kind of operator).

Runs a nested Bazel (the one that runs this test, found on PATH) on a copy of the
example, with structured_ops overridden to this checkout. (In this workspace the same
BUILD file is a package too, so `bazel build //...` also covers it.)
"""

import os
import pathlib
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
]


def bazel(workspace, tmp_path, command, *args):
    """`bazel COMMAND ARGS` in the example's workspace, structured_ops overridden to this checkout."""
    argv = [BAZEL, "--batch", f"--output_user_root={tmp_path / 'out'}", command,
            f"--override_module=structured_ops={SOURCE_ROOT}", "--experimental_convenience_symlinks=ignore",
            *args]
    return subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, HOME=str(tmp_path)))


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

    # The README's way to check a yaml from the workspace.
    result = bazel(workspace, tmp_path, "run", "@structured_ops//codegen:opgen", "--", "check", "native_functions.yaml")
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    assert result.stdout.startswith("native_functions.yaml: ok: "), result.stdout
