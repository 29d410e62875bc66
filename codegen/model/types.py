"""Types and alias annotations of the schema language.

A type is a base type (`Tensor`, `int`, ...), an optional (`T?`), a list (`T[]`,
`T[N]`) or a custom class (`__torch__.torch.classes.ns.Name`).  `str()` gives the
canonical spelling back.  Alias annotations (`a`, `a!`, `a -> *`, `a! -> a|b`) are
kept apart from the type, as in the schema text they sit right after `Tensor`.

This module is the bottom of the model: it imports nothing else from it.  Types are
parsed from text by `codegen.model.schema_parser.parse_type`.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass


class SchemaError(Exception):
    """A mistake in a schema string, `offset` characters from its start."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint

    def shifted(self, by: int) -> SchemaError:
        return SchemaError(self.message, self.offset + by, self.hint)


# The base types the schema language knows, with what each is for.
BASE_TYPES = (
    "Tensor",
    "Scalar",
    "int",
    "SymInt",
    "float",
    "bool",
    "SymBool",
    "str",
    "ScalarType",
    "Layout",
    "Device",
    "DeviceIndex",
    "MemoryFormat",
    "QScheme",
    "Generator",
    "Storage",
    "Stream",
    "DimVector",
    "GraphModule",
)
_BASE_SET = frozenset(BASE_TYPES)
CUSTOM_CLASS_PREFIX = "__torch__.torch.classes."


class Type:
    """Base class of all schema types."""

    __slots__ = ()

    def is_tensor_like(self) -> bool:
        """Tensor, Tensor?, Tensor[], Tensor?[] ..."""
        raise NotImplementedError

    def base_name(self) -> str | None:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class BaseType(Type):
    name: str

    def __str__(self) -> str:
        return self.name

    def is_tensor_like(self) -> bool:
        return self.name == "Tensor"

    def base_name(self) -> str | None:
        return self.name


@dataclass(frozen=True, slots=True)
class OptionalType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"{self.elem}?"

    def is_tensor_like(self) -> bool:
        return self.elem.is_tensor_like()

    def base_name(self) -> str | None:
        return self.elem.base_name()


@dataclass(frozen=True, slots=True)
class ListType(Type):
    elem: Type
    size: int | None

    def __str__(self) -> str:
        return f"{self.elem}[{'' if self.size is None else self.size}]"

    def is_tensor_like(self) -> bool:
        return self.elem.is_tensor_like()

    def base_name(self) -> str | None:
        return self.elem.base_name()


@dataclass(frozen=True, slots=True)
class CustomClassType(Type):
    class_name: str

    def __str__(self) -> str:
        return CUSTOM_CLASS_PREFIX + self.class_name

    def is_tensor_like(self) -> bool:
        return False

    def base_name(self) -> str | None:
        return None


TENSOR = BaseType("Tensor")

_SUFFIX_RE = re.compile(r"\?|\[(\d*)\]")


def base_type(name: str, offset: int = 0) -> Type:
    """The type named `name` (no suffixes); SchemaError if there is no such type."""
    if name in _BASE_SET:
        return BaseType(name)
    if name.startswith(CUSTOM_CLASS_PREFIX) and len(name) > len(CUSTOM_CLASS_PREFIX):
        return CustomClassType(name[len(CUSTOM_CLASS_PREFIX) :])
    close = difflib.get_close_matches(name, BASE_TYPES, n=1)
    if not close:
        close = [t for t in BASE_TYPES if t.lower() == name.lower()]
    hint = (
        f"did you mean `{close[0]}`?"
        if close
        else "known types: " + ", ".join(BASE_TYPES) + f", or {CUSTOM_CLASS_PREFIX}NAME"
    )
    raise SchemaError(f"unknown type `{name}`", offset, hint)


def apply_suffixes(t: Type, suffixes: str, offset: int = 0) -> Type:
    """Wrap `t` in the `?` and `[N]` suffixes of `suffixes` (e.g. "[2]?"), left to right.

    `offset` is where `suffixes` starts in the schema, for error positions.
    """
    pos = 0
    while pos < len(suffixes):
        m = _SUFFIX_RE.match(suffixes, pos)
        if m is None:
            raise SchemaError(
                f"unexpected `{suffixes[pos]}` after type `{t}`",
                offset + pos,
                "a type may end in `?` (optional) or `[]`/`[N]` (list)",
            )
        if m.group(0) == "?":
            if isinstance(t, OptionalType):
                raise SchemaError(f"`{t}` is already optional", offset + pos, "write one `?`")
            t = OptionalType(t)
        else:
            if isinstance(t, ListType) or (
                isinstance(t, OptionalType) and isinstance(t.elem, ListType)
            ):
                raise SchemaError(
                    "lists of lists are not supported",
                    offset + pos,
                    "use a flat list such as `int[]`",
                )
            size_s = m.group(1)
            size = int(size_s) if size_s else None
            if size == 0:
                raise SchemaError(
                    "a list size must be at least 1",
                    offset + pos + 1,
                    f"write `{t}[]` for a list of any length",
                )
            if size is None and str(t) == "bool":
                raise SchemaError(
                    "a `bool` list needs a fixed size",
                    offset + pos,
                    "write e.g. `bool[3]`: it becomes std::array<bool, 3> in C++",
                )
            t = ListType(t, size)
        pos = m.end()
    return t


@dataclass(frozen=True, slots=True)
class Annotation:
    """An alias annotation: `a`, `a!`, `a|b`, `a -> *`, `a! -> a|b`."""

    alias_set: tuple[str, ...]
    is_write: bool
    alias_set_after: tuple[str, ...]

    def __str__(self) -> str:
        s = "|".join(self.alias_set)
        if self.is_write:
            s += "!"
        if self.alias_set_after:
            s += " -> " + "|".join(self.alias_set_after)
        return s

    @classmethod
    def parse(cls, text: str) -> Annotation:
        """The inside of `Tensor(...)`, e.g. `a! -> a|b`, in canonical spelling."""
        a = parse_annotation(text)
        if str(a) != text:
            raise SchemaError(
                f"`({text})` is not written in canonical form", 0, f"write it as: ({a})"
            )
        return a


_ANNOTATION_RE = re.compile(
    r"\s*([a-z](?:\s*\|\s*[a-z])*)\s*(!?)\s*(?:->\s*(\*|[a-z](?:\s*\|\s*[a-z])*)\s*)?\Z"
)
_ANNOTATION_HINT = "an alias annotation looks like `(a)`, `(a!)`, `(a -> *)` or `(a! -> a|b)`"


def parse_annotation(text: str, offset: int = 0) -> Annotation:
    """Parse the inside of `Tensor(...)`; `offset` is where `text` starts in the schema."""
    m = _ANNOTATION_RE.match(text)
    if m is None:
        raise SchemaError(f"invalid alias annotation `({text})`", offset, _ANNOTATION_HINT)
    before = tuple(s.strip() for s in m.group(1).split("|"))
    is_write = m.group(2) == "!"
    after = tuple(s.strip() for s in m.group(3).split("|")) if m.group(3) else ()
    if is_write and len(before) > 1:
        raise SchemaError(
            f"a written (`!`) alias set must have one member, not `{m.group(1)}`",
            offset,
            "write `(a!)`",
        )
    if len(before) > 1 and len(after) > 1:
        raise SchemaError(
            "an annotation cannot have several alias sets both before and after `->`",
            offset,
            _ANNOTATION_HINT,
        )
    return Annotation(before, is_write, after)
