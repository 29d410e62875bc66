"""Reserved words, and the few ATen operators grandfathered past a rule.

The exemptions below are the ones PyTorch's own generator makes for the same rules;
they apply to the `aten` namespace only, so any other library gets the full rule.
"""

from __future__ import annotations

import keyword

CPP_KEYWORDS = frozenset(
    """
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast requires return
short signed sizeof static static_assert static_cast struct switch template this thread_local
throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
xor xor_eq
""".split()
)

PYTHON_KEYWORDS = frozenset(keyword.kwlist)

# (operator, argument) pairs of aten that predate the Python-keyword rule.
PYTHON_KEYWORD_EXEMPT = frozenset(
    {
        ("_has_compatible_shallow_copy_type", "from"),
        ("random_.from", "from"),
        ("uniform_", "from"),
    }
)

# aten out= operators whose functional variant exists but cannot be paired with them.
UNPAIRED_OUT_EXEMPT = frozenset(
    {
        "adaptive_avg_pool3d_backward.grad_input",
        "_slow_conv2d_backward.grad_input",
    }
)

# aten functions whose signature torchgen reads with a default they lack, so that they
# group with their variants (torchgen's Note [bernoulli.p schema]).
GROUPED_AS_IF_DEFAULTED = {
    ("bernoulli.p", "p"): "0.5",
}
