"""The generator as a user meets it: what it writes, how it fails."""

import os
import pathlib
import re
import subprocess
import sys

import yaml

import codegen
from codegen.dest import files

HERE = pathlib.Path(os.path.abspath(__file__)).parent  # not resolve(): stay in the runfiles
DEMO_YAML = HERE / "testdata" / "demo_ops.yaml"
BAZEL_OUTPUT = HERE / "demo_ops"  # the files Bazel's generator action wrote (runfiles)
SHARDS = 2  # as tests/foundation/BUILD.bazel asks
OUTPUTS = files.output_names(("CPU",), SHARDS)


CHECKOUT = pathlib.Path(codegen.__file__).parents[1]


def codegen_cli(tmp_path, *args):
    """`python3 -m codegen ARGS` in tmp_path, as a user of a checkout runs it."""
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(CHECKOUT)),
        cwd=tmp_path,
    )


def run_generator(tmp_path, yaml_text, shards=SHARDS, *more):
    """Runs the generator as Bazel does (a separate process, relative paths)."""
    (tmp_path / "ops.yaml").write_text(yaml_text)
    return codegen_cli(
        tmp_path,
        "generate",
        "ops.yaml",
        "--namespace",
        "demo::ops",
        "--include-prefix",
        "demo_ops",
        "--shards",
        str(shards),
        "--output-dir",
        "out",
        *more,
    )


def test_every_schema_of_the_yaml_is_defined_in_the_dispatcher(tmp_path):
    result = run_generator(tmp_path, DEMO_YAML.read_text())
    assert result.returncode == 0, result.stderr
    cpp = "".join((tmp_path / "out" / f"Operators_{i}.cpp").read_text() for i in range(SHARDS))
    schemas = [entry["func"] for entry in yaml.safe_load(DEMO_YAML.read_text())]
    assert len(schemas) == 4
    # Each with the library that defines it, named by errors when two libraries clash.
    assert 'constexpr ::sops::KernelLibrary kLibrary{"demo_ops", "ops.yaml"};' in cpp
    for schema in schemas:
        assert "::sops::RegisterOperator define_" in cpp
        assert f'("{schema}", kLibrary);' in cpp


def test_bazel_action_output_is_byte_identical_to_a_fresh_run(tmp_path):
    # Another process, another directory, another python: the same bytes.
    result = run_generator(tmp_path, DEMO_YAML.read_text())
    assert result.returncode == 0, result.stderr
    assert BAZEL_OUTPUT.is_dir(), "run under bazel test: it provides the action's files"
    for name in OUTPUTS:
        # The yaml's path is written after "from" and, for errors, as a string literal.
        ours = (
            (tmp_path / "out" / name)
            .read_bytes()
            .replace(b"from ops.yaml", b"from SOURCE")
            .replace(b'"ops.yaml"', b'"SOURCE"')
        )
        bazels = (
            (BAZEL_OUTPUT / name)
            .read_bytes()
            .replace(b"from tests/foundation/testdata/demo_ops.yaml", b"from SOURCE")
            .replace(b'"tests/foundation/testdata/demo_ops.yaml"', b'"SOURCE"')
        )
        assert ours == bazels, name


def test_generated_files_hold_no_absolute_paths_or_times():
    for name in OUTPUTS:
        text = (BAZEL_OUTPUT / name).read_text()
        assert not re.search(r"(/root/|/home/|/tmp/|/work/|\b20\d\d-\d\d-\d\d)", text), name
        assert "tests/foundation/testdata/demo_ops.yaml" in text


def test_each_kernel_is_registered_in_exactly_one_shard(tmp_path):
    def registrations(directory, shards):
        found = []
        for name in files.output_names(("CPU",), shards):
            if name.startswith("Register"):
                found += re.findall(
                    r"RegisterKernel register_(\w+)\(", (directory / name).read_text()
                )
        return found

    one = tmp_path / "one"
    one.mkdir()
    assert run_generator(one, DEMO_YAML.read_text(), 1).returncode == 0
    single = registrations(one / "out", 1)
    sharded = registrations(BAZEL_OUTPUT, SHARDS)
    assert sorted(single) == sorted(sharded)
    assert len(set(sharded)) == len(sharded)
    assert "wrapper_CPU_add_Tensor" in single and "wrapper_Meta_add_out" in single


def test_all_mistakes_are_reported_at_once_with_file_line_and_hint(tmp_path):
    result = run_generator(
        tmp_path,
        "\n".join(
            [
                "- func: relu(Tensor self) -> Tensor",
                "- func: relu(Tensor self) -> Tensor",
                "- variants: function",
                "- func: broken(Tensor self)",
                "",
            ]
        ),
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert (
        "ops.yaml:2:9: error: `relu` is declared more than once without an overload name "
        "(first on line 1)"
    ) in lines
    assert "ops.yaml:3:3: error: the entry has no `func:`" in lines
    assert "ops.yaml:4:28: error: missing `->` and the return type after the argument list" in lines
    errors = [line for line in lines if ": error: " in line]
    assert sum(line.startswith("  hint: ") for line in lines) == len(errors)
    assert not (tmp_path / "out" / "Functions.h").exists()


def test_yaml_syntax_error_names_the_line(tmp_path):
    result = run_generator(tmp_path, "- func: relu(Tensor self) -> Tensor\n  dispatch: [CPU\n")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("ops.yaml:3:1: error: invalid YAML")


def test_missing_yaml_is_a_clear_error(tmp_path):
    result = codegen_cli(
        tmp_path, "generate", "nope.yaml", "--namespace", "x", "--output-dir", "out"
    )
    assert result.returncode == 1
    assert result.stderr.startswith("nope.yaml:1:1: error: cannot read the file")
    assert not (tmp_path / "out").exists()


def test_cli_writes_exactly_the_declared_files_with_the_directory_as_include_prefix(tmp_path):
    # add.out gets a CUDA kernel too: a backend needs one kernel of its own in the file.
    (tmp_path / "ops.yaml").write_text(
        DEMO_YAML.read_text().replace("CPU: add_out", "CPU: add_out\n    CUDA: add_out_cuda")
    )
    result = codegen_cli(
        tmp_path,
        "generate",
        "ops.yaml",
        "--namespace",
        "demo::ops",
        "--backends",
        "CPU,CUDA",
        "--output-dir",
        "gen/my_ops",
    )
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path / "gen" / "my_ops")) == sorted(
        files.output_names(("CPU", "CUDA"), 1)
    )
    assert '#include "my_ops/Types.h"' in (tmp_path / "gen" / "my_ops" / "Functions.h").read_text()
    assert (
        "// CUDA kernels, shard 0 of 1"
        in (tmp_path / "gen" / "my_ops" / "RegisterCUDA_0.cpp").read_text()
    )


def test_a_backend_the_runtime_lacks_is_an_error_at_generation(tmp_path):
    result = run_generator(tmp_path, DEMO_YAML.read_text(), 1, "--backends", "CPU,XPU")
    assert result.returncode == 2
    assert (
        "--backends: the runtime has no backend key `XPU`; use some of: CPU, CUDA" in result.stderr
    )
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


CPU_ONLY_YAML = """\
- func: scale(Tensor self, float factor) -> Tensor
  dispatch:
    CPU: scale_cpu
- func: twice(Tensor self) -> Tensor
"""


def test_a_backend_without_kernels_in_the_yaml_is_an_error_with_a_hint(tmp_path):
    # CUDA beside CPU, and CUDA alone (the CPU kernels the user wrote would not compile).
    for backends in ("CPU,CUDA", "CUDA"):
        result = run_generator(tmp_path, CPU_ONLY_YAML, 1, "--backends", backends)
        assert result.returncode == 1
        assert result.stderr.startswith(
            "ops.yaml:1:1: error: the library's backends include CUDA, but no operator in this file "
            "has a `CUDA:` kernel (it has `CPU:` kernels)"
        ), result.stderr
        assert (
            "hint: add `CUDA: my_kernel` under the `dispatch:` of the operators it runs, or take CUDA "
            "out of `backends` (structured_ops_library) / --backends" in result.stderr
        )
        assert "Traceback" not in result.stderr
        assert not (tmp_path / "out").exists()


def test_a_library_of_composite_operators_only_needs_no_backend_kernel(tmp_path):
    for backends in ("CPU", "CPU,CUDA"):
        result = run_generator(
            tmp_path, "- func: twice(Tensor self) -> Tensor\n", 1, "--backends", backends
        )
        assert result.returncode == 0, result.stderr


def test_a_method_only_function_is_generated_as_a_free_function(tmp_path):
    # `variants: method` (add_.Tensor in the demo): a library cannot add methods to
    # sops::Tensor, so every variant is a free function of the library's namespace.
    result = run_generator(tmp_path, DEMO_YAML.read_text())
    assert result.returncode == 0, result.stderr
    header = (tmp_path / "out" / "Functions.h").read_text()
    assert (
        "Tensor & add_(Tensor & self, const Tensor & other, const Scalar & alpha=1);  // add_.Tensor"
        in header
    )


def test_symint_and_symbool_returns_are_boxed_as_an_int_and_a_bool(tmp_path):
    # torch.export's SymInt queries (sym_size.int, sym_is_contiguous): an interpreter
    # calls them boxed and keeps the result in an int or bool value slot, so the boxed
    # kernel pushes an int64_t / bool and the return schema says Int / Bool.
    yaml_text = (
        "- func: sym_size.int(Tensor self, int dim) -> SymInt\n"
        "  variants: function\n"
        "  device_guard: False\n"
        "  dispatch:\n"
        "    CompositeExplicitAutograd: sym_size\n"
        "- func: sym_is_contiguous(Tensor self, MemoryFormat memory_format=contiguous_format)"
        " -> SymBool\n"
        "  variants: function\n"
        "  device_guard: False\n"
        "  dispatch:\n"
        "    CompositeExplicitAutograd: sym_is_contiguous\n"
    )
    result = run_generator(tmp_path, yaml_text, 1, "--backends", "CPU,CUDA")
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out"
    native = (out / "NativeFunctions.h").read_text()
    assert "SymInt sym_size(const Tensor & self, int64_t dim);" in native
    assert (
        "SymBool sym_is_contiguous(const Tensor & self, "
        "MemoryFormat memory_format=MemoryFormat::Contiguous);"
    ) in native
    api = (out / "Functions.h").read_text()
    assert "SymInt sym_size(const Tensor & self, int64_t dim);  // sym_size.int" in api
    assert (
        "SymBool sym_is_contiguous(const Tensor & self, "
        "MemoryFormat memory_format=MemoryFormat::Contiguous);"
    ) in api
    boxed = (out / "RegisterCodegenUnboxedKernels_0.cpp").read_text()
    assert '{"", {K::Int, false, false, false, 0, "SymInt"}, ""}' in boxed
    assert '{"", {K::Bool, false, false, false, 0, "SymBool"}, ""}' in boxed
    assert "::sops::unbox::integer(args[1])" in boxed  # the dim, wrapped by the kernel
    # No device guard: the queries read metadata only, on any device.
    assert "DeviceGuard" not in (out / "RegisterComposite_0.cpp").read_text()


def test_a_namespace_that_cannot_hold_the_library_is_refused(tmp_path):
    for namespace in ("my ops", "class::ops", "std::ops", "sops", "a::::b"):
        result = run_generator(tmp_path, DEMO_YAML.read_text(), 1, "--namespace", namespace)
        assert result.returncode == 2, namespace
        assert f"--namespace: `{namespace}` cannot hold the library" in result.stderr
