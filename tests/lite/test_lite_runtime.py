"""`lite_runtime` as a user runs it, on the example models (models/), checked
against what PyTorch produced for them: eager outputs, the exported graph's operators
and shapes (written by models/make_models.py with torch 2.13)."""

import os
import re
import struct
import sys

import pytest
import yaml

sys.path.insert(0, os.path.dirname(__file__))
import npy_io  # noqa: E402
from lite_cli import assert_clean_failure, assert_matches_eager, input_args, lite  # noqa: E402
from lite_model import (  # noqa: E402  (lite/python/lite_model.py)
    Arg,
    Constant,
    Input,
    LiteModel,
    Node,
    Output,
    Tag,
    TensorDesc,
    parse,
    serialize,
)

MODELS = os.path.dirname(os.path.dirname(os.environ["MLP_MODEL"]))
NAMES = ["mlp", "cnn", "transformer", "bert", "llama", "vit_swin", "convgn"]


def model_file(name):
    return os.path.join(MODELS, name, "model.sopsm")


def inputs_of(name):
    folder = os.path.join(MODELS, name)
    found = sorted(f for f in os.listdir(folder) if f.startswith("input") and f.endswith(".npy"))
    return [os.path.join(folder, f) for f in found]


def lines(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


@pytest.mark.parametrize("name", NAMES)
def test_run_matches_eager_pytorch(name, tmp_path):
    result = lite(
        "run", model_file(name), *input_args(inputs_of(name)), "--output-dir", str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    folder = os.path.join(MODELS, name)
    expected = sorted(f for f in os.listdir(folder) if f.startswith("expected"))
    assert sorted(os.listdir(tmp_path)) == [f"out{k}.npy" for k in range(len(expected))]
    for k, exp in enumerate(expected):
        assert_matches_eager(
            str(tmp_path / f"out{k}.npy"), os.path.join(folder, exp), f"{name} out{k}"
        )


@pytest.mark.parametrize("name", NAMES)
def test_run_without_the_optimization_matches_eager_pytorch(name, tmp_path):
    """--no-optimize: every node as the file has it (no batch norm folded, no activation
    fused, lite/optimize.h); the outputs are eager's too."""
    result = lite(
        "run",
        model_file(name),
        *input_args(inputs_of(name)),
        "--output-dir",
        str(tmp_path),
        "--no-optimize",
    )
    assert result.returncode == 0, result.stderr
    folder = os.path.join(MODELS, name)
    expected = sorted(f for f in os.listdir(folder) if f.startswith("expected"))
    for k, exp in enumerate(expected):
        assert_matches_eager(
            str(tmp_path / f"out{k}.npy"), os.path.join(folder, exp), f"{name} out{k}"
        )


@pytest.mark.parametrize("name", NAMES)
def test_ops_lists_the_exported_operators(name):
    result = lite("ops", model_file(name))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == lines(os.path.join(MODELS, name, "ops.txt"))


@pytest.mark.parametrize("name", NAMES)
def test_trace_records_every_operator_run(name, tmp_path):
    out = tmp_path / "selected_operators.yaml"
    result = lite("trace", model_file(name), *input_args(inputs_of(name)), "-o", str(out))
    assert result.returncode == 0, result.stderr
    with open(out) as f:
        selected = yaml.safe_load(f)
    static = lines(os.path.join(MODELS, name, "ops.txt"))
    ops = selected["operators"]
    assert set(static) <= set(ops)
    assert sorted(op for op, info in ops.items() if info["is_root_operator"]) == static
    for info in ops.values():
        assert info["is_used_for_training"] is False
        assert info["include_all_overloads"] is False
        assert info["debug_info"] == ["model.sopsm"]
    assert selected["include_all_operators"] is False


def test_trace_sees_operators_called_inside_kernels(tmp_path):
    # The transformer's mul.Scalar runs mul.Tensor, full_like runs fill_.Scalar.
    out = tmp_path / "selected_operators.yaml"
    name = "transformer"
    result = lite("trace", model_file(name), *input_args(inputs_of(name)), "-o", str(out))
    assert result.returncode == 0, result.stderr
    with open(out) as f:
        ops = yaml.safe_load(f)["operators"]
    nested = {op for op, info in ops.items() if not info["is_root_operator"]}
    assert {"aten::fill_.Scalar", "aten::mul.Tensor"} <= nested


@pytest.mark.parametrize("name", NAMES)
def test_shapes_are_eager_pytorchs(name):
    want = lines(os.path.join(MODELS, name, "shapes.txt"))
    for extra in ([], input_args(inputs_of(name))):
        result = lite("shapes", model_file(name), *extra)
        assert result.returncode == 0, result.stderr
        got = [line for line in result.stdout.splitlines() if not line.startswith("#")]
        assert got == want
        peak = [line for line in result.stdout.splitlines() if "peak activation memory" in line]
        assert len(peak) == 1 and int(peak[0].split(": ")[1].split()[0]) > 0


def test_shapes_peak_memory_counts_what_is_alive():
    # mlp: x [4,32] f32 (512 B) dies after the first addmm; addmm [4,64] (1 KiB) lives
    # until relu [4,64] (1 KiB) has been computed; the transposed weights are views of
    # parameters (not counted). So the peak is 2 KiB, reached at relu.
    result = lite("shapes", model_file("mlp"))
    assert "# peak activation memory: 2048 bytes (after node 'relu')" in result.stdout.splitlines()


def plan_figures(stdout):
    """The memory plan line's arena, intermediates, sum and measured peak."""
    found = re.findall(
        r"^# memory plan(?: at the upper bounds \([^)]*\))?: arena (\d+) bytes for (\d+) "
        r"intermediates? \(sum (\d+) bytes without reuse; measured peak (\d+) bytes\)$",
        stdout,
        re.MULTILINE,
    )
    assert len(found) == 1, stdout
    return tuple(int(v) for v in found[0])


@pytest.mark.parametrize("name", NAMES)
def test_shapes_prints_the_memory_plan_after_the_peak(name):
    result = lite("shapes", model_file(name))
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    peak_at = next(k for k, line in enumerate(out) if "peak activation memory" in line)
    assert out[peak_at + 1].startswith("# memory plan: arena ")
    arena, count, total, peak = plan_figures(result.stdout)
    assert peak == int(out[peak_at].split(": ")[1].split()[0])
    assert count > 0 and arena <= total and arena <= 1.1 * peak
    # Every model's output is returned, so allocated, and named after the plan line.
    assert any(
        line.startswith("# not planned: ") and "a model output" in line
        for line in out[peak_at + 2 :]
    ), result.stdout


def test_shapes_memory_plan_of_the_mlp_by_hand():
    # The plan is the optimized run's (lite/optimize.h): relu is applied in place to
    # addmm's result and takes it, so addmm [4,64] (1 KiB) lives from node 1 to relu's
    # last reader, addmm_1 (node 4), at 0; addmm_1 [4,10] (160 B, 64-aligned 192, 4..5)
    # meets it at node 4: at 1024. Arena 1216, sum 1024 + 192; the output _log_softmax is
    # returned. (The measured peak is the file's graph's, every node allocating.)
    result = lite("shapes", model_file("mlp"))
    assert result.stdout.splitlines()[-2:] == [
        "# memory plan: arena 1216 bytes for 2 intermediates (sum 1216 bytes without reuse; "
        "measured peak 2048 bytes)",
        "# not planned: _log_softmax (a model output: allocated when returned)",
    ]


def write_model(path, operators):
    """A one-input model calling each operator in turn on the input (relu-like ops)."""
    model = LiteModel(
        metadata=[("producer", "test")],
        operators=list(operators),
        num_values=1 + len(operators),
        inputs=[Input("x", 0, TensorDesc(6, (2, 3)))],
        nodes=[
            Node(f"n{k}", k, [Arg(Tag.VALUE, k)], False, [k + 1]) for k in range(len(operators))
        ],
        outputs=[Output("y", len(operators))],
    )
    with open(path, "wb") as f:
        f.write(serialize(model))


def test_every_argument_tag_the_python_writer_writes_is_read_here(tmp_path):
    # Written by lite/python/lite_model.py, read by lite/model_reader.cc: None, str, float,
    # int[], float[], Tensor[], ScalarType, Layout, Device, MemoryFormat and bool tags.
    x = [0.5, -1.0, 2.0, -3.0, 1.5, 0.0, -0.5, 4.0]
    ops = [
        "aten::_to_copy",
        "aten::gelu",
        "aten::upsample_nearest2d.vec",
        "aten::cat",
        "aten::leaky_relu",
        "aten::view",
    ]
    nodes = [
        Node(
            "to_f64",
            0,
            [
                Arg(Tag.VALUE, 0),
                Arg(Tag.SCALAR_TYPE, 7),
                Arg(Tag.LAYOUT, 0),
                Arg(Tag.DEVICE, (0, -1)),
                Arg(Tag.BOOL, False),
                Arg(Tag.BOOL, False),
                Arg(Tag.MEMORY_FORMAT, 0),
            ],
            False,
            [1],
        ),
        Node("gelu", 1, [Arg(Tag.VALUE, 0), Arg(Tag.STR, "tanh")], False, [2]),
        Node("up", 2, [Arg(Tag.VALUE, 0), Arg(Tag.NONE), Arg(Tag.FLOATS, (2.0, 2.0))], False, [3]),
        Node("cat", 3, [Arg(Tag.TENSORS, (2, 0)), Arg(Tag.INT, 1)], False, [4]),
        Node("leaky", 4, [Arg(Tag.VALUE, 0), Arg(Tag.FLOAT, 0.25)], False, [5]),
        Node("flat", 5, [Arg(Tag.VALUE, 4), Arg(Tag.INTS, (-1,))], False, [6]),
    ]
    model = LiteModel(
        operators=ops,
        num_values=7,
        inputs=[Input("x", 0, TensorDesc(6, (1, 2, 2, 2)))],
        nodes=nodes,
        outputs=[Output(n, s) for n, s in [("f64", 1), ("up", 3), ("leaky", 5), ("flat", 6)]],
    )
    path = tmp_path / "tags.sopsm"
    path.write_bytes(serialize(model))
    npy_io.write(tmp_path / "x.npy", "<f4", (1, 2, 2, 2), x)
    result = lite(
        "run", str(path), "--input", str(tmp_path / "x.npy"), "--output-dir", str(tmp_path / "o")
    )
    assert result.returncode == 0, result.stderr
    assert npy_io.read(tmp_path / "o" / "out0.npy") == ("float64", (1, 2, 2, 2), x)
    assert npy_io.read(tmp_path / "o" / "out1.npy")[:2] == ("float32", (1, 2, 4, 4))
    assert npy_io.read(tmp_path / "o" / "out2.npy")[2] == [v if v > 0 else 0.25 * v for v in x]
    dtype, shape, flat = npy_io.read(tmp_path / "o" / "out3.npy")
    assert (dtype, shape, flat[8:]) == ("float32", (16,), x)  # cat([gelu(x), x], 1), flattened


def test_missing_operators_are_all_listed_before_running(tmp_path):
    path = tmp_path / "needs_more.sopsm"
    write_model(path, ["aten::relu", "aten::fft_fft", "aten::sigmoid", "my_ops::frobnicate.out"])
    x = tmp_path / "x.npy"
    npy_io.write(x, "<f4", (2, 3), [1, 2, 3, 4, 5, 6])
    out = tmp_path / "out"
    result = lite("run", str(path), "--input", str(x), "--output-dir", str(out))
    assert_clean_failure(
        result, "2 operators", "aten::fft_fft", "my_ops::frobnicate.out", "selected_operators.yaml"
    )
    assert "aten::relu" not in result.stderr.split("does not have:")[1]
    assert not out.exists()  # nothing ran
    # `ops` still lists them all, so they can be selected.
    assert lite("ops", str(path)).stdout.splitlines() == sorted(
        ["aten::relu", "aten::fft_fft", "aten::sigmoid", "my_ops::frobnicate.out"]
    )


def test_an_error_inside_a_kernel_names_the_node_the_operator_and_the_argument(tmp_path):
    # The model passes every check of the file and its inputs; _softmax's own check fails.
    model = LiteModel(
        operators=["aten::_softmax"],
        num_values=2,
        inputs=[Input("x", 0, TensorDesc(6, (2, 3)))],
        nodes=[
            Node("probs", 0, [Arg(Tag.VALUE, 0), Arg(Tag.INT, 5), Arg(Tag.BOOL, False)], False, [1])
        ],
        outputs=[Output("y", 1)],
    )
    path = tmp_path / "bad_dim.sopsm"
    path.write_bytes(serialize(model))
    x = tmp_path / "x.npy"
    npy_io.write(x, "<f4", (2, 3), [1, 2, 3, 4, 5, 6])
    result = lite("run", str(path), "--input", str(x), "--output-dir", str(tmp_path / "out"))
    assert_clean_failure(result)
    assert result.stderr.startswith(
        f"lite_runtime: error: {path}: node 'probs' (aten::_softmax): _softmax: argument 'dim': "
    ), result.stderr
    assert "out of range" in result.stderr and "got 5" in result.stderr, result.stderr


def test_wrong_inputs_fail_cleanly(tmp_path):
    mlp, x = model_file("mlp"), inputs_of("mlp")[0]
    out = str(tmp_path / "out")
    two = lite("run", mlp, "--input", x, "--input", x, "--output-dir", out)
    assert_clean_failure(two, "takes 1 input", "float32 [4, 32]", "2 were given")

    wrong_shape = tmp_path / "wrong_shape.npy"
    npy_io.write(wrong_shape, "<f4", (4, 31), [0.0] * 124)
    assert_clean_failure(
        lite("run", mlp, "--input", str(wrong_shape), "--output-dir", out),
        "input 0",
        "float32 [4, 32]",
        "float32 [4, 31]",
    )

    wrong_dtype = tmp_path / "wrong_dtype.npy"
    npy_io.write(wrong_dtype, "<f8", (4, 32), [0.0] * 128)
    assert_clean_failure(
        lite("run", mlp, "--input", str(wrong_dtype), "--output-dir", out),
        "float32 [4, 32]",
        "float64 [4, 32]",
    )

    garbage = tmp_path / "garbage.npy"
    garbage.write_bytes(b"not numpy at all")
    assert_clean_failure(
        lite("run", mlp, "--input", str(garbage), "--output-dir", out),
        "garbage.npy",
        "not a .npy file",
    )

    truncated = tmp_path / "truncated.npy"
    truncated.write_bytes(open(x, "rb").read()[:-7])
    assert_clean_failure(
        lite("run", mlp, "--input", str(truncated), "--output-dir", out),
        "truncated.npy",
        "truncated",
    )

    assert_clean_failure(
        lite("run", mlp, "--input", str(tmp_path / "absent.npy"), "--output-dir", out),
        "absent.npy",
        "cannot open",
    )
    assert_clean_failure(
        lite("run", mlp, "--input", str(tmp_path), "--output-dir", out), "not a .npy file"
    )
    assert not os.path.exists(out)


def test_unwritable_outputs_fail_cleanly(tmp_path):
    mlp, x = model_file("mlp"), inputs_of("mlp")[0]
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    assert_clean_failure(
        lite("run", mlp, "--input", x, "--output-dir", str(blocker)),
        str(blocker),
        "cannot create the output folder",
    )
    (tmp_path / "out" / "out0.npy").mkdir(parents=True)  # a folder where out0.npy goes
    assert_clean_failure(
        lite("run", mlp, "--input", x, "--output-dir", str(tmp_path / "out")),
        "output 0 (",
        "out0.npy: cannot write the .npy file: Is a directory",
    )
    trace = tmp_path / "absent" / "trace.yaml"
    assert_clean_failure(
        lite("trace", mlp, "--input", x, "-o", str(trace)),
        f"{trace}: cannot write the trace: No such file or directory",
    )


def test_damaged_model_files_fail_cleanly(tmp_path):
    data = open(model_file("cnn"), "rb").read()
    x = inputs_of("cnn")[0]
    out = str(tmp_path / "out")
    cases = {
        "truncated.sopsm": (data[: len(data) // 3], "is the file truncated?"),
        "header_only.sopsm": (data[:20], "the header"),
        "text.sopsm": (b"hello, I am not a model\n" * 4, "not a lite model"),
        "future.sopsm": (data[:8] + b"\x07\x00\x00\x00" + data[12:], "format version 7"),
    }
    for file, (content, needle) in cases.items():
        path = tmp_path / file
        path.write_bytes(content)
        for command in (["run", str(path), "--input", x, "--output-dir", out], ["ops", str(path)]):
            assert_clean_failure(lite(*command), file, needle)
    assert_clean_failure(lite("ops", str(tmp_path / "absent.sopsm")), "absent.sopsm", "cannot open")
    assert_clean_failure(lite("ops", str(tmp_path)), "not a model file")


def test_usage_mistakes_print_the_usage():
    for args in (
        [],
        ["fly", "m"],
        ["run", model_file("mlp")],
        ["trace", model_file("mlp")],
        ["ops"],
    ):
        result = lite(*args)
        assert result.returncode == 2, args
        assert "usage: lite_runtime" in result.stderr
    assert lite("--help").returncode == 0


def test_a_tied_weight_is_written_once_and_runs(tmp_path):
    # An lm head tied to its embedding: two constants with the same bytes, which the writer
    # stores once (FORMAT.md, `constant`); y = embedding(W, tokens) @ H.t() with H = W.
    w = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # [3, 2]
    data = struct.pack("<6f", *w)
    model = LiteModel(
        operators=["aten::embedding", "aten::permute", "aten::mm"],
        num_values=6,
        constants=[
            Constant("embed.weight", 0, TensorDesc(6, (3, 2)), data),
            Constant("lm_head.weight", 1, TensorDesc(6, (3, 2)), data),
        ],
        inputs=[Input("tokens", 2, TensorDesc(4, (2,)))],
        nodes=[
            Node("embedding", 0, [Arg(Tag.VALUE, 0), Arg(Tag.VALUE, 2)], False, [3]),
            Node("permute", 1, [Arg(Tag.VALUE, 1), Arg(Tag.INTS, (1, 0))], False, [4]),
            Node("mm", 2, [Arg(Tag.VALUE, 3), Arg(Tag.VALUE, 4)], False, [5]),
        ],
        outputs=[Output("logits", 5)],
    )
    path = tmp_path / "tied.sopsm"
    path.write_bytes(serialize(model))
    written = path.read_bytes()
    assert struct.unpack_from("<Q", written, 24)[0] == 24  # the data blob: one copy of W
    assert [c.offset for c in parse(written).constants] == [0, 0]
    npy_io.write(tmp_path / "tokens.npy", "<i8", (2,), [2, 0])
    result = lite(
        "run", str(path), "--input", str(tmp_path / "tokens.npy"), "--output-dir", str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    # Rows W[2] = [5, 6] and W[0] = [1, 2] times W's rows [1, 2], [3, 4], [5, 6].
    want = [17.0, 39.0, 61.0, 5.0, 11.0, 17.0]
    assert npy_io.read(tmp_path / "out0.npy") == ("float32", (2, 3), want)
