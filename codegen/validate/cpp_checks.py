"""Checks that only the C++ mapping can make: what would otherwise reach the compiler.

A yaml can be valid in PyTorch's schema language and still map to C++ that does not
compile: two overloads whose C++ signatures coincide, an argument named like a type
the signature uses, operators whose C++ names collide once `.` becomes `_`, one
kernel name declared with two meanings. `check` runs these checks too, so what it
accepts, the generator writes and the compiler takes.
"""

from __future__ import annotations

from codegen.api import dispatcher, native
from codegen.api.types import RUNTIME_TYPES, parameter_types
from codegen.diagnostics import Diagnostics
from codegen.model.dispatch import DEFAULT_KERNEL_NAMESPACE
from codegen.model.entry import NativeFunction
from codegen.model.groups import NativeFunctionsGroup
from codegen.validate.locate import at_arg_named, at_func

# Names that are no identifiers of the user's to take, once preprocessed as C++: macros
# of the C and C++ standard libraries and of GNU mode.
_MACROS = frozenset(("NULL", "EOF", "errno", "assert", "linux", "unix", "i386"))
# Names an argument would hide from the rest of the generated code (`std` and `sops`
# are safe: the generated code only names them before `::`, where C++ looks for
# namespaces and types only; local variables take names no argument has).
RESERVED_ARGUMENT_NAMES = frozenset(RUNTIME_TYPES) | _MACROS | {"int64_t"}
# Names an operator's C++ functions cannot take in the library's namespace: the types,
# the namespaces of meta structs, kernels and static entry points, Operators.h's names.
RESERVED_OPERATOR_NAMES = (frozenset(RUNTIME_TYPES) | _MACROS | {"int64_t", "meta", "native", "cpu", "cuda"}
                           | {"OperatorSchema", "kNumOperators", "kOperators", "find_operator"})

def check_cpp(functions: list[NativeFunction], groups: list[NativeFunctionsGroup], diags: Diagnostics) -> None:
    """Report what would not compile; every function is checked, in file order."""
    _check_names(functions, diags)
    _check_mangled_names(functions, diags)
    _check_overloads(functions, diags)
    _check_kernels(functions, groups, diags)


def _check_names(functions: list[NativeFunction], diags: Diagnostics) -> None:
    for f in functions:
        if f.generated:
            continue
        name = str(f.func.name.name.base)
        if name in RESERVED_OPERATOR_NAMES:
            diags.error(at_func(f), f"the operator name `{name}` is a name the generated C++ needs "
                        "(a type, a namespace or a macro)", "rename the operator")
        for a in f.func.arguments.flat_all:
            if a.name in RESERVED_ARGUMENT_NAMES or a.name.startswith("wrapper_"):
                diags.error(at_arg_named(f, a.name, "name"),
                            f"the argument name `{a.name}` is a name the generated C++ uses "
                            "(a type or a macro)", "rename the argument")


def _check_mangled_names(functions: list[NativeFunction], diags: Diagnostics) -> None:
    """`foo.bar_baz` and `foo_bar.baz` are both `foo_bar_baz` in C++ (wrapper and struct names)."""
    seen: dict[str, NativeFunction] = {}
    for f in functions:
        mangled = f.func.name.unambiguous_name()
        first = seen.setdefault(mangled, f)
        if first is not f:
            diags.error(at_func(f), f"`{f.key}` and `{first.key}` have the same C++ name `{mangled}` "
                        "(`.` becomes `_`, and the namespace is left out)",
                        "rename one of the two operators or overloads")


def _check_overloads(functions: list[NativeFunction], diags: Diagnostics) -> None:
    """Two C++ functions of the dispatcher API with one name and one parameter list."""
    seen: dict[tuple[str, tuple[str, ...]], NativeFunction] = {}
    for f in functions:
        for c in dispatcher.cpp_functions(f):
            key = (c.name, parameter_types(c.params))
            first = seen.setdefault(key, f)
            if first is not f:
                diags.error(at_func(f), f"in C++, `{f.key}` and `{first.key}` are both "
                            f"`{c.name}({', '.join(b.type.cpp() for b in c.params)})`: overloads must "
                            "differ in the types of their arguments",
                            "change an argument type, or rename one of the two operators")
                break


def _check_kernels(functions: list[NativeFunction], groups: list[NativeFunctionsGroup],
                   diags: Diagnostics) -> None:
    """A kernel name with one parameter list has one return type; a structured kernel
    serves one group."""
    declared: dict[tuple[str, str, tuple[str, ...]], NativeFunction] = {}
    for f in functions:
        if f.generated:
            continue
        for key, m in sorted(f.dispatch.items()):
            if m.structured:
                continue
            params = parameter_types(native.arguments(f, m.supports_symint()))
            first = declared.setdefault((m.cpp_namespace, m.kernel, params), f)
            if first is not f and dispatcher.kernel_return(first) != dispatcher.kernel_return(f):
                diags.error(at_func(f), f"kernel `{m.kernel}` ({key}) returns `{dispatcher.kernel_return(f)}` "
                            f"here and `{dispatcher.kernel_return(first)}` for `{first.key}`, with the same "
                            "arguments: C++ cannot overload on the return type alone",
                            "give the two kernels different names")
    structured: dict[tuple[str, str], NativeFunctionsGroup] = {}
    for g in groups:
        for key, m in sorted(g.out.dispatch.items()):
            if not m.structured:
                continue
            ns = "" if m.cpp_namespace == DEFAULT_KERNEL_NAMESPACE else m.cpp_namespace
            first = structured.setdefault((ns, m.kernel), g)
            if first is not g:
                diags.error(at_func(g.out), f"structured kernel `{m.kernel}` ({key}) also implements "
                            f"`{first.out.key}`: its struct `structured_{m.kernel}` can derive from one "
                            "meta struct only", "give each structured group its own kernel name")
