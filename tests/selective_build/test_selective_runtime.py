"""Pruned lite runtimes as a user runs them: the model they were built for runs and
matches eager PyTorch; a model outside the selection fails naming every missing
operator; the generated sources hold nothing of unselected operators."""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

import pytest
from lite_parse import parse_model

RUNFILES = pathlib.Path(os.environ.get("TEST_SRCDIR", ".")) / "_main"
MODELS = RUNFILES / "models"
HERE = RUNFILES / "tests" / "selective_build"
sys.path.insert(0, str(RUNFILES / "tests" / "lite"))
import npy_io  # noqa: E402  (numpy-free .npy reading)

RTOL = 1e-5


def runtime(env_name):
    return str(RUNFILES / os.environ[env_name])


def run(binary, *args):
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True)


def model_ops(name):
    with open(MODELS / name / "model.sopsm", "rb") as f:
        return set(parse_model(f.read()).operators)


def run_model(binary, name):
    with tempfile.TemporaryDirectory() as out:
        inputs = []
        for path in sorted((MODELS / name).glob("input*.npy")):
            inputs += ["--input", path]
        result = run(binary, "run", MODELS / name / "model.sopsm", *inputs, "--output-dir", out)
        assert result.returncode == 0, result.stderr
        return npy_io.read(pathlib.Path(out) / "out0.npy")


@pytest.mark.parametrize("env_name", ["TRACED_MLP_RUNTIME", "APP_RUNTIME"])
def test_the_selected_model_runs_and_matches_eager(env_name):
    got_dtype, got_shape, got = run_model(runtime(env_name), "mlp")
    want_dtype, want_shape, want = npy_io.read(MODELS / "mlp" / "expected0.npy")  # eager PyTorch's
    assert (got_dtype, got_shape) == (want_dtype, want_shape)
    scale = max(abs(v) for v in want)
    assert all(abs(g - w) <= RTOL * (abs(w) + scale) for g, w in zip(got, want))


def test_a_model_outside_the_selection_fails_listing_every_missing_operator():
    result = run(
        runtime("TRACED_MLP_RUNTIME"),
        "run",
        MODELS / "cnn" / "model.sopsm",
        "--input",
        MODELS / "cnn" / "input0.npy",
        "--output-dir",
        tempfile.mkdtemp(),
    )
    assert result.returncode == 1
    missing = sorted(model_ops("cnn") - model_ops("mlp"))
    assert len(missing) >= 6
    listed = re.findall(r"^  (\S+)$", result.stderr, re.M)
    assert listed == missing, result.stderr
    assert f"needs {len(missing)} operators that this runtime does not have" in result.stderr
    assert "operator_set" in result.stderr and "selected_ops" in result.stderr
    assert result.stderr.count("lite_runtime: error:") == 1


def test_ops_lists_the_model_operators_the_runtime_has():
    result = run(runtime("TRACED_MLP_RUNTIME"), "ops", MODELS / "mlp" / "model.sopsm")
    assert result.returncode == 0, result.stderr
    for op in model_ops("mlp"):
        assert op in result.stdout


def test_trace_works_on_a_pruned_statically_dispatched_runtime():
    with tempfile.TemporaryDirectory() as out:
        yaml_path = pathlib.Path(out) / "selected_operators.yaml"
        result = run(
            runtime("TRACED_MLP_RUNTIME"),
            "trace",
            MODELS / "mlp" / "model.sopsm",
            "--input",
            MODELS / "mlp" / "input0.npy",
            "-o",
            yaml_path,
        )
        assert result.returncode == 0, result.stderr
        traced = set(re.findall(r"^  (aten::\S+):$", yaml_path.read_text(), re.M))
    assert traced == model_ops("mlp")


def generated(target):
    directory = HERE / target
    return {p.name: p.read_text() for p in sorted(directory.glob("*.cpp"))}


def test_pruned_sources_hold_nothing_of_unselected_operators():
    sources = "\n".join(generated("traced_mlp_runtime_selected").values())
    # Selected (the mlp's operators) are there, with their boxed kernels and schemas.
    for op in ("addmm", "relu", "permute", "_log_softmax"):
        assert f'"aten::{op}"' in sources or f"aten::{op}" in sources
    # Nothing of any other operator: no boxed kernel, no wrapper, no schema, no call.
    for op in (
        "convolution",
        "max_pool2d_with_indices",
        "embedding",
        "native_layer_norm",
        "gelu",
        "where",
        "cat",
        "upsample_nearest2d",
        "sigmoid",
        "bmm",
    ):
        assert not re.search(rf"\b{op}\b", sources), op
    report = (HERE / "traced_mlp_runtime_selected.selection.txt").read_text()
    assert report.startswith("# 4 operators requested")
    assert (
        "aten::addmm: requested by tests/selective_build/testdata/mlp_selected_operators.yaml"
        in report
    )


def test_a_pruned_library_of_our_own_registers_only_its_selection():
    sources = generated("demo_ops_selected")
    unboxed = "\n".join(
        v for k, v in sources.items() if k.startswith("RegisterCodegenUnboxedKernels")
    )
    assert '"aten::relu"' in unboxed
    assert "aten::add" not in unboxed
    registered = re.findall(r'RegisterKernel register_\w+\("([^"]+)"', "\n".join(sources.values()))
    assert registered and set(registered) == {"relu"}
