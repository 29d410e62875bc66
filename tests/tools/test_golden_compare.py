"""make_golden.py --check's comparison (tools/golden/golden_compare.py): a rerun passes when
its values are within the C++ tests' tolerances of the checked-in ones, and fails naming
the file and the case when a value moves beyond them or anything else changes.

Runs on the checked-in data files with any python3 (no torch): each test edits a copy of
a file's text the way a rerun on another CPU (or a real change) would.
"""

import math
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(os.path.abspath(__file__)).parent
RUNFILES = HERE.parents[1]
DATA = RUNFILES / "tests" / "golden" / "data"
sys.path.insert(0, str(RUNFILES / "tools" / "golden"))

from golden_compare import compare  # noqa: E402

FILES = sorted(p.name for p in DATA.glob("*.golden"))
FLOATING = {"float32", "float64", "float16", "bfloat16"}


def text_of(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def edit_values(text: str, change, only=None) -> str:
    """The text with change(value, case) applied to every floating expected value (of the
    case `only`, "<op> <id>", when given); case is (key, randn, tol, dtype)."""
    out, key, tol = [], None, None
    for line in text.split("\n"):
        words = line.split(" ")
        if words[0] == "case":
            key, tol = " ".join(words[1:3]), None
        elif words[0] == "tol":
            tol = (float(words[1]), float(words[2]))
        elif "values" in words and words[0] in ("expect", "tensor", "view") and key is not None:
            dtype = words[2] if words[0] == "expect" else words[1]
            at = words.index("values") + 2
            if dtype in FLOATING and words[at - 1] != "any" and only in (None, key):
                case = (key, key.endswith("_randn"), tol, dtype)
                words[at:] = [change(float(v), case) for v in words[at:]]
                line = " ".join(words)
        out.append(line)
    return "\n".join(out)


def allowed(want: float, case) -> float:
    """What the C++ test allows (op_test_util.cc's `matches`)."""
    _, randn, tol, dtype = case
    limit = 0.0
    if randn:
        limit = (1e-12 if dtype == "float64" else 1e-5) * (1 + abs(want))
    if tol:
        limit = max(limit, tol[1] + tol[0] * abs(want))
    return limit


def moved_by(share: float):
    """A change that moves each finite value of an inexact case by `share` of its
    tolerance, leaving exact cases alone."""

    def change(v, case):
        limit = allowed(v, case)
        return repr(v + share * limit) if math.isfinite(v) and limit > 0 else repr(v)

    return change


def test_every_checked_in_file_matches_itself():
    assert len(FILES) >= 69
    for name in FILES:
        result = compare(name, text_of(name), text_of(name))
        assert result.identical, result.problems


@pytest.mark.parametrize("name", FILES)
def test_values_within_the_tolerances_pass_and_beyond_them_fail(name):
    text = text_of(name)
    within = compare(name, text, edit_values(text, moved_by(0.5)))
    assert within.ok, within.problems[:5]
    beyond = edit_values(text, moved_by(2.0))
    if beyond == text:
        return  # every case of the file is exact
    result = compare(name, text, beyond)
    assert set(within.moved) == {p.split(": ")[1] for p in result.problems if "more" not in p}
    assert all(m.share <= 0.6 for m in within.moved.values())


def test_a_gelu_value_moved_within_its_tol_passes_and_names_the_case():
    text = text_of("gelu.golden")
    rerun = edit_values(text, moved_by(0.5), only="gelu float32")
    result = compare("gelu.golden", text, rerun)
    assert result.ok and not result.identical
    assert list(result.moved) == ["gelu float32"]
    assert result.moved["gelu float32"].count == 6
    assert "6 values moved, by at most" in str(result.moved["gelu float32"])
    assert "(50% of the tolerance)" in str(result.moved["gelu float32"])


def test_a_gelu_value_moved_beyond_its_tol_fails_naming_the_case():
    text = text_of("gelu.golden")
    rerun = edit_values(text, moved_by(3.0), only="gelu float32")
    result = compare("gelu.golden", text, rerun)
    assert not result.ok
    assert result.problems[0].startswith("gelu.golden: gelu float32: value 0 is ")
    assert "moved by" in result.problems[0] and "tolerance" in result.problems[0]
    assert result.problems[-1] == "gelu.golden: gelu float32: and 3 more"


def test_a_randn_case_moves_within_rtol_1e_12_of_float64():
    text = text_of("softmax.golden")
    key = "_softmax float64_lastdim_randn"
    assert compare("softmax.golden", text, edit_values(text, moved_by(0.9), only=key)).ok
    result = compare("softmax.golden", text, edit_values(text, moved_by(1.5), only=key))
    assert result.problems and all(
        p.startswith(f"softmax.golden: {key}: ") for p in result.problems
    )


def test_an_exact_case_fails_on_the_last_bit_and_on_the_sign_of_zero():
    text = text_of("add.golden")

    def one_ulp(v, case):
        return (
            repr(math.nextafter(v, math.inf))
            if case[0] == "add.Tensor float32_same_shape"
            else repr(v)
        )

    result = compare("add.golden", text, edit_values(text, one_ulp))
    assert result.problems[0].startswith("add.golden: add.Tensor float32_same_shape: value 0 is ")
    assert result.problems[0].endswith("(an exact case)")

    def negate_zero(v, case):
        return repr(-v) if v == 0 else repr(v)

    rerun = edit_values(text, negate_zero)
    assert rerun != text
    problems = compare("add.golden", text, rerun).problems
    assert problems and all(p.endswith("(an exact case)") for p in problems), problems
    assert " is -0.0, was 0.0 " in problems[0] or " is 0.0, was -0.0 " in problems[0]


def test_nan_and_inf_stay_exact_in_a_tol_case():
    text = text_of("gelu.golden")
    key = "gelu float64_special_values"

    def nan_to_inf(v, case):
        return "inf" if math.isnan(v) else repr(v)

    edited = edit_values(text, nan_to_inf, only=key)
    if edited == text:
        pytest.skip("no nan in " + key)
    assert not compare("gelu.golden", text, edited).ok


def test_integers_inputs_and_structure_are_exact():
    text = text_of("softmax.golden")
    lines = text.split("\n")

    def changed(old: str, new: str, count: int = 1) -> str:
        assert old in text, old
        return text.replace(old, new, count)

    # An input of a `_randn` case (inputs are written exactly).
    storage = next(i for i, ln in enumerate(lines) if "storage" in ln and "e-" in ln)
    words = lines[storage].split(" ")
    k = len(words) - 1
    words[k] = repr(math.nextafter(float(words[k]), math.inf))
    rerun = "\n".join(lines[:storage] + [" ".join(words)] + lines[storage + 1 :])
    problems = compare("softmax.golden", text, rerun).problems
    assert len(problems) == 1 and "storage element" in problems[0], problems
    assert problems[0].endswith("(inputs are exact)")
    # An id, a shape, an error message and PyTorch's full message.
    gone = compare("softmax.golden", text, changed("float32_size1\n", "float32_size_one\n"))
    assert gone.problems == [
        "softmax.golden: cases gone from the rerun: _softmax float32_size1",
        "softmax.golden: cases new in the rerun: _softmax float32_size_one",
    ]
    for old, new in (
        ("arg dim int 1\n", "arg dim int 0\n"),
        ("expect tensor float32 sizes 2 0 3", "expect tensor float32 sizes 2 3 0"),
        ("lastdim_kernel_impl\" not implemented for 'Long'", 'lastdim_kernel_impl"'),
        ("# torch: IndexError: ", "# torch: ValueError: "),
        ("with torch 2.13.0", "with torch 2.13.1"),
    ):
        rerun = changed(old, new)
        assert rerun != text
        problems = compare("softmax.golden", text, rerun).problems
        assert len(problems) == 1 and "is now" in problems[0], (old, problems)
    # The header's family lines (the family's facts) are compared as text.
    for old, new in (
        ("family ops 2 _softmax _log_softmax\n", "family ops 1 _softmax\n"),
        ("family broadcast none\n", "family broadcast any\n"),
    ):
        problems = compare("softmax.golden", text, changed(old, new)).problems
        assert len(problems) == 1 and problems[0].startswith("softmax.golden: (header): "), (
            old,
            problems,
        )
        assert "is now" in problems[0], problems
    problems = compare("softmax.golden", text, changed("family size0 1\n", "")).problems
    assert problems == ["softmax.golden: (header): 7 lines, were 8"], problems
    # Integers (argmax's indices) are exact.
    ints = text_of("argmax.golden")
    line = next(ln for ln in ints.split("\n") if ln.startswith("expect tensor int64 sizes 1 "))
    words = line.split(" ")
    words[-1] = str(int(words[-1]) + 1)
    problems = compare("argmax.golden", ints, ints.replace(line, " ".join(words))).problems
    assert problems and problems[0].endswith("(integers are exact)")
