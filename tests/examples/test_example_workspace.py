"""structured_ops as a Bazel module of another workspace: examples/basic built end to end.

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
EXAMPLE = RUNFILES / "examples" / "basic"
BAZEL = shutil.which("bazel")


@pytest.mark.skipif(BAZEL is None, reason="no bazel on PATH to run the example workspace")
def test_example_workspace_builds_and_tests_against_this_module(tmp_path):
    workspace = tmp_path / "basic"
    shutil.copytree(EXAMPLE, workspace, symlinks=False)
    command = [
        BAZEL, "--batch", f"--output_user_root={tmp_path / 'out'}",
        "test", "//...",
        f"--override_module=structured_ops={SOURCE_ROOT}",
        "--experimental_convenience_symlinks=ignore",
        "--test_output=all",
    ]
    env = dict(os.environ, HOME=str(tmp_path))
    result = subprocess.run(command, cwd=workspace, capture_output=True, text=True, env=env,
                            timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "//:my_ops_test" in output and "PASSED" in output
    assert "gelu([1, -1]) = [0.841345, -0.158655]" in output
