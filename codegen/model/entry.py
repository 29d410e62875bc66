"""One entry of native_functions.yaml: a schema plus how it is implemented.

`NativeFunction` holds every field an entry may have, after defaults (an entry
without `dispatch:` gets `CompositeImplicitAutograd: <name>`; `ufunc_inner_loop`
adds its CPU/CUDA kernels).  `EntrySource` remembers where each field was written,
so checks can point at the offending YAML node; entries made by `autogen` share
the source of the entry that asked for them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from codegen.diagnostics import Position
from codegen.model.dispatch import COMPOSITE_IMPLICIT, BackendMetadata
from codegen.model.schema import DEFAULT_NAMESPACE, Argument, FunctionSchema, OperatorName
from codegen.yaml_loader import MappingNode, Node, ScalarNode, position, text_column

# Every key an entry may have, with a one-line description for hints.
ENTRY_KEYS = {
    "func": "the schema, `name.overload(Type arg, ...) -> Return`",
    "variants": "`function`, `method` or `function, method`",
    "dispatch": "a mapping from dispatch keys to kernel names, e.g. `CPU: my_kernel`",
    "structured": "`True` on the out= variant of a structured kernel",
    "structured_delegate": "the name of the structured out= variant that implements this function",
    "structured_inherits": "the base class of the meta struct, e.g. `TensorIteratorBase`",
    "precomputed": "a list of `kernel_arg -> Type name, ...` lines",
    "autogen": "the variants to generate, e.g. `foo.out`",
    "device_guard": "`False` to skip the generated device guard",
    "device_check": "`NoCheck` to skip the same-device check",
    "manual_kernel_registration": "`True` when the kernel is registered by hand",
    "manual_cpp_binding": "`True` when the C++ binding is written by hand",
    "use_const_ref_for_mutable_tensors": "`True` to pass written tensors as `const Tensor &`",
    "category_override": "a category name, e.g. `factory`",
    "python_module": "a Python module name, e.g. `nn`, `fft`, `linalg` or `special`",
    "tags": "a tag, or a list of tags, defined in tags.yaml",
    "cpp_no_default_args": "a list of arguments whose default the C++ API leaves out",
    "ufunc_inner_loop": "the ufunc loops of a structured kernel, e.g. `Generic: add (All)`",
}

FUNCTION = "function"
METHOD = "method"
VARIANTS = (FUNCTION, METHOD)
DEVICE_CHECKS = ("ExactSame", "NoCheck")


@dataclass(eq=False)
class EntrySource:
    """Where an entry and each of its fields were written.

    The YAML nodes are kept while the file is checked, then `release()`d so the
    node tree can be freed; afterwards every position is the entry's own.
    """

    path: str
    line: int  # 1-based, of the entry's first key
    column: int
    fields: dict[str, tuple[Node, Node]]  # key -> (key node, value node)

    def release(self) -> None:
        self.fields = {}

    def entry(self) -> Position:
        return Position(self.path, self.line, self.column)

    def key(self, key: str) -> Position:
        pair = self.fields.get(key)
        return position(pair[0], self.path) if pair else self.entry()

    def value(self, key: str) -> Position:
        pair = self.fields.get(key)
        return position(pair[1], self.path) if pair else self.entry()

    def in_value(self, key: str, offset: int) -> Position:
        """Position of character `offset` of a one-line string value (its start otherwise)."""
        pair = self.fields.get(key)
        if pair is None:
            return self.entry()
        node = pair[1]
        if isinstance(node, ScalarNode):
            col = text_column(node, offset)
            if col is not None:
                return Position(self.path, node.start_mark.line + 1, col + 1)
        return position(node, self.path)

    def dispatch_key(self, key: str) -> Position:
        """Position of the dispatch table line that names `key`."""
        pair = self.fields.get("dispatch")
        if pair is not None and isinstance(pair[1], MappingNode):
            for k, _ in pair[1].value:
                if isinstance(k, ScalarNode) and key in (p.strip() for p in k.value.split(",")):
                    col = text_column(k, k.value.find(key))
                    mark = k.start_mark
                    return Position(
                        self.path, mark.line + 1, (col if col is not None else mark.column) + 1
                    )
        return self.key("dispatch")


@dataclass(frozen=True)
class UfuncInnerLoop:
    name: str
    supported_dtypes: tuple[str, ...]  # ScalarType names, expanded from classes like `All`
    ufunc_key: str


@dataclass(frozen=True)
class Precompute:
    """`precomputed:` lines: `kernel_arg -> Type a, Type b` plus an optional last line of adds."""

    replace: tuple[tuple[str, tuple[Argument, ...]], ...]
    add: tuple[Argument, ...]

    @property
    def arguments(self) -> tuple[Argument, ...]:
        """Every value meta() computes for impl(): the replacements, then the adds."""
        return tuple(a for _, args in self.replace for a in args) + self.add

    def replacement(self, name: str) -> tuple[Argument, ...] | None:
        for k, v in self.replace:
            if k == name:
                return v
        return None


@dataclass(frozen=True, eq=False)
class NativeFunction:
    func: FunctionSchema
    source: EntrySource
    variants: frozenset[str]
    dispatch: dict[str, BackendMetadata]  # after defaults; in the order written
    has_dispatch_table: bool  # the entry wrote a `dispatch:` table
    written_dispatch: tuple[str, ...]  # the keys of that table, as written
    structured: bool
    structured_delegate: OperatorName | None
    structured_inherits: str | None
    precomputed: Precompute | None
    autogen: tuple[OperatorName, ...]
    device_guard: bool
    device_check: str
    manual_kernel_registration: bool
    manual_cpp_binding: bool
    use_const_ref_for_mutable_tensors: bool
    category_override: str | None
    python_module: str | None
    tags: frozenset[str]  # as written, plus `out`/`inplace`/... that apply (see tags.py)
    cpp_no_default_args: frozenset[str]
    ufunc_inner_loop: dict[str, UfuncInnerLoop] = field(default_factory=dict)
    generated: bool = False  # made by `autogen`, not written in the file

    @property
    def name(self) -> OperatorName:
        return self.func.name

    @functools.cached_property
    def key(self) -> str:
        """The function's key in outputs: `name.overload`, namespaced unless aten."""
        return self.func.name.display()

    @property
    def namespace(self) -> str:
        return self.func.name.effective_namespace

    @functools.cached_property
    def root(self) -> str:
        """The operator's root name, shared by its overloads and its inplace, out= and
        functional variants (`add` of add.Tensor, add_.Scalar, add.out): what names its
        per-operator headers and picks its shard. Namespaced unless aten (`my_soft_clip`)."""
        base = self.func.name.name.base
        ns = self.func.name.namespace
        return base if not ns or ns == DEFAULT_NAMESPACE else f"{ns}_{base}"

    @property
    def part_of_structured_group(self) -> bool:
        return self.structured or self.structured_delegate is not None

    @property
    def has_composite_implicit_autograd_kernel(self) -> bool:
        return COMPOSITE_IMPLICIT in self.dispatch

    @property
    def is_view_op(self) -> bool:
        """Returns an alias of an input (`-> Tensor(a)`), or is an inplace view, or wildcards."""
        for r in self.func.returns:
            if r.annotation is not None and not r.annotation.is_write:
                return True
        if (
            "inplace_view" in self.tags
            and str(self.func.name) not in INPLACE_VIEWS_TREATED_AS_INPLACE
        ):
            return True
        for a in self.func.arguments.flat_all:
            if a.annotation is not None and a.annotation.alias_set_after == ("*",):
                return True
        return False


# `resize_` and `resize_as_` carry the inplace_view tag but are handled as ordinary
# inplace operators (they have functional `resize` variants), as torchgen does; so are
# all overloads of `set_` by autogen and by the inplace_view naming rule.
INPLACE_VIEWS_TREATED_AS_INPLACE = frozenset(("resize_", "resize_as_"))
SET_ = "set_"


def cpp_name(func: FunctionSchema) -> str:
    """The default kernel name: the operator name, `_out` added for out= functions."""
    name = str(func.name.name)
    return name + "_out" if func.arguments.out else name
