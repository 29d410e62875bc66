"""`opgen check-kernels`, what the library rule runs when a library is built: the demo's
kernels compiled by the C++ compiler, read with `nm -A -C`, with one kernel or meta
function left out at a time. (Building a library with one left out fails the same way:
the rule's validation action runs this command.)"""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import codegen

HERE = pathlib.Path(os.path.abspath(__file__)).parent
DEMO_YAML = HERE / "testdata" / "demo_ops.yaml"
KERNELS = HERE / "demo_kernels.cpp"
CHECKOUT = pathlib.Path(codegen.__file__).parents[1]
CXX = os.environ.get("CXX_FOR_TESTS") or shutil.which("g++") or shutil.which("c++")
NM = shutil.which("nm")

pytestmark = pytest.mark.skipif(
    CXX is None or NM is None or not (CHECKOUT / "runtime" / "tensor.h").exists(),
    reason="needs a C++ compiler, nm and the runtime headers (//runtime:headers)",
)


def opgen(tmp_path, *args):
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(CHECKOUT)),
        cwd=tmp_path,
    )


def check(tmp_path, kernels_source: str):
    """Compiles `kernels_source` against the demo's generated headers, then checks it."""
    gen = opgen(
        tmp_path,
        "generate",
        str(DEMO_YAML),
        "--namespace",
        "demo::ops",
        "--output-dir",
        "gen/demo_ops",
    )
    assert gen.returncode == 0, gen.stderr
    (tmp_path / "kernels.cpp").write_text(kernels_source)
    cc = subprocess.run(
        [
            CXX,
            "-std=c++17",
            "-c",
            "-I",
            str(CHECKOUT),
            "-I",
            "gen",
            "kernels.cpp",
            "-o",
            "kernels.o",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert cc.returncode == 0, cc.stderr
    nm = subprocess.run(
        [NM, "-A", "-C", "kernels.o"], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    (tmp_path / "symbols.txt").write_text(nm.stdout)
    return opgen(
        tmp_path,
        "check-kernels",
        str(DEMO_YAML),
        "--source-label",
        "ops.yaml",
        "--namespace",
        "demo::ops",
        "--include-prefix",
        "demo_ops",
        "--kernel-symbols",
        "symbols.txt",
        "--stamp",
        "ok.txt",
    )


def test_every_kernel_defined_passes_and_writes_the_stamp(tmp_path):
    result = check(tmp_path, KERNELS.read_text())
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "ok.txt").read_text() == "3 definitions found\n"


def test_a_missing_plain_kernel_is_an_error_at_its_yaml_line(tmp_path):
    source = KERNELS.read_text()
    result = check(tmp_path, source[: source.index("namespace demo::ops {")])  # all but relu
    assert result.returncode == 1
    assert result.stderr == (
        "ops.yaml:16:3: error: `demo::ops::native::relu`, the CPU kernel of relu, is declared but no "
        "source of the library defines it\n"
        "  hint: write `demo::ops::native::relu(...) { ... }` in one of the library's srcs (or a "
        "cc_library of its deps), as demo_ops/NativeFunctions.h declares it\n"
        "ops.yaml: 1 declared kernel without a definition\n"
    )
    assert not (tmp_path / "ok.txt").exists()


def test_missing_meta_and_impl_are_each_named_with_the_macro_that_defines_them(tmp_path):
    source = KERNELS.read_text()
    includes, relu = (
        source[: source.index("namespace demo::ops::meta {")],
        source[source.index("namespace demo::ops {") :],
    )
    result = check(tmp_path, includes + relu)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "ops.yaml:10:3: error: `demo::ops::meta::structured_add_Tensor::meta`, the meta function "
        "of add.out, is declared but no source of the library defines it"
    )
    assert "hint: write `SOPS_META_FUNC2(add, Tensor)(...) { ... }`" in lines[1]
    assert lines[2] == (
        "ops.yaml:10:3: error: `demo::ops::native::structured_add_out::impl`, the CPU impl of "
        "add.out, is declared but no source of the library defines it"
    )
    assert "hint: write `SOPS_IMPL_FUNC(add_out)(...) { ... }`" in lines[3]
    assert lines[4] == "ops.yaml: 2 declared kernels without a definition"
