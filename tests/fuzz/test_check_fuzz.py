"""`check` keeps the promise on generated, mutated, deep, huge and near-miss yaml.

For every file: exit status 0 or 1, no traceback or internal error, every diagnostic
`PATH:LINE:COL: error|warning: ...` followed by a `  hint:` line, and a time bounded
by a constant plus a term linear in the file's size.  Valid files must be accepted.

Deterministic (derandomize=True, no database) with a fixed number of examples;
tests/fuzz/run_fuzz.py runs the same properties for longer with random seeds.
"""

import os

import harness
import mutations
import pytest
import strategies
from hypothesis import HealthCheck, given, settings


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
    )


REPRESENTATIVE = os.path.join(harness.TESTDATA, "native_functions.yaml")
with open(REPRESENTATIVE, encoding="utf-8") as _f:
    REPRESENTATIVE_TEXT = _f.read()


def check_text(
    tmp_path, text: str, tags: str | None = harness.TAGS, name: str = "native_functions.yaml"
):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    run = harness.check_file(str(path), tags)
    problems = harness.check_problems(str(path), run, tags)
    assert not problems, (
        "\n".join(problems) + "\n--- stderr:\n" + run.stderr[-3000:] + "\n--- file:\n" + text[:3000]
    )
    return run


@fuzz(200)
@given(strategies.valid_files())
def test_valid_files_are_accepted(tmp_path_factory, text):
    run = check_text(tmp_path_factory.mktemp("valid"), text)
    assert run.rc == 0, f"check rejects a valid file:\n{run.stderr}\n--- file:\n{text}"


@fuzz(400)
@given(strategies.valid_files().flatmap(mutations.mutation))
def test_mutated_files_keep_the_promise(tmp_path_factory, text):
    check_text(tmp_path_factory.mktemp("mutated"), text)


@fuzz(400)
@given(mutations.mutation(REPRESENTATIVE_TEXT))
def test_mutated_representative_yaml_keeps_the_promise(tmp_path_factory, text):
    check_text(tmp_path_factory.mktemp("representative"), text)


@fuzz(100)
@given(mutations.mutation(mutations.big_tags_file(3)))
def test_mutated_tags_files_keep_the_promise(tmp_path_factory, tags_text):
    tmp = tmp_path_factory.mktemp("tags")
    tags = tmp / "tags.yaml"
    tags.write_text(tags_text, encoding="utf-8")
    check_text(tmp, "- func: f(Tensor self) -> Tensor\n  tags: tag1\n", str(tags))


@pytest.mark.parametrize("kind", sorted(mutations.DEEP_NESTINGS))
def test_deep_nesting_is_an_error(tmp_path, kind):
    depth = 25000 if "indented" not in kind and "crlf" not in kind else 3000
    run = check_text(tmp_path, mutations.DEEP_NESTINGS[kind](depth))
    assert run.rc == 1


@pytest.mark.parametrize("kind", sorted(mutations.DEEP_NESTINGS))
def test_modest_nesting_is_read(tmp_path, kind):
    # Deeper than a native_functions.yaml nests, still far from the limit: the usual errors.
    run = check_text(tmp_path, mutations.DEEP_NESTINGS[kind](50))
    assert "levels deep" not in run.stderr


def test_huge_file_is_accepted_in_time(tmp_path):
    check_text(tmp_path, mutations.huge_file(600))  # 4800 entries, 0.8 MB


@pytest.mark.parametrize("kind", sorted(mutations.NEAR_MISSES))
def test_many_near_miss_names_in_time(tmp_path, kind):
    # One mistake per entry, each with a `did you mean` to find among thousands of names.
    run = check_text(tmp_path, mutations.near_miss_file(kind, 3000))
    assert run.rc == (0 if kind == "out_only" else 1)


def test_many_near_miss_tags_in_time(tmp_path):
    tags = tmp_path / "tags.yaml"
    tags.write_text(mutations.big_tags_file(5000), encoding="utf-8")
    run = check_text(tmp_path, mutations.near_miss_file("tags", 3000), str(tags))
    assert run.rc == 1


def test_manual_mode_runs(tmp_path):
    import run_fuzz

    out = tmp_path / "findings"
    assert (
        run_fuzz.main(
            [
                "--seconds",
                "2",
                "--seed",
                "1",
                "--out",
                str(out),
                "--compile-every",
                "0",
                "--sources",
                "valid,representative",
            ]
        )
        == 0
    )
    assert not out.exists() or not os.listdir(out)
