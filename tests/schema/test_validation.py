"""Every validation rule: its message, where it points, and that it comes with a hint.

Each case is a small native_functions.yaml and the complete list of diagnostics it
must produce (line, column, severity, message), so a rule that starts reporting
too much shows up as well as one that reports nothing.
"""

import os
import textwrap

import pytest

from codegen.frontend import load_native_yaml

TAGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "tags.yaml")


def case(name, text, *expected):
    return pytest.param(text, list(expected), id=name)


def diagnose(tmp_path, text):
    path = tmp_path / "native_functions.yaml"
    path.write_text(text)
    return load_native_yaml(str(path), TAGS).diagnostics.sorted()


CASES = [
    case(
        "yaml_syntax",
        """\
- func: f(Tensor self) -> Tensor
  dispatch: [CPU
""",
        (3, 1, "error", "invalid YAML: did not find expected ',' or ']'"),
    ),
    case(
        "unknown_key",
        """\
- func: f(Tensor self) -> Tensor
  structure: True
""",
        (2, 3, "error", "unknown key `structure`"),
    ),
    case(
        "unknown_type",
        """\
- func: f(Tensor self, Scaler alpha) -> Tensor
""",
        (1, 24, "error", "unknown type `Scaler`"),
    ),
    case(
        "invalid_default",
        """\
- func: f(Tensor self, int dim=abc) -> Tensor
""",
        (1, 32, "error", "default `abc` is not valid for type `int` (argument `dim`)"),
    ),
    case(
        "none_default_not_optional",
        """\
- func: f(Tensor self, float eps=None) -> Tensor
""",
        (
            1,
            34,
            "error",
            "default `None` is not valid for the non-optional type `float` (argument `eps`)",
        ),
    ),
    case(
        "list_default_not_list",
        """\
- func: f(Tensor self, int[] dims=0) -> Tensor
""",
        (1, 35, "error", "default `0` is not valid for type `int[]` (argument `dims`)"),
    ),
    case(
        "missing_arrow",
        """\
- func: f(Tensor self) Tensor
""",
        (1, 24, "error", "expected `->` after the argument list, found `T`"),
    ),
    case(
        "unclosed_paren",
        """\
- func: f(Tensor self, int dim -> Tensor
""",
        (1, 10, "error", "unclosed `(`: the argument list has no closing `)`"),
    ),
    case(
        "unclosed_bracket",
        """\
- func: f(Tensor self, int[2 size) -> Tensor
""",
        (1, 27, "error", "unclosed `[` in a list type"),
    ),
    case(
        "duplicate_overload",
        """\
- func: f.a(Tensor self) -> Tensor
- func: f.a(Tensor self, int dim) -> Tensor
""",
        (2, 9, "error", "overload `f.a` is declared twice (first on line 1)"),
    ),
    case(
        "two_empty_overloads",
        """\
- func: f(Tensor self) -> Tensor
- func: f(Tensor self, int dim) -> Tensor
""",
        (
            2,
            9,
            "error",
            "`f` is declared more than once without an overload name (first on line 1)",
        ),
    ),
    case(
        "out_not_keyword_only",
        """\
- func: f.out(Tensor self, Tensor(a!) out) -> Tensor(a!)
""",
        (1, 28, "error", "out argument `out` must be keyword-only"),
    ),
    case(
        "out_without_bang",
        """\
- func: f.out(Tensor self, *, Tensor out) -> Tensor
""",
        (1, 31, "error", "out argument `out` lacks a written alias annotation `(a!)`"),
    ),
    case(
        "out_return_mismatch",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(b!)
""",
        (1, 50, "error", "return 1 (`Tensor(b!)`) does not alias out argument `out`"),
    ),
    case(
        "out_return_count",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> Tensor(a!)
""",
        (1, 68, "error", "the function has 2 out argument(s) but 1 return(s)"),
    ),
    case(
        "inplace_not_returning_self",
        """\
- func: f_(Tensor(a!) self) -> Tensor
""",
        (1, 32, "error", "inplace operator `f_` must return `self`"),
    ),
    case(
        "inplace_without_written_self",
        """\
- func: f_(Tensor self) -> Tensor
""",
        (1, 9, "error", "inplace operator `f_` has no written `self` argument"),
    ),
    case(
        "structured_not_out",
        """\
- func: f(Tensor self) -> Tensor
  structured: True
  dispatch:
    CPU: f_cpu
""",
        (2, 3, "error", "`structured: True` is on a functional function"),
    ),
    case(
        "delegate_missing",
        """\
- func: f(Tensor self) -> Tensor
  structured_delegate: f.out
""",
        (2, 24, "error", "`structured_delegate` names `f.out`, which is not declared"),
    ),
    case(
        "delegate_not_structured",
        """\
- func: f(Tensor self) -> Tensor
  structured_delegate: f.out
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: f_out
""",
        (2, 24, "error", "`structured_delegate` names `f.out`, which is not structured"),
    ),
    case(
        "delegate_other_group",
        """\
- func: f(Tensor self) -> Tensor
  structured_delegate: g.out
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: f_out
- func: g(Tensor self, int x) -> Tensor
  structured_delegate: g.out
- func: g.out(Tensor self, int x, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: g_out
""",
        (2, 24, "error", "`g.out` is not the out= variant of `f`"),
    ),
    case(
        "inherits_without_structured",
        """\
- func: f(Tensor self) -> Tensor
  structured_inherits: TensorIteratorBase
""",
        (2, 3, "error", "`structured_inherits` requires `structured: True`"),
    ),
    case(
        "precomputed_without_structured",
        """\
- func: f.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)
  precomputed:
  - dim -> int dim
  dispatch:
    CPU: f_out
- func: f(Tensor self, int dim) -> Tensor
  dispatch:
    CPU: f
""",
        (2, 3, "error", "`precomputed` requires `structured: True`"),
    ),
    case(
        "dispatch_key_twice_one_line",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    CPU, CPU: f_cpu
""",
        (3, 10, "error", "dispatch key `CPU` is given twice (on this line)"),
    ),
    case(
        "dispatch_key_twice_two_lines",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    CPU: f_cpu
    CUDA, CPU: f_cuda
""",
        (4, 11, "error", "dispatch key `CPU` is given twice (first on line 3)"),
    ),
    case(
        "two_composite_keys",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    CompositeImplicitAutograd: f_implicit
    CompositeExplicitAutograd: f_explicit
""",
        (
            4,
            5,
            "error",
            "more than one of `CompositeImplicitAutograd`, `CompositeExplicitAutograd` is given",
        ),
    ),
    case(
        "meta_on_structured",
        """\
- func: f(Tensor self) -> Tensor
  structured_delegate: f.out
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: f_out
    Meta: f_out_meta
""",
        (7, 5, "error", "a structured operator cannot have an explicit `Meta` kernel"),
    ),
    case(
        "unknown_dispatch_key",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    CUDAA: f_cuda
""",
        (3, 5, "error", "unknown dispatch key `CUDAA`"),
    ),
    case(
        "unsupported_dispatch_key",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    AutogradCPU: f_autograd
""",
        (3, 5, "error", "dispatch key `AutogradCPU` cannot be used in a dispatch table"),
    ),
    case(
        "unknown_tag",
        """\
- func: f(Tensor self) -> Tensor
  tags: [core, pointwize]
""",
        (2, 16, "error", "unknown tag `pointwize`"),
    ),
    case(
        "unknown_variant",
        """\
- func: f(Tensor self) -> Tensor
  variants: function, methd
""",
        (2, 23, "error", "unknown variant `methd`"),
    ),
    case(
        "method_without_self",
        """\
- func: f(Tensor input) -> Tensor
  variants: method
""",
        (2, 13, "error", "`f` has the `method` variant but no `self` argument"),
    ),
    case(
        "cpp_keyword_argument",
        """\
- func: f(Tensor self, int default) -> Tensor
""",
        (1, 28, "error", "argument name `default` is a C++ keyword"),
    ),
    case(
        "python_keyword_argument",
        """\
- func: f(Tensor self, int lambda) -> Tensor
""",
        (1, 28, "error", "argument name `lambda` is a Python keyword"),
    ),
    case(
        "duplicate_yaml_key",
        """\
- func: f(Tensor self) -> Tensor
  variants: method
  variants: function
""",
        (3, 3, "error", "key `variants` appears twice in this entry (first on line 2)"),
    ),
    case(
        "missing_func",
        """\
- variants: method
""",
        (1, 3, "error", "the entry has no `func:`"),
    ),
    case(
        "wrong_value_type",
        """\
- func: f(Tensor self) -> Tensor
  device_guard: maybe
""",
        (2, 17, "error", "`device_guard` must be `True` or `False`, not `maybe`"),
    ),
    case(
        "entry_not_mapping",
        """\
- f(Tensor self) -> Tensor
""",
        (
            1,
            3,
            "error",
            "an entry must be a mapping starting with `func:`, not `f(Tensor self) -> Tensor`",
        ),
    ),
    case(
        "top_level_mapping",
        """\
func: f(Tensor self) -> Tensor
""",
        (1, 1, "error", "the file must be a list of entries, not a mapping"),
    ),
    case(
        "autogen_not_generated",
        """\
- func: f_(Tensor(a!) self) -> Tensor(a!)
  dispatch:
    CPU: f_
  autogen: f.Scalar_out
""",
        (4, 12, "error", "`autogen` lists `f.Scalar_out`, which is not generated"),
    ),
    case(
        "autogen_not_listed",
        """\
- func: f_(Tensor(a!) self) -> Tensor(a!)
  dispatch:
    CPU: f_
  autogen: f.out
""",
        (4, 12, "error", "autogen generates `f`, which `autogen:` does not list"),
    ),
    case(
        "factory_without_dispatch",
        """\
- func: make_ones(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
""",
        (1, 9, "error", "factory function `make_ones` has no dispatch table"),
    ),
    case(
        "redundant_dispatch_table",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    CompositeImplicitAutograd: f
""",
        (2, 3, "error", "this dispatch table only repeats the default"),
    ),
    case(
        "structured_without_functional",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: f_out
""",
        (2, 3, "error", "structured `f.out` has no functional variant"),
    ),
    case(
        "variant_of_structured_without_delegate",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    CPU: f_cpu
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: f_out
""",
        (1, 3, "error", "`f` is a variant of structured `f.out` but does not delegate to it"),
    ),
    case(
        "mixed_returns",
        """\
- func: f(Tensor(a!) self) -> (Tensor(a!), Tensor)
""",
        (1, 31, "error", "the returns mix written (`!`) and new values"),
    ),
    case(
        "tensor_options_on_out",
        """\
- func: f.out(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: f_out
""",
        (1, 9, "warning", "out= function `f.out` has no functional variant"),
        (
            1,
            30,
            "error",
            "an out= function cannot take tensor options (dtype, layout, device, pin_memory)",
        ),
    ),
    case(
        "reserved_out_suffix",
        """\
- func: f_out(Tensor self) -> Tensor
""",
        (1, 9, "error", "operator name `f_out` ends in `_out`, which is reserved"),
    ),
    case(
        "ufunc_without_structured",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  ufunc_inner_loop:
    Generic: f (All)
- func: f(Tensor self) -> Tensor
""",
        (2, 3, "error", "`ufunc_inner_loop` requires `structured: True`"),
    ),
    case(
        "delegate_with_backend_kernel",
        """\
- func: f(Tensor self) -> Tensor
  structured_delegate: f.out
  dispatch:
    CPU: f_cpu
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: f_out
""",
        (4, 5, "error", "`CPU` cannot have a kernel: the function delegates to `f.out`"),
    ),
    case(
        "manual_registration_with_dispatch",
        """\
- func: f(Tensor self) -> Tensor
  manual_kernel_registration: True
  dispatch:
    CPU: f_cpu
""",
        (2, 3, "error", "`manual_kernel_registration` and `dispatch:` cannot be used together"),
    ),
    case(
        "python_module_method",
        """\
- func: f(Tensor self) -> Tensor
  python_module: nn
  variants: method
""",
        (2, 3, "error", "a function in a `python_module` cannot be a method"),
    ),
    case(
        "const_ref_on_out",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  use_const_ref_for_mutable_tensors: True
- func: f(Tensor self) -> Tensor
""",
        (2, 3, "error", "`use_const_ref_for_mutable_tensors` cannot be used on an out= function"),
    ),
    case(
        "cpp_no_default_args_unknown",
        """\
- func: f(Tensor self, int dim) -> Tensor
  cpp_no_default_args: [dim]
""",
        (
            2,
            24,
            "error",
            "`cpp_no_default_args` names `dim`, which is not an argument with a default",
        ),
    ),
    case(
        "foreach_device_check",
        """\
- func: _foreach_f(Tensor[] self) -> Tensor[]
""",
        (1, 9, "error", "`_foreach` operators must set `device_check: NoCheck`"),
    ),
    case(
        "generator_without_seeded_tag",
        """\
- func: f(Tensor self, *, Generator? generator=None) -> Tensor
  dispatch:
    CPU: f_cpu
""",
        (1, 9, "error", "`f` takes a Generator but lacks the `nondeterministic_seeded` tag"),
    ),
    case(
        "out_variant_with_method",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  variants: function, method
- func: f(Tensor self) -> Tensor
""",
        (2, 13, "error", "a function with out= arguments can only have the `function` variant"),
    ),
    case(
        "duplicate_argument_name",
        """\
- func: f(Tensor self, int x, int x) -> Tensor
""",
        (1, 35, "error", "argument name `x` is used twice"),
    ),
    case(
        "invalid_kernel_name",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
    CPU: f cpu
""",
        (3, 10, "error", "invalid kernel name `f cpu`"),
    ),
    case(
        "unknown_ufunc_dtype",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  ufunc_inner_loop: f (All, Flaot)
- func: f(Tensor self) -> Tensor
  structured_delegate: f.out
""",
        (3, 21, "error", "unknown dtype `Flaot` in a ufunc loop"),
    ),
    case(
        "inplace_view_not_inplace",
        """\
- func: f(Tensor(a) self) -> Tensor(a)
  tags: inplace_view
  dispatch:
    CompositeExplicitAutograd: f
""",
        (2, 9, "error", "`f` has the `inplace_view` tag but is not inplace"),
    ),
    case(
        "structured_composite_implicit",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CompositeImplicitAutograd: f_out_impl
- func: f(Tensor self) -> Tensor
  structured_delegate: f.out
""",
        (
            4,
            5,
            "error",
            "a lone CompositeImplicitAutograd kernel must be named `f_out`, not `f_out_impl`",
        ),
        (4, 5, "error", "a structured kernel cannot be CompositeImplicitAutograd"),
    ),
    case(
        "same_kind_same_arguments",
        """\
- func: f.a(Tensor self, int x=1) -> Tensor
- func: f.b(Tensor self, int x=2) -> Tensor
""",
        (
            2,
            9,
            "error",
            "`f.b` and `f.a` (line 1) are both functional variants with the same arguments",
        ),
    ),
    case(
        "no_functional_variant",
        """\
- func: f_(Tensor(a!) self) -> Tensor(a!)
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
""",
        (1, 9, "error", "`f_`, `f.out` have no functional variant"),
    ),
    case(
        "non_canonical_spacing",
        """\
- func: f(Tensor  self) -> Tensor
""",
        (1, 9, "warning", "the schema is not written in canonical form"),
    ),
    case(
        "autogen_on_composite_implicit",
        """\
- func: f(Tensor self) -> Tensor
  autogen: f.out
""",
        (
            2,
            12,
            "warning",
            "`autogen` lists `f.out`, which is not generated because the operator is CompositeImplicitAutograd (it decomposes)",
        ),
    ),
    case(
        "out_only_function",
        """\
- func: f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: f_out
""",
        (1, 9, "warning", "out= function `f.out` has no functional variant"),
    ),
    case(
        "return_alias_unknown",
        """\
- func: f(Tensor(a) self) -> Tensor(b)
  dispatch:
    CompositeExplicitAutograd: f
""",
        (1, 30, "warning", "return `Tensor(b)` aliases set `b`, which no argument is in"),
    ),
    case(
        "variant_twice",
        """\
- func: f(Tensor self) -> Tensor
  variants: method, method
""",
        (2, 21, "warning", "variant `method` is listed twice"),
    ),
    case(
        "random_name_without_tag",
        """\
- func: random_thing(Tensor self) -> Tensor
  dispatch:
    CPU: random_thing
""",
        (
            1,
            9,
            "warning",
            "`random_thing` looks random but lacks the `nondeterministic_seeded` tag",
        ),
    ),
    case(
        "autogen_inplace_without_self",
        """\
- func: foo_(Tensor(a!) x) -> Tensor(a!)
  autogen: foo.out
  dispatch:
    CPU: foo_
""",
        (1, 9, "error", "inplace operator `foo_` has no written `self` argument"),
        (1, 14, "error", "out argument `x` must be keyword-only"),
        (2, 12, "error", "`autogen` lists `foo.out`, which is not generated"),
    ),
    case(
        "autogen_adds_an_argument_of_a_taken_name",
        """\
- func: foo_(Tensor(a!) self, Tensor out) -> Tensor(a!)
  autogen: foo, foo.out
  dispatch:
    CPU: foo_
""",
        (
            2,
            12,
            "error",
            "autogen would make `foo.out(Tensor self, Tensor out, *, Tensor(a!) out) -> Tensor(a!)`, with two arguments named `out`",
        ),
    ),
    case(
        "group_defaults_differ",
        """\
- func: f(Tensor self, int dim=1) -> Tensor
  dispatch:
    CPU: f
- func: f.out(Tensor self, int dim=2, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: f_out
""",
        (
            4,
            36,
            "error",
            "argument `dim` has default `2` in `f.out` but default `1` in `f` (line 1)",
        ),
    ),
    case(
        "group_default_missing",
        """\
- func: f_(Tensor(a!) self, int dim) -> Tensor(a!)
  dispatch:
    CPU: f_
- func: f(Tensor self, int dim=0) -> Tensor
  dispatch:
    CPU: f
- func: f.out(Tensor self, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: f_out
""",
        (1, 33, "error", "argument `dim` has no default in `f_` but default `0` in `f` (line 4)"),
    ),
    case(
        "empty_func",
        """\
- func:
  dispatch:
    CPU: f
""",
        (1, 8, "error", "`func:` has no value"),
    ),
    case(
        "precomputed_named_like_an_argument",
        """\
- func: f(Tensor self, int dim, bool flag) -> Tensor
  structured_delegate: f.out
- func: f.out(Tensor self, int dim, bool flag, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: f_out
  precomputed:
  - dim -> int dim, bool flag
  - int out, bool extra, int extra
""",
        (8, 5, "error", "precomputed value `flag` has the name of argument `flag`"),
        (9, 5, "error", "precomputed value `extra` has the name of another precomputed value"),
        (9, 5, "error", "precomputed value `out` has the name of argument `out`"),
    ),
    case(
        "precomputed_replaces_twice",
        """\
- func: f(Tensor self, int dim) -> Tensor
  structured_delegate: f.out
- func: f.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU: f_out
  precomputed:
  - dim -> int a
  - dim -> int b, GraphModule g, int class
""",
        (8, 5, "error", "`precomputed` replaces `dim` twice"),
        (
            8,
            5,
            "error",
            "in `precomputed`: `GraphModule` has no C++ type: the structured_ops runtime has no graph modules",
        ),
        (8, 5, "error", "precomputed value `class` is named with a C++ keyword"),
    ),
    case(
        "device_default",
        """\
- func: f(Tensor self, Device d="gpu", Device? e="cuda:0", Device? g='cuda:99999') -> Tensor
""",
        (1, 33, "error", 'default `"gpu"` is not valid for type `Device` (argument `d`)'),
        (1, 70, "error", "default `'cuda:99999'` is not valid for type `Device?` (argument `g`)"),
    ),
    case(
        "unsupported_types",
        """\
- func: f(Tensor self, GraphModule g, __torch__.torch.classes.ns.K? k) -> Tensor
""",
        (
            1,
            24,
            "error",
            "`GraphModule` has no C++ type: the structured_ops runtime has no graph modules (argument `g`)",
        ),
        (
            1,
            39,
            "error",
            "`__torch__.torch.classes.ns.K?` has no C++ type: structured_ops does not support custom classes (`__torch__.torch.classes.*`) (argument `k`)",
        ),
    ),
    case(
        "unsupported_returns",
        """\
- func: f(Tensor self) -> (Scalar?, int[2], Tensor[]?, Scalar?[])
- func: g_(Tensor(a!)[] self) -> Tensor(a!)[]
""",
        (
            1,
            28,
            "error",
            "`Scalar?` cannot be returned: the only optional returns are `Tensor?` and optional numbers, booleans, strings and enums",
        ),
        (1, 37, "error", "a fixed-size list (`int[2]`) cannot be returned"),
        (
            1,
            45,
            "error",
            "`Tensor[]?` cannot be returned: the only optional returns are `Tensor?` and optional numbers, booleans, strings and enums",
        ),
        (
            1,
            56,
            "error",
            "`Scalar?` cannot be returned: the only optional returns are `Tensor?` and optional numbers, booleans, strings and enums",
        ),
        (2, 34, "error", "a function cannot return a written (`!`) list"),
        (2, 34, "error", "inplace operator `g_` with a `Tensor[]` self must return `()`"),
    ),
    case(
        "cpp_keyword_names",
        """\
- func: bitand(Tensor self) -> Tensor
  dispatch:
    CPU: k
- func: f(Tensor self) -> Tensor
  dispatch:
    CPU: void
    CUDA: my::int::f_cuda
- func: g(Tensor self) -> Tensor
  dispatch:
    CPU: std::g_cpu
""",
        (1, 9, "error", "operator name `bitand` is a C++ keyword"),
        (6, 5, "error", "the CPU kernel has the C++ keyword `void` in its name"),
        (7, 5, "error", "the CUDA kernel has the C++ keyword `int` in its name"),
        (10, 5, "error", "the CPU kernel is in namespace `std`, which C++ reserves"),
    ),
    case(
        "control_character",
        "- func: f(Tensor self) -> Tensor\n  tags: [a\x01]\n",
        (2, 11, "error", "invalid YAML: the character U+0001 is not allowed"),
    ),
    case(
        "empty_value",
        """\
- func: f(Tensor self) -> Tensor
  dispatch:
""",
        (2, 12, "warning", "`dispatch:` has no value and is ignored"),
    ),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_rule(tmp_path, text, expected):
    diags = diagnose(tmp_path, text)
    assert [(d.line, d.column, d.severity, d.message) for d in diags] == expected
    for d in diags:
        assert d.hint, f"no hint for: {d.message}"


def test_all_mistakes_of_a_file_are_reported_at_once(tmp_path):
    diags = diagnose(
        tmp_path,
        textwrap.dedent("""\
        - func: a(Tensor self, int dim=abc) -> Tensor
        - func: b(Tensr self) -> Tensor
        - func: c(Tensor self) -> Tensor
          dispatch:
            CPU, CPU: c_cpu
        - func: d(Tensor self) -> Tensor
          variants: methd
        """),
    )
    assert [(d.line, d.severity) for d in diags] == [
        (1, "error"),
        (2, "error"),
        (5, "error"),
        (7, "error"),
    ]


def test_diagnostic_format(tmp_path):
    (d,) = diagnose(tmp_path, "- func: f(Tensor self) -> Tensor\n  structure: True\n")
    path = str(tmp_path / "native_functions.yaml")
    assert (
        d.format()
        == f"{path}:2:3: error: unknown key `structure`\n  hint: did you mean `structured`?"
    )


def test_missing_file(tmp_path):
    parsed = load_native_yaml(str(tmp_path / "nope.yaml"), TAGS)
    (d,) = parsed.diagnostics.sorted()
    assert (d.line, d.column, d.severity) == (1, 1, "error")
    assert d.message.startswith("cannot read the file")


def test_missing_tags_file(tmp_path):
    path = tmp_path / "native_functions.yaml"
    path.write_text("- func: f(Tensor self) -> Tensor\n")
    parsed = load_native_yaml(str(path), str(tmp_path / "tags.yaml"))
    (d,) = parsed.diagnostics.sorted()
    assert d.path.endswith("tags.yaml") and d.message.startswith("cannot read the file")


def test_bad_tags_file(tmp_path):
    tags = tmp_path / "tags.yaml"
    tags.write_text("- tag: a\n- tag: b\n  desc: B.\n- desk: typo\n")
    path = tmp_path / "native_functions.yaml"
    path.write_text("- func: f(Tensor self) -> Tensor\n")
    diags = load_native_yaml(str(path), str(tags)).diagnostics.sorted()
    assert [(d.line, d.message) for d in diags] == [
        (1, "tag `a` has no description"),
        (4, "the tag entry has no `tag:` name"),
        (4, "unknown key `desk` in a tag entry"),
    ]


def test_empty_file_is_a_warning(tmp_path):
    diags = diagnose(tmp_path, "# nothing yet\n")
    assert [(d.severity, d.message) for d in diags] == [("warning", "the file has no entries")]


def test_legacy_aten_python_keyword_is_exempt(tmp_path):
    assert (
        diagnose(
            tmp_path, "- func: uniform_(Tensor(a!) self, float from=0, float to=1) -> Tensor(a!)\n"
        )
        == []
    )
    diags = diagnose(
        tmp_path, "- func: custom::uniform_(Tensor(a!) self, float from=0) -> Tensor(a!)\n"
    )
    assert [d.message for d in diags] == ["argument name `from` is a Python keyword"]


def test_a_broken_schema_does_not_cascade(tmp_path):
    diags = diagnose(
        tmp_path,
        textwrap.dedent("""\
        - func: f(Tensor self) -> Tensor
          structured_delegate: f.out
        - func: f.out(Tensor self, *, Tensr(a!) out) -> Tensor(a!)
          structured: True
        """),
    )
    assert [(d.line, d.message) for d in diags] == [(3, "unknown type `Tensr`")]


def test_an_identical_copy_is_reported_once(tmp_path):
    diags = diagnose(
        tmp_path, "- func: f.a(Tensor self) -> Tensor\n- func: f.a(Tensor self) -> Tensor\n"
    )
    assert [(d.line, d.message) for d in diags] == [
        (2, "overload `f.a` is declared twice (first on line 1)")
    ]
