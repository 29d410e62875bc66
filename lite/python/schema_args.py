"""An operator call's arguments in schema order, encoded as lite-format `Arg`s (needs torch).

`encode_arguments(op, node, slot_of)` maps an fx node's `args` and `kwargs` onto the
operator's schema: positional and keyword-only arguments both become positions; the
list stops at the last argument the node actually gives; a gap before it takes the
schema's default. Each value is encoded by the schema's argument type (its `real_type`,
which keeps ScalarType, Layout and MemoryFormat apart from int) and the Python value.
Anything the format has no tag for raises `ConvertError`.

Dynamic shapes (version 2): a scalar the graph computes (a node whose value is a
SymInt, SymFloat or SymBool: `sym_size_int_1`, `mul_77`) given for an int, float, bool
or Scalar is tag 1 naming its slot; an int list with such nodes among its elements is
tag 15 (SymInt[]). A symbolic value with no node of its own cannot be read at run time
and is refused.
"""

import torch
from lite_model import DEVICE_TYPES, DTYPE_CODES, MEMORY_FORMATS, SYM_CONST, SYM_SLOT, Arg, Tag


class ConvertError(Exception):
    """A graph the format cannot express; the CLI prefixes the file and the node."""


# torch dtypes the format has codes for (FORMAT.md: PyTorch's ScalarType numbers).
TORCH_DTYPES = {getattr(torch, name): code for name, code in DTYPE_CODES.items()}

# torch memory formats and device types by their codes' names in lite_model.
TORCH_MEMORY_FORMATS = {
    getattr(torch, name if name.startswith("channels") else name + "_format"): code
    for code, name in MEMORY_FORMATS.items()
}
_DEVICE_TYPES = {name: code for code, name in DEVICE_TYPES.items()}


def dtype_code(dtype, what: str) -> int:
    """The format's code for a torch dtype, or ConvertError naming it."""
    if dtype not in TORCH_DTYPES:
        names = ", ".join(str(d).replace("torch.", "") for d in TORCH_DTYPES)
        raise ConvertError(
            f"{what} has dtype {str(dtype).replace('torch.', '')}, which the format cannot hold "
            f"(supported: {names})"
        )
    return TORCH_DTYPES[dtype]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_SYMBOLIC = (torch.SymInt, torch.SymFloat, torch.SymBool)


def is_scalar_node(value) -> bool:
    """Whether `value` is a graph node computing a scalar (its meta['val'] is no tensor)."""
    return isinstance(value, torch.fx.Node) and isinstance(
        value.meta.get("val"), _SYMBOLIC + (int, float, bool)
    )


def _slot(value, slot_of, what: str) -> int:
    if not isinstance(value, torch.fx.Node):
        raise ConvertError(f"{what}: expected a tensor from the graph, got {value!r}")
    if value not in slot_of:
        raise ConvertError(
            f"{what}: '{value.name}' is not a single tensor value (index a multi-output node first)"
        )
    if is_scalar_node(value):
        raise ConvertError(
            f"{what}: '{value.name}' is a scalar ({value.meta['val']}), not a tensor"
        )
    return slot_of[value]


def _scalar_slot(value, slot_of, what: str) -> int:
    """The slot of a scalar node given for an int, float, bool or Scalar argument."""
    if not is_scalar_node(value) or value not in slot_of:
        raise ConvertError(
            f"{what}: '{value.name}' is not a scalar the graph computes (a tensor was given "
            "where the schema wants a number)"
        )
    return slot_of[value]


def _no_node(value, what: str) -> ConvertError:
    """A symbolic value passed as it is: the graph has no node to compute it at run time."""
    free = sorted(str(s) for s in value.node.expr.free_symbols)
    unbacked = [s for s in free if s.startswith("u")]
    kind = (
        f"depends on data (unbacked {', '.join(unbacked)})"
        if unbacked
        else "is an expression no graph node computes"
    )
    return ConvertError(
        f"{what} is the symbolic value {value}, which {kind}; the format reads symbolic "
        "values only from node outputs: compute it in forward() from tensor sizes "
        "(x.shape[d]), or export with a static size for it"
    )


def _int(value, what: str) -> int:
    if isinstance(value, _SYMBOLIC):
        raise _no_node(value, what)
    if not _is_int(value) and not isinstance(value, bool):
        raise ConvertError(f"{what}: expected an int, got {value!r}")
    return int(value)


def _float(value, what: str) -> float:
    if isinstance(value, _SYMBOLIC):
        raise _no_node(value, what)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ConvertError(f"{what}: expected a float, got {value!r}")
    return float(value)


def _scalar(value, what: str) -> Arg:
    if isinstance(value, _SYMBOLIC):
        raise _no_node(value, what)
    if isinstance(value, bool):
        return Arg(Tag.BOOL, value)
    if _is_int(value):
        return Arg(Tag.INT, value)
    if isinstance(value, float):
        return Arg(Tag.FLOAT, value)
    raise ConvertError(
        f"{what}: a Scalar of {value!r} ({type(value).__name__}) has no tag in the format "
        "(int, float and bool only; complex is not supported)"
    )


def _device(value, what: str) -> Arg:
    device = torch.device(value) if isinstance(value, (str, int)) else value
    if not isinstance(device, torch.device) or device.type not in _DEVICE_TYPES:
        raise ConvertError(f"{what}: device {value!r} is not one of {sorted(_DEVICE_TYPES)}")
    return Arg(
        Tag.DEVICE, (_DEVICE_TYPES[device.type], -1 if device.index is None else device.index)
    )


def encode_value(type_str: str, size: int, value, slot_of, what: str, lift=None) -> Arg:
    """One argument: the schema's type spelling (`Optional[List[int]]`, ...) and its value.

    `lift(number)`, when given, turns a Python number passed for a Tensor (a wrapped
    number, as in `aten::mul.Tensor(x, 2)`) into the slot of a 0-dim constant, and a
    scalar node passed for a Tensor into the slot of a 0-dim tensor made from it.
    """
    if type_str.startswith("Optional[") and type_str.endswith("]"):
        if value is None:
            return Arg(Tag.NONE)
        type_str = type_str[len("Optional[") : -1]
    if type_str == "Tensor":
        if lift is not None and (isinstance(value, (bool, int, float)) or is_scalar_node(value)):
            return Arg(Tag.VALUE, lift(value))
        return Arg(Tag.VALUE, _slot(value, slot_of, what))
    if type_str in ("int", "SymInt", "float", "bool", "number", "Scalar") and isinstance(
        value, torch.fx.Node
    ):
        return Arg(Tag.VALUE, _scalar_slot(value, slot_of, what))
    if type_str in ("int", "SymInt"):
        return Arg(Tag.INT, _int(value, what))
    if type_str == "float":
        return Arg(Tag.FLOAT, _float(value, what))
    if type_str == "bool":
        if not isinstance(value, bool):
            raise ConvertError(f"{what}: expected a bool, got {value!r}")
        return Arg(Tag.BOOL, value)
    if type_str in ("number", "Scalar"):
        return _scalar(value, what)
    if type_str == "str":
        if not isinstance(value, str):
            raise ConvertError(f"{what}: expected a str, got {value!r}")
        return Arg(Tag.STR, value)
    if type_str in ("List[int]", "List[SymInt]"):
        if _is_int(value) or isinstance(value, (torch.SymInt, torch.fx.Node)):
            value = [value] * max(size or 1, 1)  # int[N] given as one int
        if any(isinstance(v, torch.fx.Node) for v in value):  # SymInt[] (version 2)
            return Arg(
                Tag.SYM_INTS,
                tuple(
                    (SYM_SLOT, _scalar_slot(v, slot_of, f"{what}[{i}]"))
                    if isinstance(v, torch.fx.Node)
                    else (SYM_CONST, _int(v, f"{what}[{i}]"))
                    for i, v in enumerate(value)
                ),
            )
        return Arg(Tag.INTS, tuple(_int(v, f"{what}[{i}]") for i, v in enumerate(value)))
    if type_str == "List[float]":
        return Arg(Tag.FLOATS, tuple(_float(v, f"{what}[{i}]") for i, v in enumerate(value)))
    if type_str == "List[bool]":
        if isinstance(value, bool):
            value = [value] * max(size or 1, 1)
        if not all(isinstance(v, bool) for v in value):
            raise ConvertError(f"{what}: expected bools, got {value!r}")
        return Arg(Tag.BOOLS, tuple(value))
    if type_str == "List[Tensor]":
        return Arg(
            Tag.TENSORS, tuple(_slot(v, slot_of, f"{what}[{i}]") for i, v in enumerate(value))
        )
    if type_str == "List[Optional[Tensor]]":
        return Arg(
            Tag.OPT_TENSORS,
            tuple(
                None if v is None else _slot(v, slot_of, f"{what}[{i}]")
                for i, v in enumerate(value)
            ),
        )
    if type_str == "ScalarType":
        if _is_int(value) and value in TORCH_DTYPES.values():
            return Arg(Tag.SCALAR_TYPE, value)
        return Arg(Tag.SCALAR_TYPE, dtype_code(value, what))
    if type_str == "Layout":
        if value not in (torch.strided, 0):
            raise ConvertError(f"{what}: layout {value!r}; the format holds torch.strided only")
        return Arg(Tag.LAYOUT, 0)
    if type_str == "Device":
        return _device(value, what)
    if type_str == "MemoryFormat":
        if _is_int(value) and value in TORCH_MEMORY_FORMATS.values():
            return Arg(Tag.MEMORY_FORMAT, value)
        if value not in TORCH_MEMORY_FORMATS:
            raise ConvertError(
                f"{what}: memory format {value!r} is not one of {list(TORCH_MEMORY_FORMATS)}"
            )
        return Arg(Tag.MEMORY_FORMAT, TORCH_MEMORY_FORMATS[value])
    raise ConvertError(
        f"{what} has schema type {type_str}, which has no tag in the format (FORMAT.md, arg)"
    )


def encode_arguments(
    op: torch._ops.OpOverload, node: torch.fx.Node, slot_of: dict, lift=None
) -> list:
    """The node's arguments in schema order, up to the last one given (out= never).

    `lift(name, number)` makes a 0-dim constant for a number given as a Tensor argument.
    """
    schema_args = [a for a in op._schema.arguments if not a.is_out]
    given = {}
    if len(node.args) > len(schema_args):
        raise ConvertError(
            f"{len(node.args)} positional arguments, but the schema has {len(schema_args)}"
        )
    for arg, value in zip(schema_args, node.args):
        given[arg.name] = value
    names = [a.name for a in schema_args]
    for key, value in node.kwargs.items():
        if key not in names:
            raise ConvertError(
                f"keyword argument '{key}' is not in the schema (out= arguments are not supported)"
            )
        if key in given:
            raise ConvertError(f"argument '{key}' is given twice")
        given[key] = value
    last = max((names.index(k) for k in given), default=-1)
    encoded = []
    for arg in schema_args[: last + 1]:
        what = f"argument '{arg.name}'"
        if arg.name in given:
            value = given[arg.name]
        elif arg.has_default_value():
            value = arg.default_value
        else:
            raise ConvertError(f"{what} is missing and has no default in the schema")
        lift_arg = None if lift is None else (lambda number, name=arg.name: lift(name, number))
        encoded.append(encode_value(str(arg.real_type), arg.N, value, slot_of, what, lift_arg))
    return encoded
