"""`--autogen-kernels FILE`: a backend's own kernels for variants `autogen:` makes
(codegen/model/backend_kernels.py): registered for their key beside autogen's, declared
like written kernels, and the boxed schema no longer marked `generated`; bad files and
functions that autogen does not make are errors naming them."""

import os

from codegen.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "testdata")
YAML = os.path.join(DATA, "native_functions.yaml")
TAGS = os.path.join(DATA, "tags.yaml")


def generate(tmp_path, kernels_text):
    kernels = tmp_path / "autogen_kernels.yaml"
    kernels.write_text(kernels_text)
    out = tmp_path / "out"
    status = main(
        [
            "generate",
            YAML,
            "--tags",
            TAGS,
            "--namespace",
            "testops",
            "--backends",
            "CPU,CUDA",
            "--output-dir",
            str(out),
            "--autogen-kernels",
            str(kernels),
        ]
    )
    return status, out


def read_all(out, prefix):
    return "".join(p.read_text() for p in sorted(out.iterdir()) if p.name.startswith(prefix))


def test_a_listed_kernel_is_registered_for_its_key_beside_autogens(tmp_path):
    status, out = generate(tmp_path, "CPU:\n  fill_value.out: fill_value_out_cpu\n")
    assert status == 0
    cpu = read_all(out, "RegisterCPU")
    assert "native::fill_value_out_cpu(" in cpu
    assert '("fill_value.out", ::sops::DispatchKey::CPU' in cpu
    # autogen's kernel still serves the other keys (CUDA has no kernel of its own).
    composite = read_all(out, "RegisterComposite")
    assert "wrapper_CompositeExplicitAutograd_fill_value_out" in composite
    assert "fill_value_out" not in read_all(out, "RegisterCUDA")
    # Declared for the kernel to define, with the out= variant's native signature.
    assert "fill_value_out_cpu(const Tensor & self, const Scalar & value, Tensor & out);" in (
        read_all(out, "NativeFunctions")
    )
    # The boxed schema: the listed out= variant is not autogen's copy any more; the other
    # generated variants still are.
    unboxed = read_all(out, "RegisterCodegenUnboxedKernels")
    listed = unboxed.split("FunctionSchema fill_value_out_schema{")[1].split(";")[0]
    assert "true" not in listed
    other = unboxed.split("FunctionSchema _running_stats_out_schema{")[1].split(";")[0]
    assert other.rstrip().endswith("true}")


def test_without_the_file_autogens_kernel_alone(tmp_path):
    out = tmp_path / "out"
    assert (
        main(["generate", YAML, "--tags", TAGS, "--namespace", "testops", "--output-dir", str(out)])
        == 0
    )
    assert "fill_value_out" not in read_all(out, "RegisterCPU")
    unboxed = read_all(out, "RegisterCodegenUnboxedKernels")
    listed = unboxed.split("FunctionSchema fill_value_out_schema{")[1].split(";")[0]
    assert listed.rstrip().endswith("true}")


def test_a_written_function_is_refused(tmp_path, capsys):
    status, _ = generate(tmp_path, "CPU:\n  fill_value_: fill_value_mine\n")
    assert status == 1
    err = capsys.readouterr().err
    assert "`fill_value_` is not a variant that `autogen:` makes" in err
    assert "takes its kernels from its `dispatch:`" in err


def test_a_malformed_file_is_refused(tmp_path, capsys):
    status, _ = generate(tmp_path, "- fill_value.out\n")
    assert status == 1
    assert "must map dispatch keys to {function: kernel}" in capsys.readouterr().err
    status, _ = generate(tmp_path, "CPU:\n  fill_value.out: not a name\n")
    assert status == 1
    assert "must be a C++ function name, not `not a name`" in capsys.readouterr().err
