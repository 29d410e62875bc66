"""Property tests: any schema text either parses (and round-trips) or gives a SchemaError.

Nothing a user can write may end in another exception: no IndexError, no traceback.
"""

import os
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen.diagnostics import Diagnostics
from codegen.frontend import load_native_yaml
from codegen.model.schema_parser import SchemaParser, parse_schema, parse_schema_with_spans
from codegen.model.types import BASE_TYPES, SchemaError

# Deterministic examples, so a test run is reproducible (set HYPOTHESIS_PROFILE=explore for more).
settings.register_profile(
    "schema",
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "explore",
    max_examples=5000,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "schema"))

identifiers = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
base_types = st.sampled_from(BASE_TYPES + ("Tensr", "int64", "__torch__.torch.classes.ns.Klass"))
suffixes = st.lists(st.sampled_from(["?", "[]", "[2]", "[0]"]), max_size=2).map("".join)
annotations = st.sampled_from(
    ["", "(a)", "(a!)", "(b!)", "(a -> *)", "(a! -> a|b)", "(a|b)", "(A)"]
)
defaults = st.sampled_from(
    [
        "",
        "=None",
        "=0",
        "=-1",
        "=1.5",
        "=True",
        "=[]",
        "=[0,1]",
        "='s'",
        "=abc",
        "=contiguous_format",
        '="a, b"',
    ]
)


@st.composite
def arguments(draw):
    t = draw(base_types)
    ann = draw(annotations) if t == "Tensor" or draw(st.integers(0, 9)) == 0 else ""
    return f"{t}{ann}{draw(suffixes)} {draw(identifiers)}{draw(defaults)}"


@st.composite
def returns(draw):
    rets = draw(
        st.lists(
            st.tuples(base_types, annotations, suffixes, st.one_of(st.just(""), identifiers)),
            max_size=3,
        )
    )
    pieces = [f"{t}{a if t == 'Tensor' else ''}{s}{' ' + n if n else ''}" for t, a, s, n in rets]
    if len(pieces) == 1:
        return pieces[0]
    return "(" + ", ".join(pieces) + ")"


@st.composite
def schemas(draw):
    name = draw(identifiers)
    if draw(st.booleans()):
        name += "." + draw(st.from_regex(r"[A-Za-z0-9_]{1,6}", fullmatch=True))
    if draw(st.booleans()):
        name = draw(identifiers) + "::" + name
    args = draw(st.lists(st.one_of(arguments(), st.just("*")), max_size=6))
    return f"{name}({', '.join(args)}) -> {draw(returns())}"


def check_text(text: str) -> None:
    try:
        schema, canonical = SchemaParser().parse(text)
    except SchemaError as e:
        assert e.message and e.hint is not None
        assert 0 <= e.offset <= len(text)
        return
    again, again_canonical = SchemaParser().parse(str(schema))
    assert again_canonical and again == schema
    if canonical:
        assert str(schema) == text


@given(schemas())
def test_generated_schemas_round_trip_or_fail_cleanly(text):
    check_text(text)


@given(
    schemas(),
    st.integers(min_value=0, max_value=200),
    st.sampled_from(list("()[],*?!=-> |'\"ax.:")),
)
def test_corrupted_schemas_fail_cleanly(text, at, char):
    at = at % (len(text) + 1)
    check_text(text[:at] + char + text[at:])
    check_text(text[:at] + text[at + 1 :])


@given(
    st.text(alphabet=string.ascii_letters[:8] + "()[]<>,*?!=-> |'\"_.:0123456789\\", max_size=60)
)
def test_arbitrary_text_fails_cleanly(text):
    check_text(text)


VALID_TYPES = [
    "Tensor",
    "Tensor?",
    "Tensor[]",
    "Tensor?[]",
    "int",
    "int?",
    "int[]",
    "int[2]",
    "int[1]?",
    "SymInt",
    "SymInt[]",
    "float",
    "float[]?",
    "bool",
    "bool?",
    "bool[3]",
    "str",
    "str?",
    "Scalar",
    "Scalar?",
    "Scalar[]",
    "ScalarType?",
    "Layout?",
    "Device?",
    "MemoryFormat?",
    "Generator?",
]


@st.composite
def canonical_schemas(draw):
    """Well-formed schemas in canonical spelling: positional, `*`, keyword-only, out arguments."""

    def arg(i, written=False, keyword=False):
        t = draw(st.sampled_from(VALID_TYPES))
        if written:
            return f"Tensor({'abcdefgh'[i % 8]}!) out{i}"
        if t.startswith("Tensor") and not t.startswith("Tensor?[") and draw(st.booleans()):
            # A written keyword argument would be an out argument: only positional ones may be.
            choices = ["a", "b", "a -> *"] + ([] if keyword else ["a! -> a|b"])
            t = "Tensor(" + draw(st.sampled_from(choices)) + ")" + t[6:]
        default = draw(st.sampled_from(["", "=None", "=0", "=[]", "=True"]))
        return f"{t} arg{i}{default}"

    positional = [arg(i) for i in range(draw(st.integers(0, 4)))]
    kwargs = [arg(10 + i, keyword=True) for i in range(draw(st.integers(0, 2)))]
    outs = [arg(20 + i, written=True) for i in range(draw(st.integers(0, 2)))]
    args = positional + (["*"] + kwargs + outs if kwargs or outs else [])
    rets = draw(
        st.sampled_from(["Tensor", "()", "(Tensor a, Tensor b)", "Tensor(a)[]", "bool", "Tensor?"])
    )
    return f"{draw(identifiers)}.{draw(identifiers)}({', '.join(args)}) -> {rets}"


@given(canonical_schemas())
def test_fast_and_careful_parsers_agree(text):
    fast = SchemaParser()._fast(text)
    careful, spans = parse_schema_with_spans(text)
    assert fast is not None and careful == fast
    assert str(fast) == text
    assert len(spans.args) == len(careful.arguments.flat_all)


@given(schemas())
def test_strict_parse_is_exact(text):
    try:
        assert str(parse_schema(text)) == text
    except SchemaError:
        pass


yaml_values = st.one_of(
    schemas(),
    st.text(max_size=20),
    st.integers(),
    st.booleans(),
    st.none(),
    st.lists(st.text(max_size=8), max_size=3),
    st.dictionaries(
        st.sampled_from(["CPU", "CUDA", "CPU, CUDA", "Meta", "Bogus", "Generic"]),
        st.one_of(identifiers, st.integers()),
        max_size=3,
    ),
)
entry_keys = st.sampled_from(
    [
        "func",
        "variants",
        "dispatch",
        "structured",
        "structured_delegate",
        "structured_inherits",
        "precomputed",
        "autogen",
        "device_guard",
        "device_check",
        "tags",
        "cpp_no_default_args",
        "ufunc_inner_loop",
        "python_module",
        "bogus",
    ]
)


@settings(max_examples=100)
@given(st.lists(st.dictionaries(entry_keys, yaml_values, max_size=5), max_size=4))
def test_front_end_never_raises_on_any_entries(tmp_path_factory, entries):
    import yaml

    path = tmp_path_factory.mktemp("prop") / "native_functions.yaml"
    path.write_text(yaml.safe_dump(entries))
    parsed = load_native_yaml(str(path))
    assert isinstance(parsed.diagnostics, Diagnostics)
    for d in parsed.diagnostics.items:
        assert d.line >= 1 and d.column >= 1 and d.hint


@settings(max_examples=100)
@given(st.text(max_size=200))
def test_front_end_never_raises_on_any_text(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("prop") / "native_functions.yaml"
    path.write_text(text)
    load_native_yaml(str(path))


@given(
    st.lists(
        st.one_of(
            st.text(max_size=12),
            st.sampled_from(
                [
                    "yes",
                    "No",
                    "TRUE",
                    "off",
                    "null",
                    "NULL",
                    "~",
                    "",
                    "1",
                    "-2.5",
                    ".inf",
                    "0x1f",
                    "2001-12-14",
                    "=",
                    "<<",
                ]
            ),
        ),
        max_size=6,
    )
)
def test_fast_tag_resolution_matches_pyyaml(values):
    import yaml

    from codegen.yaml_loader import _Base, _Loader

    text = "\n".join(f"- {yaml.safe_dump(v, default_style=None).splitlines()[0]}" for v in values)
    text += "\n- " + "\n- ".join(
        v for v in values if v and "\n" not in v and ":" not in v and "#" not in v
    )
    try:
        ours = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError:
        return
    theirs = yaml.compose(text, Loader=_Base)

    def tags(n):
        if n is None or isinstance(n, yaml.ScalarNode):
            return n and (n.tag, n.value)
        if isinstance(n, tuple):  # a mapping's (key, value) pair
            return [tags(c) for c in n]
        return [tags(c) for c in n.value]

    assert tags(ours) == tags(theirs)
