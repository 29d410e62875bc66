"""The generator's selection (`generate --selected-ops`) and the operator-set tool, as the
rules run them: what is kept and why, what is refused and how it is said."""

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

import codegen
from codegen.selective.kernel_symbols import KernelSymbols

CHECKOUT = pathlib.Path(codegen.__file__).parents[1]
ATEN_YAML = CHECKOUT / "ops" / "native_functions.yaml"
TOOL = CHECKOUT / "lite" / "python" / "operator_set_tool.py"
TRACED = CHECKOUT / "tests" / "selective_build" / "testdata" / "mlp_selected_operators.yaml"
MLP_MODEL = CHECKOUT / "models" / "mlp" / "model.sopsm"


def python(*args, cwd):
    return subprocess.run(
        [sys.executable, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=str(CHECKOUT), PYTHONHASHSEED="0"),
    )


def operator_set(tmp_path, name="set", **sources):
    """Runs the operator-set tool as the operator_set rule does; returns its JSON's path."""
    out = tmp_path / f"{name}.json"
    args = [TOOL, "--output", out, "--label", f"//app:{name}"]
    if "ops" in sources:
        listed = tmp_path / f"{name}.txt"
        listed.write_text("".join(op + "\n" for op in sources["ops"]))
        args += ["--ops", listed]
    for path in sources.get("yaml", ()):
        args += ["--selected-operators-yaml", path]
    for path in sources.get("models", ()):
        args += ["--model", path]
    result = python(*args, cwd=tmp_path)
    return out, result


def generate(tmp_path, sets, *more, static=True):
    out = tmp_path / "aten"
    args = [
        "-m",
        "codegen",
        "generate",
        ATEN_YAML,
        "--namespace",
        "sops::aten",
        "--output-dir",
        out,
        "--source-label",
        "ops/native_functions.yaml",
        "--sources-only",
        "--selection-report",
        tmp_path / "report.txt",
        "--selected-ops",
        *sets,
        *more,
    ]
    if static:
        args.append("--static-dispatch")
    return python(*args, cwd=tmp_path), out


def test_each_source_of_a_set(tmp_path):
    listed, r = operator_set(tmp_path, "listed", ops=["aten::add.Tensor", "aten::relu"])
    assert r.returncode == 0, r.stderr
    traced, r = operator_set(tmp_path, "traced", yaml=[TRACED])
    assert r.returncode == 0, r.stderr
    model, r = operator_set(tmp_path, "model", models=[MLP_MODEL])
    assert r.returncode == 0, r.stderr
    names = lambda p: [e["name"] for e in json.loads(p.read_text())["operators"]]  # noqa: E731
    assert names(listed) == ["aten::add.Tensor", "aten::relu"]
    expected_mlp = ["aten::_log_softmax", "aten::addmm", "aten::permute", "aten::relu"]
    assert names(traced) == expected_mlp  # what `lite_runtime trace` saw the mlp run
    assert names(model) == expected_mlp  # the mlp's nodes
    assert json.loads(listed.read_text())["operators"][0]["origin"] == "//app:listed"


def test_selected_operators_yaml_overloads_and_all_operators(tmp_path):
    (tmp_path / "sel.yaml").write_text(
        "operators:\n  aten::add:\n    include_all_overloads: true\n  aten::relu: {}\n"
    )
    (tmp_path / "all.yaml").write_text("include_all_operators: true\noperators: {}\n")
    (tmp_path / "old.yaml").write_text("operators:\n- aten::mm\n")
    some, r = operator_set(tmp_path, "some", yaml=[tmp_path / "sel.yaml", tmp_path / "old.yaml"])
    assert r.returncode == 0, r.stderr
    result, _ = generate(tmp_path, [some])
    assert result.returncode == 0, result.stderr
    report = (tmp_path / "report.txt").read_text()
    for op in ("aten::add.Tensor", "aten::add.Scalar", "aten::add.out", "aten::relu", "aten::mm"):
        assert re.search(rf"^{re.escape(op)}: requested by", report, re.M), op
    everything, r = operator_set(tmp_path, "everything", yaml=[tmp_path / "all.yaml"])
    result, _ = generate(tmp_path, [everything])
    assert result.returncode == 0, result.stderr
    first = (tmp_path / "report.txt").read_text().splitlines()[0]
    declared = int(re.search(r"of (\d+) declared", first).group(1))
    assert first.startswith(f"# {declared} operators requested")


def test_unknown_operators_fail_listing_every_one(tmp_path):
    bad, r = operator_set(
        tmp_path,
        "bad",
        ops=["aten::add.Tensor", "aten::fft_fft", "my_ops::frobnicate", "aten::add.Bogus"],
    )
    assert r.returncode == 0, r.stderr  # the form is right; the library decides what exists
    result, out = generate(tmp_path, [bad])
    assert result.returncode == 1
    err = result.stderr
    assert err.startswith(
        "ops/native_functions.yaml:1:1: error: 3 selected operator(s) are not declared"
    )
    for name in ("aten::fft_fft", "my_ops::frobnicate", "aten::add.Bogus"):
        assert f"  {name} (from //app:bad)" in err
    assert "did you mean aten::add.Scalar" in err  # the overloads that exist
    assert "hint: remove them from the operator_set" in err
    assert "Traceback" not in err
    assert not out.exists() or not list(out.iterdir())  # nothing half-written


@pytest.mark.parametrize("line", ["add.Tensor", "aten::", "aten::add.Tensor extra"])
def test_malformed_names_fail_naming_the_line(tmp_path, line):
    _, r = operator_set(tmp_path, "odd", ops=["aten::relu", line])
    assert r.returncode == 1
    assert re.search(r"odd\.txt:2: .* is not an operator name", r.stderr), r.stderr
    assert "Traceback" not in r.stderr


def test_broken_sources_fail_with_one_line(tmp_path):
    (tmp_path / "broken.yaml").write_text("operators:\n  aten::relu: [\n")
    _, from_yaml = operator_set(tmp_path, "broken", yaml=[tmp_path / "broken.yaml"])
    assert (
        from_yaml.returncode == 1
        and "broken.yaml:" in from_yaml.stderr
        and "not valid YAML" in from_yaml.stderr
    )
    (tmp_path / "text.sopsm").write_text("not a model")
    _, r = operator_set(tmp_path, "text", models=[tmp_path / "text.sopsm"])
    assert r.returncode == 1 and "text.sopsm: not a lite model file" in r.stderr
    for result in (from_yaml, r):
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_pruned_sources_hold_only_the_selection_and_what_it_calls(tmp_path):
    mlp, _ = operator_set(tmp_path, "mlp", models=[MLP_MODEL])
    result, out = generate(tmp_path, [mlp])
    assert result.returncode == 0, result.stderr
    text = {p.name: p.read_text() for p in out.iterdir()}
    assert not [
        n for n in text if n.endswith(".h")
    ]  # --sources-only: headers stay the full library's
    unboxed = "".join(v for k, v in text.items() if "Unboxed" in k)
    assert sorted(re.findall(r"^    \"(aten::[\w.]+)\", \"aten\",", unboxed, re.M)) == [
        "aten::_log_softmax",
        "aten::addmm",
        "aten::permute",
        "aten::relu",
    ]
    everything = "\n".join(text.values())
    for op in ("convolution", "gelu", "embedding", "cat", "sigmoid", "bmm", "where"):
        assert not re.search(rf"\b{op}\b", everything), op
    # The operator tables list what the library defines.
    tables = "".join(t for n, t in text.items() if n.startswith("Operators_"))
    assert tables.count("kOperatorTable[] = {") >= 1
    assert len(re.findall(r'^    \{"\w+", "\w*", "', tables, re.M)) == 4


def test_operators_the_kernels_call_are_kept_and_say_why(tmp_path):
    mul, _ = operator_set(tmp_path, "mul", ops=["aten::mul.Scalar"])
    # What `nm -A -C` says of two objects: the Scalar overload's kernel calls mul(Tensor,
    # Tensor) through the API; a helper object it needs calls empty_like.
    nm = tmp_path / "nm.txt"
    nm.write_text(
        "libk.a:scalar.o:0000000000000000 T sops::aten::native::mul(sops::Tensor const&, sops::Scalar const&)\n"
        "libk.a:scalar.o:                 U sops::aten::mul(sops::Tensor const&, sops::Tensor const&)\n"
        "libk.a:scalar.o:                 U helper(int)\n"
        "libk.a:helper.o:0000000000000010 T helper(int)\n"
        "libk.a:helper.o:                 U sops::aten::empty_like(sops::Tensor const&)\n"
        "libk.a:other.o:0000000000000010 T unrelated()\n"
        "libk.a:other.o:                 U sops::aten::convolution(sops::Tensor const&)\n"
    )
    result, _ = generate(tmp_path, [mul], "--kernel-symbols", nm)
    assert result.returncode == 0, result.stderr
    report = (tmp_path / "report.txt").read_text()
    assert "aten::mul.Scalar: requested by //app:mul" in report
    assert "aten::mul.Tensor: called by aten::mul.Scalar" in report
    assert re.search(r"^aten::empty_like: called by aten::mul\.Scalar$", report, re.M)
    assert "convolution" not in report  # an object nothing needs calls it


def test_kernel_symbols_follow_what_the_linker_would_pull_in():
    symbols = KernelSymbols(
        "a.a:k.o:0000000000000000 T ns::native::structured_k::impl(int) const\n"
        "a.a:k.o:                 U ns::cpu::add(int)\n"
        "a.a:k.o:                 U g()\n"
        "a.a:g.o:0000000000000000 T g()\n"
        "a.a:g.o:                 U ns::(anonymous namespace)::local()\n"
        "a.a:g.o:                 U ns::mm_out(int)\n"
        "a.a:g.o:                 U ns::native::other(int)\n"
    )
    assert symbols.objects_defining("::ns::native::structured_k") == {"a.a:k.o"}
    assert symbols.api_calls(["ns::native::structured_k"], "ns") == {"add", "mm_out"}
    assert symbols.api_calls(["ns::native::missing"], "ns") == set()
