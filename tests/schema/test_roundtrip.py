"""Schemas parse into the model and print back exactly; non-canonical text is normalised."""

import os

import pytest
import yaml

from codegen.model.schema import FUNCTIONAL, INPLACE, MUTABLE, OUT, SCRATCH, OperatorName
from codegen.model.schema_parser import (
    SchemaParser,
    parse_argument,
    parse_return,
    parse_schema,
    parse_schema_with_spans,
    parse_type,
)
from codegen.model.types import Annotation, ListType, OptionalType, SchemaError

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata")


def corpus_schemas():
    with open(os.path.join(DATA, "native_functions.yaml")) as f:
        return [e["func"] for e in yaml.safe_load(f)]


@pytest.mark.parametrize("text", corpus_schemas())
def test_every_schema_of_the_test_corpus_round_trips(text):
    assert str(parse_schema(text)) == text
    # The careful scanner builds the very same schema as the fast path.
    assert parse_schema_with_spans(text)[0] == parse_schema(text)


@pytest.mark.parametrize(
    "text",
    [
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
        "share_(Tensor(a! -> a|b) self, Tensor(b) other) -> Tensor(a! -> a|b)",
        "custom::my_op.flavour(Tensor self) -> Tensor",
        "aten::explicit(Tensor self) -> Tensor",
        "nothing() -> ()",
        "pair(Tensor self) -> (Tensor values, Tensor indices)",
        "opt(Tensor(a!)? self, Tensor(b)[] xs) -> ()",
        "klass(__torch__.torch.classes.quantized.Params packed) -> Tensor",
        'strings(str a="a, b", str b=\'it\\\'s\', str c="(x]") -> Tensor',
        "lists(int[2] a=[0, 0], bool[3] mask=[True,False,True]) -> Tensor",
    ],
)
def test_hand_written_schemas_round_trip(text):
    assert str(parse_schema(text)) == text


def test_model_of_a_schema():
    s = parse_schema(
        "custom::op.out(Tensor self, int[2] size=1, *, Scalar? alpha=None, Tensor(a!) out) -> Tensor(a!)"
    )
    assert s.name.namespace == "custom" and s.name.overload_name == "out"
    assert str(s.name.name) == "op" and s.name.display() == "custom::op.out"
    assert [a.name for a in s.arguments.positional] == ["self", "size"]
    assert [a.name for a in s.arguments.kwarg_only] == ["alpha"]
    assert [a.name for a in s.arguments.out] == ["out"]
    size = s.arguments.positional[1]
    assert size.type == ListType(size.type.elem, 2) and size.default == "1"
    assert isinstance(s.arguments.kwarg_only[0].type, OptionalType)
    assert s.arguments.out[0].annotation.is_write and s.returns[0].annotation.alias_set == ("a",)
    assert s.kind == OUT


@pytest.mark.parametrize(
    "text,kind",
    [
        ("f(Tensor self) -> Tensor", FUNCTIONAL),
        ("f_(Tensor(a!) self) -> Tensor(a!)", INPLACE),
        ("__iand__(Tensor(a!) self, Tensor other) -> Tensor(a!)", INPLACE),
        ("f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", OUT),
        ("f(Tensor self, Tensor(a!) buf) -> Tensor", MUTABLE),
        ("f.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_x) -> Tensor(a!)", SCRATCH),
    ],
)
def test_kind(text, kind):
    assert parse_schema(text).kind == kind


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("f( Tensor  self ,int x = 1 )->Tensor", "f(Tensor self, int x=1) -> Tensor"),
        ("f(Tensor( a ! ) self) -> Tensor( a ! )", "f(Tensor(a!) self) -> Tensor(a!)"),
        ("f(Tensor self) -> (Tensor)", "f(Tensor self) -> Tensor"),
        ("  f(Tensor self) -> Tensor  ", "f(Tensor self) -> Tensor"),
    ],
)
def test_other_spellings_parse_to_the_canonical_form(text, canonical):
    schema, is_canonical = SchemaParser().parse(text)
    assert not is_canonical and str(schema) == canonical
    with pytest.raises(SchemaError, match="canonical"):
        parse_schema(text)


@pytest.mark.parametrize(
    "text,message,offset",
    [
        ("f(Tensor self) Tensor", "expected `->` after the argument list, found `T`", 15),
        ("f(Tensor self -> Tensor", "unclosed `(`: the argument list has no closing `)`", 1),
        ("f(Tensor self)) -> Tensor", "unmatched `)`", 14),
        ("f(Tensr self) -> Tensor", "unknown type `Tensr`", 2),
        ("f(int[2 x) -> Tensor", "unclosed `[` in a list type", 5),
        ("f(int) -> Tensor", "the argument of type `int` has no name", 5),
        ("f(Tensor self, *) -> Tensor", "`*` must be followed by keyword-only arguments", 15),
        (
            "f(Tensor self, *, int a, *, int b) -> Tensor",
            "the keyword-only marker `*` appears twice",
            25,
        ),
        ("f(int(a) x) -> Tensor", "alias annotations are only allowed on `Tensor`, not `int`", 5),
        ("f(Tensor(a!|b) x) -> Tensor", "invalid alias annotation `(a!|b)`", 9),
        ("f(Tensor x=) -> Tensor", "expected a default value for `x` after `=`", 11),
        ('f(str x="abc) -> Tensor', "unterminated string in a default value", 8),
        ("f(Tensor self) ->", "missing the return type after `->`", 17),
        ("f(Tensor self)", "missing `->` and the return type after the argument list", 14),
        (
            "f_out(Tensor self) -> Tensor",
            "operator name `f_out` ends in `_out`, which is reserved",
            0,
        ),
        ("f.a-b(Tensor self) -> Tensor", "invalid overload name `a-b`", 2),
        ("(Tensor self) -> Tensor", "the schema has no operator name", 0),
        ("f(Tensor self) -> Tensor x y", "unexpected `y` after the return type", 27),
        ("f(Tensor self, Tensor(a!) out, *, int x) -> Tensor", None, None),
    ],
)
def test_syntax_errors_point_at_the_mistake(text, message, offset):
    if message is None:  # a positional written argument is legal syntax
        parse_schema(text)
        return
    with pytest.raises(SchemaError) as e:
        parse_schema(text)
    assert e.value.message == message
    assert e.value.offset == offset
    assert e.value.hint


@pytest.mark.parametrize(
    "parse,text",
    [
        (parse_type, "int[2]?"),
        (parse_type, "Tensor?[]"),
        (parse_type, "__torch__.torch.classes.ns.Klass"),
        (Annotation.parse, "a! -> a|b"),
        (Annotation.parse, "a -> *"),
        (parse_argument, "Tensor(a!) self"),
        (parse_argument, "int[2] stride=[1,1]"),
        (parse_argument, "str mode='a, b'"),
        (parse_return, "Tensor(a)[]"),
        (parse_return, "Tensor values"),
        (OperatorName.parse, "custom::add.Tensor"),
        (OperatorName.parse, "__iand__.Scalar"),
    ],
)
def test_every_piece_parses_and_round_trips(parse, text):
    assert str(parse(text)) == text


@pytest.mark.parametrize(
    "parse,text",
    [
        (parse_type, "int [2]"),
        (parse_type, "Tensor(a)"),
        (Annotation.parse, "a !"),
        (parse_argument, "Tensor  self"),
        (parse_argument, "int"),
        (parse_return, "Tensor x y"),
        (OperatorName.parse, "a.b.c"),
    ],
)
def test_pieces_in_other_spellings_are_refused(parse, text):
    with pytest.raises(SchemaError):
        parse(text)
