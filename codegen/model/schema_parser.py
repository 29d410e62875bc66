"""The careful schema scanner: any spacing accepted, every mistake pinpointed.

It reads the text left to right, keeping the offset of each piece, and raises a
SchemaError whose `offset` is the character the user has to look at.  The spans it
returns let later checks point at a given argument, its name or its default.
"""

from __future__ import annotations

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
    name_text = text[name_at:sc.i]
    if not name_text:
        raise SchemaError("the schema has no operator name", name_at, _SHAPE)
    name = parse_operator_name(name_text, name_at)
    sc.ws()
    if sc.peek() != "(":
        if "->" in text[sc.i:]:
            raise SchemaError(f"expected `(` after the operator name, found {sc.found()}",
                              sc.i, _SHAPE)
        raise SchemaError("expected `(` and the argument list after the operator name",
                          sc.i, _SHAPE)
    open_at = sc.i
    sc.i += 1
    items, spans = _arguments(sc, open_at)
    sc.i += 1  # the closing `)`
    sc.ws()
    if not sc.s.startswith("->", sc.i):
        if sc.at_end():
            raise SchemaError("missing `->` and the return type after the argument list", sc.i,
                              "every schema says what it returns, e.g. `-> Tensor`, or "
                              "`-> ()` for nothing")
        if sc.peek() == ")":
            raise SchemaError("unmatched `)`", sc.i, "remove it, or add the `(` it closes")
        raise SchemaError(f"expected `->` after the argument list, found {sc.found()}", sc.i,
                          _SHAPE)
    sc.i += 2
    sc.ws()
    returns_start = sc.i
    returns, ret_spans = _returns(sc)
    sc.ws()
    if not sc.at_end():
        if sc.peek() == ")":
            raise SchemaError("unmatched `)` after the return type", sc.i,
                              "remove it, or add the `(` it closes")
        raise SchemaError(f"unexpected {sc.found()} after the return type", sc.i,
                          "several returns are written as a tuple: `-> (Tensor a, Tensor b)`")
    arguments = build_arguments(items, [sp.start for sp in spans])
    schema = FunctionSchema(name, arguments, returns)
    return schema, SchemaSpans(name_at, tuple(sp for sp, a in zip(spans, items) if a is not None),
                               ret_spans, returns_start)


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
            raise SchemaError("unclosed `(`: the argument list has no closing `)`", open_at,
                              "add `)` at the end of the arguments")
        if sc.peek() == "*":
            sc.i += 1
            items.append(None)
            spans.append(ArgSpan(start, -1, -1))
        elif sc.peek() in (",", ")"):
            raise SchemaError("expected an argument", start,
                              "remove the extra `,`" if sc.peek() == "," or items else _SHAPE)
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
            raise SchemaError("unclosed `(`: the argument list has no closing `)`", open_at,
                              "add `)` at the end of the arguments")
        last = items[-1]
        what = "`*`" if last is None else f"argument `{last.name}`"
        raise SchemaError(f"expected `,` or `)` after {what}, found {sc.found()}", sc.i,
                          "separate arguments with `, `")


def _argument(sc: _Scanner) -> tuple[Argument, ArgSpan]:
    """`Type name` or `Type name=default`."""
    start = sc.i
    t, annotation = _type(sc)
    sc.ws()
    name_at = sc.i
    name = sc.ident()
    if not name:
        if sc.peek() in (",", ")", "=", ""):
            raise SchemaError(f"the argument of type `{t}` has no name", name_at, f"write `{t} NAME`")
        raise SchemaError(f"expected an argument name after `{t}`, found {sc.found()}",
                          name_at, "argument names are identifiers (letters, digits, `_`)")
    sc.ws()
    default = None
    default_at = -1
    if sc.peek() == "=":
        sc.i += 1
        sc.ws()
        default_at = sc.i
        default = _default(sc)
        if not default:
            raise SchemaError(f"expected a default value for `{name}` after `=`",
                              default_at, "write e.g. `int dim=0`, or remove the `=`")
    return Argument(name, t, default, annotation), ArgSpan(start, name_at, default_at)


def _type(sc: _Scanner) -> tuple[Type, Annotation | None]:
    start = sc.i
    name = sc.ident(dots=True)
    if not name:
        raise SchemaError(f"expected a type, found {sc.found()}", start,
                          "an argument is written `Type name`, e.g. `Tensor self`")
    t = base_type(name, start)
    annotation = None
    sc.ws()
    if sc.peek() == "(":
        open_at = sc.i
        close = sc.s.find(")", open_at)
        if close < 0:
            raise SchemaError("unclosed `(` in an alias annotation", open_at,
                              "write e.g. `Tensor(a!)`")
        if name != "Tensor":
            raise SchemaError(f"alias annotations are only allowed on `Tensor`, not `{name}`",
                              open_at, "remove the `(...)` after the type")
        annotation = parse_annotation(sc.s[open_at + 1:close], open_at + 1)
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
                raise SchemaError("unclosed `[` in a list type", sc.i, "write e.g. `int[]` or `int[2]`")
            size = sc.s[sc.i + 1:close].strip()
            if size and not size.isdigit():
                raise SchemaError(f"a list size must be a number, not `{size}`", sc.i + 1,
                                  "write e.g. `int[2]`, or `int[]` for any length")
            suffixes.append(f"[{size}]")
            sc.i = close + 1
        else:
            break
    t = apply_suffixes(t, "".join(suffixes), suffix_at)
    if annotation is not None and str(t) not in ("Tensor", "Tensor?", "Tensor[]"):
        raise SchemaError(f"an alias annotation cannot be used with `{t}`", start,
                          "annotations are allowed on `Tensor(a)`, `Tensor(a)?` and `Tensor(a)[]`")
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
                raise SchemaError("unterminated string in a default value", i,
                                  f"close the string with {c}")
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
                raise SchemaError(f"`{opener}` closed by `{c}` in a default value", i,
                                  f"close it with `{_CLOSERS[opener]}`")
        elif c == "," and not stack:
            break
        elif s.startswith("->", i) and not stack:
            break
        i += 1
    if stack:
        opener, at = stack[-1]
        raise SchemaError(f"unclosed `{opener}` in a default value", at,
                          f"add the closing `{_CLOSERS[opener]}`")
    sc.i = i
    return s[start:i].rstrip()


def _returns(sc: _Scanner) -> tuple[tuple[Return, ...], tuple[ArgSpan, ...]]:
    if sc.at_end():
        raise SchemaError("missing the return type after `->`", sc.i,
                          "write e.g. `-> Tensor`, or `-> ()` for nothing")
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
            raise SchemaError("unclosed `(` in the return type", open_at,
                              "add `)` after the last return")
        raise SchemaError(f"expected `,` or `)` in the returns, found {sc.found()}", sc.i,
                          "separate returns with `, `")


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
    """Parse one `Type name` declaration (as used by `precomputed:`): no default."""
    a = parse_argument(text)
    if a.default is not None:
        raise SchemaError(f"`{a.name}` cannot have a default here", text.index("="), "remove the `=...`")
    return a


def parse_argument(text: str) -> Argument:
    """Parse one argument, `Type(a!)? name=default`."""
    return _single(text, lambda sc: _argument(sc)[0], "argument")


def parse_return(text: str) -> Return:
    """Parse one return, `Type(a) name`."""
    return _single(text, lambda sc: _return(sc)[0], "return")


def parse_type(text: str) -> Type:
    """Parse a type without annotation, e.g. `int[2]?`."""
    def one(sc: _Scanner) -> Type:
        start = sc.i
        t, annotation = _type(sc)
        if annotation is not None:
            raise SchemaError("a type alone has no alias annotation", start, f"write `{t}`")
        return t
    return _single(text, one, "type")


def _single(text: str, parse, what: str):
    sc = _Scanner(text)
    sc.ws()
    value = parse(sc)
    sc.ws()
    if not sc.at_end():
        raise SchemaError(f"unexpected {sc.found()} after the {what}", sc.i, f"write one {what}")
    return value
