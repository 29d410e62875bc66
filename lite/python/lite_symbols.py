"""Version 2's rules in lite_model.validate (lite/FORMAT.md, "Version 2"), torch-free.

The symbols (names, bounds, each one a whole dimension of some input), the `sym::`
scalar operators' nodes (a known name, its operand count and kinds, its outputs) and
value_info (slots a node defines, each once). LiteModelError names what is wrong.
"""

from lite_model import (
    INT64_MAX,
    MAX_SYMBOLS,
    MAX_U32,
    SYM_OPERATORS,
    LiteModel,
    LiteModelError,
    Node,
    Symbol,
    Tag,
    _check_count,
    _check_int,
    _check_str,
)


def check_symbols(model: LiteModel) -> None:
    """The symbols' rules, and each one a whole dimension of some input (else nothing binds it)."""
    if len(model.symbols) > MAX_SYMBOLS:
        raise LiteModelError(f"symbols: {len(model.symbols)}, more than {MAX_SYMBOLS}")
    seen = set()
    for k, sym in enumerate(model.symbols):
        what = f"symbol {k}"
        if not isinstance(sym, Symbol):
            raise LiteModelError(f"{what}: a {type(sym).__name__}, not a Symbol")
        _check_str(sym.name, what)
        if not sym.name or not all(" " <= c <= "~" for c in sym.name):
            raise LiteModelError(f"{what}: name {sym.name!r} is not non-empty printable ASCII")
        if sym.name in seen:
            raise LiteModelError(f"{what}: name {sym.name!r} is used by an earlier symbol")
        seen.add(sym.name)
        what = f"symbol {sym.name!r}"
        _check_int(sym.min, 0, INT64_MAX, f"{what}: min")
        _check_int(sym.max, sym.min, INT64_MAX, f"{what}: max (>= min {sym.min})")
    bound = {-1 - s for i in model.inputs for s in i.desc.sizes if isinstance(s, int) and s < 0}
    for k, sym in enumerate(model.symbols):
        if k not in bound:
            raise LiteModelError(
                f"symbol {sym.name!r}: no input has it as a dimension, so no run can bind it"
            )


def check_sym_node(node: Node, name: str, what: str) -> None:
    """A `sym::` node: a known operator, its operand count, scalar operands, its outputs."""
    if name not in SYM_OPERATORS:
        known = ", ".join(sorted(SYM_OPERATORS))
        raise LiteModelError(f"{what}: not a scalar operator of the format (known: {known})")
    operands = SYM_OPERATORS[name][1]
    if len(node.args) != operands:
        raise LiteModelError(f"{what}: {len(node.args)} operands, but it takes {operands}")
    for k, arg in enumerate(node.args):
        allowed = (Tag.VALUE, Tag.INT, Tag.FLOAT, Tag.BOOL)
        if name == "sym::assert" and k == 1:
            allowed = (Tag.STR,)
        if arg.tag not in allowed:
            raise LiteModelError(
                f"{what} argument {k}: tag {int(arg.tag)} ({arg.tag.name}); an operand is one "
                f"of tags {[int(t) for t in allowed]}"
            )
    outs = 0 if name == "sym::assert" else 1
    if len(node.outs) != outs or node.unpack:
        raise LiteModelError(
            f"{what}: {len(node.outs)} outputs (unpack {node.unpack}), but it has {outs} (unpack False)"
        )


def check_value_info(model: LiteModel, by_node: set) -> None:
    """value_info's entries: (slot, shape text), each slot one that a node defines, once."""

    _check_count(len(model.value_info), "value_info")
    described: set = set()
    for entry in model.value_info:
        if not (isinstance(entry, tuple) and len(entry) == 2):
            raise LiteModelError(f"value_info: an entry is (slot, shape text), got {entry!r}")
        slot, shape = entry
        what = f"value_info of slot {slot!r}"
        _check_int(slot, 0, MAX_U32 - 1, what)
        if slot not in by_node:
            raise LiteModelError(f"{what}: no node defines that slot")
        if slot in described:
            raise LiteModelError(f"{what}: the slot is described a second time")
        described.add(slot)
        _check_str(shape, what)
