"""The dynamic-shape parts of the converter (needs torch): symbols, scalar nodes, shape text.

A program exported with `dynamic_shapes=` has symbolic input dimensions (sympy symbols
such as `s27`), `aten.sym_size.int` nodes that read them, and Python operator nodes
(`operator.mul`, `torch.sym_max`, `math.ceil`, ...) that compute on them. Here:

- `Symbols.input_sizes` turns a user input's shape into a tensor_desc's sizes, registering
  each new symbol with its bounds (`ep.range_constraints`) and the name the user gave
  its Dim where the program still knows it (an ExportedProgram in memory keeps them in
  its shape env; one read back from a .pt2 does not), else "<input>.<dim>".
- `SYM_TARGETS` maps the fx targets of scalar nodes to the format's `sym::` operators.
- `shape_text` writes a tensor's symbolic shape with the symbols' names put in.
"""

import math
import operator
import re

import sympy
import torch
from lite_model import INT64_MAX, Symbol
from schema_args import ConvertError

# fx targets of Python scalar nodes -> the format's scalar operators (FORMAT.md).
SYM_TARGETS = {
    operator.add: "sym::add",
    operator.sub: "sym::sub",
    operator.mul: "sym::mul",
    operator.floordiv: "sym::floordiv",
    operator.mod: "sym::mod",
    operator.truediv: "sym::truediv",
    operator.pow: "sym::pow",
    operator.neg: "sym::neg",
    operator.eq: "sym::eq",
    operator.ne: "sym::ne",
    operator.lt: "sym::lt",
    operator.le: "sym::le",
    operator.gt: "sym::gt",
    operator.ge: "sym::ge",
    operator.and_: "sym::and",
    operator.or_: "sym::or",
    operator.not_: "sym::not",
    torch.sym_not: "sym::not",
    torch.sym_max: "sym::max",
    torch.sym_min: "sym::min",
    torch.sym_float: "sym::float",
    torch.sym_int: "sym::int",
    math.trunc: "sym::int",
    math.ceil: "sym::ceil",
    math.floor: "sym::floor",
    math.sqrt: "sym::sqrt",
    torch._sym_sqrt: "sym::sqrt",
    torch.sym_ite: "sym::ite",
}

# ATen calls on scalars: `_assert_scalar` becomes `sym::assert`; the range constraints
# are dropped (the symbols section holds the ranges).
ASSERT_SCALAR = "aten::_assert_scalar"
RANGE_CONSTRAINTS = {"aten::sym_constrain_range", "aten::sym_constrain_range_for_size"}

_SOURCE = re.compile(r"L\['(\w+)'\]\.size\(\)\[(\d+)\]\Z")


def dim_names(ep: torch.export.ExportedProgram) -> dict:
    """{(input name, dimension): Dim name} as the program's shape env remembers them.

    torch.export keeps the Dims' names in the shape env of the fake inputs
    (`source_name_to_debug_name`, keyed `L['tokens'].size()[1]`) while the program is in
    memory; torch.export.save does not write them, so a loaded .pt2 gives {}.
    """
    for node in ep.graph.nodes:
        val = node.meta.get("val") if node.op == "placeholder" else None
        if not isinstance(val, torch.Tensor):
            continue
        for size in val.shape:
            if isinstance(size, torch.SymInt):
                names = getattr(size.node.shape_env, "source_name_to_debug_name", None) or {}
                found = {}
                for source, name in names.items():
                    match = _SOURCE.match(source)
                    if match:
                        found[(match[1], int(match[2]))] = name
                return found
    return {}


def _bound(value, default: int) -> int:
    """A ValueRanges end as an int64: int_oo (or anything infinite) is `default`."""
    if not (isinstance(value, int) or getattr(value, "is_Integer", False)):
        return default  # int_oo, -int_oo, sympy's oo
    return max(0, min(int(value), INT64_MAX))


class Symbols:
    """The model's symbols as they are met in the inputs, in order."""

    def __init__(self, ep: torch.export.ExportedProgram, names: dict = None):
        self.ranges = ep.range_constraints
        self.names = dim_names(ep) if names is None else names
        self.index = {}  # sympy symbol -> its index in `symbols`
        self.symbols = []

    def size(self, expr, input_name: str, d: int) -> int:
        """The tensor_desc size (-1-k) of input dimension `d` holding the symbol `expr`."""
        if expr not in self.index:
            name = self.names.get((input_name, d)) or f"{input_name}.{d}"
            taken = {s.name for s in self.symbols}
            base, n = name, 2
            while name in taken:  # two Dims given the same name: keep them apart
                name, n = f"{base}_{n}", n + 1
            bounds = self.ranges.get(expr)
            low = _bound(bounds.lower, 0) if bounds is not None else 0
            high = _bound(bounds.upper, INT64_MAX) if bounds is not None else INT64_MAX
            self.index[expr] = len(self.symbols)
            self.symbols.append(Symbol(name, low, max(low, high)))
        return -1 - self.index[expr]

    def input_sizes(self, val: torch.Tensor, input_name: str, what: str) -> tuple:
        """A user input's sizes: ints, or -1-k for symbol k; a derived dim is refused."""
        sizes = []
        for d, size in enumerate(val.shape):
            if isinstance(size, int):
                sizes.append(size)
                continue
            expr = size.node.expr
            if isinstance(expr, sympy.Integer):
                sizes.append(int(expr))
            elif isinstance(expr, sympy.Symbol):
                sizes.append(self.size(expr, input_name, d))
            else:
                raise ConvertError(
                    f"{what}: dimension {d} is {self.text(expr)}, an expression of other "
                    "dimensions (a derived Dim); the format binds symbols from whole input "
                    "dimensions only: give this dimension a Dim of its own (torch.export.Dim), "
                    "or pass the input whose dimension it derives from and compute it in forward()"
                )
        return tuple(sizes)

    def check_inputs(self, ep: torch.export.ExportedProgram) -> None:
        """`input_sizes` of every user input: ConvertError at a derived dimension.

        Run before decomposing, since torch 2.13 cannot decompose a program read back
        from a .pt2 whose inputs have derived dimensions ("expected sympy.Symbol")."""
        from torch.export.graph_signature import InputKind  # pylint: disable=import-outside-toplevel

        users = {
            spec.arg.name
            for spec in ep.graph_signature.input_specs
            if spec.kind == InputKind.USER_INPUT
        }
        for node in ep.graph.nodes:
            val = node.meta.get("val")
            if node.op == "placeholder" and node.name in users and isinstance(val, torch.Tensor):
                self.input_sizes(val, node.name, f"node '{node.name}' (user input)")

    def text(self, expr) -> str:
        """`expr` with the symbols' names put in: `batch*seq`, `4*batch`."""
        if isinstance(expr, (torch.SymInt, torch.SymFloat, torch.SymBool)):
            expr = expr.node.expr
        if not isinstance(expr, sympy.Basic):
            return str(expr)
        names = {sym: sympy.Symbol(self.symbols[k].name) for sym, k in self.index.items()}
        return str(expr.xreplace(names))

    def shape_text(self, val: torch.Tensor) -> str:
        """A tensor's shape as value_info holds it: `[batch, seq, 64]`."""
        return "[" + ", ".join(self.text(size) for size in val.shape) + "]"
