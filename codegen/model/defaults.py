"""Which default values each argument type accepts.

torchgen keeps a default as text and only finds out it is wrong (if ever) when the
generated C++ fails to compile.  `default_problem` says up front whether a default
makes sense for its type, and what to write instead.
"""

from __future__ import annotations

import re

from codegen.model.types import BaseType, CustomClassType, ListType, OptionalType, Type

INT_RE = re.compile(r"-?\d+\Z")
_FLOAT_RE = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\Z")

# Named constants a default may use, per base type, with their meaning in C++.
REDUCTIONS = {"Mean": "Reduction::Mean", "Sum": "Reduction::Sum"}
SCALAR_TYPES = {
    "long": "Long",
    "int": "Int",
    "short": "Short",
    "float": "Float",
    "double": "Double",
    "half": "Half",
    "bfloat16": "BFloat16",
    "bool": "Bool",
    "uint8": "Byte",
    "int8": "Char",
    "cfloat": "ComplexFloat",
    "cdouble": "ComplexDouble",
}
MEMORY_FORMATS = {
    "contiguous_format": "Contiguous",
    "preserve_format": "Preserve",
    "channels_last": "ChannelsLast",
    "channels_last_3d": "ChannelsLast3d",
}
LAYOUTS = {
    "strided": "Strided",
    "sparse_coo": "Sparse",
    "sparse_csr": "SparseCsr",
    "sparse_csc": "SparseCsc",
    "sparse_bsr": "SparseBsr",
    "sparse_bsc": "SparseBsc",
    "_mkldnn": "Mkldnn",
    "jagged": "Jagged",
}
QSCHEMES = {
    "per_tensor_affine",
    "per_channel_affine",
    "per_tensor_symmetric",
    "per_channel_symmetric",
    "per_channel_affine_float_qparams",
}


def _is_string(text: str) -> bool:
    return len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]


# The device strings the runtime's Device parses (runtime/device.cc); an index is a
# DeviceIndex, an int16_t.
_DEVICE_RE = re.compile(r"(?:cpu|meta|cuda(?::\d{1,5})?)\Z")
MAX_DEVICE_INDEX = 32767


def _is_device(text: str) -> bool:
    if not _is_string(text):
        return False
    body = text[1:-1]
    return bool(_DEVICE_RE.match(body)) and int(body.partition(":")[2] or 0) <= MAX_DEVICE_INDEX


def _expectation(t: Type) -> str:
    """What a default of type `t` looks like, for hints."""
    if isinstance(t, OptionalType):
        return "`None` or " + _expectation(t.elem)
    if isinstance(t, ListType):
        if t.size is not None:
            return (
                f"a list such as `[]` or `[{', '.join(['0'] * min(t.size, 2))}]`, or one "
                f"value repeated to length {t.size}"
            )
        return "a list literal such as `[]` or `[0,1]`"
    if isinstance(t, CustomClassType):
        return "nothing: custom class arguments cannot have defaults"
    name = t.base_name()
    return {
        "int": "an integer such as `0` or `-1` (or `Mean`/`Sum` for a reduction)",
        "SymInt": "an integer such as `0` or `-1`",
        "DeviceIndex": "an integer such as `0` or `-1`",
        "float": "a number such as `0.5` or `1e-05`",
        "Scalar": "a number such as `1` or `0.5`",
        "bool": "`True` or `False`",
        "SymBool": "`True` or `False`",
        "str": "a quoted string such as `'mean'`",
        "Device": 'a quoted device string: `"cpu"`, `"meta"`, `"cuda"` or `"cuda:N"` '
        f"(N from 0 to {MAX_DEVICE_INDEX})",
        "Tensor": "`[]` (an undefined tensor)",
        "ScalarType": "a dtype name: " + ", ".join(f"`{k}`" for k in SCALAR_TYPES),
        "MemoryFormat": "one of " + ", ".join(f"`{k}`" for k in MEMORY_FORMATS),
        "Layout": "one of " + ", ".join(f"`{k}`" for k in LAYOUTS),
        "QScheme": "one of " + ", ".join(f"`{k}`" for k in sorted(QSCHEMES)),
    }.get(
        name or "", f"nothing: `{t}` arguments cannot have defaults (except `None` when optional)"
    )


def _valid_scalar(name: str | None, text: str) -> bool:
    if name in ("int", "SymInt", "DeviceIndex"):
        return bool(INT_RE.match(text)) or (name == "int" and text in REDUCTIONS)
    if name == "float":
        return bool(_FLOAT_RE.match(text))
    if name == "Scalar":
        return bool(_FLOAT_RE.match(text)) or text in ("True", "False")
    if name in ("bool", "SymBool"):
        return text in ("True", "False")
    if name == "str":
        return _is_string(text)
    if name == "Device":
        return _is_device(text)
    if name == "Tensor":
        return text == "[]"
    if name == "ScalarType":
        return text in SCALAR_TYPES
    if name == "MemoryFormat":
        return text in MEMORY_FORMATS
    if name == "Layout":
        return text in LAYOUTS
    if name == "QScheme":
        return text in QSCHEMES
    return False


def _valid(t: Type, text: str) -> bool:
    if isinstance(t, OptionalType):
        return text == "None" or _valid(t.elem, text)
    if isinstance(t, ListType):
        if text.startswith("[") and text.endswith("]"):
            inner = text[1:-1].strip()
            if not inner:
                return True
            return all(_valid(t.elem, item.strip()) for item in inner.split(","))
        return t.size is not None and _valid(t.elem, text)
    if isinstance(t, BaseType):
        return _valid_scalar(t.name, text)
    return False


def default_problem(t: Type, text: str) -> tuple[str, str] | None:
    """None if `text` is a valid default for type `t`, else (what is wrong, what to write)."""
    if _valid(t, text):
        return None
    if text == "None" and not isinstance(t, OptionalType):
        return (
            f"default `None` is not valid for the non-optional type `{t}`",
            f"make the type optional (`{t}?`) or give {_expectation(t)}",
        )
    return (f"default `{text}` is not valid for type `{t}`", f"expected {_expectation(t)}")
