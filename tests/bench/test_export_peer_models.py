"""bench/peers/export_peer_models.py's command line: what it refuses, and how it says so.

Runs the script as a user would (a subprocess), in this Python, where torch, onnx and
executorch are normally absent: the checks come before anything is imported.
"""

import importlib.util
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "..",
    "..",
    "bench",
    "peers",
    "export_peer_models.py",
)


def run(*args):
    return subprocess.run(
        [sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=60, check=False
    )


def one_error_line(result):
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("export_peer_models.py: error: ")
    return lines[0]


def test_out_dir_inside_the_checkout_is_refused():
    inside = os.path.join(os.path.dirname(SCRIPT), "..", "..", "peer_models")
    line = one_error_line(run(inside, "--formats=sopsm"))
    assert "inside the checkout" in line and "outside" in line
    assert not os.path.exists(inside)


def test_unknown_format(tmp_path):
    line = one_error_line(run(str(tmp_path), "--formats=sopsm,tflite"))
    assert "unknown format(s) tflite" in line and "sopsm,onnx,pte" in line


def test_unknown_model(tmp_path):
    line = one_error_line(run(str(tmp_path), "--only=mlp,alexnet"))
    assert "unknown model(s) alexnet" in line and "mobilenet_v2" in line


@pytest.mark.skipif(
    importlib.util.find_spec("executorch") is not None, reason="executorch is installed"
)
def test_a_named_format_without_its_packages_says_what_to_install(tmp_path):
    line = one_error_line(run(str(tmp_path), "--formats=pte"))
    assert "executorch" in line and "pip install executorch==1.5.1" in line
    assert os.listdir(tmp_path) == []  # nothing written


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed")
def test_no_format_possible_lists_every_install(tmp_path):
    line = one_error_line(run(str(tmp_path)))
    assert "none of the formats" in line
    for needed in ("torch==2.13.0 torchvision", "onnx onnxscript", "executorch==1.5.1"):
        assert needed in line


def test_help_names_the_formats():
    result = run("--help")
    assert result.returncode == 0
    assert "--formats" in result.stdout and "--only" in result.stdout
