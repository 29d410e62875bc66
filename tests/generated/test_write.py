"""Writing a library: the same bytes from one or several rendering workers, and never
half a library when rendering fails."""

import os
import pathlib

import pytest

from codegen.dest import files, render, write
from codegen.dest.library import build_library
from codegen.frontend import load_native_yaml

YAML = (
    pathlib.Path(os.path.abspath(__file__)).parents[1]
    / "schema"
    / "testdata"
    / "native_functions.yaml"
)
BACKENDS = ("CPU", "CUDA")


def renderer():
    parsed = load_native_yaml(str(YAML))
    assert not parsed.diagnostics.has_errors()
    lib = build_library("rep::ops", BACKENDS, parsed.functions, parsed.groups, 2)
    return render.Renderer(
        lib, {"source": "rep.yaml", "namespace": "rep::ops", "include_prefix": "rep"}
    )


def contents(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_one_or_several_workers_write_the_same_bytes(tmp_path):
    outputs = files.output_files(BACKENDS, 2)
    write.write_library(renderer(), outputs, str(tmp_path / "one"), jobs=1)
    write.write_library(renderer(), outputs, str(tmp_path / "three"), jobs=3)
    one = contents(tmp_path / "one")
    assert sorted(one) == sorted(o.name for o in outputs)
    assert one == contents(tmp_path / "three")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failure_leaves_no_file_behind(tmp_path, monkeypatch, jobs):
    r = renderer()
    real = r.render

    def failing(o):
        if o.name == "RegisterCPU_1.cpp":
            raise ValueError("boom")
        return real(o)

    monkeypatch.setattr(r, "render", failing)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("the user's")  # never touched
    with pytest.raises((ValueError, RuntimeError)):
        write.write_library(r, files.output_files(BACKENDS, 2), str(tmp_path / "out"), jobs=jobs)
    assert contents(tmp_path / "out") == {"mine.txt": b"the user's"}
