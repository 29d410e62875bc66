"""lite/python/export_model.py's command line: one clear line and exit status 1 on failure.

Without torch (the Bazel python) only the "needs torch" case runs, for real; it also
runs with torch installed, by shadowing torch with a package that fails to import. The
other cases need torch and are skipped without it.
"""

import os
import subprocess
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
SCRIPT = os.path.join(ROOT, "lite", "python", "export_model.py")
PREFIX = "export_model.py: error: "
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

from lite_model import parse  # noqa: E402

try:
    import torch  # noqa: E402
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="needs torch (pip install torch==2.13.0)")


def cli(*args, env=None):
    return subprocess.run(
        [sys.executable, SCRIPT, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def one_error_line(run) -> str:
    """The single stderr line of a failed run, checked for the shape every error has."""
    assert run.returncode == 1, (run.returncode, run.stderr)
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PREFIX), run.stderr
    assert "Traceback" not in run.stderr
    return lines[0][len(PREFIX) :]


def test_without_torch_says_how_to_install_it(tmp_path):
    fake = tmp_path / "fake" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no torch here')\n")
    env = dict(os.environ, PYTHONPATH=str(fake.parent))
    line = one_error_line(
        cli(os.path.join(ROOT, "models", "mlp", "model.pt2"), "-o", str(tmp_path / "x"), env=env)
    )
    assert line == "export_model.py needs torch (pip install torch==2.13.0)"
    assert not (tmp_path / "x").exists()


def test_usage_errors_are_argparse_errors():
    run = cli()
    assert (
        run.returncode == 2
        and "usage: export_model.py" in run.stderr
        and "Traceback" not in run.stderr
    )


def test_help_tells_about_dynamic_shapes():
    run = cli("--help")
    assert run.returncode == 0 and "dynamic_shapes=" in run.stdout, run.stdout
    assert "derived" in run.stdout.lower()


@needs_torch
def test_missing_file(tmp_path):
    missing = str(tmp_path / "missing.pt2")
    assert one_error_line(cli(missing, "-o", str(tmp_path / "x"))) == f"{missing}: no such file"
    assert not (tmp_path / "x").exists()


@needs_torch
def test_not_a_pt2(tmp_path):
    junk = tmp_path / "junk.pt2"
    junk.write_text("hello, I am not a zip archive\n")
    line = one_error_line(cli(str(junk), "-o", str(tmp_path / "x")))
    assert line.startswith(f"{junk}: not a readable torch.export archive"), line
    assert (
        one_error_line(cli(str(tmp_path), "-o", str(tmp_path / "x"))) == f"{tmp_path}: not a file"
    )


@needs_torch
def test_unwritable_output(tmp_path):
    line = one_error_line(
        cli(os.path.join(ROOT, "models", "mlp", "model.pt2"), "-o", str(tmp_path / "no" / "x"))
    )
    assert line.startswith(f"{tmp_path / 'no' / 'x'}: cannot write"), line


def _programs():
    """Tiny modules the format cannot express, and the words their error must hold."""

    class Fft(torch.nn.Module):
        def forward(self, x):
            return torch.fft.fft(x).abs()

    class Cond(torch.nn.Module):
        def forward(self, x):
            return torch.cond(x.sum() > 0, lambda x: x + 1, lambda x: x - 1, (x,))

    class Counter(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("count", torch.zeros(1))

        def forward(self, x):
            self.count.add_(1)
            return x + self.count

    class WrittenView(torch.nn.Module):
        """sdpa, transpose(1, 2).contiguous(), then a view written in place: the view
        must stay a view, and the decomposed attention's layout makes it impossible."""

        def forward(self, x):
            q = x.view(2, 4, 4, 8).transpose(1, 2)
            o = torch.nn.functional.scaled_dot_product_attention(q, q, q)
            flat = o.transpose(1, 2).contiguous().reshape(2, 4, 32).view(-1, 32)
            flat.mul_(2)
            return flat + 1

    class Stacked(torch.nn.Module):
        def forward(self, x, y):
            return torch.cat([x, x]) + y

    x = torch.randn(4, 6)
    batch = torch.export.Dim("batch", max=16)
    derived = {"x": {0: batch}, "y": {0: 2 * batch}}
    return {
        "fft": (
            torch.export.export(Fft(), (x,)),
            "node '_fft_r2c' (aten::_fft_r2c): output 0 has dtype complex64",
        ),
        "cond": (
            torch.export.export(Cond(), (x,)),
            "node 'cond' (torch.ops.higher_order.cond): calls",
        ),
        "mutation": (torch.export.export(Counter(), (x,)), "written back to buffer 'count'"),
        "written_view": (
            torch.export.export(WrittenView(), (torch.randn(2, 4, 32),)),
            "(aten::view): run_decompositions() failed: ValueError: Cannot view a tensor",
        ),
        "derived_dim": (
            torch.export.export(Stacked(), (x, torch.randn(8, 6)), dynamic_shapes=derived),
            "node 'y' (user input): dimension 0 is 2*x.0, an expression of other dimensions",
        ),
    }


@pytest.fixture(scope="module")
def unsupported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("unsupported")
    cases = {}
    for name, (ep, words) in _programs().items():
        path = str(folder / f"{name}.pt2")
        torch.export.save(ep, path)
        cases[name] = (path, words)
    return cases


@needs_torch
@pytest.mark.parametrize("name", ["fft", "cond", "mutation", "derived_dim", "written_view"])
def test_unsupported_program(unsupported, name, tmp_path):
    path, words = unsupported[name]
    line = one_error_line(cli(path, "-o", str(tmp_path / "x")))
    assert line.startswith(f"{path}: node '"), line
    assert words in line, line
    assert not (tmp_path / "x").exists()


@needs_torch
@pytest.mark.parametrize(
    "name",
    [
        "mlp",
        "cnn",
        "transformer",
        "bert",
        "llama",
        "vit_swin",
        "convgn",
        "bert_dynamic",
        "llama_dynamic",
    ],
)
def test_converts_the_checked_in_models_byte_for_byte(name, tmp_path):
    folder = os.path.join(ROOT, "models", name)
    with open(os.path.join(folder, "model.sopsm"), "rb") as f:
        checked_in = f.read()
    if dict(parse(checked_in).metadata)["torch_version"] != torch.__version__:
        pytest.skip(f"the checked-in models were written by another torch than {torch.__version__}")
    out = tmp_path / "model.sopsm"
    run = cli(os.path.join(folder, "model.pt2"), "-o", str(out))
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    assert out.read_bytes() == checked_in
