"""The generator as a user meets it: what it writes, how it fails."""

import os
import pathlib
import subprocess
import sys

import pytest
import yaml

from codegen import generate

HERE = pathlib.Path(os.path.abspath(__file__)).parent  # not resolve(): stay in the runfiles
DEMO_YAML = HERE / "testdata" / "demo_ops.yaml"
BAZEL_OUTPUT = HERE / "demo_ops"  # the files Bazel's generator action wrote (runfiles)
OUTPUTS = ("Operators.h", "Operators.cpp")


def run_generator(tmp_path, yaml_text, namespace="demo::ops", outputs=OUTPUTS):
    """Runs the generator as Bazel does (a separate process); returns the result."""
    source = tmp_path / "ops.yaml"
    source.write_text(yaml_text)
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(generate.__file__).parents[1]))
    return subprocess.run(
        [sys.executable, "-m", "codegen.generate", "--yaml", source.name,
         "--namespace", namespace, *(str(tmp_path / o) for o in outputs)],
        capture_output=True, text=True, env=env, cwd=tmp_path)


def test_every_schema_of_the_yaml_is_in_the_generated_table(tmp_path):
    result = run_generator(tmp_path, DEMO_YAML.read_text())
    assert result.returncode == 0, result.stderr
    cpp = (tmp_path / "Operators.cpp").read_text()
    schemas = [entry["func"] for entry in yaml.safe_load(DEMO_YAML.read_text())]
    assert len(schemas) == 5
    for schema in schemas:
        assert f'"{schema}"' in cpp
    assert "inline constexpr std::size_t kNumOperators = 5;" in (tmp_path / "Operators.h").read_text()


@pytest.mark.skipif(not BAZEL_OUTPUT.is_dir(), reason="needs the files of the Bazel action (bazel test)")
def test_bazel_action_output_is_byte_identical_to_a_fresh_run(tmp_path):
    # Another process, another directory, another python: the same bytes.
    result = run_generator(tmp_path, DEMO_YAML.read_text())
    assert result.returncode == 0, result.stderr
    for name in OUTPUTS:
        ours = (tmp_path / name).read_bytes().replace(b"from ops.yaml", b"from SOURCE")
        bazels = (BAZEL_OUTPUT / name).read_bytes().replace(
            b"from tests/foundation/testdata/demo_ops.yaml", b"from SOURCE")
        assert ours == bazels, name


@pytest.mark.skipif(not BAZEL_OUTPUT.is_dir(), reason="needs the files of the Bazel action (bazel test)")
def test_generated_files_hold_no_absolute_paths():
    for name in OUTPUTS:
        text = (BAZEL_OUTPUT / name).read_text()
        assert "/root/" not in text and "/home/" not in text and "/tmp/" not in text
        assert "tests/foundation/testdata/demo_ops.yaml" in text


def test_all_mistakes_are_reported_at_once_with_file_line_and_hint(tmp_path):
    result = run_generator(tmp_path, "\n".join([
        "- func: relu(Tensor self) -> Tensor",
        "- func: relu(Tensor self) -> Tensor",
        "- variants: function",
        "- func: broken(Tensor self)",
        "",
    ]))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert "ops.yaml:2:9: error: `relu` is declared twice (first at line 1)" in lines
    assert "ops.yaml:3:3: error: an entry without `func:`" in lines
    assert "ops.yaml:4:9: error: not a schema: 'broken(Tensor self)'" in lines
    assert sum(line.startswith("  hint: ") for line in lines) == 3
    assert not (tmp_path / "Operators.h").exists()


def test_yaml_syntax_error_names_the_line(tmp_path):
    result = run_generator(tmp_path, "- func: relu(Tensor self) -> Tensor\n  dispatch: [CPU\n")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("ops.yaml:3:1: error: invalid YAML")


def test_missing_yaml_is_a_clear_error(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "codegen.generate", "--yaml", "nope.yaml", "--namespace", "x",
         str(tmp_path / "Operators.h")],
        capture_output=True, text=True, cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(pathlib.Path(generate.__file__).parents[1])))
    assert result.returncode == 1
    assert result.stderr.startswith("nope.yaml:1:1: error: cannot read the file")


def test_unknown_output_name_is_refused(tmp_path):
    result = run_generator(tmp_path, DEMO_YAML.read_text(), outputs=("Operators.h", "Bogus.cpp"))
    assert result.returncode == 2
    assert "unknown output file name(s) Bogus.cpp" in result.stderr
