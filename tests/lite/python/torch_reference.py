"""Runs a parsed lite model with PyTorch's own operators (needs torch): a test oracle.

Every node calls `torch.ops.<ns>.<name>.<overload>` with its arguments decoded by the
operator's schema (positions up to the first keyword-only one, then keywords), so a
model whose arguments the converter encoded wrongly computes something else or fails.
"""

import torch
from lite_model import Tag
from schema_args import TORCH_DTYPES, TORCH_MEMORY_FORMATS

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
    return value


def run(model, inputs) -> list:
    """The model's outputs for `inputs` (tensors, in the model's input order)."""
    values = {c.slot: constant_tensor(c) for c in model.constants}
    for spec, tensor in zip(model.inputs, inputs, strict=True):
        assert (_DTYPES[spec.desc.dtype], spec.desc.sizes) == (tensor.dtype, tuple(tensor.shape)), (
            spec.name
        )
        values[spec.slot] = tensor
    for node in model.nodes:
        op = resolve(model.operators[node.op])
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
