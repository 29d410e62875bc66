"""`lite_runtime` on the models exported with symbolic batch and sequence dimensions
(models/bert_dynamic, models/llama_dynamic: lite model format version 2), as a user runs
them: one file serves every size in range, each size checked against eager PyTorch's
outputs for it (written by models/make_models.py with torch 2.13), sizes out of range and
inconsistent inputs refused with a message naming the input, the dimension and the range.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import npy_io  # noqa: E402
from lite_cli import assert_clean_failure, assert_matches_eager, input_args, lite  # noqa: E402

MODELS = os.path.dirname(os.path.dirname(os.environ["BERT_DYNAMIC_MODEL"]))
NAMES = ["bert_dynamic", "llama_dynamic"]


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
        assert_matches_eager(str(tmp_path / f"out{k}.npy"), exp, f"{name} {tag} out{k}")


@pytest.mark.parametrize("name", NAMES)
def test_shapes_are_symbolic_and_concrete_given_inputs(name):
    result = lite("shapes", model_file(name))
    assert result.returncode == 0, result.stderr
    assert "[batch, seq" in result.stdout, result.stdout
    assert "peak activation memory" in result.stdout
    # The memory plan at the same upper bounds as the peak, after it.
    out = result.stdout.splitlines()
    peak_at = next(k for k, line in enumerate(out) if "peak activation memory" in line)
    bounds = out[peak_at].split("upper bounds ")[1].split(":")[0]
    assert out[peak_at + 1].startswith(f"# memory plan at the upper bounds {bounds}: arena ")
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


def test_an_empty_batch_fails_where_eager_pytorch_fails(tmp_path):
    # torch.export records batch in [0, 8], but the model's view(..., -1, 16) cannot take
    # 0 rows: eager PyTorch raises "cannot reshape tensor of 0 elements into shape
    # [0, 5, -1, 16] because the unspecified dimension size -1 can be any value and is
    # ambiguous"; so does the runtime, naming the node.
    tokens = tmp_path / "tokens.npy"
    npy_io.write(str(tokens), "<i8", (0, 5), [])
    result = lite(
        "run", model_file("llama_dynamic"), "--input", str(tokens), "--output-dir", str(tmp_path)
    )
    assert_clean_failure(
        result, "aten::view", "cannot reshape tensor of 0 elements into shape [0, 5, -1, 16]"
    )
