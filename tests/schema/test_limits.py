"""The front end at its limits: nesting deeper than a parser's stack, and did-you-mean
among thousands of names, answered in time and without a crash."""

import pytest

from codegen.frontend import load_native_yaml


def diagnose(tmp_path, text):
    path = tmp_path / "native_functions.yaml"
    path.write_text(text)
    return load_native_yaml(str(path)).diagnostics.sorted()


@pytest.mark.parametrize(
    "text",
    [
        "- func: f(Tensor self) -> Tensor\n  tags: " + "[" * 25000 + "\n",
        "- func: f(Tensor self) -> Tensor\n  dispatch: " + "{a: " * 25000 + "\n",
        "- " * 25000 + "x\n",
        "- func: f(Tensor self) -> Tensor\n  dispatch:\n"
        + "".join(" " * (4 + i) + f"k{i}:\n" for i in range(1500)),
    ],
    ids=["flow_lists", "flow_mappings", "compact_sequences", "indentation"],
)
def test_deep_nesting_is_an_error_not_a_crash(tmp_path, text):
    # PyYAML's C composer recurses once per level: 25,000 levels used to overflow the stack.
    (d,) = diagnose(tmp_path, text)
    assert d.message == "the YAML nests lists and mappings more than 1000 levels deep" and d.hint
    assert d.line <= 1002 and d.column >= 1


def test_nesting_a_little_deep_gets_the_usual_errors(tmp_path):
    diags = diagnose(
        tmp_path, "- func: f(Tensor self) -> Tensor\n  tags: " + "[" * 40 + "]" * 40 + "\n"
    )
    assert [d.message for d in diags] == ["`tags` must be a list of strings, not a list"]


def test_did_you_mean_finds_a_name_among_thousands(tmp_path):
    ops = "".join(
        f"- func: op{i}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n"
        f"  dispatch:\n    CPU: op{i}_out\n- func: op{i}(Tensor self) -> Tensor\n"
        f"  structured_delegate: op{i}.out\n"
        for i in range(3000)
    )
    typos = (
        "- func: aaa(Tensor self) -> Tensor\n  structured_delegate: op1234.otu\n"  # same operator
        "- func: bbb(Tensor self) -> Tensor\n  structured_delegate: oq2345.out\n"  # one edit away
        "- func: ccc(Tensor self) -> Tensor\n  structured_delegate: zzzzzz.zzz\n"
    )  # nothing close
    diags = [d for d in diagnose(tmp_path, ops + typos) if "structured_delegate" in d.message]
    assert [d.hint for d in diags] == [
        "did you mean `op1234.out`?",
        "did you mean `op2345.out`?",
        "name the structured out= variant, e.g. `foo.out`",
    ]


def test_did_you_mean_among_many_tags(tmp_path):
    tags = tmp_path / "tags.yaml"
    tags.write_text("".join(f"- tag: tag_number_{i}\n  desc: Tag {i}.\n" for i in range(5000)))
    path = tmp_path / "native_functions.yaml"
    path.write_text(
        "- func: f(Tensor self) -> Tensor\n  tags: [tag_numbre_4321, nothing_like_it]\n"
    )
    diags = load_native_yaml(str(path), str(tags)).diagnostics.sorted()
    assert [d.hint for d in diags] == [
        "did you mean `tag_number_4321`?",
        "valid tags (from tags.yaml): "
        + ", ".join(f"`{t}`" for t in sorted(f"tag_number_{i}" for i in range(5000))[:20])
        + ", ... (4980 more)",
    ]
