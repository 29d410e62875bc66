"""Generation is a pure function of its inputs: //ops:aten's files, regenerated in
another process, directory and hash seed, are byte-identical to what Bazel's action wrote."""

import os
import pathlib
import subprocess
import sys

import pytest

from codegen.dest import files

RUNFILES = pathlib.Path(os.path.abspath(__file__)).parents[2]
YAML = RUNFILES / "ops" / "native_functions.yaml"
# The CPU backend's own kernels for autogen'd variants (ops/BUILD.bazel's autogen_kernels).
AUTOGEN_KERNELS = "backends/cpu/autogen_kernels.yaml"
# As ops/BUILD.bazel asks: two shards, and headers per operator in their folders.
BAZEL_OUTPUT = RUNFILES / "ops"
SHARDS = str(files.OPERATOR_HEADER_SHARDS)


def tree(directory):
    return {
        str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("hash_seed", ["1", "12345"])
def test_aten_regenerates_byte_identical(tmp_path, hash_seed):
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "native_functions.yaml").write_bytes(YAML.read_bytes())
    (tmp_path / AUTOGEN_KERNELS).parent.mkdir(parents=True)
    (tmp_path / AUTOGEN_KERNELS).write_bytes((RUNFILES / AUTOGEN_KERNELS).read_bytes())
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(RUNFILES))
    result = subprocess.run(
        [
            sys.executable, "-m", "codegen", "generate", "ops/native_functions.yaml",
            "--namespace", "sops::aten", "--include-prefix", "aten", "--backends", "CPU",
            "--shards", "2", "--output-dir", "out/aten",
            "--op-headers", "out/aten_ops", "--op-header-shards", SHARDS,
            "--autogen-kernels", AUTOGEN_KERNELS,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    for folder in ("aten", "aten_ops"):
        ours, bazels = tree(tmp_path / "out" / folder), tree(BAZEL_OUTPUT / folder)
        assert sorted(ours) == sorted(bazels), folder
        for name in ours:
            assert ours[name] == bazels[name], name
