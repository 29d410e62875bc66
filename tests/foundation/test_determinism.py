"""Generation is a pure function of its inputs: //ops:aten's files, regenerated in
another process, directory and hash seed, are byte-identical to what Bazel's action wrote."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

from codegen.dest import files

RUNFILES = pathlib.Path(os.path.abspath(__file__)).parents[2]
YAML = RUNFILES / "ops" / "native_functions.yaml"
BAZEL_OUTPUT = RUNFILES / "ops" / "aten"
# As ops/BUILD.bazel asks: two shards and a header per operator of ops/operators.bzl.
ROOTS = tuple(re.findall(r'^    "(\w+)",$', (RUNFILES / "ops" / "operators.bzl").read_text(), re.M))
OUTPUTS = files.output_names(("CPU",), 2, ROOTS)


@pytest.mark.parametrize("hash_seed", ["1", "12345"])
def test_aten_regenerates_byte_identical(tmp_path, hash_seed):
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "native_functions.yaml").write_bytes(YAML.read_bytes())
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(RUNFILES))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "codegen",
            "generate",
            "ops/native_functions.yaml",
            "--namespace",
            "sops::aten",
            "--include-prefix",
            "aten",
            "--backends",
            "CPU",
            "--shards",
            "2",
            "--output-dir",
            "out",
            "--operators",
            ",".join(ROOTS),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    written = [str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*.*")]
    assert sorted(written) == sorted(OUTPUTS)
    for name in OUTPUTS:
        assert (tmp_path / "out" / name).read_bytes() == (BAZEL_OUTPUT / name).read_bytes(), name
