"""`lite_runtime` on the models exported with symbolic batch and sequence dimensions
(models/bert_dynamic, models/llama_dynamic: lite model format version 2), as a user runs
them: one file serves every size in range, each size checked against eager PyTorch's
outputs for it (written by models/make_models.py with torch 2.13), sizes out of range and
inconsistent inputs refused with a message naming the input, the dimension and the range.
"""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import npy_io  # noqa: E402

LITE_RUNTIME = os.environ["LITE_RUNTIME"]
MODELS = os.path.dirname(os.path.dirname(os.environ["BERT_DYNAMIC_MODEL"]))
NAMES = ["bert_dynamic", "llama_dynamic"]
# Eager PyTorch's outputs within 1e-5 relative: |ours - eager| <= 1e-5 * (|eager| + max|eager|).
RTOL = 1e-5


def folder(name):
    return os.path.join(MODELS, name)


def model_file(name):
    return os.path.join(folder(name), "model.sopsm")


def sizes_of(name):
    """sizes.txt: `size0 batch=1 seq=2` per line -> [("size0", {"batch": 1, "seq": 2}), ...]."""
    out = []
    with open(os.path.join(folder(name), "sizes.txt")) as f:
        for line in f:
            if line.strip():
                tag, *binds = line.split()
                out.append((tag, {k: int(v) for k, v in (b.split("=") for b in binds)}))
    return out


def files_of(name, tag, kind):
    found = sorted(
        f for f in os.listdir(folder(name)) if f.startswith(f"{tag}_{kind}") and f.endswith(".npy")
    )
    return [os.path.join(folder(name), f) for f in found]


def lite(*args):
    return subprocess.run([LITE_RUNTIME, *args], capture_output=True, text=True, timeout=120)


def input_args(paths):
    return [a for p in paths for a in ("--input", p)]


def assert_clean_failure(result, *needles):
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert result.stderr.startswith("lite_runtime: error: "), result.stderr
    for bad in ("Traceback", "terminate called", "Aborted", "Sanitizer", "Segmentation"):
        assert bad not in result.stderr
    for needle in needles:
        assert needle in result.stderr, (needle, result.stderr)


CASES = [(name, tag) for name in NAMES for tag, _ in sizes_of(name)]


def test_every_model_has_three_sizes_including_both_bounds():
    for name in NAMES:
        sizes = [binds for _, binds in sizes_of(name)]
        assert len(sizes) >= 3, name
        assert {"batch": 1, "seq": 2} in sizes and {"batch": 8, "seq": 64} in sizes, (name, sizes)


@pytest.mark.parametrize("name,tag", CASES)
def test_one_file_serves_every_size_as_eager_pytorch(name, tag, tmp_path):
    inputs = files_of(name, tag, "input")
    expected = files_of(name, tag, "expected")
    assert inputs and expected
    result = lite("run", model_file(name), *input_args(inputs), "--output-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path)) == [f"out{k}.npy" for k in range(len(expected))]
    for k, exp in enumerate(expected):
        want_dtype, want_shape, want = npy_io.read(exp)
        got_dtype, got_shape, got = npy_io.read(str(tmp_path / f"out{k}.npy"))
        assert (got_dtype, got_shape) == (want_dtype, want_shape), (name, tag, k)
        scale = max(abs(v) for v in want) if want else 0.0
        worst = max((abs(g - w) - RTOL * (abs(w) + scale) for g, w in zip(got, want)), default=0.0)
        assert worst <= 0, f"{name} {tag} out{k}: off by more than {RTOL} relative"


@pytest.mark.parametrize("name", NAMES)
def test_shapes_are_symbolic_and_concrete_given_inputs(name):
    result = lite("shapes", model_file(name))
    assert result.returncode == 0, result.stderr
    assert "[batch, seq" in result.stdout, result.stdout
    assert "peak activation memory" in result.stdout
    tag, binds = sizes_of(name)[1]
    given = lite("shapes", model_file(name), *input_args(files_of(name, tag, "input")))
    assert given.returncode == 0, given.stderr
    assert f"[{binds['batch']}, {binds['seq']}" in given.stdout, given.stdout


@pytest.mark.parametrize("name", NAMES)
def test_trace_on_one_size_records_the_operators(name, tmp_path):
    tag, _ = sizes_of(name)[0]
    out = tmp_path / "trace.yaml"
    result = lite(
        "trace", model_file(name), *input_args(files_of(name, tag, "input")), "-o", str(out)
    )
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    for op in ("aten::sym_size.int", "aten::view", "aten::bmm"):
        assert op in text, (op, text[:400])
    assert "sym::" not in text


def test_a_size_beyond_the_bound_names_the_input_dimension_and_range(tmp_path):
    # 9 sequences: the batch symbol was exported with max=8.
    tokens = tmp_path / "tokens.npy"
    npy_io.write(str(tokens), "<i8", (9, 4), [1] * 36)
    result = lite(
        "run", model_file("llama_dynamic"), "--input", str(tokens), "--output-dir", str(tmp_path)
    )
    assert_clean_failure(result, "'tokens'", "dimension 0", " 9", "8]", "max=")


def test_inputs_that_disagree_on_a_symbol_are_refused(tmp_path):
    tokens, mask = tmp_path / "tokens.npy", tmp_path / "mask.npy"
    npy_io.write(str(tokens), "<i8", (2, 5), [1] * 10)
    npy_io.write(str(mask), "<i8", (2, 6), [1] * 12)
    result = lite(
        "run",
        model_file("bert_dynamic"),
        *input_args([str(tokens), str(mask)]),
        "--output-dir",
        str(tmp_path),
    )
    assert_clean_failure(result, "dimension 1", "6", "5")
