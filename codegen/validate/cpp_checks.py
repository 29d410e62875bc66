"""Checks that only the C++ mapping can make: what would otherwise reach the compiler.

A yaml can be valid in PyTorch's schema language and still map to C++ that does not
compile: two overloads whose C++ signatures coincide, an argument named like a type
the signature uses, operators whose C++ names collide once `.` becomes `_`, one
kernel name declared with two meanings. `check` runs these checks too, so what it
accepts, the generator writes and the compiler takes.
"""

from __future__ import annotations

import math

from codegen.api import dispatcher, native
from codegen.api.types import RUNTIME_TYPES, parameter_types
from codegen.diagnostics import Diagnostics
from codegen.model.defaults import INT_RE
from codegen.model.dispatch import DEFAULT_KERNEL_NAMESPACE
from codegen.model.entry import NativeFunction
from codegen.model.groups import NativeFunctionsGroup
from codegen.model.types import ListType, OptionalType
from codegen.validate.locate import at_arg_named, at_func

# Names that are no identifiers of the user's to take, once preprocessed as C++: macros
# of the C and C++ standard libraries and of GNU mode.
# The classes of the runtime that a meta struct may derive from (`structured_inherits`).
RUNTIME_META_CLASSES = ("MetaBase", "TensorIteratorBase")
_MACROS = frozenset(("NULL", "EOF", "errno", "assert", "linux", "unix", "i386"))
# Names an argument would hide from the rest of the generated code (`std` and `sops`
# are safe: the generated code only names them before `::`, where C++ looks for
# namespaces and types only; local variables take names no argument has).
RESERVED_ARGUMENT_NAMES = frozenset(RUNTIME_TYPES) | _MACROS | {"int64_t"}
# Functions of the C standard library (C17), which the runtime's headers declare in the
# global namespace: a kernel namespace `printf::` would clash with them.
C_LIBRARY_FUNCTIONS = frozenset(
    """
abort abs acos acosh asctime asin asinh atan atan2 atanh atexit atof atoi atol atoll
at_quick_exit bsearch btowc calloc cbrt ceil clearerr clock copysign cos cosh ctime difftime
div erf erfc exit exp exp2 expm1 fabs fclose fdim feof ferror fflush fgetc fgetpos fgets
fgetwc fgetws floor fma fmax fmin fmod fopen fprintf fputc fputs fputwc fputws fread free
freopen frexp fscanf fseek fsetpos ftell fwide fwprintf fwrite fwscanf getc getchar getenv
gets getwc getwchar gmtime hypot ilogb isalnum isalpha isblank iscntrl isdigit isgraph
islower isprint ispunct isspace isupper iswalnum iswalpha iswblank iswcntrl iswctype
iswdigit iswgraph iswlower iswprint iswpunct iswspace iswupper iswxdigit isxdigit labs
ldexp ldiv lgamma llabs lldiv llrint llround localeconv localtime log log10 log1p log2
logb longjmp lrint lround malloc mblen mbrlen mbrtowc mbsinit mbsrtowcs mbstowcs mbtowc
memchr memcmp memcpy memmove memset mktime modf nan nearbyint nextafter nexttoward perror
pow printf putc putchar puts putwc putwchar qsort quick_exit raise rand realloc remainder
remove remquo rename rewind rint round scalbln scalbn scanf setbuf setjmp setlocale
setvbuf signal sin sinh snprintf sprintf sqrt srand sscanf strcat strchr strcmp strcoll
strcpy strcspn strerror strftime strlen strncat strncmp strncpy strpbrk strrchr strspn
strstr strtod strtof strtok strtol strtold strtoll strtoul strtoull strxfrm swprintf
swscanf system tan tanh tgamma time tmpfile tmpnam tolower toupper towctrans towlower
towupper trunc ungetc ungetwc vfprintf vfscanf vfwprintf vfwscanf vprintf vscanf
vsnprintf vsprintf vsscanf vswprintf vswscanf vwprintf vwscanf wcrtomb wcscat wcschr
wcscmp wcscoll wcscpy wcscspn wcsftime wcslen wcsncat wcsncmp wcsncpy wcspbrk wcsrchr
wcsrtombs wcsspn wcsstr wcstod wcstof wcstok wcstol wcstold wcstoll wcstombs wcstoul
wcstoull wcsxfrm wctob wctomb wctrans wctype wmemchr wmemcmp wmemcpy wmemmove wmemset
wprintf wscanf
""".split()
)
# Names a kernel would hide from the other declarations of its namespace.
RESERVED_KERNEL_NAMES = frozenset(RUNTIME_TYPES) | _MACROS | {"int64_t"}
# Names an operator's C++ functions cannot take in the library's namespace: the types,
# the namespaces of meta structs, kernels and static entry points, Operators.h's names.
RESERVED_OPERATOR_NAMES = (
    frozenset(RUNTIME_TYPES)
    | _MACROS
    | {"int64_t", "meta", "native", "cpu", "cuda"}
    | {"OperatorSchema", "operator_schemas", "operator_shards", "find_operator"}
)


def check_cpp(
    functions: list[NativeFunction], groups: list[NativeFunctionsGroup], diags: Diagnostics
) -> None:
    """Report what would not compile (or compile to another value); every function is
    checked, in file order."""
    _check_names(functions, diags)
    _check_defaults(functions, diags)
    _check_inherits(functions, diags)
    _check_mangled_names(functions, diags)
    _check_overloads(functions, diags)
    _check_kernels(functions, groups, diags)


# The runtime's own macros all start with this.
RUNTIME_MACRO_PREFIX = "SOPS_"


def _check_names(functions: list[NativeFunction], diags: Diagnostics) -> None:
    for f in functions:
        if f.generated:
            continue
        name = str(f.func.name.name.base)
        if name in RESERVED_OPERATOR_NAMES or name.startswith(RUNTIME_MACRO_PREFIX):
            diags.error(
                at_func(f),
                f"the operator name `{name}` is a name the generated C++ needs "
                "(a type, a namespace or a macro)",
                "rename the operator",
            )
        for a in f.func.arguments.flat_all:
            if _reserved_argument_name(a.name):
                diags.error(
                    at_arg_named(f, a.name, "name"),
                    f"the argument name `{a.name}` is a name the generated C++ uses "
                    "(a type or a macro)",
                    "rename the argument",
                )
        for key, m in sorted(f.dispatch.items()):
            if key not in f.written_dispatch:  # a default kernel is named after the operator
                continue
            if m.kernel in RESERVED_KERNEL_NAMES or m.kernel.startswith(RUNTIME_MACRO_PREFIX):
                diags.error(
                    f.source.dispatch_key(key),
                    f"the kernel name `{m.kernel}` is a name the generated C++ uses "
                    "(a type or a macro)",
                    "rename the kernel",
                )
            outer = m.cpp_namespace.split("::")[0]
            if m.cpp_namespace != DEFAULT_KERNEL_NAMESPACE and outer in C_LIBRARY_FUNCTIONS:
                diags.error(
                    f.source.dispatch_key(key),
                    f"the kernel namespace `{outer}` is the name of a C library function, "
                    "which C++ declares in the global namespace",
                    "choose another namespace",
                )
        for a in f.precomputed.arguments if f.precomputed is not None else ():
            if _reserved_argument_name(a.name):
                diags.error(
                    f.source.value("precomputed"),
                    f"the precomputed value `{a.name}` has a name the generated C++ uses "
                    "(a type or a macro)",
                    "rename the value",
                )


def _reserved_argument_name(name: str) -> bool:
    return name in RESERVED_ARGUMENT_NAMES or name.startswith(("wrapper_", RUNTIME_MACRO_PREFIX))


_INT_RANGES = {
    "int": (-(2**63), 2**63 - 1),
    "SymInt": (-(2**63), 2**63 - 1),
    "Scalar": (-(2**63), 2**63 - 1),
    "DeviceIndex": (-(2**15), 2**15 - 1),
}


def _literal_problem(base: str | None, text: str) -> str | None:
    """What C++ would make of a default's number other than what it says, or None."""
    if base in _INT_RANGES and INT_RE.match(text):
        digits = text.lstrip("-")
        if len(digits) > 1 and digits.startswith("0"):
            return f"`{text}` starts with 0, which C++ reads as an octal number"
        low, high = _INT_RANGES[base]
        if not low <= int(text) <= high:
            return f"`{text}` does not fit the C++ type of `{base}` ({low} to {high})"
    elif base in ("float", "Scalar"):
        try:
            value = float(text)
        except ValueError:
            return None
        if math.isinf(value) or (
            value == 0 and any(c in "123456789" for c in text.split("e")[0].split("E")[0])
        ):
            return f"`{text}` is out of the range of a C++ double"
    return None


def _check_defaults(functions: list[NativeFunction], diags: Diagnostics) -> None:
    for f in functions:
        if f.generated:
            continue
        for a in f.func.arguments.flat_all:
            if a.default is None or a.default == "None":
                continue
            t = a.type.elem if isinstance(a.type, OptionalType) else a.type
            items = [a.default]
            if isinstance(t, ListType) and a.default.startswith("["):
                items = [x.strip() for x in a.default[1:-1].split(",") if x.strip()]
                if t.size is not None and str(t.elem) == "bool" and len(items) != t.size:
                    diags.error(
                        at_arg_named(f, a.name, "default"),
                        f"`{a.name}` is a `{t}` but its default has {len(items)} values",
                        f"give {t.size} values, or one value for all",
                    )
            for item in items:
                problem = _literal_problem(t.base_name(), item)
                if problem:
                    diags.error(
                        at_arg_named(f, a.name, "default"),
                        f"the default of `{a.name}`: {problem}",
                        "write the number without leading zeros, within the type's range",
                    )


def _check_inherits(functions: list[NativeFunction], diags: Diagnostics) -> None:
    for f in functions:
        if f.structured_inherits is not None and f.structured_inherits not in RUNTIME_META_CLASSES:
            diags.error(
                f.source.value("structured_inherits"),
                f"the runtime has no class `{f.structured_inherits}` for a meta struct to derive from",
                f"use one of: {', '.join(RUNTIME_META_CLASSES)} (the generated headers cannot "
                "see a class of your own)",
            )


def _check_mangled_names(functions: list[NativeFunction], diags: Diagnostics) -> None:
    """`foo.bar_baz` and `foo_bar.baz` are both `foo_bar_baz` in C++ (wrapper and struct names)."""
    seen: dict[str, NativeFunction] = {}
    for f in functions:
        mangled = f.func.name.unambiguous_name()
        first = seen.setdefault(mangled, f)
        if first is not f:
            diags.error(
                at_func(f),
                f"`{f.key}` and `{first.key}` have the same C++ name `{mangled}` "
                "(`.` becomes `_`, and the namespace is left out)",
                "rename one of the two operators or overloads",
            )


def _check_overloads(functions: list[NativeFunction], diags: Diagnostics) -> None:
    """Two C++ functions of the dispatcher API with one name and one parameter list."""
    seen: dict[tuple[str, tuple[str, ...]], NativeFunction] = {}
    for f in functions:
        for c in dispatcher.cpp_functions(f):
            key = (c.name, parameter_types(c.params))
            first = seen.setdefault(key, f)
            if first is not f:
                diags.error(
                    at_func(f),
                    f"in C++, `{f.key}` and `{first.key}` are both "
                    f"`{c.name}({', '.join(b.type.cpp() for b in c.params)})`: overloads must "
                    "differ in the types of their arguments",
                    "change an argument type, or rename one of the two operators",
                )
                break


def _check_kernels(
    functions: list[NativeFunction], groups: list[NativeFunctionsGroup], diags: Diagnostics
) -> None:
    """A kernel name with one parameter list has one return type; a structured kernel
    serves one group."""
    users: dict[tuple[str, str], set[int]] = {}  # most kernels serve one function: skip those
    for f in functions:
        for m in f.dispatch.values():
            if not f.generated and not m.structured:
                users.setdefault((m.cpp_namespace, m.kernel), set()).add(id(f))
    declared: dict[tuple[str, str, tuple[str, ...]], NativeFunction] = {}
    for f in functions:
        if f.generated:
            continue
        for key, m in sorted(f.dispatch.items()):
            if m.structured or len(users[(m.cpp_namespace, m.kernel)]) < 2:
                continue
            params = parameter_types(native.arguments(f, m.supports_symint()))
            first = declared.setdefault((m.cpp_namespace, m.kernel, params), f)
            if first is not f and dispatcher.kernel_return(first) != dispatcher.kernel_return(f):
                diags.error(
                    at_func(f),
                    f"kernel `{m.kernel}` ({key}) returns `{dispatcher.kernel_return(f)}` "
                    f"here and `{dispatcher.kernel_return(first)}` for `{first.key}`, with the same "
                    "arguments: C++ cannot overload on the return type alone",
                    "give the two kernels different names",
                )
    structured: dict[tuple[str, str], NativeFunctionsGroup] = {}
    for g in groups:
        for key, m in sorted(g.out.dispatch.items()):
            if not m.structured:
                continue
            ns = "" if m.cpp_namespace == DEFAULT_KERNEL_NAMESPACE else m.cpp_namespace
            first_group = structured.setdefault((ns, m.kernel), g)
            if first_group is not g:
                diags.error(
                    at_func(g.out),
                    f"structured kernel `{m.kernel}` ({key}) also implements "
                    f"`{first_group.out.key}`: its struct `structured_{m.kernel}` can derive "
                    "from one meta struct only",
                    "give each structured group its own kernel name",
                )
