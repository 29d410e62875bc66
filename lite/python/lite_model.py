"""The lite model format (lite/FORMAT.md, versions 1 and 2) as plain Python data, torch-free.

A `LiteModel` holds one graph of core-ATen operator calls with its constants' raw bytes.
`serialize(model)` checks it (`validate`) and writes the bytes FORMAT.md describes:
header, sections, zero padding up to a 64-aligned `data_offset`, then the data blob with
every constant's data starting at a multiple of 64 (constants in the order given, zero
bytes between them), each distinct content once: a constant whose dtype, sizes and bytes
equal an earlier one's (a parameter tied under several names) names the earlier one's
bytes (`data_layout`). `parse(data)` is the strict reader (see lite_parse.py).

A model with symbols (dynamic shapes: `LiteModel.symbols`), or with another part only
version 2 has (SymInt[] arguments, `sym::` scalar operators, value_info), is written as
version 2; every other model as version 1, byte for byte what it was before version 2
existed (`file_version`).

Every rule broken raises `LiteModelError`, whose message names the part of the model
(a constant, an input, a node and its argument) and what is wrong.
"""

import itertools
import math
import struct
from dataclasses import dataclass, field
from enum import IntEnum

MAGIC = b"SOPSLITE"
VERSION = 2  # the newest version the writer and reader know
STATIC_VERSION = 1  # what a model without symbols is written as
HEADER_SIZE = 32
ALIGN = 64
MAX_STR_BYTES = 65536
MAX_NDIM = 16
NONE_SLOT = 0xFFFFFFFF  # "None" in a Tensor?[] argument
MAX_U32 = 0xFFFFFFFF
INT64_MAX = 2**63 - 1  # a symbol's max when it is unbounded (torch.export's int_oo)
MAX_SYMBOLS = 1024
SYM_CONST, SYM_SLOT = 0, 1  # the kinds of a SymInt[] element

# The scalar operators the interpreter evaluates itself (FORMAT.md, Scalar operators):
# name -> (the fx targets torch.export records, the number of operands).
SYM_OPERATORS = {
    "sym::add": ("operator.add", 2),
    "sym::sub": ("operator.sub", 2),
    "sym::mul": ("operator.mul", 2),
    "sym::floordiv": ("operator.floordiv", 2),
    "sym::mod": ("operator.mod", 2),
    "sym::truediv": ("operator.truediv", 2),
    "sym::pow": ("operator.pow", 2),
    "sym::neg": ("operator.neg", 1),
    "sym::eq": ("operator.eq", 2),
    "sym::ne": ("operator.ne", 2),
    "sym::lt": ("operator.lt", 2),
    "sym::le": ("operator.le", 2),
    "sym::gt": ("operator.gt", 2),
    "sym::ge": ("operator.ge", 2),
    "sym::and": ("operator.and_", 2),
    "sym::or": ("operator.or_", 2),
    "sym::not": ("operator.not_, torch.sym_not", 1),
    "sym::max": ("torch.sym_max", 2),
    "sym::min": ("torch.sym_min", 2),
    "sym::float": ("torch.sym_float", 1),
    "sym::int": ("torch.sym_int, math.trunc", 1),
    "sym::ceil": ("math.ceil", 1),
    "sym::floor": ("math.floor", 1),
    "sym::sqrt": ("math.sqrt, torch._sym_sqrt", 1),
    "sym::ite": ("torch.sym_ite", 3),
    "sym::assert": ("aten._assert_scalar", 2),
}
SYM_PREFIX = "sym::"

# PyTorch's ScalarType numbers -> (name, element size in bytes).
DTYPES = {
    0: ("uint8", 1),
    1: ("int8", 1),
    3: ("int32", 4),
    4: ("int64", 8),
    5: ("float16", 2),
    6: ("float32", 4),
    7: ("float64", 8),
    11: ("bool", 1),
    15: ("bfloat16", 2),
}
DTYPE_CODES = {name: code for code, (name, _) in DTYPES.items()}
DEVICE_TYPES = {0: "cpu", 1: "cuda", 2: "meta"}
MEMORY_FORMATS = {0: "contiguous", 1: "preserve", 2: "channels_last", 3: "channels_last_3d"}


class LiteModelError(ValueError):
    """A model that breaks a rule of lite/FORMAT.md (the message says which)."""


class Tag(IntEnum):
    """An argument's tag (FORMAT.md, `arg`)."""

    NONE = 0
    VALUE = 1
    INT = 2
    FLOAT = 3
    BOOL = 4
    STR = 5
    INTS = 6
    FLOATS = 7
    BOOLS = 8
    TENSORS = 9
    OPT_TENSORS = 10
    SCALAR_TYPE = 11
    LAYOUT = 12
    DEVICE = 13
    MEMORY_FORMAT = 14
    SYM_INTS = 15  # version 2


@dataclass
class Arg:
    """One argument: a tag and its value.

    Values by tag: NONE None; VALUE a slot; INT int; FLOAT float; BOOL bool; STR str;
    INTS/FLOATS/BOOLS/TENSORS tuples; OPT_TENSORS a tuple of slots or None;
    SCALAR_TYPE a dtype code; LAYOUT 0; DEVICE (type code, index or -1); MEMORY_FORMAT a code;
    SYM_INTS a tuple of (SYM_CONST, int) and (SYM_SLOT, slot) pairs.

    In version 2 a VALUE slot may hold a scalar (a SymInt, SymFloat or SymBool a node
    computed) where the schema wants an int, float, bool or Scalar.
    """

    tag: Tag
    value: object = None

    def __post_init__(self):
        self.tag = Tag(self.tag)
        if isinstance(self.value, list):
            self.value = tuple(tuple(v) if isinstance(v, list) else v for v in self.value)


@dataclass
class Symbol:
    """A symbolic dimension (version 2): its name and the bounds torch.export recorded."""

    name: str
    min: int
    max: int  # INT64_MAX: unbounded


@dataclass
class TensorDesc:
    """A dtype code and a shape; in an input of a version-2 model, a size -1-k is symbol k."""

    dtype: int
    sizes: tuple

    def __post_init__(self):
        self.sizes = tuple(self.sizes)

    def numel(self) -> int:
        return math.prod(self.sizes)

    def nbytes(self) -> int:
        return self.numel() * DTYPES[self.dtype][1] if self.dtype in DTYPES else 0


@dataclass
class Constant:
    """A parameter, buffer or lifted tensor constant with its raw little-endian bytes."""

    name: str
    slot: int
    desc: TensorDesc
    data: bytes
    # Where a parsed file holds the data, from data_offset (several constants may share
    # it); None for a constant not read from a file. `serialize` ignores it and lays the
    # blob out itself (`data_layout`), so it takes no part in comparisons either.
    offset: int = field(default=None, compare=False)


@dataclass
class Input:
    """A user input of the exported forward()."""

    name: str
    slot: int
    desc: TensorDesc


@dataclass
class Node:
    """One operator call; `op` indexes `LiteModel.operators`."""

    name: str
    op: int
    args: list
    unpack: bool
    outs: list


@dataclass
class Output:
    """A named graph output: any defined slot."""

    name: str
    slot: int


@dataclass
class LiteModel:
    """A whole model file's content (the data blob's layout is derived by `serialize`)."""

    metadata: list = field(default_factory=list)  # (key, value) pairs, in order
    operators: list = field(default_factory=list)
    num_values: int = 0
    constants: list = field(default_factory=list)
    inputs: list = field(default_factory=list)
    nodes: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    symbols: list = field(default_factory=list)  # Symbols; any makes the file version 2
    value_info: list = field(default_factory=list)  # (slot, symbolic shape text) pairs


def file_version(model: LiteModel) -> int:
    """The version `model` is written as: 2 when it has symbols (or another part only
    version 2 has: scalar nodes of a data-dependent size, `uses_version_2`), else 1."""
    return VERSION if uses_version_2(model) else STATIC_VERSION


def _check_str(text, what: str) -> bytes:
    if not isinstance(text, str):
        raise LiteModelError(f"{what}: expected a string, got {type(text).__name__}")
    raw = text.encode("utf-8")
    if len(raw) > MAX_STR_BYTES:
        raise LiteModelError(
            f"{what}: {len(raw)} bytes of UTF-8, more than the {MAX_STR_BYTES} a str may hold"
        )
    return raw


def _check_count(n: int, what: str) -> None:
    if n > MAX_U32:
        raise LiteModelError(f"{what}: {n} entries do not fit a u32 count")


def _check_int(value, lo: int, hi: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise LiteModelError(f"{what}: {value!r} is not an integer in [{lo}, {hi}]")


def check_desc(desc: TensorDesc, what: str, symbols: int = 0) -> None:
    """A tensor_desc's rules: a known dtype code, ndim <= 16, sizes >= 0 (or, for an input
    of a model with `symbols` symbols, -1-k naming symbol k), the static sizes' bytes in
    63 bits."""
    if desc.dtype not in DTYPES:
        raise LiteModelError(
            f"{what}: dtype code {desc.dtype!r} is not one of {sorted(DTYPES)} (FORMAT.md, dtype codes)"
        )
    if len(desc.sizes) > MAX_NDIM:
        raise LiteModelError(f"{what}: {len(desc.sizes)} dimensions, more than {MAX_NDIM}")
    for size in desc.sizes:
        if symbols and isinstance(size, int) and not isinstance(size, bool) and size < 0:
            _check_int(size, -symbols, -1, f"{what}: symbolic size (-1-k for symbol k)")
        else:
            _check_int(size, 0, 2**63 - 1, f"{what}: size")
    span = math.prod(max(size, 1) for size in desc.sizes) * DTYPES[desc.dtype][1]
    if span >= 2**63:  # sizes of 0 counted as 1: what strides are computed in
        raise LiteModelError(
            f"{what}: {desc.sizes} of {DTYPES[desc.dtype][0]} spans 2**63 bytes or more"
        )


def _check_arg(arg: Arg, defined: set, what: str) -> None:
    """An argument's payload fits its tag; the slots it reads are already defined."""
    tag, value = arg.tag, arg.value

    def read(slot, where=what):
        _check_int(slot, 0, MAX_U32 - 1, f"{where}: slot")
        if slot not in defined:
            raise LiteModelError(f"{where}: slot {slot} is read before it is defined")

    if tag == Tag.NONE:
        if value is not None:
            raise LiteModelError(f"{what}: a None argument carries {value!r}")
    elif tag == Tag.VALUE:
        read(value)
    elif tag == Tag.INT:
        _check_int(value, -(2**63), 2**63 - 1, what)
    elif tag == Tag.FLOAT:
        if not isinstance(value, float):
            raise LiteModelError(f"{what}: float argument {value!r} is not a Python float")
    elif tag == Tag.BOOL:
        if not isinstance(value, bool):
            raise LiteModelError(f"{what}: bool argument {value!r} is not a Python bool")
    elif tag == Tag.STR:
        _check_str(value, what)
    elif tag in (Tag.INTS, Tag.FLOATS, Tag.BOOLS, Tag.TENSORS, Tag.OPT_TENSORS):
        if not isinstance(value, tuple):
            raise LiteModelError(f"{what}: a {tag.name} argument needs a sequence, got {value!r}")
        _check_count(len(value), what)
        for i, item in enumerate(value):
            element = Arg(
                {Tag.INTS: Tag.INT, Tag.FLOATS: Tag.FLOAT, Tag.BOOLS: Tag.BOOL}.get(tag, Tag.VALUE),
                item,
            )
            if tag == Tag.OPT_TENSORS and item is None:
                continue
            _check_arg(element, defined, f"{what}[{i}]")
    elif tag == Tag.SCALAR_TYPE:
        if value not in DTYPES or isinstance(value, bool):
            raise LiteModelError(
                f"{what}: ScalarType code {value!r} is not one of {sorted(DTYPES)}"
            )
    elif tag == Tag.LAYOUT:
        if value != 0 or isinstance(value, bool):
            raise LiteModelError(
                f"{what}: layout {value!r} is not 0 (strided), the only layout of the format"
            )
    elif tag == Tag.DEVICE:
        if not (isinstance(value, tuple) and len(value) == 2):
            raise LiteModelError(f"{what}: a Device is (type code, index), got {value!r}")
        _check_int(value[0], 0, max(DEVICE_TYPES), f"{what}: device type")
        _check_int(value[1], -1, 127, f"{what}: device index")
    elif tag == Tag.MEMORY_FORMAT:
        _check_int(value, 0, max(MEMORY_FORMATS), f"{what}: memory format")
    elif tag == Tag.SYM_INTS:
        if not isinstance(value, tuple):
            raise LiteModelError(f"{what}: a SYM_INTS argument needs a sequence, got {value!r}")
        _check_count(len(value), what)
        for i, item in enumerate(value):
            if not (
                isinstance(item, tuple) and len(item) == 2 and item[0] in (SYM_CONST, SYM_SLOT)
            ):
                raise LiteModelError(
                    f"{what}[{i}]: a SymInt[] element is (0, int) or (1, slot), got {item!r}"
                )
            if item[0] == SYM_CONST:
                _check_int(item[1], -(2**63), 2**63 - 1, f"{what}[{i}]")
            else:
                read(item[1], f"{what}[{i}]")


def uses_version_2(model: LiteModel) -> bool:
    """Whether `model` holds a part only version 2 has: symbols, a `sym::` operator, a
    SymInt[] argument (tag 15) or value_info."""
    return bool(
        model.symbols
        or model.value_info
        or any(isinstance(name, str) and name.startswith(SYM_PREFIX) for name in model.operators)
        or any(
            isinstance(arg, Arg) and arg.tag == Tag.SYM_INTS
            for node in model.nodes
            for arg in node.args
        )
    )


def validate(model: LiteModel) -> None:
    """Raises LiteModelError unless `model` keeps every rule of FORMAT.md."""
    # pylint: disable-next=import-outside-toplevel  (lite_symbols imports this module)
    from lite_symbols import check_sym_node, check_symbols, check_value_info

    _check_count(len(model.metadata), "metadata")
    for key, value in model.metadata:
        _check_str(key, "metadata key")
        _check_str(value, f"metadata {key!r}")
    _check_count(len(model.operators), "operators")
    for i, name in enumerate(model.operators):
        _check_str(name, f"operator {i}")
        if "::" not in name or len(name) < 4:
            raise LiteModelError(f"operator {i}: {name!r} is not namespace::name[.overload]")
    _check_int(model.num_values, 0, MAX_U32 - 1, "values: the slot count")
    defined: set = set()

    def define(slot, what):
        _check_int(
            slot,
            0,
            model.num_values - 1,
            f"{what}: slot (there are {model.num_values} value slots)",
        )
        if slot in defined:
            raise LiteModelError(f"{what}: slot {slot} is defined a second time")
        defined.add(slot)

    for section in ("constants", "inputs", "nodes", "outputs"):
        _check_count(len(getattr(model, section)), section)
    for c in model.constants:
        what = f"constant {c.name!r}"
        _check_str(c.name, what)
        define(c.slot, what)
        check_desc(c.desc, what)
        if not isinstance(c.data, (bytes, bytearray, memoryview)) or len(c.data) != c.desc.nbytes():
            size = (
                len(c.data)
                if isinstance(c.data, (bytes, bytearray, memoryview))
                else type(c.data).__name__
            )
            raise LiteModelError(
                f"{what}: {size} bytes of data, but {c.desc.sizes} of "
                f"{DTYPES[c.desc.dtype][0]} is {c.desc.nbytes()} bytes"
            )
    for i in model.inputs:
        what = f"input {i.name!r}"
        _check_str(i.name, what)
        define(i.slot, what)
        check_desc(i.desc, what, len(model.symbols))
    check_symbols(model)
    by_node: set = set()
    for node in model.nodes:
        what = f"node {node.name!r}"
        _check_str(node.name, what)
        _check_int(node.op, 0, len(model.operators) - 1, f"{what}: operator index")
        what = f"node {node.name!r} ({model.operators[node.op]})"
        _check_count(len(node.args), what)
        for k, arg in enumerate(node.args):
            if not isinstance(arg, Arg):
                raise LiteModelError(f"{what}: argument {k} is a {type(arg).__name__}, not an Arg")
            _check_arg(arg, defined, f"{what} argument {k}")
        if not isinstance(node.unpack, bool):
            raise LiteModelError(f"{what}: unpack must be a bool, got {node.unpack!r}")
        if model.operators[node.op].startswith(SYM_PREFIX):
            check_sym_node(node, model.operators[node.op], what)
        _check_count(len(node.outs), what)
        for k, slot in enumerate(node.outs):
            define(slot, f"{what} output {k}")
            by_node.add(slot)
    for out in model.outputs:
        what = f"output {out.name!r}"
        _check_str(out.name, what)
        _check_int(out.slot, 0, MAX_U32 - 1, f"{what}: slot")
        if out.slot not in defined:
            raise LiteModelError(f"{what}: slot {out.slot} is never defined")
    check_value_info(model, by_node)
    if len(defined) != model.num_values:
        missing = list(
            itertools.islice((s for s in range(model.num_values) if s not in defined), 5)
        )
        raise LiteModelError(
            f"values: {model.num_values} slots but slots {missing} are never defined"
        )


def align(n: int) -> int:
    """`n` rounded up to a multiple of 64."""
    return (n + ALIGN - 1) // ALIGN * ALIGN


class _Writer:
    def __init__(self):
        self.out = bytearray()

    def u8(self, v):
        self.out += struct.pack("<B", v)

    def i8(self, v):
        self.out += struct.pack("<b", v)

    def u32(self, v):
        self.out += struct.pack("<I", v)

    def u64(self, v):
        self.out += struct.pack("<Q", v)

    def i64(self, v):
        self.out += struct.pack("<q", v)

    def f64(self, v):
        self.out += struct.pack("<d", v)

    def str(self, text):
        raw = text.encode("utf-8")
        self.u32(len(raw))
        self.out += raw

    def desc(self, d: TensorDesc):
        self.u8(d.dtype)
        self.u8(len(d.sizes))
        for s in d.sizes:
            self.i64(s)

    def arg(self, a: Arg):
        self.u8(a.tag)
        v = a.value
        scalar = {
            Tag.VALUE: self.u32,
            Tag.INT: self.i64,
            Tag.FLOAT: self.f64,
            Tag.BOOL: self.u8,
            Tag.STR: self.str,
            Tag.SCALAR_TYPE: self.u8,
            Tag.LAYOUT: self.u8,
            Tag.MEMORY_FORMAT: self.u8,
        }
        lists = {
            Tag.INTS: self.i64,
            Tag.FLOATS: self.f64,
            Tag.BOOLS: self.u8,
            Tag.TENSORS: self.u32,
            Tag.OPT_TENSORS: lambda s: self.u32(NONE_SLOT if s is None else s),
        }
        if a.tag in scalar:
            scalar[a.tag](v)
        elif a.tag in lists:
            self.u32(len(v))
            for item in v:
                lists[a.tag](item)
        elif a.tag == Tag.DEVICE:
            self.u8(v[0])
            self.i8(v[1])
        elif a.tag == Tag.SYM_INTS:
            self.u32(len(v))
            for kind, payload in v:
                self.u8(kind)
                (self.i64 if kind == SYM_CONST else self.u32)(payload)


def data_layout(constants: list) -> tuple:
    """(offsets, blob): where each constant's data starts in the data blob, and the blob
    (a bytearray).

    Each distinct content is stored once: a constant whose dtype, sizes and bytes are
    exactly those of an earlier one (a parameter tied under several names, as a language
    model's lm head and its embedding; equal LayerNorm weights; equal lifted numbers) gets
    the earlier one's offset, so the first of them in `constants` owns the bytes and the
    layout depends only on the constants, in order. Equality is exact: a dict on the
    bytes hashes them first and compares the candidates byte for byte. The other
    constants follow in order, each at the next multiple of 64 after the one before, the
    gaps zero.
    """
    blob = bytearray()
    placed = {}  # (dtype, sizes, data) -> its offset
    offsets = []
    for c in constants:
        data = bytes(c.data)  # hashable; no copy when it is bytes already
        key = (c.desc.dtype, c.desc.sizes, data)
        offset = placed.get(key)
        if offset is None:
            blob += bytes(align(len(blob)) - len(blob))
            offset = placed[key] = len(blob)
            blob += data
        offsets.append(offset)
    return offsets, blob


def serialize(model: LiteModel) -> bytes:
    """The bytes of `model` in the format of lite/FORMAT.md (after `validate`).

    Beyond the format's rules, the writer lists each operator once and stores each
    distinct constant content once (`data_layout`). A model with symbols is written as
    version 2 (its symbols after the operators, value_info last), any other as version 1.
    """
    validate(model)
    if len(set(model.operators)) != len(model.operators):
        raise LiteModelError(f"operators: a name is listed twice in {model.operators}")
    version = file_version(model)
    w = _Writer()
    w.u32(len(model.metadata))
    for key, value in model.metadata:
        w.str(key)
        w.str(value)
    w.u32(len(model.operators))
    for name in model.operators:
        w.str(name)
    if version >= 2:
        w.u32(len(model.symbols))
        for sym in model.symbols:
            w.str(sym.name)
            w.i64(sym.min)
            w.i64(sym.max)
    w.u32(model.num_values)
    w.u32(len(model.constants))
    offsets, blob = data_layout(model.constants)
    for c, offset in zip(model.constants, offsets):
        w.str(c.name)
        w.u32(c.slot)
        w.desc(c.desc)
        w.u64(offset)
        w.u64(len(c.data))
    w.u32(len(model.inputs))
    for i in model.inputs:
        w.str(i.name)
        w.u32(i.slot)
        w.desc(i.desc)
    w.u32(len(model.nodes))
    for node in model.nodes:
        w.str(node.name)
        w.u32(node.op)
        w.u32(len(node.args))
        for a in node.args:
            w.arg(a)
        w.u8(1 if node.unpack else 0)
        w.u32(len(node.outs))
        for slot in node.outs:
            w.u32(slot)
    w.u32(len(model.outputs))
    for out in model.outputs:
        w.str(out.name)
        w.u32(out.slot)
    if version >= 2:
        w.u32(len(model.value_info))
        for slot, shape in model.value_info:
            w.u32(slot)
            w.str(shape)
    data_offset = align(HEADER_SIZE + len(w.out))
    header = MAGIC + struct.pack("<IIQQ", version, 0, data_offset, len(blob))
    padding = bytes(data_offset - HEADER_SIZE - len(w.out))
    return header + bytes(w.out) + padding + bytes(blob)


def parse(data: bytes) -> LiteModel:
    """The model in `data`, read strictly (lite_parse.py); LiteModelError names the byte offset."""
    from lite_parse import parse_model  # pylint: disable=import-outside-toplevel

    return parse_model(data)
