"""`lite_runtime`'s resource limits (lite/limits.h) on well-formed, hostile models written
with the project's Python writer, and models without inputs.

Every expected figure is derived by hand from the shapes in the comments (an element
count, a byte count, a multiply-add count), never read back from the runtime: a
refusal's message must name the node, the operator, the figure, the limit and the flag
that raises it, and it must come at once (a hang would fail by the subprocess timeout).
"""

import os
import subprocess
import sys
from array import array

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import npy_io  # noqa: E402
from lite_model import (  # noqa: E402  (lite/python/lite_model.py)
    Arg,
    Constant,
    Input,
    LiteModel,
    Node,
    Output,
    Tag,
    TensorDesc,
    serialize,
)

LITE_RUNTIME = os.environ["LITE_RUNTIME"]
MLP_MODEL = os.environ["MLP_MODEL"]
UINT8, FLOAT32, INT64, BOOL = 0, 6, 4, 11
WORK_FLAG = (
    "(raise it with lite_runtime --max-node-work N, or Limits::max_node_work; 0 means no limit)"
)
TENSOR_FLAG = (
    "(raise it with lite_runtime --max-tensor-bytes N, or Limits::max_tensor_bytes; "
    "0 means no limit)"
)
MEMORY_FLAG = (
    "(raise it with lite_runtime --max-memory-bytes N, or Limits::max_memory_bytes; "
    "0 means no limit)"
)


def lite(*args):
    return subprocess.run([LITE_RUNTIME, *args], capture_output=True, text=True, timeout=120)


def refused(result, path, node, op, what):
    """Exit status 1 and exactly one line: `lite_runtime: error: FILE: node 'N' (OP): WHAT`."""
    assert result.returncode == 1, (result.returncode, result.stderr)
    want = f"lite_runtime: error: {path}: node '{node}' ({op}): {what}\n"
    assert result.stderr == want, result.stderr


def write(tmp_path, name, operators, nodes, outputs, inputs=(), num_values=None):
    """A model file of these nodes; `nodes` are (name, operator, args, outs)."""
    model = LiteModel(
        operators=list(operators),
        num_values=num_values
        if num_values is not None
        else 1 + max(s for n in nodes for s in n[3]),
        inputs=list(inputs),
        nodes=[
            Node(n, operators.index(op), list(args), False, list(outs))
            for n, op, args, outs in nodes
        ],
        outputs=[Output(n, s) for n, s in outputs],
    )
    path = tmp_path / name
    path.write_bytes(serialize(model))
    return str(path)


def scalar_tensor(name, value, dtype, out):
    """aten::scalar_tensor(value, dtype=dtype): a 0-d tensor of one stored element."""
    return (
        name,
        "aten::scalar_tensor",
        [
            Arg(Tag.FLOAT if isinstance(value, float) else Tag.INT, value),
            Arg(Tag.SCALAR_TYPE, dtype),
        ],
        [out],
    )


def expand(name, src, sizes, out):
    return (name, "aten::expand", [Arg(Tag.VALUE, src), Arg(Tag.INTS, tuple(sizes))], [out])


def run(path, tmp_path, *extra):
    return lite("run", path, "--output-dir", str(tmp_path / "out"), *extra)


def test_a_model_without_inputs_runs(tmp_path):
    # y = full([2, 3], 7.0); z = y + y; no inputs, no --input.
    ops = ["aten::full", "aten::add.Tensor"]
    path = write(
        tmp_path,
        "const.sopsm",
        ops,
        [
            ("full", "aten::full", [Arg(Tag.INTS, (2, 3)), Arg(Tag.FLOAT, 7.0)], [0]),
            ("add", "aten::add.Tensor", [Arg(Tag.VALUE, 0), Arg(Tag.VALUE, 0)], [1]),
        ],
        [("y", 0), ("z", 1)],
    )
    result = run(path, tmp_path)
    assert result.returncode == 0, result.stderr
    assert npy_io.read(tmp_path / "out" / "out0.npy") == ("float32", (2, 3), [7.0] * 6)
    assert npy_io.read(tmp_path / "out" / "out1.npy") == ("float32", (2, 3), [14.0] * 6)
    trace = tmp_path / "ops.yaml"
    assert lite("trace", path, "-o", str(trace)).returncode == 0
    assert "aten::full" in trace.read_text()


def test_a_model_whose_output_is_a_constant_runs(tmp_path):
    # No nodes at all: the output is a parameter, handed out as a copy.
    values = [1.5, -2.0, 0.25]
    model = LiteModel(
        operators=[],
        num_values=1,
        constants=[Constant("w", 0, TensorDesc(FLOAT32, (3,)), array("f", values).tobytes())],
        outputs=[Output("w", 0)],
    )
    path = tmp_path / "param.sopsm"
    path.write_bytes(serialize(model))
    result = run(str(path), tmp_path)
    assert result.returncode == 0, result.stderr
    assert npy_io.read(tmp_path / "out" / "out0.npy") == ("float32", (3,), values)


def test_a_model_with_inputs_still_needs_them(tmp_path):
    result = run(MLP_MODEL, tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stderr == (
        f"lite_runtime: error: {MLP_MODEL} takes 1 input (input: float32 [4, 32]): "
        "give one --input FILE.npy per input, in this order\n"
    )
    assert not (tmp_path / "out").exists()


def test_a_sum_over_a_2_62_element_expanded_view_is_refused_at_once(tmp_path):
    # One stored float shown as [2^31, 2^31]: the sum reads 2^62 elements, writes 1.
    path = write(
        tmp_path,
        "sum.sopsm",
        ["aten::scalar_tensor", "aten::expand", "aten::sum.dim_IntList"],
        [
            scalar_tensor("one", 1.0, FLOAT32, 0),
            expand("big", 0, (2**31, 2**31), 1),
            ("sum", "aten::sum.dim_IntList", [Arg(Tag.VALUE, 1), Arg(Tag.NONE)], [2]),
        ],
        [("s", 2)],
    )
    refused(
        run(path, tmp_path),
        path,
        "sum",
        "aten::sum.dim_IntList",
        f"its work, {2**62 + 1} elements touched (every element it reads and writes, and the "
        "multiply-adds of a product), exceeds the node work limit of 4294967296 elements "
        + WORK_FLAG,
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("op", ["aten::sum.dim_IntList", "aten::mean.dim", "aten::amax"])
@pytest.mark.parametrize("log2", [40, 62])
def test_reductions_over_2_40_to_2_62_element_views_are_refused(tmp_path, op, log2):
    # One stored float shown as [2^(log2/2), 2^(log2/2)], reduced over both dimensions.
    side = 2 ** (log2 // 2)
    path = write(
        tmp_path,
        "reduce.sopsm",
        ["aten::scalar_tensor", "aten::expand", op],
        [
            scalar_tensor("one", 1.0, FLOAT32, 0),
            expand("big", 0, (side, side), 1),
            ("reduce", op, [Arg(Tag.VALUE, 1), Arg(Tag.INTS, (0, 1))], [2]),
        ],
        [("r", 2)],
    )
    refused(
        run(path, tmp_path),
        path,
        "reduce",
        op,
        f"its work, {2**log2 + 1} elements touched (every element it reads and writes, and the "
        "multiply-adds of a product), exceeds the node work limit of 4294967296 elements "
        + WORK_FLAG,
    )


def test_an_mm_of_expanded_views_is_refused_by_its_multiply_adds(tmp_path):
    # [2^12, 2^12] @ [2^12, 2^12], both views of one float: 2^25 elements read and 2^24
    # written, but 2^24 * 2^12 = 2^36 multiply-adds, which no element count shows.
    n = 2**12
    path = write(
        tmp_path,
        "mm.sopsm",
        ["aten::scalar_tensor", "aten::expand", "aten::mm"],
        [
            scalar_tensor("one", 1.0, FLOAT32, 0),
            expand("a", 0, (n, n), 1),
            ("mm", "aten::mm", [Arg(Tag.VALUE, 1), Arg(Tag.VALUE, 1)], [2]),
        ],
        [("y", 2)],
    )
    work = 2 * n * n + n * n + n * n * n
    refused(
        run(path, tmp_path),
        path,
        "mm",
        "aten::mm",
        f"its work, {work} elements touched (every element it reads and writes, and the "
        "multiply-adds of a product), exceeds the node work limit of 4294967296 elements "
        + WORK_FLAG,
    )
    # Raised past it, the next limit holds: each input, made contiguous, is 64 MiB
    # (under the default 1 GiB, over a 32 MiB limit).
    refused(
        run(path, tmp_path, "--max-node-work", "0", "--max-tensor-bytes", "32M"),
        path,
        "mm",
        "aten::mm",
        f"input 'self' (float32 [{n}, {n}], an expanded view of {4 * n * n} bytes if made "
        f"contiguous) exceeds the tensor size limit of {32 * 2**20} bytes " + TENSOR_FLAG,
    )


def test_a_2_61_element_expand_materialized_meets_each_limit_in_turn(tmp_path):
    # expand is a view (free); clone would write 2^61 bytes (uint8, so that every size
    # stays within 63 bits and only the limits stand in the way).
    path = write(
        tmp_path,
        "clone.sopsm",
        ["aten::scalar_tensor", "aten::expand", "aten::clone"],
        [
            scalar_tensor("one", 1, UINT8, 0),
            expand("big", 0, (2**61,), 1),
            ("copy", "aten::clone", [Arg(Tag.VALUE, 1)], [2]),
        ],
        [("y", 2)],
    )
    refused(
        run(path, tmp_path),
        path,
        "copy",
        "aten::clone",
        f"its work, {2**62} elements touched (every element it reads and writes, and the "
        "multiply-adds of a product), exceeds the node work limit of 4294967296 elements "
        + WORK_FLAG,
    )
    refused(
        run(path, tmp_path, "--max-node-work", "0"),
        path,
        "copy",
        "aten::clone",
        f"input 'self' (uint8 [{2**61}], an expanded view of {2**61} bytes if made "
        "contiguous) exceeds the tensor size limit of 1073741824 bytes " + TENSOR_FLAG,
    )
    # Held once it ran: the 1-byte scalar (alive through its view) and the 2^61-byte copy.
    refused(
        run(path, tmp_path, "--max-node-work", "0", "--max-tensor-bytes", "0"),
        path,
        "copy",
        "aten::clone",
        f"the memory held once it has run, {2**61 + 1} bytes (inputs, outputs and the "
        "intermediates still needed), exceeds the memory limit of 2147483648 bytes " + MEMORY_FLAG,
    )
    # `shapes` runs no kernel, so no limit applies; its peak is the same sum.
    shapes = lite("shapes", path)
    assert shapes.returncode == 0, shapes.stderr
    assert f"# peak activation memory: {2**61 + 1} bytes (after node 'copy')" in shapes.stdout


def arange_model(tmp_path, steps):
    return write(
        tmp_path,
        f"arange{steps}.sopsm",
        ["aten::arange.start_step"],
        [
            (
                "steps",
                "aten::arange.start_step",
                [
                    Arg(Tag.INT, 0),
                    Arg(Tag.INT, steps),
                    Arg(Tag.INT, 1),
                    Arg(Tag.SCALAR_TYPE, FLOAT32),
                ],
                [0],
            )
        ],
        [("y", 0)],
    )


def test_an_arange_of_5e8_floats_is_refused_and_a_raised_limit_lets_one_run(tmp_path):
    path = arange_model(tmp_path, 500_000_000)
    refused(
        run(path, tmp_path),
        path,
        "steps",
        "aten::arange.start_step",
        "output 0 (float32 [500000000], 2000000000 bytes) exceeds the tensor size limit of "
        "1073741824 bytes " + TENSOR_FLAG,
    )
    # The work bound, at a scale a test can run both ways: 1e6 steps write 1e6 elements.
    small = arange_model(tmp_path, 1_000_000)
    refused(
        run(small, tmp_path, "--max-node-work", "999999"),
        small,
        "steps",
        "aten::arange.start_step",
        "its work, 1000000 elements touched (every element it reads and writes, and the "
        "multiply-adds of a product), exceeds the node work limit of 999999 elements " + WORK_FLAG,
    )
    result = run(small, tmp_path, "--max-node-work", "1000000")
    assert result.returncode == 0, result.stderr
    dtype, shape, values = npy_io.read(tmp_path / "out" / "out0.npy")
    assert (dtype, shape) == ("float32", (1_000_000,))
    assert values[:3] == [0.0, 1.0, 2.0] and values[-1] == 999_999.0


def elementwise_model(tmp_path):
    # x [1000] f32 (4000 B): a = x + x; b = x * x (x's last use); c = a + b.
    # Held after a: x, a = 8000 B; after b: x, a, b = 12000 B (x is freed after b);
    # after c: a, b, c = 12000 B (a and b are freed after c). Peak: 12000 B at b.
    return write(
        tmp_path,
        "ew.sopsm",
        ["aten::add.Tensor", "aten::mul.Tensor"],
        [
            ("a", "aten::add.Tensor", [Arg(Tag.VALUE, 0), Arg(Tag.VALUE, 0)], [1]),
            ("b", "aten::mul.Tensor", [Arg(Tag.VALUE, 0), Arg(Tag.VALUE, 0)], [2]),
            ("c", "aten::add.Tensor", [Arg(Tag.VALUE, 1), Arg(Tag.VALUE, 2)], [3]),
        ],
        [("c", 3)],
        inputs=[Input("x", 0, TensorDesc(FLOAT32, (1000,)))],
    )


def test_the_memory_and_tensor_limits_at_a_small_scale(tmp_path):
    path = elementwise_model(tmp_path)
    x = tmp_path / "x.npy"
    npy_io.write(x, "<f4", (1000,), [float(k % 7) for k in range(1000)])
    shapes = lite("shapes", path)
    assert "# peak activation memory: 12000 bytes (after node 'b')" in shapes.stdout
    refused(
        run(path, tmp_path, "--input", str(x), "--max-memory-bytes", "11999"),
        path,
        "b",
        "aten::mul.Tensor",
        "the memory held once it has run, 12000 bytes (inputs, outputs and the intermediates "
        "still needed), exceeds the memory limit of 11999 bytes " + MEMORY_FLAG,
    )
    refused(
        run(path, tmp_path, "--input", str(x), "--max-tensor-bytes", "3999"),
        path,
        "a",
        "aten::add.Tensor",
        "output 0 (float32 [1000], 4000 bytes) exceeds the tensor size limit of 3999 bytes "
        + TENSOR_FLAG,
    )
    # Each node touches 3000 elements.
    refused(
        run(path, tmp_path, "--input", str(x), "--max-node-work", "2999"),
        path,
        "a",
        "aten::add.Tensor",
        "its work, 3000 elements touched (every element it reads and writes, and the "
        "multiply-adds of a product), exceeds the node work limit of 2999 elements " + WORK_FLAG,
    )
    exact = ["--max-memory-bytes", "12000", "--max-tensor-bytes", "4000", "--max-node-work", "3000"]
    result = run(path, tmp_path, "--input", str(x), *exact)
    assert result.returncode == 0, result.stderr
    got = npy_io.read(tmp_path / "out" / "out0.npy")[2]
    assert got == [2 * v + v * v for v in (float(k % 7) for k in range(1000))]


def nonzero_model(tmp_path):
    # nz = nonzero(mask) [n, 1] int64 (n: the true elements, known only from the data);
    # wide = one int64 shown as [1, 2^20]; y = nz + wide: [n, 2^20]; s = sum(y).
    wide = 2**20
    return write(
        tmp_path,
        "nonzero.sopsm",
        [
            "aten::nonzero",
            "aten::scalar_tensor",
            "aten::expand",
            "aten::add.Tensor",
            "aten::sum.dim_IntList",
        ],
        [
            ("nz", "aten::nonzero", [Arg(Tag.VALUE, 0)], [1]),
            scalar_tensor("one", 1, INT64, 2),
            expand("wide", 2, (1, wide), 3),
            ("y", "aten::add.Tensor", [Arg(Tag.VALUE, 1), Arg(Tag.VALUE, 3)], [4]),
            ("s", "aten::sum.dim_IntList", [Arg(Tag.VALUE, 4), Arg(Tag.NONE)], [5]),
        ],
        [("s", 5)],
        inputs=[Input("mask", 0, TensorDesc(BOOL, (8,)))],
    )


def test_nodes_after_a_data_dependent_one_are_measured_as_they_run(tmp_path):
    path = nonzero_model(tmp_path)
    wide = 2**20
    two, four = tmp_path / "two.npy", tmp_path / "four.npy"
    npy_io.write(two, "|b1", (8,), [0, 1, 0, 0, 0, 1, 0, 0])  # true at 1 and 5
    npy_io.write(four, "|b1", (8,), [1, 1, 0, 1, 0, 0, 1, 0])
    limit = ["--max-node-work", str(2**22)]
    # Two rows: y reads 2 + 2^20 and writes 2 * 2^20 elements, under 2^22.
    result = run(path, tmp_path, "--input", str(two), *limit)
    assert result.returncode == 0, result.stderr
    assert npy_io.read(tmp_path / "out" / "out0.npy") == ("int64", (), [(1 + 1 + 5 + 1) * wide])
    # Four rows: 4 + 2^20 + 4 * 2^20 elements, over it.
    refused(
        run(path, tmp_path, "--input", str(four), *limit),
        path,
        "y",
        "aten::add.Tensor",
        f"its work, {4 + wide + 4 * wide} elements touched (every element it reads and writes, "
        f"and the multiply-adds of a product), exceeds the node work limit of {2**22} elements "
        + WORK_FLAG,
    )
    # nonzero itself is measured on what is held before it runs: the 8-byte mask.
    refused(
        run(path, tmp_path, "--input", str(four), "--max-memory-bytes", "7"),
        path,
        "nz",
        "aten::nonzero",
        "the memory held before it runs, 8 bytes, exceeds the memory limit of 7 bytes "
        + MEMORY_FLAG,
    )
    # nonzero's own result is checked once it has run: [4, 1] int64 is 32 bytes.
    refused(
        run(path, tmp_path, "--input", str(four), "--max-tensor-bytes", "20"),
        path,
        "nz",
        "aten::nonzero",
        "output 0 (int64 [4, 1], 32 bytes) exceeds the tensor size limit of 20 bytes "
        + TENSOR_FLAG,
    )


def test_limit_flags_take_counts_with_binary_suffixes(tmp_path):
    x = os.path.join(os.path.dirname(MLP_MODEL), "input0.npy")
    # mlp's first addmm: x [4, 32], weight [32, 64] (a view), bias [64], out [4, 64] and
    # 4 * 64 * 32 multiply-adds: 128 + 2048 + 64 + 256 + 8192 = 10688 elements.
    result = run(MLP_MODEL, tmp_path, "--input", x, "--max-node-work", "10K")
    assert result.returncode == 1 and "exceeds the node work limit of 10240 elements" in (
        result.stderr
    ), result.stderr
    assert "its work, 10688 elements touched" in result.stderr, result.stderr
    assert run(MLP_MODEL, tmp_path, "--input", x, "--max-node-work", "11K").returncode == 0
    for bad in ("-1", "1.5", "12Q", "", "K", "99999999999999999999", "17179869184T"):
        result = run(MLP_MODEL, tmp_path, "--input", x, "--max-memory-bytes", bad)
        assert result.returncode == 2, (bad, result.stderr)
        assert result.stderr.startswith(
            "lite_runtime: error: --max-memory-bytes needs a count (digits, optionally followed "
            "by K, M, G or T; 0: no limit), got '" + bad + "'\n"
        ), result.stderr
    usage = lite("--help").stdout
    for flag in ("--max-node-work", "--max-tensor-bytes", "--max-memory-bytes"):
        assert flag in usage
