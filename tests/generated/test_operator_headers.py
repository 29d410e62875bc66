"""Per-operator headers (`generate --operators`, structured_ops_library's `operators`):
each operator's own headers, sources that include only theirs, shards by root name so
that a new operator changes one shard of each family, and the checked-in list that
declares them: written by `opgen operators`, refused when stale."""

import os
import pathlib
import re
import subprocess
import sys

import codegen

CHECKOUT = pathlib.Path(codegen.__file__).parents[1]
ATEN_YAML = CHECKOUT / "ops" / "native_functions.yaml"
ATEN_LIST = CHECKOUT / "ops" / "operators.bzl"

ERF = """- func: erf(Tensor self) -> Tensor
  structured_delegate: erf.out
  variants: function, method

- func: erf_(Tensor(a!) self) -> Tensor(a!)
  structured_delegate: erf.out

- func: erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU: erf_out

"""


def opgen(*args):
    return subprocess.run(
        [sys.executable, "-m", "codegen", *map(str, args)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(CHECKOUT)),
    )


def listed(bzl_text):
    return re.findall(r'^    "(\w+)",$', bzl_text, re.M)


def generate(out, yaml_path, roots):
    result = opgen(
        "generate", yaml_path, "--namespace", "sops::aten", "--backends", "CPU", "--shards", "2",
        "--include-prefix", "aten", "--output-dir", out, "--operators", ",".join(roots),
        "--source-label", "ops/native_functions.yaml",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return {str(p.relative_to(out)): p.read_text() for p in out.rglob("*") if p.is_file()}


def includes(text):
    return re.findall(r'^#include "aten/(.+)"$', text, re.M)


def test_the_checked_in_list_is_the_yamls():
    result = opgen("operators", ATEN_YAML)
    assert result.returncode == 0, result.stderr
    assert listed(result.stdout) == listed(ATEN_LIST.read_text())
    assert "add" in listed(result.stdout) and "add_" not in listed(result.stdout)


def test_each_operator_has_its_headers_and_sources_include_only_theirs(tmp_path):
    roots = listed(ATEN_LIST.read_text())
    written = generate(tmp_path, ATEN_YAML, roots)
    for root in roots:
        for suffix in ("", "_native", "_meta"):
            assert f"ops/{root}{suffix}.h" in written
    add = written["ops/add.h"]
    assert "Tensor add(const Tensor & self, const Tensor & other" in add
    assert "add_outf(" in add and "Tensor & add_(" in add and "mul(" not in add
    assert (
        "struct structured_add_out : public ::sops::aten::meta::structured_add_Tensor"
        in (written["ops/add_native.h"])
    )
    assert "struct structured_add_Tensor" in written["ops/add_meta.h"]
    assert "no structured kernel" in written["ops/view_meta.h"]
    # The aggregate headers declare nothing themselves: they include every operator's.
    assert includes(written["Functions.h"]) == ["Types.h"] + [f"ops/{r}.h" for r in roots]
    assert includes(written["NativeFunctions.h"]) == [f"ops/{r}_native.h" for r in roots]
    # A source includes the headers of its own operators, never an aggregate.
    for name, text in written.items():
        if name.endswith(".cpp"):
            assert not {"Functions.h", "NativeFunctions.h"} & set(includes(text)), name
    shard = next(
        n for n in ("RegisterCPU_0.cpp", "RegisterCPU_1.cpp") if '"add.Tensor"' in written[n]
    )
    assert {"ops/add.h", "ops/add_native.h"} <= set(includes(written[shard]))
    other = ({"RegisterCPU_0.cpp", "RegisterCPU_1.cpp"} - {shard}).pop()
    assert "ops/add_native.h" not in includes(written[other])


def test_a_new_operator_changes_one_shard_of_each_family(tmp_path):
    roots = listed(ATEN_LIST.read_text())
    before = generate(tmp_path / "before", ATEN_YAML, roots)
    with_erf = tmp_path / "native_functions.yaml"
    text = ATEN_YAML.read_text()
    anchor = "- func: rsqrt(Tensor self) -> Tensor\n"
    with_erf.write_text(text.replace(anchor, ERF + anchor, 1))
    after = generate(tmp_path / "after", with_erf, sorted(roots + ["erf"]))
    new = {"ops/erf.h", "ops/erf_native.h", "ops/erf_meta.h"}
    assert set(after) - set(before) == new
    changed = {n for n in before if before[n] != after[n]}
    # The aggregates (and the static entry points' headers, one per key, which only
    # statically dispatched sources include) and the operator table change; of the
    # sharded sources, one shard of
    # each family erf is in (its CPU and Meta wrappers, the Common path of its
    # functional variant, its dispatcher API and boxed kernels), and no other file.
    sharded = {n for n in changed if re.search(r"_\d\.cpp$", n)}
    assert changed - sharded == {
        "Functions.h", "NativeFunctions.h", "NativeMetaFunctions.h", "Operators.cpp",
        "CPUFunctions.h", "MetaFunctions.h",
    }  # fmt: skip
    families = {re.sub(r"_\d\.cpp$", "", n) for n in sharded}
    assert len(sharded) == len(families)  # one shard each
    assert {"RegisterCPU", "RegisterMeta", "Functions", "RegisterCodegenUnboxedKernels"} <= families


def test_a_stale_list_fails_at_the_yaml_line_naming_the_command(tmp_path):
    roots = listed(ATEN_LIST.read_text())
    with_erf = tmp_path / "native_functions.yaml"
    text = ATEN_YAML.read_text()
    anchor = "- func: rsqrt(Tensor self) -> Tensor\n"
    with_erf.write_text(text.replace(anchor, ERF + anchor, 1))
    line = text[: text.index(anchor)].count("\n") + 1
    result = opgen(
        "generate", with_erf, "--namespace", "sops::aten", "--output-dir", tmp_path / "out",
        "--operators", ",".join(roots + ["not_an_op"]), "--source-label", "ops/x.yaml",
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.startswith(f"ops/x.yaml:{line}:3: error: ")
    assert "lacks `erf`" in result.stderr and "has `not_an_op`" in result.stderr
    assert "tools/bazel run //codegen:opgen -- operators ops/x.yaml --write" in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_list_command_writes_a_bzl_file(tmp_path):
    bzl = tmp_path / "operators.bzl"
    result = opgen("operators", ATEN_YAML, "--write", bzl)
    assert result.returncode == 0, result.stderr
    assert f"{len(listed(bzl.read_text()))} operators" in result.stdout
    assert bzl.read_text() == ATEN_LIST.read_text().replace(
        "--write ops/operators.bzl", f"--write {bzl}"
    ).replace("ops/native_functions.yaml", str(ATEN_YAML))
