"""What only the C++ mapping sees: `check` reports it as file:line errors with a hint,
so the generator is never asked to write C++ that the compiler would refuse."""

import pytest

from codegen.frontend import load_native_yaml

CASES = {
    "overloads_with_one_cpp_signature": (
        "- func: scale.a(Tensor self, int factor) -> Tensor\n"
        "- func: scale.b(Tensor self, SymInt steps) -> Tensor\n",
        "2:9",
        "in C++, `scale.b` and `scale.a` are both `scale(const Tensor &, int64_t)`",
    ),
    "mangled_names_collide": (
        "- func: foo.bar_baz(Tensor self) -> Tensor\n"
        "- func: foo_bar.baz(Tensor self, int x) -> Tensor\n",
        "2:9",
        "`foo_bar.baz` and `foo.bar_baz` have the same C++ name `foo_bar_baz`",
    ),
    "argument_named_like_a_type": (
        "- func: shift(Tensor self, Scalar Tensor) -> Tensor\n",
        "1:35",
        "the argument name `Tensor` is a name the generated C++ uses",
    ),
    "argument_named_like_a_macro": (
        "- func: shift(Tensor self, int errno) -> Tensor\n",
        "1:32",
        "the argument name `errno` is a name the generated C++ uses",
    ),
    "operator_named_like_a_macro_of_the_runtime": (
        "- func: custom::SOPS_META_FUNC.Tensor(Tensor self) -> Tensor\n",
        "1:9",
        "the operator name `SOPS_META_FUNC` is a name the generated C++ needs",
    ),
    "precomputed_value_named_like_a_type": (
        "- func: a.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  structured: True\n"
        "  precomputed:\n"
        "  - dim -> int Scalar\n"
        "  dispatch:\n"
        "    CPU: a_out\n"
        "- func: a(Tensor self, int dim) -> Tensor\n"
        "  structured_delegate: a.out\n",
        "4:3",
        "the precomputed value `Scalar` has a name the generated C++ uses",
    ),
    "kernel_named_like_a_type": (
        "- func: pick(Tensor self) -> Tensor\n  dispatch:\n    CPU: ArrayRef\n",
        "3:5",
        "the kernel name `ArrayRef` is a name the generated C++ uses",
    ),
    "kernel_namespace_named_like_a_c_function": (
        "- func: pick(Tensor self) -> Tensor\n  dispatch:\n    CPU: printf::pick_cpu\n",
        "3:5",
        "the kernel namespace `printf` is the name of a C library function",
    ),
    "operator_named_like_a_namespace_of_the_library": (
        "- func: native(Tensor self) -> Tensor\n",
        "1:9",
        "the operator name `native` is a name the generated C++ needs",
    ),
    "one_kernel_two_return_types": (
        "- func: first(Tensor self) -> Tensor\n"
        "  dispatch:\n"
        "    CPU: pick\n"
        "- func: second(Tensor self) -> Tensor[]\n"
        "  dispatch:\n"
        "    CPU: pick\n",
        "4:9",
        "kernel `pick` (CPU) returns `::std::vector<Tensor>` here and `Tensor` for `first`",
    ),
    "one_structured_kernel_for_two_groups": (
        "- func: a.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  structured: True\n"
        "  dispatch:\n"
        "    CPU: shared_out\n"
        "- func: a(Tensor self) -> Tensor\n"
        "  structured_delegate: a.out\n"
        "- func: b.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  structured: True\n"
        "  dispatch:\n"
        "    CPU: shared_out\n"
        "- func: b(Tensor self) -> Tensor\n"
        "  structured_delegate: b.out\n",
        "7:9",
        "structured kernel `shared_out` (CPU) also implements `a.out`",
    ),
    "octal_looking_default": (
        "- func: shift(Tensor self, int steps=012) -> Tensor\n",
        "1:38",
        "the default of `steps`: `012` starts with 0, which C++ reads as an octal number",
    ),
    "default_out_of_int64": (
        "- func: shift(Tensor self, int steps=99999999999999999999) -> Tensor\n",
        "1:38",
        "the default of `steps`: `99999999999999999999` does not fit the C++ type of `int`",
    ),
    "default_out_of_double": (
        "- func: shift(Tensor self, float by=1e999) -> Tensor\n",
        "1:37",
        "the default of `by`: `1e999` is out of the range of a C++ double",
    ),
    "fixed_bool_list_default_of_another_length": (
        "- func: mask(Tensor self, bool[2] keep=[True, False, True]) -> Tensor\n",
        "1:40",
        "`keep` is a `bool[2]` but its default has 3 values",
    ),
    "meta_struct_parent_the_runtime_lacks": (
        "- func: a.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  structured: True\n"
        "  structured_inherits: MyBase\n"
        "  dispatch:\n"
        "    CPU: a_out\n"
        "- func: a(Tensor self) -> Tensor\n"
        "  structured_delegate: a.out\n",
        "3:24",
        "the runtime has no class `MyBase` for a meta struct to derive from",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_reports_what_would_not_compile(tmp_path, case):
    text, where, message = CASES[case]
    path = tmp_path / "ops.yaml"
    path.write_text(text)
    parsed = load_native_yaml(str(path))
    errors = [d for d in parsed.diagnostics.sorted() if d.severity == "error"]
    assert errors, f"{case}: accepted"
    first = errors[0].format()
    assert first.startswith(f"{path}:{where}: error: {message}"), first
    assert "\n  hint: " in first


def test_the_smallest_int64_default_is_written_so_that_it_compiles(tmp_path):
    from codegen.api import native

    path = tmp_path / "ops.yaml"
    path.write_text("- func: clip(Tensor self, int low=-9223372036854775808) -> Tensor\n")
    parsed = load_native_yaml(str(path))
    assert not parsed.diagnostics.has_errors()
    (low,) = [b for b in native.arguments(parsed.functions[0], False) if b.name == "low"]
    assert low.default == "(-9223372036854775807 - 1)"


def test_locals_never_take_an_argument_name(tmp_path):
    # `op`, `result` and `device_guard` are the generated code's locals: arguments may
    # still have these names, and the locals step aside.
    path = tmp_path / "ops.yaml"
    path.write_text("- func: pick(Tensor op, Tensor result, Tensor device_guard) -> Tensor\n")
    assert not load_native_yaml(str(path)).diagnostics.has_errors()
