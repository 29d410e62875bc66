"""C++ types and bindings, as the generated code spells them.

Our runtime types (Tensor, Scalar, IntArrayRef, ...) are written unqualified: the
generated code lives inside the library's own namespace, which provides them.
Standard types are fully qualified (`::std::optional<int64_t>`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from codegen.model.schema import Argument


class CType:
    def cpp(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.cpp()


@dataclass(frozen=True)
class BaseCType(CType):
    name: str

    def cpp(self) -> str:
        return self.name


@dataclass(frozen=True)
class ConstRefCType(CType):
    elem: CType

    def cpp(self) -> str:
        return f"const {self.elem.cpp()} &"


@dataclass(frozen=True)
class MutRefCType(CType):
    elem: CType

    def cpp(self) -> str:
        return f"{self.elem.cpp()} &"


@dataclass(frozen=True)
class OptionalCType(CType):
    elem: CType

    def cpp(self) -> str:
        return f"::std::optional<{self.elem.cpp()}>"


@dataclass(frozen=True)
class ArrayRefCType(CType):
    elem: CType

    def cpp(self) -> str:
        return f"ArrayRef<{self.elem.cpp()}>"


@dataclass(frozen=True)
class VectorCType(CType):
    elem: CType

    def cpp(self) -> str:
        return f"::std::vector<{self.elem.cpp()}>"


@dataclass(frozen=True)
class ArrayCType(CType):
    elem: CType
    size: int

    def cpp(self) -> str:
        return f"::std::array<{self.elem.cpp()},{self.size}>"


@dataclass(frozen=True)
class TupleCType(CType):
    elems: tuple[CType, ...]

    def cpp(self) -> str:
        return f"::std::tuple<{','.join(e.cpp() for e in self.elems)}>"


# The runtime types the generated signatures name unqualified: the generated Types.h
# brings each into the library's namespace (`using ::sops::Tensor;`).
RUNTIME_TYPES = (
    "ArrayRef",
    "Device",
    "DeviceIndex",
    "DimVector",
    "Generator",
    "IntArrayRef",
    "IOptTensorListRef",
    "ITensorListRef",
    "Layout",
    "MemoryFormat",
    "OptionalArrayRef",
    "OptionalIntArrayRef",
    "OptionalScalarRef",
    "OptionalSymIntArrayRef",
    "OptionalTensorRef",
    "QScheme",
    "Reduction",
    "Scalar",
    "ScalarType",
    "Storage",
    "Stream",
    "SymBool",
    "SymInt",
    "SymIntArrayRef",
    "Tensor",
    "TensorList",
    "TensorOptions",
)
# The runtime's type aliases, spelled out (runtime/native_types.h): overloads whose
# parameter types are aliases of each other have one C++ signature.
_ALIASES = {
    "SymInt": "int64_t",
    "SymBool": "bool",
    "DeviceIndex": "int16_t",
    "IntArrayRef": "ArrayRef<int64_t>",
    "SymIntArrayRef": "ArrayRef<int64_t>",
    "OptionalIntArrayRef": "::std::optional<ArrayRef<int64_t>>",
    "OptionalSymIntArrayRef": "::std::optional<ArrayRef<int64_t>>",
    "TensorList": "ArrayRef<Tensor>",
    "ITensorListRef": "ArrayRef<Tensor>",
}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parameter_types(bindings) -> tuple[str, ...]:
    """What tells C++ overloads apart: the parameter types, aliases spelled out."""
    return tuple(_spelled_out(b.type) for b in bindings)


@functools.cache
def _spelled_out(t: CType) -> str:
    return _IDENTIFIER.sub(lambda m: _ALIASES.get(m.group(0), m.group(0)), t.cpp()).replace(" ", "")


TENSOR = BaseCType("Tensor")
SCALAR = BaseCType("Scalar")
VOID = BaseCType("void")
INT64 = BaseCType("int64_t")
SYMINT = BaseCType("SymInt")
BOOL = BaseCType("bool")
INT_ARRAY_REF = BaseCType("IntArrayRef")
SYMINT_ARRAY_REF = BaseCType("SymIntArrayRef")
OPTIONAL_INT_ARRAY_REF = BaseCType("OptionalIntArrayRef")
OPTIONAL_SYMINT_ARRAY_REF = BaseCType("OptionalSymIntArrayRef")

# Schema base types that are passed by value, and their C++ type.
VALUE_TYPES = {
    "int": INT64,
    "float": BaseCType("double"),
    "bool": BOOL,
    "str": BaseCType("::std::string_view"),
    "SymBool": BaseCType("SymBool"),
    "ScalarType": BaseCType("ScalarType"),
    "Layout": BaseCType("Layout"),
    "Device": BaseCType("Device"),
    "DeviceIndex": BaseCType("DeviceIndex"),
    "MemoryFormat": BaseCType("MemoryFormat"),
    "QScheme": BaseCType("QScheme"),
    "Generator": BaseCType("Generator"),
    "Storage": BaseCType("Storage"),
    "Stream": BaseCType("Stream"),
    "DimVector": BaseCType("DimVector"),
    "GraphModule": BaseCType("GraphModule"),
}


@dataclass(frozen=True)
class Binding:
    """One C++ parameter, `type name = default`, and the schema argument it stands for.

    `argument` is what translation (codegen/api/translate.py) matches on: the call
    arguments of one C++ API are computed from another API's bindings through the schema
    arguments they share, never by comparing C++ spellings.
    """

    name: str
    type: CType
    argument: Argument
    default: str | None = None

    def decl(self, with_default: bool = True) -> str:
        s = f"{self.type.cpp()} {self.name}"
        if with_default and self.default is not None:
            s += f"={self.default}"
        return s

    def no_default(self) -> Binding:
        return Binding(self.name, self.type, self.argument)
