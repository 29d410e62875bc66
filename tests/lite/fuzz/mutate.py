"""Structural mutations of lite models (lite/FORMAT.md) and of .npy inputs.

A model mutant is a well-formed model (or one that breaks exactly one rule of the
format, for the loader to refuse) whose *content* is hostile: sizes, strides, storage
offsets, constants' values and dtypes, argument values (huge, negative, INT64_MIN/MAX,
0), argument kinds, graph wiring (which slot a node reads or the model outputs),
operator names. An .npy mutant is an input file that lies: Fortran order, big-endian,
a shape that does not match its data, 0-d, huge dimensions, truncated data.

Each mutation returns a short name ("arg:split.Tensor:1:int=-9223372036854775808")
that the fuzzer uses to name what it found.
"""

import copy
import math
import struct

from lite_model import DTYPES, MAX_NDIM, Arg, Node, Output, Tag, TensorDesc

I64_MIN, I64_MAX = -(2**63), 2**63 - 1
INTERESTING_INTS = (
    0,
    1,
    -1,
    2,
    -2,
    3,
    7,
    64,
    65536,
    2**31 - 1,
    2**31,
    -(2**31),
    2**32,
    2**40,
    2**48,
    2**61,
    2**62,
    I64_MAX,
    I64_MAX - 1,
    I64_MIN,
    I64_MIN + 1,
)
INTERESTING_FLOATS = (
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1e-300,
    5e-324,
    1e9,
    1e18,
    2.0**63,
    -(2.0**63),
    1e308,
    -1e308,
    math.inf,
    -math.inf,
    math.nan,
)
STRINGS = ("", "floor", "trunc", "none", "tanh", "sum", "mean", "amax", "prod", "x" * 300, "\u00e9")
OPERATOR_NAMES = (
    "aten::add.Tensor",
    "aten::mul.Tensor",
    "aten::view",
    "aten::expand",
    "aten::as_strided",
    "aten::sum.dim_IntList",
    "aten::mean.dim",
    "aten::mm",
    "aten::bmm",
    "aten::cat",
    "aten::split.Tensor",
    "aten::split_with_sizes",
    "aten::permute",
    "aten::select.int",
    "aten::slice.Tensor",
    "aten::clone",
    "aten::_to_copy",
    "aten::full",
    "aten::arange.start_step",
    "aten::constant_pad_nd",
    "aten::repeat",
    "aten::index.Tensor",
    "aten::embedding",
    "aten::nonzero",
    "aten::sort",
    "aten::topk",
    "aten::add_.Tensor",  # writes its argument: refused
    "aten::copy_",
    "aten::resize_",
    "aten::add",  # no such overload
    "aten::no_such_operator",
    "prims::add",
    "aten::add.Tensor.Tensor",
)


def _defined_before(model, node_index):
    """The slots defined before node `node_index` runs."""
    slots = [c.slot for c in model.constants] + [i.slot for i in model.inputs]
    for node in model.nodes[:node_index]:
        slots += node.outs
    return slots


def _element_size(dtype):
    return DTYPES[dtype][1]


def _random_data(rng, dtype, n):
    """`n` elements of `dtype`, little-endian, drawn to be hostile."""
    if n == 0:
        return b""
    if dtype == 11:
        return bytes(rng.choice((0, 1)) for _ in range(n))
    name = DTYPES[dtype][0]
    if name.startswith("float") or name == "bfloat16":
        values = [rng.choice(INTERESTING_FLOATS) for _ in range(n)]
        if name == "float64":
            return struct.pack(f"<{n}d", *values)
        if name == "float32":
            return struct.pack(f"<{n}f", *[max(-3e38, min(3e38, x)) for x in values])
        if name == "float16":
            return struct.pack(f"<{n}e", *[max(-65504.0, min(65504.0, x)) for x in values])
        return bytes(rng.getrandbits(8) for _ in range(2 * n))  # bfloat16: any bits
    size = DTYPES[dtype][1]
    lo, hi = (-(2 ** (8 * size - 1)), 2 ** (8 * size - 1) - 1) if name != "uint8" else (0, 255)
    values = [max(lo, min(hi, rng.choice(INTERESTING_INTS))) for _ in range(n)]
    code = {1: "b", 4: "i", 8: "q"}[size] if name != "uint8" else "B"
    return struct.pack(f"<{n}{code}", *values)


def _mutate_sizes(rng, sizes):
    sizes = list(sizes)
    choice = rng.randrange(6)
    if choice == 0 and sizes:
        sizes[rng.randrange(len(sizes))] = rng.choice((0, 1, 2, 3, 2**20, 2**31, 2**40, 2**62))
    elif choice == 1 and len(sizes) < MAX_NDIM:
        sizes.insert(rng.randrange(len(sizes) + 1), rng.choice((0, 1, 2, 2**33)))
    elif choice == 2 and sizes:
        del sizes[rng.randrange(len(sizes))]
    elif choice == 3:
        sizes = []
    elif choice == 4:
        sizes = [1] * rng.choice((MAX_NDIM - 1, MAX_NDIM))  # as many dimensions as allowed
    else:
        sizes = list(reversed(sizes))
    return tuple(sizes)


def mutate_constant(rng, model, unchecked):
    if not model.constants:
        return None
    c = rng.choice(model.constants)
    kind = rng.randrange(4)
    if kind == 0:  # new values, same dtype and shape
        c.data = _random_data(rng, c.desc.dtype, c.desc.numel())
        return f"const:{c.name}:values"
    if kind == 1:  # another dtype, data to match
        c.desc = TensorDesc(rng.choice(sorted(DTYPES)), c.desc.sizes)
        c.data = _random_data(rng, c.desc.dtype, c.desc.numel())
        return f"const:{c.name}:dtype={DTYPES[c.desc.dtype][0]}"
    sizes = _mutate_sizes(rng, c.desc.sizes)
    desc = TensorDesc(c.desc.dtype, sizes)
    span = math.prod(max(s, 1) for s in sizes) * _element_size(c.desc.dtype)
    if kind == 3 and unchecked:  # a shape the data does not have: the loader refuses it
        c.desc = desc
        return f"const:{c.name}:sizes-lie={list(sizes)}"
    if span >= 2**63 or desc.nbytes() > (1 << 20):
        return None
    c.desc = desc
    c.data = _random_data(rng, c.desc.dtype, desc.numel())
    return f"const:{c.name}:sizes={list(sizes)}"


def mutate_input(rng, model, unchecked):
    if not model.inputs:
        return None
    inp = rng.choice(model.inputs)
    if rng.random() < 0.3:
        inp.desc = TensorDesc(rng.choice(sorted(DTYPES)), inp.desc.sizes)
        return f"input:{inp.name}:dtype={DTYPES[inp.desc.dtype][0]}"
    sizes = _mutate_sizes(rng, inp.desc.sizes)
    span = math.prod(max(s, 1) for s in sizes) * _element_size(inp.desc.dtype)
    if span >= 2**63 and not unchecked:
        return None
    inp.desc = TensorDesc(inp.desc.dtype, sizes)
    return f"input:{inp.name}:sizes={list(sizes)}"


def _new_value(rng, model, node_index, tag):
    """A value for an argument of `tag` at node `node_index`."""
    defined = _defined_before(model, node_index)
    if tag == Tag.INT:
        return rng.choice(INTERESTING_INTS)
    if tag == Tag.FLOAT:
        return rng.choice(INTERESTING_FLOATS)
    if tag == Tag.BOOL:
        return rng.random() < 0.5
    if tag == Tag.STR:
        return rng.choice(STRINGS)
    if tag == Tag.INTS:
        n = rng.choice((0, 1, 2, 3, 4, 17))
        return tuple(rng.choice(INTERESTING_INTS) for _ in range(n))
    if tag == Tag.FLOATS:
        return tuple(rng.choice(INTERESTING_FLOATS) for _ in range(rng.choice((0, 1, 2))))
    if tag == Tag.BOOLS:
        return tuple(rng.random() < 0.5 for _ in range(rng.choice((0, 1, 3))))
    if tag == Tag.VALUE:
        return rng.choice(defined) if defined else None
    if tag == Tag.TENSORS:
        return (
            tuple(rng.choice(defined) for _ in range(rng.choice((0, 1, 2, 3)))) if defined else None
        )
    if tag == Tag.OPT_TENSORS:
        if not defined:
            return None
        return tuple(rng.choice(defined + [None]) for _ in range(rng.choice((0, 1, 2))))
    if tag == Tag.SCALAR_TYPE:
        return rng.choice(sorted(DTYPES))
    if tag == Tag.DEVICE:
        return rng.choice(((0, -1), (1, 0), (2, -1), (0, 7), (1, 127)))
    if tag == Tag.MEMORY_FORMAT:
        return rng.randrange(4)
    if tag == Tag.LAYOUT:
        return 0
    return None  # Tag.NONE


def _tweak(rng, model, node_index, arg):
    """A nearby value of the same tag: one list element changed, added or removed."""
    value = arg.value
    if arg.tag in (Tag.INTS, Tag.FLOATS) and value:
        items = list(value)
        pick = rng.randrange(3)
        pool = INTERESTING_INTS if arg.tag == Tag.INTS else INTERESTING_FLOATS
        if pick == 0:
            items[rng.randrange(len(items))] = rng.choice(pool)
        elif pick == 1:
            items.append(rng.choice(pool))
        else:
            del items[rng.randrange(len(items))]
        return tuple(items)
    if arg.tag == Tag.INT and rng.random() < 0.5:
        return max(I64_MIN, min(I64_MAX, value + rng.choice((-1, 1))))
    return _new_value(rng, model, node_index, arg.tag)


def mutate_arg(rng, model):
    candidates = [(k, a) for k, n in enumerate(model.nodes) for a in range(len(n.args))]
    if not candidates:
        return None
    k, a = rng.choice(candidates)
    node = model.nodes[k]
    arg = node.args[a]
    op = model.operators[node.op]
    if rng.random() < 0.9:
        value = _tweak(rng, model, k, arg)
        if value is None and arg.tag != Tag.NONE:
            return None
        node.args[a] = Arg(arg.tag, value)
        shown = value if not isinstance(value, str) else f"str{len(value)}"
        return f"arg:{op}:{a}:{arg.tag.name.lower()}={shown}"
    tag = rng.choice(list(Tag))  # another kind of argument
    value = _new_value(rng, model, k, tag)
    if value is None and tag != Tag.NONE:
        return None
    node.args[a] = Arg(tag, value)
    return f"arg:{op}:{a}:retag={tag.name.lower()}"


def mutate_arity(rng, model):
    if not model.nodes:
        return None
    k = rng.randrange(len(model.nodes))
    node = model.nodes[k]
    op = model.operators[node.op]
    if node.args and rng.random() < 0.5:
        cut = rng.randrange(len(node.args))
        node.args = node.args[:cut]
        return f"arity:{op}:args={cut}"
    tag = rng.choice((Tag.INT, Tag.NONE, Tag.INTS, Tag.VALUE, Tag.BOOL))
    value = _new_value(rng, model, k, tag)
    if value is None and tag != Tag.NONE:
        return None
    node.args.append(Arg(tag, value))
    return f"arity:{op}:extra-{tag.name.lower()}"


def mutate_operator(rng, model):
    if not model.nodes:
        return None
    node = rng.choice(model.nodes)
    name = rng.choice(OPERATOR_NAMES)
    if name not in model.operators:
        model.operators.append(name)
    old = model.operators[node.op]
    node.op = model.operators.index(name)
    return f"op:{old}->{name}"


def mutate_wiring(rng, model):
    pick = rng.randrange(5)
    if pick == 0 and model.outputs:  # an output reads another slot
        out = rng.choice(model.outputs)
        out.slot = rng.randrange(model.num_values)
        return f"wire:output:{out.name}={out.slot}"
    if pick == 1 and model.outputs:  # the same output twice, or none
        if rng.random() < 0.5:
            model.outputs.append(Output("again", model.outputs[0].slot))
            return "wire:output-twice"
        model.outputs = []
        return "wire:no-outputs"
    if pick == 2 and model.nodes:  # one more (or one fewer) result
        node = rng.choice(model.nodes)
        op = model.operators[node.op]
        if rng.random() < 0.5:
            node.outs.append(model.num_values)
            model.num_values += 1
            return f"wire:{op}:outs={len(node.outs)}"
        node.unpack = not node.unpack
        return f"wire:{op}:unpack={node.unpack}"
    if pick == 3 and model.nodes:  # a node run twice, its copy's results unread
        k = rng.randrange(len(model.nodes))
        twin = copy.deepcopy(model.nodes[k])
        twin.name += "_twin"
        twin.outs = list(range(model.num_values, model.num_values + len(twin.outs)))
        model.num_values += len(twin.outs)
        model.nodes.insert(k + 1, twin)
        return f"wire:{model.operators[twin.op]}:twice"
    if model.nodes:  # a chain: the node's first tensor argument reads the last node's result
        last = model.nodes[-1]
        if not last.outs:
            return None
        twin = Node(last.name + "_chain", last.op, copy.deepcopy(last.args), last.unpack, [])
        for k, a in enumerate(twin.args):
            if a.tag == Tag.VALUE:
                twin.args[k] = Arg(Tag.VALUE, last.outs[0])
                break
        twin.outs = list(range(model.num_values, model.num_values + len(last.outs)))
        model.num_values += len(last.outs)
        model.nodes.append(twin)
        model.outputs = [Output("chain", twin.outs[0])]
        return f"wire:{model.operators[last.op]}:chained"
    return None


MUTATIONS = (
    (mutate_arg, 8),
    (mutate_constant, 2),
    (mutate_input, 2),
    (mutate_arity, 1),
    (mutate_operator, 1),
    (mutate_wiring, 2),
)


def mutate_model(rng, model, unchecked=False):
    """Applies 1 to 3 mutations to `model` (in place); the names of those applied."""
    applied = []
    functions = [m for m, _ in MUTATIONS]
    weights = [w for _, w in MUTATIONS]
    for _ in range(rng.choice((1, 1, 2, 3))):
        mutation = rng.choices(functions, weights)[0]
        if mutation in (mutate_constant, mutate_input):
            name = mutation(rng, model, unchecked)
        else:
            name = mutation(rng, model)
        if name:
            applied.append(name)
    return applied
