"""Runs a parsed lite model with PyTorch's own operators (needs torch): a test oracle.

Every node calls `torch.ops.<ns>.<name>.<overload>` with its arguments decoded by the
operator's schema (positions up to the first keyword-only one, then keywords), so a
model whose arguments the converter encoded wrongly computes something else or fails.

A version-2 model (dynamic shapes) binds its symbols from the inputs' shapes, as
FORMAT.md's "Binding at run time" says (`bind`), and evaluates its `sym::` nodes with
Python's own operators (`SYM_EVAL`, written from FORMAT.md's table, not from the
converter's map); a SymInt[] argument is a list of ints and scalar slots' values.
"""

import math
import operator

import torch
from lite_model import INT64_MAX, SYM_CONST, SYM_PREFIX, Tag
from schema_args import TORCH_DTYPES, TORCH_MEMORY_FORMATS


def _floordiv(a, b):
    if b == 0:
        raise ZeroDivisionError("sym::floordiv by 0")
    return a // b


def _assert(cond, message):
    if not cond:
        raise AssertionError(f"sym::assert failed: {message}")


# FORMAT.md's scalar operators, with Python's semantics (what torch.export recorded).
SYM_EVAL = {
    "sym::add": operator.add,
    "sym::sub": operator.sub,
    "sym::mul": operator.mul,
    "sym::floordiv": _floordiv,
    "sym::mod": operator.mod,
    "sym::truediv": operator.truediv,
    "sym::pow": operator.pow,
    "sym::neg": operator.neg,
    "sym::eq": operator.eq,
    "sym::ne": operator.ne,
    "sym::lt": operator.lt,
    "sym::le": operator.le,
    "sym::gt": operator.gt,
    "sym::ge": operator.ge,
    "sym::and": lambda a, b: bool(a) and bool(b),
    "sym::or": lambda a, b: bool(a) or bool(b),
    "sym::not": operator.not_,
    "sym::max": max,
    "sym::min": min,
    "sym::float": float,
    "sym::int": math.trunc,
    "sym::ceil": math.ceil,
    "sym::floor": math.floor,
    "sym::sqrt": lambda a: math.sqrt(a),
    "sym::ite": lambda c, a, b: a if c else b,
    "sym::assert": _assert,
}

_DTYPES = {code: dtype for dtype, code in TORCH_DTYPES.items()}
_MEMORY_FORMATS = {code: fmt for fmt, code in TORCH_MEMORY_FORMATS.items()}


def resolve(name: str):
    """The OpOverload named `ns::name[.overload]`."""
    namespace, rest = name.split("::")
    base, _, overload = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, namespace), base), overload or "default")


def constant_tensor(constant) -> torch.Tensor:
    dtype = _DTYPES[constant.desc.dtype]
    storage = torch.int16 if dtype == torch.bfloat16 else dtype
    flat = (
        torch.frombuffer(bytearray(constant.data), dtype=storage)
        if constant.data
        else torch.empty(0, dtype=storage)
    )
    return flat.view(dtype).reshape(constant.desc.sizes)


def _decode(arg, values):
    tag, value = arg.tag, arg.value
    if tag == Tag.VALUE:
        return values[value]
    if tag == Tag.TENSORS:
        return [values[s] for s in value]
    if tag == Tag.OPT_TENSORS:
        return [None if s is None else values[s] for s in value]
    if tag in (Tag.INTS, Tag.FLOATS, Tag.BOOLS):
        return list(value)
    if tag == Tag.SCALAR_TYPE:
        return _DTYPES[value]
    if tag == Tag.LAYOUT:
        return torch.strided
    if tag == Tag.DEVICE:
        return torch.device(("cpu", "cuda", "meta")[value[0]], None if value[1] < 0 else value[1])
    if tag == Tag.MEMORY_FORMAT:
        return _MEMORY_FORMATS[value]
    if tag == Tag.SYM_INTS:
        return [payload if kind == SYM_CONST else values[payload] for kind, payload in value]
    return value


class BindError(ValueError):
    """Inputs whose shapes do not fit the model's (static sizes, symbols and ranges)."""


def bind(model, inputs) -> dict:
    """{symbol index: size} from the inputs' shapes; BindError as FORMAT.md words it."""
    bound, where = {}, {}
    for spec, tensor in zip(model.inputs, inputs, strict=True):
        if _DTYPES[spec.desc.dtype] != tensor.dtype or len(spec.desc.sizes) != tensor.dim():
            raise BindError(f"input '{spec.name}': {tensor.dtype} {list(tensor.shape)} for {spec}")
        for d, (size, seen) in enumerate(zip(spec.desc.sizes, tensor.shape)):
            if size >= 0:
                if size != seen:
                    raise BindError(f"input '{spec.name}' dimension {d} is {seen}, not {size}")
                continue
            k = -1 - size
            sym = model.symbols[k]
            if k in bound:
                if bound[k] != seen:
                    raise BindError(
                        f"input '{spec.name}' dimension {d} is {seen}, but symbol '{sym.name}' "
                        f"is {bound[k]} (from {where[k]})"
                    )
            elif not sym.min <= seen <= sym.max:
                high = "inf" if sym.max == INT64_MAX else sym.max
                raise BindError(
                    f"input '{spec.name}' dimension {d} is {seen}: symbol '{sym.name}' must be "
                    f"in [{sym.min}, {high}]"
                )
            else:
                bound[k], where[k] = seen, f"input '{spec.name}' dimension {d}"
    return bound


def run(model, inputs) -> list:
    """The model's outputs for `inputs` (tensors, in the model's input order)."""
    values = {c.slot: constant_tensor(c) for c in model.constants}
    bind(model, inputs)
    for spec, tensor in zip(model.inputs, inputs, strict=True):
        values[spec.slot] = tensor
    for node in model.nodes:
        name = model.operators[node.op]
        if name.startswith(SYM_PREFIX):
            result = SYM_EVAL[name](*(_decode(arg, values) for arg in node.args))
            values.update(zip(node.outs, [result]))
            continue
        op = resolve(name)
        schema = [a for a in op._schema.arguments if not a.is_out]
        positional, keywords = [], {}
        for spec, arg in zip(schema, node.args):
            if spec.kwarg_only:
                keywords[spec.name] = _decode(arg, values)
            else:
                positional.append(_decode(arg, values))
        result = op(*positional, **keywords)
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        assert len(results) == len(node.outs), (
            f"{node.name}: {len(results)} results for {len(node.outs)} slots"
        )
        values.update(zip(node.outs, results))
    return [values[out.slot] for out in model.outputs]
