"""Hostile yaml for the fuzz test: mutations of any yaml text (the edits a person or a
bad merge makes), and deterministic files at the limits: deep nesting, huge files,
many near-miss names, large tags files. Valid files come from strategies.py."""

from __future__ import annotations

import re

from hypothesis import strategies as st

# --- Mutations of any yaml text. ---

CHARS = list("()[]{},:*?!=->|'\"#&*%@` \t\n.\\_aZ09") + [
    "\u00e9",
    "\ufeff",
    "\x00",
    "\r",
    "- ",
    ": ",
    "  ",
]
WORDS = (
    "func",
    "dispatch",
    "structured",
    "structured_delegate",
    "structured_inherits",
    "precomputed",
    "autogen",
    "variants",
    "tags",
    "device_guard",
    "device_check",
    "manual_kernel_registration",
    "manual_cpp_binding",
    "python_module",
    "cpp_no_default_args",
    "category_override",
    "ufunc_inner_loop",
    "use_const_ref_for_mutable_tensors",
    "Tensor",
    "Tensor(a!)",
    "Tensor?",
    "int[]",
    "Scalar",
    "SymInt",
    "CPU",
    "CUDA",
    "Meta",
    "CompositeExplicitAutograd",
    "CompositeImplicitAutograd",
    "True",
    "False",
    "None",
    "method",
    "function",
    "out",
    "self",
    "*",
    "->",
    "GraphModule",
    "__torch__.torch.classes.ns.K",
    "Generator?",
    "Device",
    '"cuda:x"',
    "inplace_view",
    "core",
)
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\S")


def near_miss(draw, word: str) -> str:
    """`word` one edit away: a dropped, doubled, swapped or changed character."""
    if not word:
        return "x"
    i = draw(st.integers(0, len(word) - 1))
    how = draw(st.integers(0, 3))
    if how == 0:
        return word[:i] + word[i + 1 :]
    if how == 1:
        return word[:i] + word[i] + word[i:]
    if how == 2 and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[:i] + draw(st.sampled_from("aeiouxyz_0")) + word[i + 1 :]


@st.composite
def mutation(draw, text: str) -> str:
    """`text` with one to three edits of the kinds a person (or a bad merge) makes."""
    for _ in range(draw(st.integers(1, 3))):
        text = _mutate_once(draw, text)
    return text


def _mutate_once(draw, text: str) -> str:
    kind = draw(st.integers(0, 11))
    lines = text.split("\n")
    n = len(text)
    if kind == 0:  # insert a character
        i = draw(st.integers(0, n))
        return text[:i] + draw(st.sampled_from(CHARS)) + text[i:]
    if kind == 1 and n:  # delete a character
        i = draw(st.integers(0, n - 1))
        return text[:i] + text[i + 1 :]
    if kind == 2 and n:  # replace a character
        i = draw(st.integers(0, n - 1))
        return text[:i] + draw(st.sampled_from(CHARS)) + text[i + 1 :]
    tokens = [m for m in _TOKEN.finditer(text)]
    if kind == 3 and len(tokens) > 1:  # swap two tokens
        a, b = sorted(
            draw(st.lists(st.integers(0, len(tokens) - 1), min_size=2, max_size=2, unique=True))
        )
        ta, tb = tokens[a], tokens[b]
        return (
            text[: ta.start()]
            + tb.group()
            + text[ta.end() : tb.start()]
            + ta.group()
            + text[tb.end() :]
        )
    if kind == 4 and tokens:  # a near-miss name
        t = draw(st.sampled_from(tokens))
        return text[: t.start()] + near_miss(draw, t.group()) + text[t.end() :]
    if kind == 5 and tokens:  # a word of the language where another was
        t = draw(st.sampled_from(tokens))
        return text[: t.start()] + draw(st.sampled_from(WORDS)) + text[t.end() :]
    if kind == 6 and lines:  # delete a line (a key, with its value when it is one line)
        i = draw(st.integers(0, len(lines) - 1))
        return "\n".join(lines[:i] + lines[i + 1 :])
    if kind == 7 and lines:  # duplicate a line (e.g. a key)
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines)))
        return "\n".join(lines[:j] + [lines[i]] + lines[j:])
    if kind == 8 and lines:  # wrong indentation
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        new = draw(st.sampled_from(["", " ", "   ", "\t", "    "])) + line.lstrip(" ")
        return "\n".join(lines[:i] + [new] + lines[i + 1 :])
    if kind == 9 and len(lines) > 1:  # swap two lines
        i, j = draw(st.lists(st.integers(0, len(lines) - 1), min_size=2, max_size=2, unique=True))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == 10 and n:  # truncate
        return text[: draw(st.integers(0, n - 1))]
    # copy an entry-level key line of one entry into another entry (duplicated or misplaced keys)
    keyed = [i for i, line in enumerate(lines) if re.match(r"  [a-z_]+:", line)]
    if keyed:
        i = draw(st.sampled_from(keyed))
        j = draw(st.integers(0, len(lines)))
        return "\n".join(lines[:j] + [lines[i]] + lines[j:])
    return text + draw(st.sampled_from(CHARS))


# --- Deterministic files: deep nesting, huge files, many near-miss names. ---

# Ways to nest lists and mappings `depth` levels deep, as the value of an entry's key.
DEEP_NESTINGS = {
    "flow_lists": lambda d: "- func: f(Tensor self) -> Tensor\n  tags: " + "[" * d + "\n",
    "closed_flow_lists": lambda d: (
        "- func: f(Tensor self) -> Tensor\n  tags: " + "[" * d + "]" * d + "\n"
    ),
    "flow_mappings": lambda d: "- func: f(Tensor self) -> Tensor\n  dispatch: " + "{a: " * d + "\n",
    "one_pair_mappings": lambda d: (
        "- func: f(Tensor self) -> Tensor\n  tags: [" + "a: [" * d + "\n"
    ),
    "compact_sequences": lambda d: "- " * d + "x\n",
    "complex_keys": lambda d: "? " * d + "x\n",
    "indented_mappings": lambda d: (
        "- func: f(Tensor self) -> Tensor\n  dispatch:\n"
        + "".join(" " * (4 + i) + f"k{i}:\n" for i in range(d))
    ),
    "indented_sequences": lambda d: (
        "- func: f(Tensor self) -> Tensor\n  tags:\n"
        + "".join(" " * (4 + 2 * i) + "-\n" for i in range(d))
    ),
    "crlf_mappings": lambda d: (
        "- func: f(Tensor self) -> Tensor\r\n  dispatch:\r\n"
        + "".join(" " * (4 + i) + f"k{i}:\r\n" for i in range(d))
    ),
}

_BLOCK = """\
- func: hop{i}.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: hop{i}.out
  variants: function, method
  tags: [core, pointwise]

- func: hop{i}_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  structured_delegate: hop{i}.out
  variants: method

- func: hop{i}.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  dispatch:
    CPU, CUDA: hop{i}_out

- func: fill{i}_(Tensor(a!) self, Scalar value) -> Tensor(a!)
  variants: function, method
  dispatch: {{CPU: fill{i}_cpu_, CUDA: my::fill{i}_cuda_}}
  autogen: fill{i}, fill{i}.out

- func: fac{i}(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
  dispatch:
    CompositeExplicitAutograd: fac{i}

- func: red{i}.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  dispatch:
    CPU: red{i}_dim
  tags: reduction

- func: red{i}.dim_out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)
  dispatch:
    CPU: red{i}_dim_out

- func: rnd{i}(Tensor self, *, Generator? generator=None) -> Tensor
  tags: nondeterministic_seeded
  dispatch:
    CPU: rnd{i}
"""


def huge_file(blocks: int) -> str:
    """A valid file of `blocks` copies of 8 entries of every kind (2000 blocks: ~2.5 MB)."""
    return "".join(_BLOCK.format(i=i) + "\n" for i in range(blocks))


# Files with one near-miss name per entry, of each kind `check` suggests a name for.
NEAR_MISSES = {
    "delegates": lambda i: (
        f"- func: opname{i}(Tensor self) -> Tensor\n  structured_delegate: opnmae{i}.out\n"
    ),
    "delegate_bases": lambda i: (
        f"- func: opname{i}(Tensor self) -> Tensor\n  structured_delegate: q{i}pname.out\n"
    ),
    "tags": lambda i: f"- func: op{i}(Tensor self) -> Tensor\n  tags: [cor{i}, pointwsie]\n",
    "autogen": lambda i: (
        f"- func: op{i}_(Tensor(a!) self) -> Tensor(a!)\n  autogen: op{i}.outt, op{i + 1}.out\n"
        f"  dispatch:\n    CPU: op{i}_\n"
    ),
    "duplicate_overloads": lambda i: f"- func: op.x(Tensor self, int a{i}) -> Tensor\n",
    "overloads": lambda i: (
        f"- func: op.o{i}(Tensor self, int a) -> Tensor\n  dispatch:\n    CPU: k{i}\n"
    ),
    "keys": lambda i: (
        f"- func: op{i}(Tensor self) -> Tensor\n  dispatc{i}: x\n  dispatch:\n    CPUU{i}: k\n"
    ),
    "types": lambda i: f"- func: op{i}(Tensr self, int{i} x) -> Tensro\n",
    "out_only": lambda i: (
        f"- func: op{i}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        f"  dispatch:\n    CPU: op{i}_out\n"
    ),
}


def near_miss_file(kind: str, entries: int) -> str:
    return "".join(NEAR_MISSES[kind](i) for i in range(entries))


def big_tags_file(tags: int) -> str:
    return "".join(f"- tag: tag{i}\n  desc: Tag {i}.\n" for i in range(tags))
