"""The generator as Bazel's actions run it (codegen/action_main.py under `python3 -S -E`):
it imports the pinned pyyaml, MarkupSafe and Jinja2 of MODULE.bazel and nothing of the
machine's site-packages or PYTHONPATH."""

import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(os.path.abspath(__file__)).parent
RUNFILES_MAIN = HERE.parents[1]  # the main repository in the runfiles
MAIN = RUNFILES_MAIN / "codegen" / "action_main.py"
DEMO_YAML = HERE / "testdata" / "demo_ops.yaml"
PINNED = {"pyyaml": "6.0.3", "markupsafe": "3.0.3", "jinja2": "3.1.6"}  # MODULE.bazel


def wheel_root(name: str) -> str:
    """The runfiles directory of the `pypi_<name>` repository (its canonical name ends so)."""
    found = [p for p in RUNFILES_MAIN.parent.iterdir() if p.name.endswith(f"pypi_{name}")]
    assert len(found) == 1, (
        f"pypi_{name} in {sorted(p.name for p in RUNFILES_MAIN.parent.iterdir())}"
    )
    return str(found[0])


ROOTS = [str(RUNFILES_MAIN)] + [wheel_root(n) for n in PINNED]


def action(roots, *args, env=None):
    return subprocess.run(
        [sys.executable, "-S", "-E", "-B", str(MAIN), *roots, "--", *args],
        capture_output=True,
        text=True,
        env=env,
    )


def test_the_pinned_versions_are_what_the_action_imports():
    code = (
        "import sys; sys.path[0:0] = sys.argv[1:]; import yaml, markupsafe, jinja2; "
        "print(yaml.__version__, markupsafe.__version__, jinja2.__version__)"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-E", "-c", code, *ROOTS], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == list(PINNED.values())


def test_the_generator_runs_on_them_and_ignores_pythonpath(tmp_path):
    # Modules that fail on import, where PYTHONPATH points: -E keeps them out.
    (tmp_path / "yaml.py").write_text("raise ImportError('the host pyyaml was imported')\n")
    (tmp_path / "jinja2.py").write_text("raise ImportError('the host jinja2 was imported')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = action(ROOTS, "check", str(DEMO_YAML), env=env)
    assert result.returncode == 0, result.stderr
    assert "ok: 4 functions" in result.stdout


def test_without_the_pinned_wheels_nothing_else_provides_them():
    # The machine has pyyaml in its site-packages (the tests' own imports use it); the
    # action does not see it.
    import yaml  # noqa: F401  (present here, outside the action)

    result = action(ROOTS[:1], "check", str(DEMO_YAML))
    assert result.returncode != 0
    assert "No module named 'yaml'" in result.stderr
