"""What `generate --static-dispatch` writes: a dispatcher API that switches on backends,
static entry points for every key, and no registration anywhere."""

import os
import pathlib
import re
import subprocess
import sys

import codegen
from codegen.dest import files

HERE = pathlib.Path(os.path.abspath(__file__)).parent  # not resolve(): stay in the runfiles
CHECKOUT = pathlib.Path(codegen.__file__).parents[1]
ATEN_YAML = CHECKOUT / "ops" / "native_functions.yaml"
TWO_YAML = HERE / "testdata" / "two_backend_ops.yaml"
DISPATCHER = (
    "RegisterOperator",
    "RegisterKernel",
    "RegisterFallthrough",
    "Dispatcher::",
    "runtime/dispatcher.h",
)


def generate(tmp_path, yaml_path, namespace, backends, *more, shards=2):
    out = tmp_path / "out"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "codegen",
            "generate",
            str(yaml_path),
            "--namespace",
            namespace,
            "--backends",
            backends,
            "--shards",
            str(shards),
            "--include-prefix",
            "lib",
            "--output-dir",
            str(out),
            *more,
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(CHECKOUT)),
    )
    assert result.returncode == 0, result.stderr
    return {p.name: p.read_text() for p in out.iterdir()}


def test_no_generated_file_references_the_dispatcher(tmp_path):
    # The op library (CPU kernels only), and a file with CPU and CUDA kernels.
    for yaml_path, namespace, backends in (
        (ATEN_YAML, "sops::aten", ("CPU",)),
        (TWO_YAML, "two::ops", ("CPU", "CUDA")),
    ):
        written = generate(
            tmp_path / namespace.replace("::", "_"),
            yaml_path,
            namespace,
            ",".join(backends),
            "--static-dispatch",
        )
        assert sorted(written) == sorted(files.output_names(backends, 2))
        for name, text in written.items():
            found = [d for d in DISPATCHER if d in text]
            assert not found, f"{name} references {found}"


def test_without_the_flag_kernels_are_registered(tmp_path):
    written = generate(tmp_path, ATEN_YAML, "sops::aten", "CPU")
    operators = written["Operators_0.cpp"] + written["Operators_1.cpp"]
    assert "RegisterOperator" in operators and "Dispatcher::singleton()" in operators
    assert "RegisterKernel" in written["RegisterCPU_0.cpp"] + written["RegisterCPU_1.cpp"]


def test_only_the_dispatch_files_differ(tmp_path):
    dynamic = generate(tmp_path / "a", ATEN_YAML, "sops::aten", "CPU")
    static = generate(tmp_path / "b", ATEN_YAML, "sops::aten", "CPU", "--static-dispatch")
    assert sorted(dynamic) == sorted(static)
    differ = {n for n in dynamic if dynamic[n] != static[n]}
    assert differ <= (
        {"Functions.h", "Operators_0.cpp", "Operators_1.cpp"}
        | {
            n
            for n in dynamic
            if n.startswith(("RegisterCPU", "RegisterMeta", "RegisterCommon", "RegisterComposite"))
        }
    )
    # The declarations of the API stay the same: only its title comment says how it dispatches.
    assert dynamic["Functions.h"].splitlines()[2:] == static["Functions.h"].splitlines()[2:]


def function(text, head):
    """The body of the C++ function whose definition starts with `head`."""
    return re.search(r"\n(" + re.escape(head) + r"[^\n]*\{\n.*?\n\}\n)", text, re.S).group(1)


def test_the_switch_falls_back_as_the_dispatcher_does(tmp_path):
    cpp = generate(tmp_path, TWO_YAML, "two::ops", "CPU,CUDA", "--static-dispatch", shards=1)[
        "Operators_0.cpp"
    ]
    add = function(cpp, "Tensor add(")
    assert 'dispatch_key_of("add.Tensor", self, other)' in add
    assert re.search(
        r"case ::sops::DispatchKey::CPU:\n\s+return ::two::ops::cpu::add\(self, other, alpha\);",
        add,
    )
    assert re.search(
        r"case ::sops::DispatchKey::CUDA:\n\s+return ::two::ops::cuda::add\(self, other, alpha\);",
        add,
    )
    assert re.search(r"case ::sops::DispatchKey::Meta:\n\s+return ::two::ops::meta::add\(", add)
    # mul: CPU kernel only; CUDA tensors reach the Common wrapper, as in the dispatcher.
    mul = function(cpp, "Tensor mul(")
    assert re.search(r"case ::sops::DispatchKey::CUDA:\n\s+return ::two::ops::common::mul\(", mul)
    # scale: CPU, else CompositeExplicitAutograd (for CUDA and Meta).
    scale = function(cpp, "Tensor scale(")
    assert re.search(
        r"case ::sops::DispatchKey::CUDA:\n\s+case ::sops::DispatchKey::Meta:\n"
        r"\s+return ::two::ops::compositeexplicitautograd::scale\(",
        scale,
    )
    # double_it: CompositeImplicitAutograd for every backend.
    assert (
        function(cpp, "Tensor double_it(").count("compositeimplicitautograd::double_it(self)") == 1
    )
    # cpu_only: no case but CPU; the others are an error naming the operator.
    cpu_only = function(cpp, "Tensor cpu_only(")
    assert "DispatchKey::CUDA" not in cpu_only and "DispatchKey::Meta" not in cpu_only
    assert '::sops::throw_no_kernel("cpu_only", dispatch_key, "CPU");' in cpu_only
    # make: no tensor, so its Device argument decides.
    assert 'dispatch_key_of("make", device)' in function(cpp, "Tensor make(")


def test_a_parameter_named_like_the_local_variable(tmp_path):
    yaml_path = tmp_path / "ops.yaml"
    yaml_path.write_text("- func: f(Tensor dispatch_key) -> Tensor\n  dispatch:\n    CPU: f\n")
    cpp = generate(tmp_path, yaml_path, "my::ops", "CPU", "--static-dispatch", shards=1)[
        "Operators_0.cpp"
    ]
    assert (
        'const ::sops::DispatchKey dispatch_key_ = ::sops::dispatch_key_of("f", dispatch_key);'
        in cpp
    )


def test_autogen_kernels_copy_with_the_librarys_copy(tmp_path):
    written = generate(tmp_path, ATEN_YAML, "sops::aten", "CPU", "--static-dispatch")
    composite = written["RegisterComposite_0.cpp"] + written["RegisterComposite_1.cpp"]
    assert "::sops::aten::copy_(target, src, false);" in composite
    assert "copy_to_out(out, result, &::sops::aten::StaticAutogenCopy);" in composite
    assert "clone_of(self, &::sops::aten::StaticAutogenCopy);" in composite


def test_autogen_without_a_copy_fails_when_called(tmp_path):
    yaml_path = tmp_path / "ops.yaml"
    yaml_path.write_text(
        "- func: relu_(Tensor(a!) self) -> Tensor(a!)\n  autogen: relu.out, relu\n"
        "  dispatch:\n    CPU: relu_\n"
    )
    written = generate(tmp_path, yaml_path, "my::ops", "CPU", "--static-dispatch", shards=1)
    assert "[[noreturn]] void StaticAutogenCopy(" in written["RegisterComposite_0.cpp"]
    assert 'does not "\n      "declare' in written["RegisterComposite_0.cpp"]
