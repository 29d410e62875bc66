"""docs/operators.md is what tools/docs/operators_doc.py writes from ops/native_functions.yaml,
and a yaml that gains an operator makes the page stale."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

HERE = pathlib.Path(os.path.abspath(__file__)).parent
RUNFILES = HERE.parents[1]
SCRIPT = RUNFILES / "tools" / "docs" / "operators_doc.py"


def run(root, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
    )


def test_the_checked_in_page_is_current():
    result = run(RUNFILES, "--check")
    assert result.returncode == 0, result.stderr


def test_a_new_operator_makes_the_page_stale_until_it_is_written_again(tmp_path):
    for part in ("ops", "docs"):
        (tmp_path / part).mkdir()
    shutil.copy(RUNFILES / "docs" / "operators.md", tmp_path / "docs" / "operators.md")
    yaml = (RUNFILES / "ops" / "native_functions.yaml").read_text(encoding="utf-8")
    yaml += "\n- func: my_erf(Tensor self) -> Tensor\n  variants: function\n"
    (tmp_path / "ops" / "native_functions.yaml").write_text(yaml, encoding="utf-8")

    stale = run(tmp_path, "--check")
    assert stale.returncode == 1
    assert "docs/operators.md is stale: run `python3 tools/docs/operators_doc.py`" in stale.stderr

    assert run(tmp_path).returncode == 0
    page = (tmp_path / "docs" / "operators.md").read_text(encoding="utf-8")
    assert (
        "| `my_erf` | composite (CompositeImplicitAutograd) | CompositeImplicitAutograd |" in page
    )
    before = (RUNFILES / "docs" / "operators.md").read_text(encoding="utf-8")
    count = int(re.search(r"^(\d+) schemas:", before, re.M).group(1))
    assert page.startswith(f"# The operators of `//ops:aten`\n\n{count + 1} schemas:")
    assert run(tmp_path, "--check").returncode == 0
