"""The strict reader of lite model files (lite/FORMAT.md, versions 1 and 2), torch-free.

It mirrors the loader's rules: the header's magic, version, flags and sizes; every count
checked against the bytes left before anything is read; the sections ending at or before
`data_offset` with zero padding after them; each constant's data 64-aligned inside the
blob (several constants may name the same bytes, or overlapping ones); then every rule
of `lite_model.validate`. A broken rule raises `LiteModelError` naming the byte offset.
A version-2 file adds the symbols section after the operators, symbolic input sizes,
SymInt[] arguments (tag 15) and value_info after the outputs; a version-1 file holding
any of them (or a `sym::` operator) is refused.
"""

import struct

from lite_model import (
    ALIGN,
    DTYPE_CODES,
    DTYPES,
    HEADER_SIZE,
    MAGIC,
    MAX_NDIM,
    MAX_STR_BYTES,
    NONE_SLOT,
    STATIC_VERSION,
    SYM_CONST,
    SYM_PREFIX,
    SYM_SLOT,
    VERSION,
    Arg,
    Constant,
    Input,
    LiteModel,
    LiteModelError,
    Node,
    Output,
    Symbol,
    Tag,
    TensorDesc,
    check_desc,
    validate,
)

# The fewest bytes one element of a list can take, to check a count before reading it.
_MIN_ENTRY = {
    "str": 4,
    "metadata": 8,
    "constant": 4 + 4 + 2 + 16,
    "input": 4 + 4 + 2,
    "node": 4 + 4 + 4 + 1 + 4,
    "output": 8,
    "arg": 1,
    "symbol": 4 + 16,
    "value_info": 8,
}
_LIST_ITEM = {
    Tag.INTS: ("<q", 8),
    Tag.FLOATS: ("<d", 8),
    Tag.BOOLS: ("<B", 1),
    Tag.TENSORS: ("<I", 4),
    Tag.OPT_TENSORS: ("<I", 4),
}


class _Reader:
    """Reads little-endian fields from `data[pos:end]`, failing with the offset."""

    def __init__(self, data: bytes, pos: int, end: int, version: int = STATIC_VERSION):
        self.data, self.pos, self.end, self.version = data, pos, end, version

    def fail(self, message: str, at: int = None):
        raise LiteModelError(f"byte {self.pos if at is None else at}: {message}")

    def take(self, n: int, what: str) -> bytes:
        if n > self.end - self.pos:
            self.fail(
                f"{what} needs {n} bytes, {self.end - self.pos} are left before the data blob"
            )
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def unpack(self, fmt: str, what: str):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))[0]

    def u8(self, what):
        return self.unpack("<B", what)

    def u32(self, what):
        return self.unpack("<I", what)

    def u64(self, what):
        return self.unpack("<Q", what)

    def count(self, what: str, entry: str = None, size: int = 0) -> int:
        """A u32 count whose entries (at least `size` bytes each) must fit in what is left."""
        at = self.pos
        n = self.u32(f"the count of {what}")
        least = _MIN_ENTRY[entry] if entry else size
        if n * least > self.end - self.pos:
            self.fail(
                f"{n} {what} cannot fit in the {self.end - self.pos} bytes left before the data blob",
                at,
            )
        return n

    def str(self, what: str) -> str:
        at = self.pos
        n = self.u32(f"the length of {what}")
        if n > MAX_STR_BYTES:
            self.fail(f"{what}: a str of {n} bytes, more than {MAX_STR_BYTES}", at)
        raw = self.take(n, what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            self.fail(f"{what}: not UTF-8 ({e.reason})", at)

    def i64(self, what):
        return self.unpack("<q", what)

    def desc(self, what: str, symbols: int = 0) -> TensorDesc:
        """A tensor_desc; sizes -1-k name symbol k when `symbols` (an input, version 2)."""
        at = self.pos
        dtype = self.u8(f"{what}: dtype")
        if dtype not in DTYPES:
            self.fail(f"{what}: dtype code {dtype} is not one of {sorted(DTYPES)}", at)
        ndim = self.u8(f"{what}: ndim")
        if ndim > MAX_NDIM:
            self.fail(f"{what}: {ndim} dimensions, more than {MAX_NDIM}", at + 1)
        sizes = tuple(struct.unpack(f"<{ndim}q", self.take(8 * ndim, f"{what}: sizes")))
        try:
            check_desc(TensorDesc(dtype, sizes), what, symbols)
        except LiteModelError as e:
            self.fail(str(e), at)
        return TensorDesc(dtype, sizes)

    def arg(self, what: str) -> Arg:
        at = self.pos
        tag = self.u8(f"{what}: tag")
        if tag not in Tag._value2member_map_:
            self.fail(f"{what}: tag {tag} is not one of 0..{max(Tag)}", at)
        tag = Tag(tag)
        if tag == Tag.SYM_INTS:
            if self.version < 2:
                self.fail(
                    f"{what}: tag 15 (SymInt[]) is version 2's, but the file is version 1", at
                )
            items = []
            for i in range(self.count(what, size=5)):  # each element a u8 kind and 4 bytes or more
                kind_at = self.pos
                kind = self.u8(f"{what}[{i}]: kind")
                if kind == SYM_CONST:
                    items.append((kind, self.i64(f"{what}[{i}]")))
                elif kind == SYM_SLOT:
                    items.append((kind, self.u32(f"{what}[{i}]")))
                else:
                    self.fail(f"{what}[{i}]: kind {kind} is not 0 (int) or 1 (slot)", kind_at)
            return Arg(tag, tuple(items))
        if tag == Tag.NONE:
            return Arg(tag)
        if tag == Tag.VALUE:
            return Arg(tag, self.u32(what))
        if tag == Tag.INT:
            return Arg(tag, self.unpack("<q", what))
        if tag == Tag.FLOAT:
            return Arg(tag, self.unpack("<d", what))
        if tag == Tag.BOOL:
            value = self.u8(what)
            if value > 1:
                self.fail(f"{what}: a bool of {value}, not 0 or 1", at)
            return Arg(tag, value == 1)
        if tag == Tag.STR:
            return Arg(tag, self.str(what))
        if tag in _LIST_ITEM:
            fmt, size = _LIST_ITEM[tag]
            n = self.count(what, size=size)
            items = struct.unpack(f"<{n}{fmt[1]}", self.take(n * size, what))
            if tag == Tag.BOOLS:
                if any(b > 1 for b in items):
                    self.fail(f"{what}: a bool that is not 0 or 1", at)
                items = tuple(b == 1 for b in items)
            if tag == Tag.OPT_TENSORS:
                items = tuple(None if s == NONE_SLOT else s for s in items)
            return Arg(tag, items)
        if tag == Tag.DEVICE:
            return Arg(tag, (self.u8(what), self.unpack("<b", what)))
        return Arg(tag, self.u8(what))  # SCALAR_TYPE, LAYOUT, MEMORY_FORMAT


def _header(data: bytes):
    if len(data) < HEADER_SIZE:
        raise LiteModelError(
            f"byte 0: a file of {len(data)} bytes is shorter than the {HEADER_SIZE}-byte header"
        )
    if data[:8] != MAGIC:
        raise LiteModelError(f"byte 0: magic {data[:8]!r} is not {MAGIC!r}")
    version, flags, data_offset, data_size = struct.unpack_from("<IIQQ", data, 8)
    if not STATIC_VERSION <= version <= VERSION:
        raise LiteModelError(
            f"byte 8: version {version}; this reader supports versions {STATIC_VERSION} to {VERSION}"
        )
    if flags != 0:
        raise LiteModelError(f"byte 12: flags {flags:#x}, but they are reserved and must be 0")
    if data_offset % ALIGN or data_offset < HEADER_SIZE:
        raise LiteModelError(
            f"byte 16: data_offset {data_offset} is not a multiple of {ALIGN} that is >= {HEADER_SIZE}"
        )
    if data_offset + data_size != len(data):
        raise LiteModelError(
            f"byte 24: data_offset {data_offset} + data_size {data_size} != the file's {len(data)} bytes"
        )
    return version, data_offset, data_size


def _symbols(r: _Reader) -> list:
    symbols = []
    for k in range(r.count("symbols", "symbol")):
        at = r.pos
        name = r.str(f"symbol {k}'s name")
        symbols.append(Symbol(name, r.i64(f"symbol {name!r}: min"), r.i64(f"symbol {name!r}: max")))
        if symbols[-1].min < 0 or symbols[-1].max < symbols[-1].min:
            r.fail(
                f"symbol {name!r}: bounds [{symbols[-1].min}, {symbols[-1].max}] are not "
                "0 <= min <= max",
                at,
            )
    return symbols


def parse_model(data: bytes) -> LiteModel:
    """The model in `data`; LiteModelError at the first broken rule."""
    data = bytes(data)
    version, data_offset, data_size = _header(data)
    r = _Reader(data, HEADER_SIZE, data_offset, version)
    model = LiteModel()
    for _ in range(r.count("metadata entries", "metadata")):
        key = r.str("a metadata key")
        model.metadata.append((key, r.str(f"metadata {key!r}")))
    model.operators = [r.str(f"operator {i}") for i in range(r.count("operators", "str"))]
    if version >= 2:
        model.symbols = _symbols(r)
    else:
        for name in model.operators:
            if name.startswith(SYM_PREFIX):
                r.fail(
                    f"operator {name!r}: `sym::` operators are version 2's, but the file is version 1"
                )
    at = r.pos
    model.num_values = r.u32("the value slot count")
    if model.num_values > (r.end - r.pos) // 4:  # each slot is defined by a 4-byte field at least
        r.fail(f"value slot count {model.num_values} is more than the file can define", at)
    shared = {}  # (offset, nbytes) -> the bytes there
    for _ in range(r.count("constants", "constant")):
        at = r.pos
        name = r.str("a constant's name")
        what = f"constant {name!r}"
        slot = r.u32(f"{what}: slot")
        desc = r.desc(what)
        offset, nbytes = r.u64(f"{what}: offset"), r.u64(f"{what}: nbytes")
        if offset % ALIGN:
            r.fail(f"{what}: data offset {offset} is not a multiple of {ALIGN}", at)
        if nbytes != desc.nbytes():
            r.fail(
                f"{what}: nbytes {nbytes}, but {desc.sizes} of {DTYPES[desc.dtype][0]} is {desc.nbytes()}",
                at,
            )
        if offset + nbytes > data_size:
            r.fail(
                f"{what}: data [{offset}, {offset + nbytes}) runs past the blob's {data_size} bytes",
                at,
            )
        start = data_offset + offset
        # Constants may share their bytes (FORMAT.md, `constant`): those that name the same
        # range get one bytes object, as the interpreter gives them one buffer.
        if (offset, nbytes) not in shared:
            shared[offset, nbytes] = data[start : start + nbytes]
        data_of = shared[offset, nbytes]
        if desc.dtype == DTYPE_CODES["bool"] and any(b > 1 for b in data_of):
            r.fail(f"{what}: bool data holds a byte that is neither 0 nor 1", at)
        model.constants.append(Constant(name, slot, desc, data_of, offset))
    for _ in range(r.count("inputs", "input")):
        name = r.str("an input's name")
        slot = r.u32(f"input {name!r}: slot")
        model.inputs.append(Input(name, slot, r.desc(f"input {name!r}", len(model.symbols))))
    for _ in range(r.count("nodes", "node")):
        name = r.str("a node's name")
        what = f"node {name!r}"
        op = r.u32(f"{what}: operator index")
        args = [r.arg(f"{what} argument {k}") for k in range(r.count(f"{what} arguments", "arg"))]
        at = r.pos
        unpack = r.u8(f"{what}: unpack")
        if unpack > 1:
            r.fail(f"{what}: unpack {unpack}, not 0 or 1", at)
        outs = [r.u32(f"{what}: output slot") for _ in range(r.count(f"{what} outputs", size=4))]
        model.nodes.append(Node(name, op, args, unpack == 1, outs))
    for _ in range(r.count("outputs", "output")):
        name = r.str("an output's name")
        model.outputs.append(Output(name, r.u32(f"output {name!r}: slot")))
    if version >= 2:
        for _ in range(r.count("value_info entries", "value_info")):
            slot = r.u32("a value_info slot")
            model.value_info.append((slot, r.str(f"value_info of slot {slot}")))
    if any(data[r.pos : data_offset]):
        r.fail(f"the padding before data_offset {data_offset} holds non-zero bytes")
    try:
        validate(model)
    except LiteModelError as e:
        raise LiteModelError(f"byte {HEADER_SIZE}..{r.pos} (sections): {e}") from None
    return model
