"""Read a YAML file into PyYAML nodes, which keep the line and column of every value.

We compose (not construct) so that each check can point at the exact node it is
about.  The C-accelerated loader is used when PyYAML was built with libyaml; the
garbage collector is paused while the (acyclic) node tree is built, which halves
the time on a large file.

Nesting is bounded before composing: libyaml's composer recurses once per level of
nested lists and mappings on the C stack, so a file of 25,000 `[` would crash the
process.  A cheap upper bound on the depth lets ordinary files straight through;
only a file that might nest deeply is first read as an event stream (no recursion),
and one that nests more than MAX_NESTING levels is an error.
"""

from __future__ import annotations

import gc
import re
from typing import TYPE_CHECKING

import yaml

from codegen.diagnostics import Diagnostics, Position

if TYPE_CHECKING:
    from yaml._yaml import Mark as CMark  # libyaml's parser marks its events with its own Mark

STR_TAG = "tag:yaml.org,2002:str"
BOOL_TAG = "tag:yaml.org,2002:bool"
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
NULL_TAG = "tag:yaml.org,2002:null"

try:
    _Base = yaml.CSafeLoader
except AttributeError:  # PyYAML without libyaml
    _Base = yaml.SafeLoader  # type: ignore[assignment,misc]  # CSafeLoader's pure-Python twin


class _Loader(_Base):
    """The safe loader, with a shortcut for the common case of tag resolution.

    A plain scalar that starts with a letter is a string unless it is one of YAML's
    boolean or null words; a quoted scalar is a string; mappings and sequences are
    what they are.  Everything else (numbers, `~`, ...) goes through the regexes.
    """

    def resolve(self, kind, value, implicit):
        if kind is yaml.ScalarNode:
            if implicit[0]:
                if value[:1].isalpha():
                    if value in _BOOL_WORDS:
                        return BOOL_TAG
                    if value in _NULL_WORDS:
                        return NULL_TAG
                    return STR_TAG
            elif implicit[1]:
                return STR_TAG
        elif kind is yaml.MappingNode:
            return "tag:yaml.org,2002:map"
        elif kind is yaml.SequenceNode:
            return "tag:yaml.org,2002:seq"
        return super().resolve(kind, value, implicit)


_BOOL_WORDS = frozenset(
    "yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF".split()
)
_NULL_WORDS = frozenset(("null", "Null", "NULL"))

Node = yaml.Node
MappingNode = yaml.MappingNode
SequenceNode = yaml.SequenceNode
ScalarNode = yaml.ScalarNode


def read_text(path: str, diags: Diagnostics) -> str | None:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        diags.error(
            Position(path, 1, 1),
            f"cannot read the file: {e.strerror or e}",
            "check the path; it is relative to the current directory",
        )
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        diags.error(
            Position(path, line, col),
            "the file is not valid UTF-8",
            "save the file with UTF-8 encoding",
        )
        return None


# A native_functions.yaml nests 3 levels (a list of entries, each a mapping whose values
# are strings, lists or mappings); deeper is a mistake, and this deep a hopeless one.
MAX_NESTING = 1000
# Depths the composer may reach on the calling thread's stack (a few hundred bytes a
# level, far below the 8 MiB of a main thread) without a look at the events first.
_SAFE_DEPTH = 6000
# Block collections nest by indentation: a line whose leading run of spaces and
# `- `/`? `/`: ` indicators is shorter than this opens fewer than 2 * (this + 1) levels.
_BLOCK_PREFIX = 64
_PREFIX_CHARS = "[ \t\ufeff?:-]{%d}" % _BLOCK_PREFIX
_LONG_PREFIX_AT_START = re.compile(_PREFIX_CHARS)
# After each of YAML's line breaks; a literal first character keeps the search fast.
_LONG_PREFIX = {brk: re.compile(re.escape(brk) + _PREFIX_CHARS) for brk in "\n\r\x85\u2028\u2029"}


def nesting_bound(text: str) -> int | None:
    """An upper bound on how deep the lists and mappings of `text` nest; None if unknown.

    A flow collection starts at a `[` or `{` (a `[` may also open a one-pair mapping,
    `[a: b]`); a block collection at a new indentation level, or at an indentless
    sequence of a mapping, both within the leading indicators of a line.
    """
    if _LONG_PREFIX_AT_START.match(text):
        return None
    for brk, pattern in _LONG_PREFIX.items():
        if brk in text and pattern.search(text):
            return None
    return 2 * text.count("[") + text.count("{") + 2 * (_BLOCK_PREFIX + 2) + 2


def too_deep(text: str, limit: int = MAX_NESTING) -> yaml.Mark | CMark | None:
    """Where `text` first nests more than `limit` levels, from its events (iteratively)."""
    start = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
    end = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Base):
            if isinstance(event, start):
                depth += 1
                if depth > limit:
                    return event.start_mark
            elif isinstance(event, end):
                depth -= 1
    except yaml.YAMLError:
        pass  # composing stops at the same place, and reports it
    return None


_NESTING_HINT = (
    "a native_functions.yaml nests 3 levels: a list of entries, each a mapping whose values "
    "are strings, lists or mappings; look for unclosed `[` or `{`"
)


def compose(text: str, path: str, diags: Diagnostics) -> Node | None:
    """Compose `text` into a node tree; report a syntax error and return None if it fails."""
    bound = nesting_bound(text)
    if bound is None or bound > _SAFE_DEPTH:
        mark = too_deep(text)
        if mark is not None:
            diags.error(
                Position(path, mark.line + 1, mark.column + 1),
                f"the YAML nests lists and mappings more than {MAX_NESTING} levels deep",
                _NESTING_HINT,
            )
            return None
    enabled = gc.isenabled()
    gc.disable()
    try:
        return yaml.compose(text, Loader=_Loader)
    except RecursionError:  # the pure-Python composer (PyYAML without libyaml) on a deep file
        diags.error(
            Position(path, 1, 1), "the YAML nests lists and mappings too deeply", _NESTING_HINT
        )
        return None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = e.problem or e.context or "invalid YAML"
        diags.error(Position(path, line, col), f"invalid YAML: {problem}", _syntax_hint(problem))
        return None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow, anywhere
        at = text.find(chr(e.character)) if isinstance(e.character, int) else -1
        line = text.count("\n", 0, at) + 1 if at >= 0 else 1
        col = at - text.rfind("\n", 0, at) if at >= 0 else 1
        code = f"U+{e.character:04X}" if isinstance(e.character, int) else "?"
        diags.error(
            Position(path, line, col),
            f"invalid YAML: the character {code} is not allowed",
            "delete it: YAML files hold printable text only (tabs and line breaks aside)",
        )
        return None
    except yaml.YAMLError as e:
        diags.error(
            Position(path, 1, 1),
            "invalid YAML: " + " ".join(str(e).split()),
            "the file must be readable text in YAML syntax",
        )
        return None
    finally:
        if enabled:
            gc.enable()


def _syntax_hint(problem: str) -> str:
    if "mapping values are not allowed" in problem:
        return 'a value that contains `: ` must be quoted, e.g. func: "..."'
    if "found character '\\t'" in problem or "tab" in problem:
        return "YAML indentation must use spaces, not tabs"
    if "could not find expected ':'" in problem:
        return "every key needs a `:` after it; check the indentation of this entry"
    if "did not find expected" in problem:
        return "check the indentation and the `- ` of the entries around this line"
    if "duplicate" in problem:
        return "remove one of the two keys"
    return "check the indentation and quoting around this line"


def position(node: Node, path: str) -> Position:
    mark = node.start_mark
    return Position(path, mark.line + 1, mark.column + 1)


def describe(node: Node) -> str:
    """How a node looks to a user, for messages like 'expected a string, got a list'."""
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    tag = node.tag
    if tag == BOOL_TAG:
        return f"the boolean `{node.value}`"
    if tag in (INT_TAG, FLOAT_TAG):
        return f"the number `{node.value}`"
    if tag == NULL_TAG:
        return "an empty value"
    return f"`{node.value}`"


def is_str(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == STR_TAG


def bool_value(node: Node) -> bool | None:
    """The value of a YAML boolean scalar (True/False/yes/no...), or None if it is not one."""
    if isinstance(node, ScalarNode) and node.tag == BOOL_TAG:
        return node.value.lower() in ("yes", "true", "on", "y")
    return None


def text_column(node: ScalarNode, offset: int) -> int | None:
    """0-based column in the file of character `offset` of a one-line scalar, if known."""
    start, end = node.start_mark, node.end_mark
    if start.line != end.line:
        return None
    if not node.style:  # plain scalar (None, or '' from libyaml): the text is the file's text
        return start.column + offset
    if node.style in ("'", '"'):
        if "\\" in node.value or "'" in node.value or '"' in node.value:
            return None  # escapes shift columns; point at the start instead
        return start.column + 1 + offset
    return None
