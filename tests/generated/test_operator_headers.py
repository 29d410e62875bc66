"""Per-operator headers (`generate --op-headers`, structured_ops_library's
`operator_headers`): each operator's own headers, in folders by the sha1 of its root
name; sources that include only theirs; shards by root name, so that a new operator
changes one folder and one shard of each family."""

import hashlib
import os
import pathlib
import re
import subprocess
import sys

import codegen

CHECKOUT = pathlib.Path(codegen.__file__).parents[1]
ATEN_YAML = CHECKOUT / "ops" / "native_functions.yaml"
SHARDS = 256

ERFC = """- func: erfc(Tensor self) -> Tensor
  structured_delegate: erfc.out
  variants: function, method

- func: erfc_(Tensor(a!) self) -> Tensor(a!)
  structured_delegate: erfc.out

- func: erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU: erfc_out

"""


def generate(out, yaml_path, *more):
    result = subprocess.run(
        [
            sys.executable, "-m", "codegen", "generate", str(yaml_path),
            "--namespace", "sops::aten", "--backends", "CPU", "--shards", "2",
            "--include-prefix", "aten", "--output-dir", str(out / "aten"),
            "--source-label", "ops/native_functions.yaml", *more,
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(CHECKOUT)),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return {str(p.relative_to(out)): p.read_text() for p in out.rglob("*") if p.is_file()}


def sharded(out, yaml_path):
    return generate(out, yaml_path, "--op-headers", str(out / "ops"), "--op-header-shards", "256")


def includes(text):
    return re.findall(r'^#include "aten/(.+)"$', text, re.M)


def folder(root):
    return int(hashlib.sha1(root.encode()).hexdigest(), 16) % SHARDS


def with_erfc(tmp_path):
    text = ATEN_YAML.read_text()
    anchor = "- func: rsqrt(Tensor self) -> Tensor\n"
    path = tmp_path / "native_functions.yaml"
    path.write_text(text.replace(anchor, ERFC + anchor, 1))
    return path


def test_each_operator_has_its_headers_and_sources_include_only_theirs(tmp_path):
    written = generate(tmp_path, ATEN_YAML, "--op-headers", str(tmp_path))
    roots = sorted(
        {
            re.sub(r"_(native|meta)$", "", p[len("aten/ops/") : -2])
            for p in written
            if p.startswith("aten/ops/")
        }
    )
    assert "add" in roots and "add_" not in roots and len(written) > 3 * len(roots)
    add = written["aten/ops/add.h"]
    assert "Tensor add(const Tensor & self, const Tensor & other" in add
    assert "add_outf(" in add and "Tensor & add_(" in add and "mul(" not in add
    assert (
        "struct structured_add_out : public ::sops::aten::meta::structured_add_Tensor"
        in (written["aten/ops/add_native.h"])
    )
    assert "struct structured_add_Tensor" in written["aten/ops/add_meta.h"]
    assert "no structured kernel" in written["aten/ops/view_meta.h"]
    # The aggregate headers declare nothing themselves: they include every operator's.
    assert includes(written["aten/Functions.h"]) == ["Types.h"] + [f"ops/{r}.h" for r in roots]
    assert includes(written["aten/NativeFunctions.h"]) == [f"ops/{r}_native.h" for r in roots]
    # A source includes the headers of its own operators, never an aggregate (nor the
    # static entry points of a whole key).
    aggregates = {"Functions.h", "NativeFunctions.h", "CPUFunctions.h", "MetaFunctions.h"}
    for name, text in written.items():
        if name.endswith(".cpp"):
            assert not aggregates & set(includes(text)), name
    cpu = {n: written[f"aten/{n}"] for n in ("RegisterCPU_0.cpp", "RegisterCPU_1.cpp")}
    shard = next(n for n, text in cpu.items() if '"add.Tensor"' in text)
    assert {"ops/add.h", "ops/add_native.h"} <= set(includes(cpu[shard]))
    other = (set(cpu) - {shard}).pop()
    assert "ops/add_native.h" not in includes(cpu[other])


def test_headers_go_to_folders_by_root_name(tmp_path):
    written = sharded(tmp_path, ATEN_YAML)
    assert f"ops/{folder('add')}/aten/ops/add_native.h" in written
    assert f"ops/{folder('relu')}/aten/ops/relu.h" in written
    # Every folder is made, empty or not: Bazel declares them all.
    assert len([d for d in (tmp_path / "ops").iterdir() if d.is_dir()]) == SHARDS


def test_a_new_operator_changes_one_folder_and_one_shard_of_each_family(tmp_path):
    before = sharded(tmp_path / "before", ATEN_YAML)
    after = sharded(tmp_path / "after", with_erfc(tmp_path))
    erfc = f"ops/{folder('erfc')}/aten/ops/erfc"
    assert set(after) - set(before) == {f"{erfc}.h", f"{erfc}_native.h", f"{erfc}_meta.h"}
    changed = {n for n in before if before[n] != after[n]}
    # The aggregates change (and the static entry points' headers, one per key, which
    # only statically dispatched sources include); of the sharded sources, one shard of
    # each family erfc is in (its CPU and Meta wrappers, the Common path of its functional
    # variant, its dispatcher API, boxed kernels and schemas).
    numbered = {n for n in changed if re.search(r"_\d\.cpp$", n)}
    assert changed - numbered == {
        "aten/Functions.h", "aten/NativeFunctions.h", "aten/NativeMetaFunctions.h",
        "aten/CPUFunctions.h", "aten/MetaFunctions.h",
    }  # fmt: skip
    families = {re.sub(r"_\d\.cpp$", "", n) for n in numbered}
    assert len(numbered) == len(families)  # one shard each
    assert {"aten/RegisterCPU", "aten/RegisterMeta", "aten/Operators"} <= families
    # Sources include only from the folders of their operators: none of the unchanged
    # ones from erfc's folder.
    for name in set(before) - changed:
        if name.endswith(".cpp"):
            assert not any(i.startswith("ops/erfc") for i in includes(after[name])), name
