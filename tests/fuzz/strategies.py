"""Hypothesis strategies: valid native_functions.yaml files (mutations.py breaks them).

A valid file is a list of operator *families*, each the variants of one operator that
the schema grammar and the yaml's rules let us write together:

  plain       functional [+ inplace] [+ out= with one or several outputs], kernels
              for CPU/CUDA/Meta/CompositeExplicitAutograd or none (implicit), `my::k`
              namespaced kernel names
  structured  a `structured: True` out= kernel with `structured_delegate`s, maybe
              `structured_inherits` and `precomputed`
  autogen     an inplace, functional or mutable operator whose other variants
              `autogen:` makes
  factory     tensor options (dtype, layout, device, pin_memory) and an out= variant
  returns     a functional operator returning anything but a Tensor
  view        an aliasing return

with types of every kind (optional, lists, fixed-size lists, annotations), defaults
valid for each type, keyword-only arguments, variants, tags, device_guard and
device_check, manual_* flags, in several namespaces.  Rendering varies the YAML style:
quoting, key order, flow or block collections, comments and blank lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from hypothesis import strategies as st

# Argument types with the defaults each accepts (None: no default).
TYPES: dict[str, list[str | None]] = {
    "Tensor": [None],
    "Tensor?": [None, "None"],
    "Tensor[]": [None],
    "Tensor?[]": [None],
    "Scalar": [None, "1", "0.5", "-2"],
    "Scalar?": [None, "None"],
    "Scalar[]": [None],
    "int": [None, "0", "-1", "2", "Mean"],
    "int?": [None, "None", "1"],
    "int[]": [None, "[]", "[0,1]", "[0, 1]"],
    "int[2]": [None, "1", "[0,0]"],
    "int[1]?": [None, "None"],
    "int[]?": [None, "None"],
    "SymInt": [None, "0"],
    "SymInt?": [None, "None"],
    "SymInt[]": [None, "[]"],
    "SymInt[2]": [None, "1"],
    "float": [None, "1.0", "0.5", "1e-05", "-1"],
    "float?": [None, "None", "0.5"],
    "float[]": [None],
    "float[]?": [None, "None"],
    "bool": [None, "True", "False"],
    "bool?": [None, "None", "True"],
    "bool[3]": [None, "[True,False,True]"],
    "str": [None, "'mean'", '"none"'],
    "str?": [None, "None", "'x'"],
    "ScalarType": [None, "long", "float"],
    "ScalarType?": [None, "None", "long"],
    "Layout": [None, "strided"],
    "Layout?": [None, "None", "strided"],
    "Device": [None, '"meta"'],
    "Device?": [None, "None", '"cpu"', '"cuda:1"'],
    "MemoryFormat": [None, "preserve_format"],
    "MemoryFormat?": [None, "None", "contiguous_format"],
    "DeviceIndex": [None, "-1", "0"],
    "SymBool": [None, "False"],
    "QScheme": [None, "per_tensor_affine"],
    "Generator?": [None, "None"],
    "Stream": [None],
    "Storage": [None],
    "DimVector": [None],
}
# Argument names: no keyword, nothing the generated code reserves, not `out*`.
ARG_NAMES = (
    "other",
    "dim",
    "alpha",
    "eps",
    "scale",
    "weight",
    "bias",
    "size",
    "mode",
    "index",
    "p",
    "value",
    "keepdim",
    "approximate",
    "count",
    "mask",
    "offset",
    "beta",
    "gamma",
    "shape",
    "stride",
    "flag",
    "momentum",
    "reduction",
    "factor",
    "padding",
    "src",
    "target",
    "groups",
)
OP_WORDS = (
    "add",
    "mul",
    "scale",
    "gather",
    "norm",
    "pool",
    "fill",
    "shift",
    "blend",
    "clip",
    "mix",
    "warp",
    "fold",
    "pick",
    "sum",
)
OVERLOADS = ("", "Tensor", "Scalar", "int", "dim", "self", "values", "two")
NAMESPACES = (None, None, None, "custom", "aten")
RETURN_TYPES = (
    "bool",
    "int",
    "float",
    "SymInt",
    "Scalar",
    "ScalarType",
    "Tensor[]",
    "Tensor?",
    "()",
    "(Tensor a, int b)",
    "int[]",
    "Tensor?[]",
    "QScheme",
    "SymBool",
    "str",
    "Device",
    "int?",
)
TAGS = ("core", "pointwise", "reduction", "pt2_compliant_tag")
# Names at the edge of what C++ takes: keywords, the runtime's and the standard library's
# types and functions, the generated code's own names, macros, reserved spellings.
# `check` must reject the ones that would not compile, and what it accepts must compile.
EDGY_NAMES = (
    "std",
    "sops",
    "at",
    "c10",
    "torch",
    "native",
    "meta",
    "cpu",
    "cuda",
    "detail",
    "size_t",
    "int64_t",
    "uint8_t",
    "string",
    "string_view",
    "vector",
    "array",
    "tuple",
    "optional",
    "nullopt",
    "move",
    "ref",
    "get",
    "max",
    "min",
    "abs",
    "exp",
    "printf",
    "memcpy",
    "main",
    "NULL",
    "errno",
    "assert",
    "EOF",
    "linux",
    "unix",
    "stdin",
    "result",
    "op",
    "out",
    "outputs_",
    "kOutputNames",
    "options",
    "sizes",
    "strides",
    "output_idx",
    "device_guard",
    "guard",
    "impl",
    "precomputed",
    "set_output_raw_strided",
    "maybe_get_output",
    "Tensor",
    "Scalar",
    "TensorList",
    "IntArrayRef",
    "Device",
    "Generator",
    "Layout",
    "ScalarType",
    "MemoryFormat",
    "Storage",
    "Stream",
    "SymInt",
    "SymBool",
    "DeviceIndex",
    "QScheme",
    "DimVector",
    "ArrayRef",
    "TensorOptions",
    "OptionalTensorRef",
    "Reduction",
    "Common",
    "CPU",
    "CUDA",
    "Meta",
    "operator_schemas",
    "operator_shards",
    "find_operator",
    "OperatorSchema",
    "wrapper",
    "wrapper_CPU",
    "structured_add",
    "SOPS_CHECK",
    "SOPS_META_FUNC",
    "SOPS_IMPL_FUNC",
    "_",
    "__x",
    "_X",
    "x__y",
    "A",
    "a1",
    "class_",
    "xor",
    "bitand",
    "final",
    "override",
    "module",
    "import",
    "concept",
    "requires",
    "int",
    "float",
    "bool",
    "void",
    "auto",
    "this",
    "new",
    "default",
    "register",
    "self",
    "dtype",
    "layout",
    "device",
    "pin_memory",
    "memory_format",
    "generator",
    "MetaBase",
    "TensorIteratorBase",
    "inf",
    "nan",
    "Mean",
    "None",
    "True",
)


@dataclass(frozen=True)
class Vocab:
    """Where the names of a file come from: safe ones, or also the edgy ones."""

    edgy: bool = False

    def pick(self, draw, safe) -> str:
        if self.edgy and draw(st.integers(0, 3)) == 0:
            return draw(st.sampled_from(EDGY_NAMES))
        return draw(st.sampled_from(safe))


SAFE = Vocab()
IMPLICIT, EXPLICIT = "CompositeImplicitAutograd", "CompositeExplicitAutograd"
BACKEND_KEYS = ("CPU", "CUDA", "Meta", EXPLICIT)
PLAIN_KEYS = BACKEND_KEYS + (IMPLICIT,)


@dataclass
class Arg:
    type: str
    name: str
    default: str | None = None
    annotation: str | None = None  # `a!`, `a`, ... (Tensor only)

    def __str__(self) -> str:
        t = self.type
        if self.annotation is not None:
            t = "Tensor(" + self.annotation + ")" + t[len("Tensor") :]
        s = f"{t} {self.name}"
        return s if self.default is None else f"{s}={self.default}"


@dataclass
class Entry:
    """One yaml entry: its schema pieces and its other keys, in order."""

    name: str  # `ns::name.overload`
    positional: list[Arg]
    kwarg_only: list[Arg]
    out: list[Arg]
    returns: str
    keys: dict[str, object] = field(default_factory=dict)  # every key but func

    @property
    def func(self) -> str:
        args = [str(a) for a in self.positional]
        if self.kwarg_only or self.out:
            args.append("*")
            args += [str(a) for a in self.kwarg_only + self.out]
        return f"{self.name}({', '.join(args)}) -> {self.returns}"


def _qualified(ns: str | None, name: str, overload: str) -> str:
    return (f"{ns}::" if ns else "") + name + (f".{overload}" if overload else "")


def _out_overload(overload: str) -> str:
    return f"{overload}_out" if overload else "out"


@st.composite
def arguments(
    draw, count_max: int = 4, kwarg_max: int = 2, tensor_first: bool = True, v: Vocab = SAFE
):
    """(positional, kwarg-only): distinct names, valid defaults."""
    names = list(
        dict.fromkeys(
            v.pick(draw, ARG_NAMES) for _ in range(draw(st.integers(0, count_max + kwarg_max)))
        )
    )
    if tensor_first and "self" in names:
        names.remove("self")
    positional, kwarg_only = [], []
    if tensor_first:
        positional.append(Arg("Tensor", "self"))
    n_pos = draw(st.integers(0, min(count_max, len(names))))
    for i, name in enumerate(names):
        t = draw(st.sampled_from(sorted(TYPES)))
        default = draw(st.sampled_from(TYPES[t]))
        (positional if i < n_pos else kwarg_only).append(Arg(t, name, default))
    return positional, kwarg_only


def _needs_generator_tag(args: list[Arg]) -> bool:
    return any(a.type.startswith("Generator") for a in args)


@st.composite
def dispatch_table(
    draw, kernel: str, ns: str | None, keys=BACKEND_KEYS, min_size: int = 1, v: Vocab = SAFE
):
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, min_size=min_size, max_size=3))
    if IMPLICIT in chosen and EXPLICIT in chosen:
        chosen.remove(EXPLICIT)  # one composite kernel at most
    table = {}
    for key in chosen:
        name = f"{kernel}_{key.lower()}"
        if key == IMPLICIT:
            name += "_symint"  # a lone implicit kernel named otherwise than the default must take SymInts
        if v.edgy and draw(st.integers(0, 3)) == 0:
            name = draw(st.sampled_from(EDGY_NAMES))
        style = draw(st.integers(0, 5))
        if style == 0:
            name = f"{v.pick(draw, [ns or 'my'])}::{name}"
        elif style == 1:
            name = f"{v.pick(draw, [ns or 'my'])}::{v.pick(draw, ['sub'])}::{name}"
        table[key] = name
    return table


def _tags(draw, entry_args: list[Arg], base: list[str] | None = None) -> list[str]:
    tags = list(base or [])
    tags += draw(st.lists(st.sampled_from(TAGS), unique=True, max_size=2))
    if _needs_generator_tag(entry_args):
        tags.append("nondeterministic_seeded")
    return list(dict.fromkeys(tags))


def _common_keys(draw, e: Entry, has_self: bool, method_ok: bool = True) -> None:
    """variants, tags, device_check/device_guard, python_module, cpp_no_default_args."""
    args = e.positional + e.kwarg_only
    if has_self and method_ok and not e.out and draw(st.integers(0, 2)) == 0:
        e.keys["variants"] = draw(
            st.sampled_from(["function, method", "method, function", "method"])
        )
    elif draw(st.integers(0, 5)) == 0:
        e.keys["variants"] = "function"
    tags = _tags(draw, args)
    if tags:
        e.keys["tags"] = tags
    if draw(st.integers(0, 5)) == 0:
        e.keys["device_check"] = "NoCheck"
    defaulted = [a.name for a in args if a.default is not None]
    if defaulted and draw(st.integers(0, 4)) == 0:
        e.keys["cpp_no_default_args"] = [draw(st.sampled_from(defaulted))]
    if "variants" not in e.keys and draw(st.integers(0, 9)) == 0:
        e.keys["python_module"] = "nn"


def _out_args(count: int, start: int = 0, names: list[str] | None = None) -> list[Arg]:
    letters = "abcdefgh"
    if names is None:
        names = ["out"] if count == 1 else [f"out{i}" for i in range(count)]
    return [Arg("Tensor", names[i], annotation=letters[start + i] + "!") for i in range(count)]


def _out_names(draw, v: Vocab, count: int, taken: list[Arg]) -> list[str] | None:
    """Names of out arguments: the usual ones, or (edgy) any not taken."""
    if not v.edgy or draw(st.booleans()):
        return None
    used = {a.name for a in taken}
    names = []
    for i in range(count):
        name = v.pick(draw, [f"out{i}", f"result{i}"])
        names.append(name if name not in used and name not in names else f"out{i}")
    return names


def _out_returns(outs: list[Arg]) -> str:
    rets = [f"Tensor({a.annotation})" for a in outs]
    return rets[0] if len(rets) == 1 else "(" + ", ".join(rets) + ")"


@st.composite
def plain_family(draw, base: str, ns: str | None, v: Vocab = SAFE):
    positional, kwarg_only = draw(arguments(v=v))
    overload = v.pick(draw, OVERLOADS)
    n_out = draw(st.sampled_from([1, 1, 1, 2]))
    returns = "Tensor" if n_out == 1 else "(Tensor a, Tensor b)"
    has_self = positional[0].name == "self"
    entries = []
    functional = Entry(_qualified(ns, base, overload), positional, kwarg_only, [], returns)
    if draw(st.booleans()):
        functional.keys["dispatch"] = draw(
            dispatch_table(f"{base}_{overload}", ns, PLAIN_KEYS, v=v)
        )
    _common_keys(draw, functional, has_self)
    entries.append(functional)
    if n_out == 1 and has_self and draw(st.booleans()):
        inplace = Entry(
            _qualified(ns, base + "_", overload),
            [Arg("Tensor", "self", annotation="a!")] + positional[1:],
            kwarg_only,
            [],
            "Tensor(a!)",
        )
        if draw(st.booleans()) or "dispatch" in functional.keys:
            inplace.keys["dispatch"] = draw(
                dispatch_table(f"{base}_{overload}_", ns, PLAIN_KEYS, v=v)
            )
        _common_keys(draw, inplace, has_self)
        entries.append(inplace)
    if draw(st.booleans()):
        outs = _out_args(n_out, names=_out_names(draw, v, n_out, positional + kwarg_only))
        out = Entry(
            _qualified(ns, base, _out_overload(overload)),
            positional,
            kwarg_only,
            outs,
            _out_returns(outs),
        )
        if draw(st.booleans()) or "dispatch" in functional.keys:
            out.keys["dispatch"] = draw(dispatch_table(f"{base}_{overload}_out", ns, v=v))
        _common_keys(draw, out, has_self)
        entries.append(out)
    return entries


@st.composite
def structured_family(draw, base: str, ns: str | None, v: Vocab = SAFE):
    positional, kwarg_only = draw(arguments(v=v))
    overload = v.pick(draw, OVERLOADS)
    n_out = draw(st.sampled_from([1, 1, 2]))
    returns = "Tensor" if n_out == 1 else "(Tensor values, Tensor indices)"
    outs = _out_args(n_out, names=_out_names(draw, v, n_out, positional + kwarg_only))
    out_name = _qualified(None, base, _out_overload(overload))
    out = Entry(
        _qualified(ns, base, _out_overload(overload)),
        positional,
        kwarg_only,
        outs,
        _out_returns(outs),
    )
    out.keys["structured"] = True
    if draw(st.booleans()):
        out.keys["structured_inherits"] = draw(st.sampled_from(["TensorIteratorBase", "MetaBase"]))
    out.keys["dispatch"] = draw(
        dispatch_table(f"{base}_{overload}_out", ns, keys=("CPU", "CUDA"), v=v)
    )
    taken = {a.name for a in positional + kwarg_only + outs}
    if draw(st.booleans()):
        lines = []
        replaceable = [a for a in positional + kwarg_only if a.name != "self"]
        if replaceable and draw(st.booleans()):
            a = draw(st.sampled_from(replaceable))
            lines.append(
                f"{a.name} -> int {a.name}" + (", bool flag_pre" if draw(st.booleans()) else "")
            )
            taken.add("flag_pre")
        adds = [n for n in (v.pick(draw, ["all_same"]), "count_pre", "fmt_pre") if n not in taken]
        if adds:
            types = ["bool", "int", "MemoryFormat"]
            k = draw(st.integers(1, len(adds)))
            lines.append(", ".join(f"{types[i]} {adds[i]}" for i in range(k)))
        out.keys["precomputed"] = lines
    _common_keys(draw, out, positional[0].name == "self")
    functional = Entry(_qualified(ns, base, overload), positional, kwarg_only, [], returns)
    functional.keys["structured_delegate"] = out_name
    _common_keys(draw, functional, positional[0].name == "self")
    entries = [functional, out]
    if n_out == 1 and positional[0].name == "self" and draw(st.booleans()):
        inplace = Entry(
            _qualified(ns, base + "_", overload),
            [Arg("Tensor", "self", annotation="a!")] + positional[1:],
            kwarg_only,
            [],
            "Tensor(a!)",
        )
        inplace.keys["structured_delegate"] = out_name
        _common_keys(draw, inplace, True)
        entries.append(inplace)
    return draw(st.permutations(entries))


@st.composite
def autogen_family(draw, base: str, ns: str | None, v: Vocab = SAFE):
    positional, kwarg_only = draw(arguments(v=v))
    overload = v.pick(draw, OVERLOADS)
    kind = draw(st.sampled_from(["inplace", "functional", "mutable", "list"]))
    name = _qualified(None, base, overload)
    out_name = _qualified(None, base, _out_overload(overload))
    if kind == "inplace":
        e = Entry(
            _qualified(ns, base + "_", overload),
            [Arg("Tensor", "self", annotation="a!")] + positional[1:],
            kwarg_only,
            [],
            "Tensor(a!)",
        )
        autogen = [name, out_name]
    elif kind == "mutable":
        buf = Arg("Tensor", "buf", annotation="a!")
        e = Entry(_qualified(ns, base, overload), positional + [buf], kwarg_only, [], "Tensor")
        autogen = [_qualified(None, base + "_functional", overload), out_name]
    elif kind == "list":
        e = Entry(_qualified(ns, base, overload), positional, kwarg_only, [], "Tensor[]")
        autogen = [out_name]
    else:
        e = Entry(
            _qualified(ns, base, overload),
            positional,
            kwarg_only,
            [],
            draw(st.sampled_from(["Tensor", "(Tensor a, Tensor b)"])),
        )
        autogen = [out_name]
    e.keys["dispatch"] = draw(
        dispatch_table(
            f"{base}_{overload}_{kind}", ns, keys=("CPU", "CUDA", "CompositeExplicitAutograd"), v=v
        )
    )
    e.keys["autogen"] = ", ".join(draw(st.permutations(autogen)))
    _common_keys(
        draw, e, kind != "mutable" or positional[0].name == "self", method_ok=kind != "mutable"
    )
    return [e]


@st.composite
def factory_family(draw, base: str, ns: str | None, v: Vocab = SAFE):
    _, kwarg_only = draw(arguments(count_max=0, kwarg_max=1, tensor_first=False, v=v))
    kwarg_only = [
        a for a in kwarg_only if a.name not in ("sizes", "dtype", "layout", "device", "pin_memory")
    ]
    positional = [Arg("SymInt[]", "sizes")]
    options = [
        Arg("ScalarType?", "dtype", "None"),
        Arg("Layout?", "layout", "None"),
        Arg("Device?", "device", "None"),
        Arg("bool?", "pin_memory", "None"),
    ]
    e = Entry(_qualified(ns, base, ""), positional, kwarg_only + options, [], "Tensor")
    e.keys["dispatch"] = {"CompositeExplicitAutograd": base}
    if draw(st.booleans()):
        e.keys["category_override"] = "factory"
    tags = _tags(draw, kwarg_only)
    if tags:
        e.keys["tags"] = tags
    entries = [e]
    if draw(st.booleans()):
        outs = _out_args(1)
        out = Entry(_qualified(ns, base, "out"), positional, kwarg_only, outs, _out_returns(outs))
        out.keys["dispatch"] = {"CompositeExplicitAutograd": base + "_out"}
        if _needs_generator_tag(kwarg_only):
            out.keys["tags"] = ["nondeterministic_seeded"]
        entries.append(out)
    return entries


@st.composite
def returns_family(draw, base: str, ns: str | None, v: Vocab = SAFE):
    positional, kwarg_only = draw(arguments(count_max=2, kwarg_max=1, v=v))
    returns = draw(st.sampled_from(RETURN_TYPES))
    if v.edgy and draw(st.booleans()):
        returns = f"({returns if returns != '()' else 'Tensor'} {v.pick(draw, ['r0'])}, Tensor {v.pick(draw, ['r1'])})"
    e = Entry(_qualified(ns, base, v.pick(draw, OVERLOADS)), positional, kwarg_only, [], returns)
    if draw(st.booleans()):
        e.keys["dispatch"] = draw(dispatch_table(base + "_r", ns, PLAIN_KEYS, v=v))
    flag = draw(st.integers(0, 6))
    if flag == 0 and "dispatch" not in e.keys:
        e.keys["manual_kernel_registration"] = True
    elif flag == 1:
        e.keys["manual_cpp_binding"] = True
    elif flag == 2 and "dispatch" in e.keys:
        e.keys["device_guard"] = False
    _common_keys(draw, e, positional[0].name == "self")
    return [e]


@st.composite
def view_family(draw, base: str, ns: str | None, v: Vocab = SAFE):
    positional, kwarg_only = draw(arguments(count_max=2, kwarg_max=1, v=v))
    positional[0] = Arg("Tensor", "self", annotation="a")
    e = Entry(
        _qualified(ns, base, ""),
        positional,
        kwarg_only,
        [],
        draw(st.sampled_from(["Tensor(a)", "Tensor(a)[]"])),
    )
    e.keys["dispatch"] = {"CompositeExplicitAutograd": base}
    if draw(st.booleans()):
        e.keys["device_guard"] = False
    _common_keys(draw, e, True)
    return [e]


FAMILIES = (
    plain_family,
    plain_family,
    structured_family,
    structured_family,
    autogen_family,
    factory_family,
    returns_family,
    view_family,
)


@st.composite
def valid_entries(
    draw, min_families: int = 1, max_families: int = 6, v: Vocab = SAFE
) -> list[Entry]:
    n = draw(st.integers(min_families, max_families))
    entries = []
    for i in range(n):
        family = draw(st.sampled_from(FAMILIES))
        ns = v.pick(draw, NAMESPACES)
        base = f"{draw(st.sampled_from(OP_WORDS))}{i}"
        if v.edgy and draw(st.integers(0, 3)) == 0:
            base = draw(st.sampled_from(EDGY_NAMES)) + draw(st.sampled_from(["", "", str(i)]))
        entries += draw(family(base, ns, v))
    return entries


# --- Rendering: one yaml text per list of entries, in one of several styles. ---


def _scalar(draw, text: str) -> str:
    style = draw(st.integers(0, 9))
    if style == 0:
        return json.dumps(text)  # a double-quoted YAML scalar
    if style == 1:
        return "'" + text.replace("'", "''") + "'"
    return text


def _value_lines(draw, key: str, value, indent: str) -> list[str]:
    if isinstance(value, bool):
        word = draw(st.sampled_from(["True", "true", "yes"] if value else ["False", "false", "no"]))
        return [f"{indent}{key}: {word}"]
    if isinstance(value, str):
        return [f"{indent}{key}: {_scalar(draw, value) if key != 'variants' else value}"]
    if isinstance(value, list):
        if key == "tags" and len(value) == 1 and draw(st.booleans()):
            return [f"{indent}{key}: {value[0]}"]
        if draw(st.booleans()) and key != "precomputed":
            return [f"{indent}{key}: [{', '.join(value)}]"]
        dash = draw(st.sampled_from(["- ", "  - "]))
        return [f"{indent}{key}:"] + [f"{indent}{dash}{v}" for v in value]
    if isinstance(value, dict):
        items = list(value.items())
        if draw(st.integers(0, 3)) == 0:
            return [f"{indent}{key}: {{{', '.join(f'{k}: {v}' for k, v in items)}}}"]
        if key == "dispatch" and len(items) > 1 and draw(st.booleans()):
            # Keys sharing a kernel may share a line: `CPU, CUDA: k`.
            shared: dict[str, list[str]] = {}
            for k, v in items:
                shared.setdefault(v, []).append(k)
            items = [(", ".join(ks), v) for v, ks in shared.items()]
        step = draw(st.sampled_from(["  ", "    "]))
        return [f"{indent}{key}:"] + [f"{indent}{step}{k}: {v}" for k, v in items]
    raise TypeError(value)


@st.composite
def render(draw, entries: list[Entry]) -> str:
    lines = []
    if draw(st.booleans()):
        lines.append("# generated by the fuzz test")
    for e in entries:
        keys = list(e.keys.items())
        if draw(st.integers(0, 3)) == 0:
            keys = draw(st.permutations(keys))
        lines.append(f"- func: {_scalar(draw, e.func)}")
        for k, v in keys:
            lines += _value_lines(draw, k, v, "  ")
        if draw(st.integers(0, 2)) == 0:
            lines.append("")
        if draw(st.integers(0, 9)) == 0:
            lines.append("# a comment")
    return "\n".join(lines) + "\n"


@st.composite
def valid_files(draw, min_families: int = 1, max_families: int = 6) -> str:
    return draw(render(draw(valid_entries(min_families, max_families))))


@st.composite
def edgy_files(draw, min_families: int = 1, max_families: int = 6) -> str:
    """Like valid_files, with names from EDGY_NAMES here and there: not all are valid."""
    return draw(render(draw(valid_entries(min_families, max_families, Vocab(edgy=True)))))
