"""A lite runtime pruned to the language and vision models' operators
(//ops:lite_runtime_language_models, selected like --config=mobile's) runs each of them
to eager PyTorch's outputs, and refuses a model that needs an operator it left out."""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import npy_io  # noqa: E402

LITE_RUNTIME = os.environ["LITE_RUNTIME"]
MODELS = os.path.dirname(os.path.dirname(os.environ["BERT_MODEL"]))
RTOL = 1e-5  # |ours - eager| <= RTOL * (|eager| + max|eager|), as test_lite_runtime.py


def run(name, out_dir, prefix=""):
    """Runs models/NAME on its PREFIX + input*.npy files (a dynamic model's `size2_`)."""
    folder = os.path.join(MODELS, name)
    inputs = sorted(
        f for f in os.listdir(folder) if f.startswith(prefix + "input") and f.endswith(".npy")
    )
    args = [a for f in inputs for a in ("--input", os.path.join(folder, f))]
    return subprocess.run(
        [LITE_RUNTIME, "run", os.path.join(folder, "model.sopsm"), *args, "--output-dir", out_dir],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "name,prefix",
    [
        ("bert", ""),
        ("llama", ""),
        ("vit_swin", ""),
        ("convgn", ""),
        # Dynamic exports, selected from their ops.txt as the static ones: at the upper
        # bounds (batch 8, seq 64) and at the smallest size.
        ("bert_dynamic", "size2_"),
        ("llama_dynamic", "size2_"),
        ("llama_dynamic", "size0_"),
    ],
)
def test_the_pruned_runtime_runs_the_model_as_eager(name, prefix, tmp_path):
    result = run(name, str(tmp_path), prefix)
    assert result.returncode == 0, result.stderr
    folder = os.path.join(MODELS, name)
    for exp in sorted(f for f in os.listdir(folder) if f.startswith(prefix + "expected")):
        k = exp[len(prefix + "expected") : -len(".npy")]
        want_dtype, want_shape, want = npy_io.read(os.path.join(folder, exp))
        got_dtype, got_shape, got = npy_io.read(str(tmp_path / f"out{k}.npy"))
        assert (got_dtype, got_shape) == (want_dtype, want_shape)
        scale = max(abs(v) for v in want) if want else 0.0
        worst = max((abs(g - w) - RTOL * (abs(w) + scale) for g, w in zip(got, want)), default=0.0)
        assert worst <= 0, f"{name} out{k}: off by more than {RTOL} relative"


def test_a_model_outside_the_selection_is_refused(tmp_path):
    result = run("cnn", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr.startswith("lite_runtime: error: ")
    assert "aten::max_pool2d_with_indices" in result.stderr, result.stderr
