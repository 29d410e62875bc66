"""Schema text into the model (types.py, schema.py), which never imports this module.

    parse_schema("add.Tensor(Tensor self, Tensor other) -> Tensor")   # canonical text only
    parse_type("int[2]?"), parse_argument("Tensor(a!) out"), parse_return("Tensor values")
    schema, canonical = SchemaParser().parse(text)   # any spacing: what a yaml file is read with

Parsing has two paths that build the same objects: a fast one for canonical text
(regular expressions, with per-file caches of the argument pieces, which repeat a
lot) and a careful scanner that accepts any spacing and pinpoints mistakes: it reads
the text left to right, keeping the offset of each piece, and raises a SchemaError
whose `offset` is the character the user has to look at.  The spans it returns let
later checks point at a given argument, its name or its default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen.model.schema import (
    Argument,
    FunctionSchema,
    Return,
    build_arguments,
    parse_operator_name,
)
from codegen.model.types import (
    Annotation,
    SchemaError,
    Type,
    apply_suffixes,
    base_type,
    parse_annotation,
)

_SHAPE = "a schema looks like `name.overload(Type arg, *, Tensor(a!) out) -> ReturnType`"


@dataclass(frozen=True)
class ArgSpan:
    start: int  # where the argument (its type) starts
    name: int  # where its name starts (-1 for a return without name)
    default: int  # where its default starts, or -1


@dataclass(frozen=True)
class SchemaSpans:
    name: int
    args: tuple[ArgSpan, ...]  # in written order == Arguments.flat_all order
    returns: tuple[ArgSpan, ...]
    returns_start: int


_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_IDENT_CHARS = _IDENT_START | frozenset("0123456789")
_WS = frozenset(" \t\r\n")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def ws(self) -> None:
        s, i = self.s, self.i
        while i < len(s) and s[i] in _WS:
            i += 1
        self.i = i

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def at_end(self) -> bool:
        return self.i >= len(self.s)

    def ident(self, dots: bool = False) -> str:
        s, i = self.s, self.i
        if i >= len(s) or s[i] not in _IDENT_START:
            return ""
        j = i + 1
        while j < len(s) and (s[j] in _IDENT_CHARS or (dots and s[j] == ".")):
            j += 1
        self.i = j
        return s[i:j]

    def found(self) -> str:
        if self.at_end():
            return "the end of the schema"
        return f"`{self.s[self.i]}`"


def parse_schema_with_spans(text: str) -> tuple[FunctionSchema, SchemaSpans]:
    sc = _Scanner(text)
    sc.ws()
    name_at = sc.i
    while not sc.at_end() and sc.peek() != "(" and sc.peek() not in _WS:
        sc.i += 1
    name_text = text[name_at : sc.i]
    if not name_text:
        raise SchemaError("the schema has no operator name", name_at, _SHAPE)
    name = parse_operator_name(name_text, name_at)
    sc.ws()
    if sc.peek() != "(":
        if "->" in text[sc.i :]:
            raise SchemaError(
                f"expected `(` after the operator name, found {sc.found()}", sc.i, _SHAPE
            )
        raise SchemaError(
            "expected `(` and the argument list after the operator name", sc.i, _SHAPE
        )
    open_at = sc.i
    sc.i += 1
    items, spans = _arguments(sc, open_at)
    sc.i += 1  # the closing `)`
    sc.ws()
    if not sc.s.startswith("->", sc.i):
        if sc.at_end():
            raise SchemaError(
                "missing `->` and the return type after the argument list",
                sc.i,
                "every schema says what it returns, e.g. `-> Tensor`, or `-> ()` for nothing",
            )
        if sc.peek() == ")":
            raise SchemaError("unmatched `)`", sc.i, "remove it, or add the `(` it closes")
        raise SchemaError(
            f"expected `->` after the argument list, found {sc.found()}", sc.i, _SHAPE
        )
    sc.i += 2
    sc.ws()
    returns_start = sc.i
    returns, ret_spans = _returns(sc)
    sc.ws()
    if not sc.at_end():
        if sc.peek() == ")":
            raise SchemaError(
                "unmatched `)` after the return type", sc.i, "remove it, or add the `(` it closes"
            )
        raise SchemaError(
            f"unexpected {sc.found()} after the return type",
            sc.i,
            "several returns are written as a tuple: `-> (Tensor a, Tensor b)`",
        )
    arguments = build_arguments(items, [sp.start for sp in spans])
    schema = FunctionSchema(name, arguments, returns)
    return schema, SchemaSpans(
        name_at, tuple(sp for sp, a in zip(spans, items) if a is not None), ret_spans, returns_start
    )


def _arguments(sc: _Scanner, open_at: int) -> tuple[list[Argument | None], list[ArgSpan]]:
    items: list[Argument | None] = []
    spans: list[ArgSpan] = []
    sc.ws()
    if sc.peek() == ")":
        return items, spans
    while True:
        sc.ws()
        start = sc.i
        if sc.at_end() or sc.s.startswith("->", sc.i):
            raise SchemaError(
                "unclosed `(`: the argument list has no closing `)`",
                open_at,
                "add `)` at the end of the arguments",
            )
        if sc.peek() == "*":
            sc.i += 1
            items.append(None)
            spans.append(ArgSpan(start, -1, -1))
        elif sc.peek() in (",", ")"):
            raise SchemaError(
                "expected an argument",
                start,
                "remove the extra `,`" if sc.peek() == "," or items else _SHAPE,
            )
        else:
            a, span = _argument(sc)
            items.append(a)
            spans.append(span)
        sc.ws()
        c = sc.peek()
        if c == ",":
            sc.i += 1
            continue
        if c == ")":
            return items, spans
        if not c or sc.s.startswith("->", sc.i):
            raise SchemaError(
                "unclosed `(`: the argument list has no closing `)`",
                open_at,
                "add `)` at the end of the arguments",
            )
        last = items[-1]
        what = "`*`" if last is None else f"argument `{last.name}`"
        raise SchemaError(
            f"expected `,` or `)` after {what}, found {sc.found()}",
            sc.i,
            "separate arguments with `, `",
        )


def _argument(sc: _Scanner) -> tuple[Argument, ArgSpan]:
    """`Type name` or `Type name=default`."""
    start = sc.i
    t, annotation = _type(sc)
    sc.ws()
    name_at = sc.i
    name = sc.ident()
    if not name:
        if sc.peek() in (",", ")", "=", ""):
            raise SchemaError(
                f"the argument of type `{t}` has no name", name_at, f"write `{t} NAME`"
            )
        raise SchemaError(
            f"expected an argument name after `{t}`, found {sc.found()}",
            name_at,
            "argument names are identifiers (letters, digits, `_`)",
        )
    sc.ws()
    default = None
    default_at = -1
    if sc.peek() == "=":
        sc.i += 1
        sc.ws()
        default_at = sc.i
        default = _default(sc)
        if not default:
            raise SchemaError(
                f"expected a default value for `{name}` after `=`",
                default_at,
                "write e.g. `int dim=0`, or remove the `=`",
            )
    return Argument(name, t, default, annotation), ArgSpan(start, name_at, default_at)


def _type(sc: _Scanner) -> tuple[Type, Annotation | None]:
    start = sc.i
    name = sc.ident(dots=True)
    if not name:
        raise SchemaError(
            f"expected a type, found {sc.found()}",
            start,
            "an argument is written `Type name`, e.g. `Tensor self`",
        )
    t = base_type(name, start)
    annotation = None
    sc.ws()
    if sc.peek() == "(":
        open_at = sc.i
        close = sc.s.find(")", open_at)
        if close < 0:
            raise SchemaError(
                "unclosed `(` in an alias annotation", open_at, "write e.g. `Tensor(a!)`"
            )
        if name != "Tensor":
            raise SchemaError(
                f"alias annotations are only allowed on `Tensor`, not `{name}`",
                open_at,
                "remove the `(...)` after the type",
            )
        annotation = parse_annotation(sc.s[open_at + 1 : close], open_at + 1)
        sc.i = close + 1
    suffix_at = sc.i
    suffixes = []
    while True:
        sc.ws()
        c = sc.peek()
        if c == "?":
            suffixes.append("?")
            sc.i += 1
        elif c == "[":
            close = sc.s.find("]", sc.i)
            if close < 0:
                raise SchemaError(
                    "unclosed `[` in a list type", sc.i, "write e.g. `int[]` or `int[2]`"
                )
            size = sc.s[sc.i + 1 : close].strip()
            if size and not size.isdigit():
                raise SchemaError(
                    f"a list size must be a number, not `{size}`",
                    sc.i + 1,
                    "write e.g. `int[2]`, or `int[]` for any length",
                )
            suffixes.append(f"[{size}]")
            sc.i = close + 1
        else:
            break
    t = apply_suffixes(t, "".join(suffixes), suffix_at)
    if annotation is not None and str(t) not in ("Tensor", "Tensor?", "Tensor[]"):
        raise SchemaError(
            f"an alias annotation cannot be used with `{t}`",
            start,
            "annotations are allowed on `Tensor(a)`, `Tensor(a)?` and `Tensor(a)[]`",
        )
    return t, annotation


_CLOSERS = {"[": "]", "(": ")"}


def _default(sc: _Scanner) -> str:
    """Scan a default value up to the next top-level `,` or `)`."""
    s = sc.s
    start = sc.i
    stack: list[tuple[str, int]] = []
    i = start
    while i < len(s):
        c = s[i]
        if c in "'\"":
            j = i + 1
            while j < len(s) and s[j] != c:
                j += 2 if s[j] == "\\" else 1
            if j >= len(s):
                raise SchemaError(
                    "unterminated string in a default value", i, f"close the string with {c}"
                )
            i = j + 1
            continue
        if c in "[(":
            stack.append((c, i))
        elif c in "])":
            if not stack:
                if c == ")":
                    break  # end of the argument list
                raise SchemaError("unmatched `]` in a default value", i, "remove it or add `[`")
            opener, _ = stack.pop()
            if _CLOSERS[opener] != c:
                raise SchemaError(
                    f"`{opener}` closed by `{c}` in a default value",
                    i,
                    f"close it with `{_CLOSERS[opener]}`",
                )
        elif c == "," and not stack:
            break
        elif s.startswith("->", i) and not stack:
            break
        i += 1
    if stack:
        opener, at = stack[-1]
        raise SchemaError(
            f"unclosed `{opener}` in a default value", at, f"add the closing `{_CLOSERS[opener]}`"
        )
    sc.i = i
    return s[start:i].rstrip()


def _returns(sc: _Scanner) -> tuple[tuple[Return, ...], tuple[ArgSpan, ...]]:
    if sc.at_end():
        raise SchemaError(
            "missing the return type after `->`",
            sc.i,
            "write e.g. `-> Tensor`, or `-> ()` for nothing",
        )
    if sc.peek() != "(":
        r, span = _return(sc)
        return (r,), (span,)
    open_at = sc.i
    sc.i += 1
    sc.ws()
    if sc.peek() == ")":
        sc.i += 1
        return (), ()
    rets, spans = [], []
    while True:
        sc.ws()
        r, span = _return(sc)
        rets.append(r)
        spans.append(span)
        sc.ws()
        c = sc.peek()
        if c == ",":
            sc.i += 1
            continue
        if c == ")":
            sc.i += 1
            return tuple(rets), tuple(spans)
        if not c:
            raise SchemaError(
                "unclosed `(` in the return type", open_at, "add `)` after the last return"
            )
        raise SchemaError(
            f"expected `,` or `)` in the returns, found {sc.found()}",
            sc.i,
            "separate returns with `, `",
        )


def _return(sc: _Scanner) -> tuple[Return, ArgSpan]:
    start = sc.i
    t, annotation = _type(sc)
    sc.ws()
    name_at = sc.i
    name = sc.ident() or None
    if name is None:
        name_at = -1
    sc.ws()
    if sc.peek() == "=":
        raise SchemaError("returns cannot have default values", sc.i, "remove the `=...`")
    return Return(name, t, annotation), ArgSpan(start, name_at, -1)


def parse_argument_decl(text: str) -> Argument:
    """Parse one `Type name` declaration (as used by `precomputed:`), any spacing: no default."""
    a = _scan_argument(text)
    if a.default is not None:
        raise SchemaError(
            f"`{a.name}` cannot have a default here", text.index("="), "remove the `=...`"
        )
    return a


# The strict entry points: canonical spelling only, so `str(parse_X(s)) == s`.


def parse_schema(text: str) -> FunctionSchema:
    """A schema in canonical form; SchemaError on any mistake or other spelling."""
    schema, canonical = SchemaParser().parse(text)
    if not canonical:
        raise SchemaError(
            "the schema is not written in canonical form", 0, f"write it as: {schema}"
        )
    return schema


def parse_argument(text: str) -> Argument:
    """`Type(a!)? name=default`, in canonical spelling; SchemaError otherwise."""
    return _canonical(_scan_argument(text), text)


def parse_return(text: str) -> Return:
    """`Type(a) name`, in canonical spelling; SchemaError otherwise."""
    return _canonical(_single(text, lambda sc: _return(sc)[0], "return"), text)


def parse_type(text: str) -> Type:
    """A type without annotation such as `int[2]?`, in canonical spelling; SchemaError otherwise."""

    def one(sc: _Scanner) -> Type:
        start = sc.i
        t, annotation = _type(sc)
        if annotation is not None:
            raise SchemaError("a type alone has no alias annotation", start, f"write `{t}`")
        return t

    return _canonical(_single(text, one, "type"), text)


def _canonical(value, text: str):
    """`value`, parsed from `text`, if `text` is its canonical spelling; SchemaError otherwise."""
    if str(value) != text:
        raise SchemaError(f"`{text}` is not written in canonical form", 0, f"write it as: {value}")
    return value


def _scan_argument(text: str) -> Argument:
    return _single(text, lambda sc: _argument(sc)[0], "argument")


def _single(text: str, parse, what: str):
    sc = _Scanner(text)
    sc.ws()
    value = parse(sc)
    sc.ws()
    if not sc.at_end():
        raise SchemaError(f"unexpected {sc.found()} after the {what}", sc.i, f"write one {what}")
    return value


# The fast path: canonical text, matched by regular expressions.

_SCHEMA_RE = re.compile(r"([^\s(]+)\((.*)\) -> (\S.*)\Z", re.S)
_TYPE = r"([A-Za-z_][\w.]*)(?:\(([^()]*)\))?((?:\?|\[\d*\])*)"
_ARG_RE = re.compile(_TYPE + r" ([A-Za-z_]\w*)(?:=(\S.*))?\Z", re.S)
_RET_RE = re.compile(_TYPE + r"(?: ([A-Za-z_]\w*))?\Z")


class SchemaParser:
    """Parses schemas, sharing the pieces that repeat across a file (`Tensor self`...).

    Make one per file: the caches make a whole-file parse several times faster.
    """

    def __init__(self) -> None:
        self._args: dict[str, Argument | None] = {}
        self._rets: dict[str, Return | None] = {}

    def parse(self, text: str) -> tuple[FunctionSchema, bool]:
        """(schema, whether `text` is canonical); SchemaError on a mistake."""
        schema = self._fast(text)
        if schema is not None:
            return schema, True
        schema, _ = parse_schema_with_spans(text)
        return schema, str(schema) == text

    def _fast(self, text: str) -> FunctionSchema | None:
        m = _SCHEMA_RE.match(text)
        if m is None:
            return None
        name_s, args_s, rets_s = m.groups()
        if '"' in args_s or "'" in args_s:
            return None  # string defaults may hold `, `: leave them to the scanner
        try:
            name = parse_operator_name(name_s)
        except SchemaError:
            return None
        items: list[Argument | None] = []
        if args_s:
            cache = self._args
            for piece in args_s.split(", "):
                if piece == "*":
                    items.append(None)
                    continue
                a = _cached(cache, piece, _fast_argument)
                if a is None:
                    return None
                items.append(a)
        try:
            arguments = build_arguments(items)
        except SchemaError:
            return None
        returns = self._fast_returns(rets_s)
        if returns is None:
            return None
        return FunctionSchema(name, arguments, returns)

    def _fast_returns(self, text: str) -> tuple[Return, ...] | None:
        if text == "()":
            return ()
        if text[0] == "(":
            if text[-1] != ")":
                return None
            pieces = text[1:-1].split(", ")
            if len(pieces) < 2:
                return None
        else:
            pieces = [text]
        cache = self._rets
        out = []
        for piece in pieces:
            r = _cached(cache, piece, _fast_return)
            if r is None:
                return None
            out.append(r)
        return tuple(out)


def _cached(cache: dict, piece: str, parse):
    """parse(piece), once per distinct piece (schemas repeat their argument texts a lot)."""
    value = cache.get(piece, False)
    if value is False:
        value = cache[piece] = parse(piece)
    return value


def _fast_type(base: str, ann: str | None, suffixes: str) -> tuple[Type, Annotation | None] | None:
    try:
        t = apply_suffixes(base_type(base), suffixes)
        annotation = None
        if ann is not None:
            if base != "Tensor" or suffixes not in ("", "?", "[]"):
                return None
            annotation = parse_annotation(ann)
    except SchemaError:
        return None
    return t, annotation


def _fast_argument(piece: str) -> Argument | None:
    m = _ARG_RE.match(piece)
    if m is None:
        return None
    base, ann, suffixes, name, default = m.groups()
    if default is not None and (
        default.count("[") != default.count("]") or "(" in default or ")" in default
    ):
        return None
    typed = _fast_type(base, ann, suffixes)
    if typed is None:
        return None
    a = Argument(name, typed[0], default, typed[1])
    return a if str(a) == piece else None


def _fast_return(piece: str) -> Return | None:
    m = _RET_RE.match(piece)
    if m is None:
        return None
    base, ann, suffixes, name = m.groups()
    typed = _fast_type(base, ann, suffixes)
    if typed is None:
        return None
    r = Return(name, typed[0], typed[1])
    return r if str(r) == piece else None
