"""docs/rules.md is what tools/docs/rules_doc.py writes from the rules' own docs, and the
script refuses a public macro, rule or provider with an undocumented argument."""

import os
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(os.path.abspath(__file__)).parent
RUNFILES = HERE.parents[1]
SCRIPT = RUNFILES / "tools" / "docs" / "rules_doc.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def copy_of_the_rules(tmp_path) -> pathlib.Path:
    root = tmp_path / "checkout"
    for part in ("rules", "docs"):
        shutil.copytree(RUNFILES / part, root / part, ignore=shutil.ignore_patterns("BUILD*"))
    return root


def test_the_checked_in_page_is_current():
    result = run("--check", "--root", str(RUNFILES))
    assert result.returncode == 0, result.stderr


def test_the_page_documents_every_public_name_with_its_arguments():
    page = (RUNFILES / "docs" / "rules.md").read_text()
    for name in (
        "structured_ops_library",
        "lite_runtime_binary",
        "operator_set",
        "selective_ops_aspect",
        "OperatorSetInfo",
        "SelectedOperatorsInfo",
        "StructuredOpsSourcesInfo",
    ):
        assert f"\n## {name}\n" in page
    assert "| `check_kernels` | `True` | fail the build when a declared kernel" in page
    assert "| `selected_operators_yaml` |  | PyTorch's selected_operators.yaml" in page


def test_a_changed_doc_makes_the_page_stale(tmp_path):
    root = copy_of_the_rules(tmp_path)
    library = root / "rules" / "private" / "library.bzl"
    library.write_text(
        library.read_text().replace(
            "label of the native_functions.yaml.", "label of the yaml that declares the operators."
        )
    )
    result = run("--check", "--root", str(root))
    assert result.returncode == 1
    assert result.stderr == (
        "rules_doc: docs/rules.md is not up to date with the docs of rules/defs.bzl's "
        "definitions\n  hint: run `python3 tools/docs/rules_doc.py` and commit the result\n"
    )
    assert run("--root", str(root)).returncode == 0  # rewrites it
    assert (
        "| `yaml` |  | label of the yaml that declares the operators. |"
        in (root / "docs" / "rules.md").read_text()
    )


def test_an_undocumented_argument_or_attribute_is_an_error(tmp_path):
    root = copy_of_the_rules(tmp_path)
    library = root / "rules" / "private" / "library.bzl"
    text = library.read_text()
    library.write_text(
        text.replace("      shards: registration files per family of dispatch keys.\n", "")
    )
    result = run("--root", str(root))
    assert result.returncode == 1
    assert result.stderr.startswith("rules_doc: error: rules/private/library.bzl:")
    assert "the Args of `structured_ops_library` miss shards" in result.stderr

    library.write_text(text)
    operator_set = root / "rules" / "private" / "operator_set.bzl"
    operator_set.write_text(
        operator_set.read_text().replace(
            '            doc = "More operator_sets whose operators this one includes.",\n', ""
        )
    )
    result = run("--root", str(root))
    assert result.returncode == 1
    assert "attribute `deps` of `operator_set` has no doc" in result.stderr
