"""Function schemas: `ns::name.overload(Type arg=default, *, Tensor(a!) out) -> Tensor(a!)`.

Every class here is a frozen dataclass whose `str()` is the canonical spelling, so
for a canonical string `s`, `str(parse_schema(s)) == s`.  Schema text is parsed by
`codegen.model.schema_parser`, which builds on this module (never the other way
round): `parse_schema`, `parse_argument`, `parse_return`; operator names are simple
enough to be parsed here (`OperatorName.parse`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from codegen.model.types import Annotation, BaseType, OptionalType, SchemaError, Type

# Schema kinds (what torchgen calls SchemaKind), as plain strings.
FUNCTIONAL = "functional"
INPLACE = "inplace"
OUT = "out"
MUTABLE = "mutable"
SCRATCH = "scratch"

DEFAULT_NAMESPACE = "aten"
SCRATCH_PREFIX = "_scratch_"


def _with_annotation(type_text: str, annotation: Annotation | None) -> str:
    if annotation is None:
        return type_text
    # The annotation binds to `Tensor`, before any `?` or `[]`: Tensor(a)?, Tensor(a!)[].
    return "Tensor(" + str(annotation) + ")" + type_text[6:]


@dataclass(frozen=True, slots=True)
class Argument:
    name: str
    type: Type
    default: str | None  # the default's text, exactly as written
    annotation: Annotation | None
    # `Type name`, without annotation and default: what overloads are told apart by.
    signature_text: str = field(init=False, repr=False, compare=False)
    is_write: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "signature_text", f"{self.type} {self.name}")
        object.__setattr__(
            self, "is_write", self.annotation is not None and self.annotation.is_write
        )

    def __str__(self) -> str:
        s = _with_annotation(str(self.type), self.annotation) + " " + self.name
        return s if self.default is None else s + "=" + self.default


@dataclass(frozen=True, slots=True)
class Return:
    name: str | None
    type: Type
    annotation: Annotation | None
    type_text: str = field(
        init=False, repr=False, compare=False
    )  # str(type), kept: grouping uses it

    def __post_init__(self) -> None:
        object.__setattr__(self, "type_text", str(self.type))

    @property
    def is_write(self) -> bool:
        return self.annotation is not None and self.annotation.is_write

    def __str__(self) -> str:
        s = _with_annotation(str(self.type), self.annotation)
        return s if self.name is None else s + " " + self.name


# The four keyword-only arguments that together form a C++ TensorOptions, in order.
TENSOR_OPTIONS = (
    ("dtype", "ScalarType"),
    ("layout", "Layout"),
    ("device", "Device"),
    ("pin_memory", "bool"),
)


def is_tensor_option(a: Argument, name: str, base: str) -> bool:
    t = a.type
    if isinstance(t, OptionalType):
        t = t.elem
    return a.name == name and isinstance(t, BaseType) and t.name == base


@dataclass(frozen=True)
class Arguments:
    positional: tuple[Argument, ...]
    kwarg_only: tuple[Argument, ...]  # keyword-only arguments that are not out arguments
    out: tuple[Argument, ...]  # keyword-only, written (`(a!)`) arguments, last
    # Derived from the above when constructed.
    self_index: int | None = field(init=False, repr=False, compare=False)
    tensor_options_index: int | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        self_index = None
        for i, a in enumerate(self.positional):
            if a.name == "self":
                self_index = i
                break
        setattr_(self, "self_index", self_index)
        # Index in kwarg_only of `dtype, layout, device, pin_memory`, when they appear together.
        to = None
        kw = self.kwarg_only
        for i in range(len(kw) - 3):
            if kw[i].name == "dtype" and all(
                is_tensor_option(kw[i + j], n, b) for j, (n, b) in enumerate(TENSOR_OPTIONS)
            ):
                to = i
                break
        setattr_(self, "tensor_options_index", to)

    @property
    def flat_all(self) -> tuple[Argument, ...]:
        """Every argument, in schema order: positional, keyword-only, out."""
        return self.positional + self.kwarg_only + self.out

    @property
    def self_arg(self) -> Argument | None:
        i = self.self_index
        return None if i is None else self.positional[i]

    @property
    def pre_self_positional(self) -> tuple[Argument, ...]:
        i = self.self_index
        return () if i is None else self.positional[:i]

    @property
    def post_self_positional(self) -> tuple[Argument, ...]:
        i = self.self_index
        return self.positional if i is None else self.positional[i + 1 :]

    @property
    def non_tensor_options_kwarg_only(self) -> tuple[Argument, ...]:
        i = self.tensor_options_index
        return self.kwarg_only if i is None else self.kwarg_only[:i] + self.kwarg_only[i + 4 :]

    @property
    def flat_non_out(self) -> tuple[Argument, ...]:
        return self.positional + self.kwarg_only

    def has_tensor_arg(self) -> bool:
        return any(a.type.is_tensor_like() for a in self.flat_non_out)

    def has_symint_arg(self) -> bool:
        return any(a.type.base_name() == "SymInt" for a in self.flat_non_out)

    def has_generator_arg(self) -> bool:
        return any(a.type.base_name() == "Generator" for a in self.flat_non_out)

    def __str__(self) -> str:
        parts = [str(a) for a in self.positional]
        if self.kwarg_only or self.out:
            parts.append("*")
            parts.extend(str(a) for a in self.kwarg_only)
            parts.extend(str(a) for a in self.out)
        return ", ".join(parts)


def build_arguments(items: list[Argument | None], offsets: list[int] | None = None) -> Arguments:
    """Sort written arguments (None stands for the `*` marker) into positional/kwarg/out.

    A written (`!`) argument after `*` starts the out arguments; every argument after
    it must be written too.  `offsets` (same length as `items`) positions errors.
    """
    positional: list[Argument] = []
    kwarg_only: list[Argument] = []
    out: list[Argument] = []
    acc = positional
    star_at = -1
    for i, a in enumerate(items):
        at = offsets[i] if offsets else 0
        if a is None:
            if acc is not positional:
                raise SchemaError(
                    "the keyword-only marker `*` appears twice",
                    at,
                    "keep one `*`; every argument after it is keyword-only",
                )
            acc = kwarg_only
            star_at = at
            continue
        if a.is_write:
            if acc is kwarg_only:
                acc = out
        elif acc is out:
            raise SchemaError(
                f"argument `{a.name}` follows the out arguments",
                at,
                "out (`Tensor(a!)`) arguments must come last; move it before them",
            )
        acc.append(a)
    if star_at >= 0 and not kwarg_only and not out:
        raise SchemaError(
            "`*` must be followed by keyword-only arguments", star_at, "remove the trailing `*`"
        )
    return Arguments(tuple(positional), tuple(kwarg_only), tuple(out))


AUGMENTED_ASSIGNMENT_NAMES = (
    "add",
    "sub",
    "mul",
    "div",
    "mod",
    "pow",
    "lshift",
    "rshift",
    "and",
    "xor",
    "or",
)
_FUNCTIONAL_SUFFIX = "_functional"


@dataclass(frozen=True, slots=True)
class BaseOperatorName:
    """An operator name without overload: `add`, `add_` (inplace), `__iadd__`, `foo_functional`."""

    base: str
    inplace: bool
    dunder_method: bool
    functional_overload: bool = False

    def __str__(self) -> str:
        if self.dunder_method:
            return f"__{'i' if self.inplace else ''}{self.base}__"
        if self.inplace:
            return self.base + "_"
        if self.functional_overload:
            return self.base + _FUNCTIONAL_SUFFIX
        return self.base


@dataclass(frozen=True, slots=True)
class OperatorName:
    namespace: str | None  # as written; None when the schema names none
    name: BaseOperatorName
    overload_name: str

    @property
    def effective_namespace(self) -> str:
        return self.namespace or DEFAULT_NAMESPACE

    def unqualified(self) -> str:
        """`name.overload` (what torchgen prints)."""
        return f"{self.name}.{self.overload_name}" if self.overload_name else str(self.name)

    def full_name(self) -> str:
        """How operator sets, the registry and models name it: `aten::add.Tensor`, `aten::relu`."""
        return f"{self.effective_namespace}::{self.unqualified()}"

    def display(self) -> str:
        """The operator's key: `name.overload`, with `ns::` in front unless the namespace is aten."""
        if self.effective_namespace == DEFAULT_NAMESPACE:
            return self.unqualified()
        return f"{self.namespace}::{self.unqualified()}"

    def unambiguous_name(self) -> str:
        """`name_overload`, a C++ identifier unique among the operator's overloads."""
        return f"{self.name}_{self.overload_name}" if self.overload_name else str(self.name)

    def __str__(self) -> str:
        ns = f"{self.namespace}::" if self.namespace is not None else ""
        return ns + self.unqualified()

    @classmethod
    def parse(cls, text: str) -> OperatorName:
        """`[ns::]name[.overload]`; SchemaError on a mistake."""
        return parse_operator_name(text)


_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


_OPERATOR_NAME_RE = re.compile(
    r"(?:([A-Za-z_][A-Za-z0-9_]*)::)?([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z0-9_]+))?\Z"
)


def parse_operator_name(text: str, offset: int = 0) -> OperatorName:
    """Parse `[ns::]name[.overload]`; `offset` is where `text` starts in the schema."""
    m = _OPERATOR_NAME_RE.match(text)
    if m is not None:
        namespace, name, overload = m.groups()
        at = offset if namespace is None else offset + len(namespace) + 2
        return OperatorName(namespace, parse_base_operator_name(name, at), overload or "")
    # Not well formed: find the first mistake.
    namespace = None
    rest, rest_at = text, offset
    if "::" in text:
        namespace, rest = text.split("::", 1)
        rest_at = offset + len(namespace) + 2
        if not _IDENT_RE.match(namespace):
            raise SchemaError(
                f"invalid namespace `{namespace}`",
                offset,
                "a namespace is one identifier, e.g. `custom::my_op`",
            )
    name, dot, overload = rest.partition(".")
    if not name:
        raise SchemaError(
            "the schema has no operator name",
            rest_at,
            "a schema starts with the operator name, e.g. `add.Tensor(...)`",
        )
    if not _IDENT_RE.match(name):
        raise SchemaError(
            f"invalid operator name `{name}`",
            rest_at,
            "an operator name is an identifier (letters, digits, `_`), optionally"
            " followed by `.overload`; nested namespaces are not supported",
        )
    raise SchemaError(
        f"invalid overload name `{overload}`",
        rest_at + len(name) + 1,
        "an overload name is made of letters, digits and `_`, e.g. `add.Tensor`",
    )


_DUNDER_RE = re.compile(r"__([^_]+)__\Z")


def parse_base_operator_name(op: str, offset: int = 0) -> BaseOperatorName:
    if op.endswith("_out"):
        raise SchemaError(
            f"operator name `{op}` ends in `_out`, which is reserved",
            offset,
            f"make the out= variant an overload instead: `{op[:-4]}.out`",
        )
    m = _DUNDER_RE.match(op) if op.startswith("__") else None
    if m is not None:
        base = m.group(1)
        inplace = base.startswith("i") and base[1:] in AUGMENTED_ASSIGNMENT_NAMES
        if inplace:
            base = base[1:]
        elif base.startswith("i"):
            raise SchemaError(
                f"dunder method `{op}` starts with `i` but is not an augmented assignment",
                offset,
                "`__iNAME__` is read as the inplace form of `__NAME__`; only "
                + ", ".join(f"__i{n}__" for n in AUGMENTED_ASSIGNMENT_NAMES)
                + " are supported",
            )
        return BaseOperatorName(base, inplace, True)
    inplace = op.endswith("_")
    base = op[:-1] if inplace else op
    functional = base.endswith(_FUNCTIONAL_SUFFIX)
    if functional:
        if inplace:
            raise SchemaError(
                f"`{op}` cannot be both `_functional` and inplace", offset, "rename the operator"
            )
        base = base[: -len(_FUNCTIONAL_SUFFIX)]
    return BaseOperatorName(base, inplace, False, functional)


@dataclass(frozen=True)
class FunctionSchema:
    name: OperatorName
    arguments: Arguments
    returns: tuple[Return, ...]
    # Derived when constructed: every schema is classified and grouped.
    kind: str = field(init=False, repr=False, compare=False)  # FUNCTIONAL, INPLACE, ...
    group_key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", self._kind())
        object.__setattr__(self, "group_key", self._group_key())

    def is_out_fn(self) -> bool:
        return bool(self.arguments.out)

    def _kind(self) -> str:
        if self.name.name.inplace:
            return INPLACE
        out = self.arguments.out
        if out:
            if any(a.name.startswith(SCRATCH_PREFIX) for a in out):
                return SCRATCH
            return OUT
        if any(a.is_write for a in self.arguments.post_self_positional):
            return MUTABLE
        return FUNCTIONAL

    def _group_key(self) -> str:
        """What variants (functional/inplace/mutable/out) of one operator have in common.

        The base name without inplace/`_functional`, the non-out arguments without
        annotations, defaults and tensor options, and the returns without names and
        annotations plus one per written input that is not returned.  (A string: it is
        hashed and compared often, and is cheap to keep.)
        """
        args = self.arguments
        returns = self.returns
        written = []
        if args.out or any(a.is_write for a in args.positional):
            written = [
                a
                for a in ((args.self_arg,) if args.self_arg is not None else ())
                + args.out
                + args.post_self_positional
                if a.is_write and all(a.annotation != r.annotation for r in returns)
            ]
        name = self.name
        return "|".join(
            (
                name.effective_namespace,
                name.name.base,
                "dunder" if name.name.dunder_method else "",
                ", ".join([a.signature_text for a in args.positional]),
                ", ".join([a.signature_text for a in args.non_tensor_options_kwarg_only]),
                ", ".join([r.type_text for r in returns] + [str(a.type) for a in written]),
            )
        )

    def __str__(self) -> str:
        if len(self.returns) == 1:
            rets = str(self.returns[0])
        else:
            rets = "(" + ", ".join(str(r) for r in self.returns) + ")"
        return f"{self.name}({self.arguments}) -> {rets}"
