"""Build a NativeFunction from one YAML entry, reporting every malformed field.

A field that cannot be read is reported and replaced by its default, so the rest of
the entry (and the file) is still checked.  Only an entry whose `func:` cannot be
parsed is dropped.  Rules about how fields relate to each other live in validate/.
"""

from __future__ import annotations

import difflib
import re

from codegen.diagnostics import Diagnostics, NearMatches
from codegen.model.dispatch import (
    COMPOSITE_IMPLICIT,
    DEFAULT_KERNEL_NAMESPACE,
    KNOWN_KEYS,
    STRUCTURED_KEYS,
    SUPPORTED_KEY_SET,
    SUPPORTED_KEYS,
    UFUNC_KEYS,
    BackendMetadata,
    split_kernel_name,
)
from codegen.model.entry import (
    DEVICE_CHECKS,
    ENTRY_KEYS,
    FUNCTION,
    VARIANTS,
    EntrySource,
    NativeFunction,
    Precompute,
    UfuncInnerLoop,
    cpp_name,
)
from codegen.model.schema import OperatorName, parse_operator_name
from codegen.model.schema_parser import SchemaParser, parse_argument_decl
from codegen.model.tags import derived_tags
from codegen.model.types import SchemaError
from codegen.yaml_loader import (
    NULL_TAG,
    STR_TAG,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    bool_value,
    describe,
    is_str,
    position,
    text_column,
)

UFUNC_KEY_NAMES = (
    "CUDAFunctor",
    "CUDAFunctorOnOther",
    "CUDAFunctorOnSelf",
    "CPUScalar",
    "CPUVector",
    "ScalarOnly",
    "Generic",
)
SCALAR_TYPE_NAMES = (
    "Byte",
    "Char",
    "Short",
    "Int",
    "Long",
    "Half",
    "Float",
    "Double",
    "ComplexHalf",
    "ComplexFloat",
    "ComplexDouble",
    "Bool",
    "BFloat16",
    "Float8_e5m2",
    "Float8_e5m2fnuz",
    "Float8_e4m3fn",
    "Float8_e4m3fnuz",
    "Float8_e8m0fnu",
)
_INTEGRAL = ("Byte", "Char", "Int", "Long", "Short")
DTYPE_CLASSES = {
    "Integral": _INTEGRAL,
    "Floating": ("Float", "Double"),
    "Complex": ("ComplexFloat", "ComplexDouble"),
    "All": _INTEGRAL + ("Float", "Double"),
    "AllAndComplex": _INTEGRAL + ("Float", "Double", "ComplexFloat", "ComplexDouble"),
    "FloatingAndComplex": ("Float", "Double", "ComplexFloat", "ComplexDouble"),
}
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KERNEL_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*){0,3}\Z")
_FUNCTION_ONLY = frozenset((FUNCTION,))
_NOTHING: frozenset[str] = frozenset()
_UFUNC_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*\Z")


def did_you_mean(word: str, choices, what: str = "") -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if close:
        return f"did you mean `{close[0]}`?"
    return f"valid {what or 'values'}: " + ", ".join(f"`{c}`" for c in choices)


class EntryParser:
    """Turns entries of one file into NativeFunctions."""

    def __init__(self, path: str, diags: Diagnostics, valid_tags: frozenset[str] | None) -> None:
        self.path = path
        self.diags = diags
        self.valid_tags = valid_tags
        self.schemas = SchemaParser()
        self._shared: dict = {}
        # Names of entries whose schema had a mistake: not reported again as missing.
        self.unparsed: set[str] = set()
        self.variant_sets: dict[str, frozenset[str]] = {}
        self.kernels: dict[tuple[str, bool, str], BackendMetadata] = {}
        self.tag_names: NearMatches | None = (
            None  # for `did you mean`, made on the first unknown tag
        )

    def shared(self, value):
        """One object per distinct value (tag sets...): thousands of entries repeat them."""
        return self._shared.setdefault(value, value)

    def kernel(
        self, name: str, structured: bool, namespace: str = DEFAULT_KERNEL_NAMESPACE
    ) -> BackendMetadata:
        """One BackendMetadata per distinct kernel."""
        ident = (name, structured, namespace)
        metadata = self.kernels.get(ident)
        if metadata is None:
            metadata = self.kernels[ident] = BackendMetadata(name, structured, namespace)
        return metadata

    def parse(self, node: Node) -> NativeFunction | None:
        if not isinstance(node, MappingNode):
            self.diags.error(
                position(node, self.path),
                f"an entry must be a mapping starting with `func:`, not {describe(node)}",
                "write entries as `- func: name(Tensor self) -> Tensor`",
            )
            return None
        mark = node.start_mark
        src = EntrySource(self.path, mark.line + 1, mark.column + 1, {})
        fields = src.fields
        for k, v in node.value:
            if k.tag != STR_TAG:
                self.diags.error(
                    position(k, self.path),
                    f"a key must be a name, not {describe(k)}",
                    "valid keys: " + ", ".join(ENTRY_KEYS),
                )
                continue
            if k.value in fields:
                first = fields[k.value][0].start_mark.line + 1
                self.diags.error(
                    position(k, self.path),
                    f"key `{k.value}` appears twice in this entry (first on line {first})",
                    "keep one of them",
                )
                continue
            if k.value not in ENTRY_KEYS:
                self.diags.error(
                    position(k, self.path),
                    f"unknown key `{k.value}`",
                    did_you_mean(k.value, ENTRY_KEYS, "keys"),
                )
                continue
            fields[k.value] = (k, v)
        return _EntryBuilder(self, src).build()


class _EntryBuilder:
    def __init__(self, parser: EntryParser, src: EntrySource) -> None:
        self.p = parser
        self.src = src
        self.diags = parser.diags

    def node(self, key: str) -> Node | None:
        pair = self.src.fields.get(key)
        if pair is None:
            return None
        v = pair[1]
        if isinstance(v, ScalarNode) and v.tag == NULL_TAG:
            self.diags.warning(
                self.src.value(key),
                f"`{key}:` has no value and is ignored",
                f"give it a value ({ENTRY_KEYS[key]}) or delete the line",
            )
            return None
        return v

    def wrong(self, key: str, node: Node, expected: str) -> None:
        self.diags.error(
            position(node, self.src.path),
            f"`{key}` must be {expected}, not {describe(node)}",
            f"`{key}:` takes {ENTRY_KEYS[key]}",
        )

    def get_bool(self, key: str, default: bool) -> bool:
        v = self.node(key)
        if v is None:
            return default
        b = bool_value(v)
        if b is None:
            self.wrong(key, v, "`True` or `False`")
            return default
        return b

    def get_str(self, key: str) -> str | None:
        v = self.node(key)
        if v is None:
            return None
        if not is_str(v):
            self.wrong(key, v, "a string")
            return None
        return v.value

    def get_str_list(self, key: str, allow_scalar: bool) -> list[tuple[str, Node]]:
        v = self.node(key)
        if v is None:
            return []
        if allow_scalar and is_str(v):
            return [(v.value, v)]
        if not isinstance(v, SequenceNode):
            self.wrong(key, v, "a list of strings")
            return []
        out = []
        for item in v.value:
            if is_str(item):
                out.append((item.value, item))
            else:
                self.wrong(key, item, "a list of strings")
        return out

    def build(self) -> NativeFunction | None:
        src, diags = self.src, self.diags
        if "func" not in src.fields:
            diags.error(
                src.entry(),
                "the entry has no `func:`",
                "every entry starts with `- func: name(Type arg, ...) -> Return`",
            )
            return None
        func_node = src.fields["func"][1]
        if isinstance(func_node, ScalarNode) and func_node.tag == NULL_TAG:
            diags.error(
                src.value("func"),
                "`func:` has no value",
                "write the schema: `- func: name(Type arg, ...) -> Return`",
            )
            return None
        func_text = self.get_str("func")
        if func_text is None:
            return None
        try:
            func, canonical = self.p.schemas.parse(func_text)
        except SchemaError as e:
            diags.error(src.in_value("func", e.offset), e.message, e.hint)
            self.p.unparsed.add(func_text.split("(", 1)[0].strip())
            return None
        if not canonical:
            diags.warning(
                src.value("func"),
                "the schema is not written in canonical form",
                f"write it as: {func}",
            )

        F = src.fields  # only the keys an entry has are looked at: most have few
        structured = "structured" in F and self.get_bool("structured", False)
        delegate = self.operator_name("structured_delegate") if "structured_delegate" in F else None
        inherits = self.get_str("structured_inherits") if "structured_inherits" in F else None
        if inherits is not None and "::" in inherits:
            diags.error(
                src.value("structured_inherits"),
                "`structured_inherits` cannot name a namespace",
                "give the class name only; it is looked up in the operator's namespace",
            )
        if "dispatch" in F:
            dispatch, written, has_table = self.dispatch(structured)
        else:
            dispatch, written, has_table = {}, (), False
        ufunc = self.ufunc_inner_loop() if "ufunc_inner_loop" in F else {}
        if ufunc:
            for key in UFUNC_KEYS:
                if key in dispatch:
                    diags.error(
                        src.dispatch_key(key),
                        f"`{key}` is given a kernel although `ufunc_inner_loop` generates it",
                        f"remove the `{key}` entry from `dispatch:`",
                    )
                if func.arguments.out:
                    dispatch[key] = self.p.kernel(f"ufunc_{func.name.name}_{key}", True)
        if not has_table and not structured and delegate is None:
            dispatch[COMPOSITE_IMPLICIT] = self.p.kernel(cpp_name(func), False)

        return NativeFunction(
            func=func,
            source=src,
            variants=self.variants() if "variants" in F else _FUNCTION_ONLY,
            dispatch=dispatch,
            has_dispatch_table=has_table,
            written_dispatch=written,
            structured=structured,
            structured_delegate=delegate,
            structured_inherits=inherits,
            precomputed=self.precomputed() if "precomputed" in F else None,
            autogen=self.autogen() if "autogen" in F else (),
            device_guard=self.get_bool("device_guard", True) if "device_guard" in F else True,
            device_check=self.device_check() if "device_check" in F else "ExactSame",
            manual_kernel_registration="manual_kernel_registration" in F
            and self.get_bool("manual_kernel_registration", False),
            manual_cpp_binding="manual_cpp_binding" in F
            and self.get_bool("manual_cpp_binding", False),
            use_const_ref_for_mutable_tensors="use_const_ref_for_mutable_tensors" in F
            and self.get_bool("use_const_ref_for_mutable_tensors", False),
            category_override=self.get_str("category_override")
            if "category_override" in F
            else None,
            python_module=self.get_str("python_module") if "python_module" in F else None,
            tags=self.tags(func),
            cpp_no_default_args=self.p.shared(
                frozenset(s for s, _ in self.get_str_list("cpp_no_default_args", False))
            )
            if "cpp_no_default_args" in F
            else _NOTHING,
            ufunc_inner_loop=ufunc,
        )

    def variants(self) -> frozenset[str]:
        text = self.get_str("variants")
        if text is None:
            return _FUNCTION_ONLY
        known = self.p.variant_sets.get(text)
        if known is not None:
            return known
        out = set()
        offset = 0
        for part in text.split(","):
            v = part.strip()
            at = offset + len(part) - len(part.lstrip())
            offset += len(part) + 1
            if v not in VARIANTS:
                self.diags.error(
                    self.src.in_value("variants", at),
                    f"unknown variant `{v}`" if v else "empty variant",
                    did_you_mean(v, VARIANTS, "variants"),
                )
            elif v in out:
                self.diags.warning(
                    self.src.in_value("variants", at),
                    f"variant `{v}` is listed twice",
                    "list it once",
                )
            else:
                out.add(v)
        result = frozenset(out) if out else _FUNCTION_ONLY
        if out and len(out) == len(text.split(",")):
            self.p.variant_sets[text] = result  # a clean spelling: reuse it for the next entries
        return result

    def operator_name(self, key: str) -> OperatorName | None:
        text = self.get_str(key)
        if text is None:
            return None
        if "::" in text:
            self.diags.error(
                self.src.value(key),
                f"`{key}` cannot name a namespace",
                "write `name.overload`; the operator's own namespace is used",
            )
            return None
        try:
            return parse_operator_name(text.strip())
        except SchemaError as e:
            self.diags.error(self.src.in_value(key, e.offset), e.message, e.hint)
            return None

    def dispatch(self, structured: bool):
        """(kernels by key, keys as written, whether a table was written)."""
        table = self.node("dispatch")
        dispatch: dict[str, BackendMetadata] = {}
        if table is None:
            return dispatch, (), False
        if not isinstance(table, MappingNode):
            self.wrong("dispatch", table, "a mapping such as `CPU: my_kernel`")
            return dispatch, (), True
        path = self.src.path
        first_line: dict[str, int] = {}
        written: list[str] = []
        for k, v in table.value:
            if k.tag != STR_TAG:
                self.diags.error(
                    position(k, path),
                    f"a dispatch key must be a name, not {describe(k)}",
                    "write e.g. `CPU: my_kernel_cpu`",
                )
                continue
            if v.tag != STR_TAG:
                self.diags.error(
                    position(v, path),
                    f"a kernel name must be a string, not {describe(v)}",
                    "write e.g. `CPU: my_kernel_cpu`",
                )
                kernel = None
            else:
                kernel = self.kernel_name(v)
            keys = k.value.split(",") if "," in k.value else (k.value,)
            offset = 0
            for part in keys:
                key = part.strip()
                if key in first_line or key not in SUPPORTED_KEY_SET:
                    self.bad_dispatch_key(
                        k, key, offset + len(part) - len(part.lstrip()), first_line
                    )
                    offset += len(part) + 1
                    continue
                offset += len(part) + 1
                first_line[key] = k.start_mark.line + 1
                written.append(key)
                if kernel is not None:
                    dispatch[key] = self.p.kernel(
                        kernel[1], structured and key in STRUCTURED_KEYS, kernel[0]
                    )
        return dispatch, tuple(written), True

    def bad_dispatch_key(
        self, k: ScalarNode, key: str, offset: int, first_line: dict[str, int]
    ) -> None:
        col = text_column(k, offset)
        at = position(k, self.src.path)
        if col is not None:
            at = at.shifted(col - k.start_mark.column)
        if not key:
            self.diags.error(
                at, "empty dispatch key", "separate keys with `, `, e.g. `CPU, CUDA: kernel`"
            )
        elif key in first_line:
            line = first_line[key]
            where = "on this line" if line == k.start_mark.line + 1 else f"first on line {line}"
            self.diags.error(
                at,
                f"dispatch key `{key}` is given twice ({where})",
                "give each dispatch key one kernel",
            )
        elif key in KNOWN_KEYS:
            self.diags.error(
                at,
                f"dispatch key `{key}` cannot be used in a dispatch table",
                "supported keys: " + ", ".join(SUPPORTED_KEYS),
            )
        else:
            self.diags.error(
                at,
                f"unknown dispatch key `{key}`",
                did_you_mean(key, SUPPORTED_KEYS, "dispatch keys"),
            )

    def kernel_name(self, v: ScalarNode) -> tuple[str, str] | None:
        """(C++ namespace, kernel name) of a dispatch value, or None (reported) if malformed."""
        text = v.value.strip()
        if _KERNEL_RE.match(text):
            return split_kernel_name(text)
        parts = text.split("::")
        if len(parts) > 4 and all(_IDENT_RE.match(p) for p in parts):
            self.diags.error(
                position(v, self.src.path),
                f"kernel `{text}` is nested in more than 3 namespaces",
                "use at most 3 levels: `a::b::c::kernel`",
            )
        else:
            self.diags.error(
                position(v, self.src.path),
                f"invalid kernel name `{v.value}`",
                "a kernel is a C++ function name, optionally namespaced: `ns::kernel`",
            )
        return None

    def autogen(self) -> tuple[OperatorName, ...]:
        text = self.get_str("autogen")
        if not text:
            return ()
        names = []
        offset = 0
        for part in text.split(","):
            at = offset + len(part) - len(part.lstrip())
            offset += len(part) + 1
            try:
                names.append(parse_operator_name(part.strip(), at))
            except SchemaError as e:
                self.diags.error(
                    self.src.in_value("autogen", e.offset),
                    e.message,
                    "list operator names separated by `, `, e.g. `autogen: foo, foo.out`",
                )
        return tuple(names)

    def device_check(self) -> str:
        text = self.get_str("device_check")
        if text is None:
            return "ExactSame"
        if text not in DEVICE_CHECKS:
            self.diags.error(
                self.src.value("device_check"),
                f"unknown device_check `{text}`",
                did_you_mean(text, DEVICE_CHECKS),
            )
            return "ExactSame"
        return text

    def tags(self, func) -> frozenset[str]:
        valid = self.p.valid_tags
        derived = derived_tags(func, valid)
        if "tags" not in self.src.fields:
            return derived
        out = set()
        for tag, node in self.get_str_list("tags", True):
            if valid is not None and tag not in valid:
                if self.p.tag_names is None:
                    self.p.tag_names = NearMatches(sorted(valid))
                self.diags.error(
                    position(node, self.src.path),
                    f"unknown tag `{tag}`",
                    self.p.tag_names.hint(tag, "tags (from tags.yaml)"),
                )
            elif tag in out:
                self.diags.warning(
                    position(node, self.src.path), f"tag `{tag}` is listed twice", "list it once"
                )
            else:
                out.add(tag)
        return self.p.shared(frozenset(out | derived))

    def precomputed(self) -> Precompute | None:
        items = self.get_str_list("precomputed", False)
        if not items:
            return None
        replace = []
        add = ()
        for i, (line, node) in enumerate(items):
            at = position(node, self.src.path)
            if "->" not in line:
                if i != len(items) - 1:
                    self.diags.error(
                        at,
                        "only the last `precomputed` line may add values without `->`",
                        "write `kernel_arg -> Type name, ...`, or move this line last",
                    )
                    continue
                add = self.decls(line, node)
                continue
            arg, _, decls = line.partition("->")
            arg = arg.strip()
            if not _IDENT_RE.match(arg):
                self.diags.error(
                    at, f"`{arg}` is not an argument name", "write `kernel_arg -> Type name, ...`"
                )
                continue
            replace.append((arg, self.decls(decls, node)))
        return Precompute(tuple(replace), tuple(add))

    def decls(self, text: str, node: Node):
        out = []
        for piece in text.split(","):
            try:
                a = parse_argument_decl(piece)
            except SchemaError as e:
                self.diags.error(
                    position(node, self.src.path), f"in `precomputed`: {e.message}", e.hint
                )
                continue
            if a.name.upper() == a.name:
                self.diags.error(
                    position(node, self.src.path),
                    f"precomputed name `{a.name}` must not be all uppercase",
                    "the generated code uses the uppercase name as a template parameter",
                )
            out.append(a)
        return tuple(out)

    def ufunc_inner_loop(self) -> dict[str, UfuncInnerLoop]:
        v = self.node("ufunc_inner_loop")
        if v is None:
            return {}
        pairs: list[tuple[str | None, Node, Node]]  # (the key if a string, its node, value)
        if is_str(v):
            pairs = [("Generic", v, v)]
        elif isinstance(v, MappingNode):
            pairs = [(k.value if is_str(k) else None, k, val) for k, val in v.value]
        else:
            self.wrong("ufunc_inner_loop", v, "a string or a mapping")
            return {}
        out = {}
        for key, key_node, val in pairs:
            if key is None or key not in UFUNC_KEY_NAMES:
                self.diags.error(
                    position(key_node, self.src.path),
                    f"unknown ufunc key `{key}`",
                    did_you_mean(str(key), UFUNC_KEY_NAMES, "ufunc keys"),
                )
                continue
            loop = self.ufunc_loop(key, val)
            if loop is not None:
                out[key] = loop
        return out

    def ufunc_loop(self, key: str, node: Node) -> UfuncInnerLoop | None:
        at = position(node, self.src.path)
        m = _UFUNC_RE.match(node.value) if is_str(node) else None
        if m is None:
            self.diags.error(
                at,
                "a ufunc loop must be written `name (dtype, ...)`",
                "e.g. `Generic: add (AllAndComplex, BFloat16, Half)`",
            )
            return None
        dtypes: list[str] = []
        for d in (x.strip() for x in m.group(2).split(",")):
            if d in DTYPE_CLASSES:
                dtypes.extend(t for t in DTYPE_CLASSES[d] if t not in dtypes)
            elif d in SCALAR_TYPE_NAMES:
                if d not in dtypes:
                    dtypes.append(d)
            else:
                self.diags.error(
                    at,
                    f"unknown dtype `{d}` in a ufunc loop",
                    did_you_mean(d, list(DTYPE_CLASSES) + list(SCALAR_TYPE_NAMES), "dtypes"),
                )
        return UfuncInnerLoop(m.group(1), tuple(dtypes), key)
