"""Compares a rerun of a golden file with the checked-in one as the C++ tests read them.

`make_golden.py --check` uses it. PyTorch's results of inexact math (exp, erf, tanh,
softmax's and the norms' sums, ...) depend on the CPU it runs on: ATen picks its vectorized
kernels by CPU capability (AVX-512, AVX2 or none) and oneDNN (float32 gelu) by its own
instruction set, and they round or sum differently. So a rerun elsewhere may move such
values in their last bits. What a file promises is what `tests/ops/op_test_util.cc`'s
`matches` checks, so a rerun's expected values are held to the same rules, with the
checked-in value as the expected one:

- a case with a `tol <rtol> <atol>` line: a finite floating value may move by
  atol + rtol * |expected|;
- a case whose id ends in `_randn`: a finite floating value may move by
  rtol * (1 + |expected|), rtol 1e-12 for float64 and 1e-5 for the other floating dtypes;
- NaN, inf and -inf, integers and bools, and every value of the other cases (exact by
  construction) must be the same: -0.0 is not 0.0, NaN equals NaN.

Everything else must be the same text: the header (its `family` lines, the facts of the
family's FamilyInfo entry, included), the cases and their order and ids, the
arguments (inputs are written exactly: seeded integer draws, and for `_randn` cases float64
normal draws, which came out the same with every CPU capability tried), `tol` lines,
dtypes, sizes, strides, offsets, error substrings and PyTorch's `# torch:` messages.

Text only, no torch: its test (tests/tools/test_golden_compare.py) runs with any python3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

FLOATING = {"float32", "float64", "float16", "bfloat16"}
RANDN_SUFFIX = "_randn"
# A case's problems beyond this many are counted, not listed.
MAX_PROBLEMS_PER_CASE = 3


def randn_rtol(dtype: str) -> float:
    """The tolerance of a `_randn` case's values (op_test_util.cc's `matches`)."""
    return 1e-12 if dtype == "float64" else 1e-5


def same_double(a: float, b: float) -> bool:
    """Bit for bit as the C++ comparison reads it: NaN equals NaN, -0.0 is not 0.0."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@dataclass(frozen=True)
class Rule:
    """How one case's floating results are compared (the C++ test's rules for it)."""

    randn: bool = False
    tol: tuple[float, float] | None = None  # (rtol, atol) of the case's `tol` line

    @property
    def exact(self) -> bool:
        return not self.randn and self.tol is None

    def allowed(self, want: float, dtype: str) -> float:
        """How far a finite value may move from `want` (0.0 for an exact case)."""
        limit = 0.0
        if self.randn:
            limit = randn_rtol(dtype) * (1.0 + abs(want))
        if self.tol is not None:
            rtol, atol = self.tol
            limit = max(limit, atol + rtol * abs(want))
        return limit


def value_ok(want: float, got: float, dtype: str, rule: Rule) -> bool:
    """Whether a rerun's floating result `got` passes for the checked-in `want`."""
    if same_double(want, got):
        return True
    if rule.exact or not (math.isfinite(want) and math.isfinite(got)):
        return False
    return abs(got - want) <= rule.allowed(want, dtype)


@dataclass
class Moved:
    """The values of one case that moved within its tolerance."""

    count: int = 0
    largest: float = 0.0  # the largest |got - want|
    share: float = 0.0  # the largest |got - want| / allowed

    def add(self, diff: float, allowed: float) -> None:
        self.count += 1
        self.largest = max(self.largest, diff)
        self.share = max(self.share, diff / allowed if allowed > 0 else math.inf)

    def __str__(self) -> str:
        n = f"{self.count} value{'s' if self.count != 1 else ''}"
        return (
            f"{n} moved, by at most {self.largest:.3g} ({100 * self.share:.2g}% of the tolerance)"
        )


@dataclass
class Comparison:
    """The outcome for one file: `problems` fail the check; `moved` (case -> Moved)
    passed within the tolerances."""

    name: str
    problems: list[str] = field(default_factory=list)
    moved: dict[str, Moved] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def identical(self) -> bool:
        return not self.problems and not self.moved


@dataclass
class _Case:
    key: str  # "<op> <id>", or "(header)" for the lines before the first case
    lines: list[str]
    rule: Rule


def _split(text: str) -> list[_Case]:
    """The text as its header and its cases (each from `case` up to the next one)."""
    cases = [_Case("(header)", [], Rule())]
    for line in text.split("\n"):
        if line.startswith("case "):
            words = line.split(" ")
            key = " ".join(words[1:3])
            cases.append(_Case(key, [], Rule(randn=key.endswith(RANDN_SUFFIX))))
        elif line.startswith("tol "):
            words = line.split(" ")
            try:
                tol = (float(words[1]), float(words[2]))
            except (IndexError, ValueError):
                tol = None  # malformed: the line is compared as text only
            if tol is not None:
                cases[-1].rule = Rule(randn=cases[-1].rule.randn, tol=tol)
        cases[-1].lines.append(line)
    return cases


def _values_at(words: list[str]) -> tuple[str, int, bool] | None:
    """(dtype, index of the first value, is an expectation) of a line that lists the
    values of a tensor, else None.

    Lines: `arg <name> tensor <dtype> ... storage <m> v..`, `tensor <dtype> ... storage`
    (an element of `arg <name> tensors <k>`), `expect tensor|view <dtype> ... values <n>
    v..`, and `tensor|view <dtype> ... values <n> v..` (an element of `expect list|tuple`).
    """
    if len(words) > 3 and words[0] == "arg" and words[2] == "tensor":
        dtype, keyword = words[3], "storage"
    elif len(words) > 2 and words[0] == "expect" and words[1] in ("tensor", "view"):
        dtype, keyword = words[2], "values"
    elif len(words) > 1 and words[0] in ("tensor", "view"):
        dtype, keyword = words[1], "storage" if "storage" in words else "values"
    else:
        return None
    if keyword not in words:
        return None
    at = words.index(keyword) + 2  # past the keyword and the count
    if at > len(words) or words[at - 1] == "any":
        return None
    return dtype, at, keyword == "values"


def _difference(want: list[str], got: list[str]) -> str:
    """Where two lines' words first differ, with a few words around it."""
    k = 0
    while k < min(len(want), len(got)) and want[k] == got[k]:
        k += 1
    lo = max(0, k - 3)

    def part(words: list[str]) -> str:
        text = " ".join(words[lo : k + 4])
        return ("... " if lo else "") + text + (" ..." if k + 4 < len(words) else "")

    return f"{part(want)!r} is now {part(got)!r}"


def _compare_line(
    where: str, want: str, got: str, rule: Rule, moved: Moved, problems: list[str]
) -> None:
    ww, gw = want.split(" "), got.split(" ")
    at = _values_at(ww)
    if at is None or _values_at(gw) != at or ww[: at[1]] != gw[: at[1]] or len(ww) != len(gw):
        problems.append(f"{where}: {_difference(ww, gw)}")
        return
    dtype, first, is_expect = at
    # Inputs are written exactly; only results of an inexact case may move.
    case_rule = rule if is_expect and dtype in FLOATING else Rule()
    kind = "value" if is_expect else "storage element"
    for k in range(first, len(ww)):
        if ww[k] == gw[k]:
            continue
        i = k - first
        if dtype not in FLOATING:
            problems.append(f"{where}: {kind} {i} is {gw[k]}, was {ww[k]} (integers are exact)")
            continue
        try:
            w, g = float(ww[k]), float(gw[k])
        except ValueError:
            problems.append(f"{where}: {kind} {i} is {gw[k]!r}, was {ww[k]!r}")
            continue
        if value_ok(w, g, dtype, case_rule):
            if not same_double(w, g):
                moved.add(abs(g - w), case_rule.allowed(w, dtype))
            continue
        if case_rule.exact:
            how = "an exact case" if is_expect else "inputs are exact"
        else:
            how = f"tolerance {case_rule.allowed(w, dtype):.3g}"
            if math.isfinite(w) and math.isfinite(g):
                how = f"moved by {abs(g - w):.3g}, {how}"
        problems.append(f"{where}: {kind} {i} is {gw[k]}, was {ww[k]} ({how})")


def compare(name: str, want_text: str, got_text: str) -> Comparison:
    """The checked-in text `want_text` of file `name` against a rerun's `got_text`."""
    result = Comparison(name)
    want_cases, got_cases = _split(want_text), _split(got_text)
    want_keys = [c.key for c in want_cases]
    got_keys = [c.key for c in got_cases]
    if want_keys != got_keys:
        gone = [k for k in want_keys if k not in got_keys]
        new = [k for k in got_keys if k not in want_keys]
        if gone:
            result.problems.append(f"{name}: cases gone from the rerun: {', '.join(gone)}")
        if new:
            result.problems.append(f"{name}: cases new in the rerun: {', '.join(new)}")
        if not gone and not new:
            result.problems.append(f"{name}: the cases are in another order (or repeated)")
        return result
    for wc, gc in zip(want_cases, got_cases):
        where = f"{name}: {wc.key}"
        problems: list[str] = []
        moved = Moved()
        if len(wc.lines) != len(gc.lines):
            problems.append(f"{where}: {len(gc.lines)} lines, were {len(wc.lines)}")
        else:
            for w, g in zip(wc.lines, gc.lines):
                if w != g:
                    _compare_line(where, w, g, wc.rule, moved, problems)
        if len(problems) > MAX_PROBLEMS_PER_CASE:
            more = len(problems) - MAX_PROBLEMS_PER_CASE
            problems = problems[:MAX_PROBLEMS_PER_CASE] + [f"{where}: and {more} more"]
        result.problems.extend(problems)
        if moved.count:
            result.moved[wc.key] = moved
    return result
