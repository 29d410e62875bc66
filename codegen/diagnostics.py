"""Error and warning records, and how they are printed.

Every problem the front end finds in a user's YAML becomes a `Diagnostic`: where
(file, 1-based line and column), how bad (error or warning), what is wrong and a
one-line hint on how to fix it.  They are collected, never raised, so one run
reports every mistake of a file at once:

    native_functions.yaml:12:5: error: unknown key `structure`
      hint: did you mean `structured`?
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import overload

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int  # 1-based
    column: int  # 1-based
    severity: str  # ERROR or WARNING
    message: str
    hint: str | None = None

    def format(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.message)


@overload
def _one_line(text: str) -> str: ...
@overload
def _one_line(text: None) -> None: ...
def _one_line(text: str | None) -> str | None:
    """A diagnostic is one line and its hint another: quoted user text may hold line breaks."""
    if text is None or ("\n" not in text and "\r" not in text):
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


@dataclass(frozen=True)
class Position:
    """A place in a file: 1-based line and column."""

    path: str
    line: int
    column: int

    def shifted(self, columns: int) -> Position:
        return Position(self.path, self.line, self.column + columns)


class Diagnostics:
    """An ordered collection of diagnostics for one run."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, pos: Position, message: str, hint: str | None = None) -> None:
        self.items.append(
            Diagnostic(pos.path, pos.line, pos.column, ERROR, _one_line(message), _one_line(hint))
        )

    def warning(self, pos: Position, message: str, hint: str | None = None) -> None:
        self.items.append(
            Diagnostic(pos.path, pos.line, pos.column, WARNING, _one_line(message), _one_line(hint))
        )

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == WARNING]

    def has_errors(self) -> bool:
        return any(d.severity == ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        # Several checks may find the very same problem; report it once.
        return sorted(set(self.items), key=Diagnostic.sort_key)

    def format(self) -> str:
        return "\n".join(d.format() for d in self.sorted())


class NearMatches:
    """The closest of many names to a misspelt one, for `did you mean` hints.

    difflib compares a word with every candidate, so a file with one typo per entry
    would take time quadratic in its size.  Here, beyond a few dozen names, a query
    compares only candidates found in an index (built on the first query): the names
    one edit away (each name is filed under itself and each of its one-character
    deletions, and so is the word looked up), else those sharing the word's first or
    last three characters; at most PER_KEY names are filed under any one key.  With a
    `group` (e.g. the operator of an overload), names of the word's own group come first.
    """

    SCAN_ALL = 64  # up to this many names, each is compared
    PER_KEY = 16  # names filed under one key of the index
    MAX_EDITED = 64  # longer names and words are indexed by their ends only

    def __init__(self, names: Iterable[str], group=None) -> None:
        self.names = list(dict.fromkeys(names))
        self.group = group
        self._index: dict[tuple[str, str], list[str]] | None = None

    def _near_keys(self, name: str) -> list[tuple[str, str]]:
        if len(name) > self.MAX_EDITED:
            return []
        return [("~", name)] + [("~", name[:i] + name[i + 1 :]) for i in range(len(name))]

    def _end_keys(self, name: str) -> list[tuple[str, str]]:
        return [("<", name[:3]), (">", name[-3:])]

    def _lookup(self, keys: list[tuple[str, str]]) -> list[str]:
        if self._index is None:
            index: dict[tuple[str, str], list[str]] = {}
            for name in self.names:
                keys_of_name = self._near_keys(name) + self._end_keys(name)
                if self.group is not None:
                    keys_of_name.append(("=", self.group(name)))
                for key in keys_of_name:
                    bucket = index.setdefault(key, [])
                    if len(bucket) < self.PER_KEY and (not bucket or bucket[-1] != name):
                        bucket.append(name)
            self._index = index
        return list(dict.fromkeys(n for key in keys for n in self._index.get(key, ())))

    def closest(self, word: str) -> str | None:
        small = len(self.names) <= self.SCAN_ALL
        if self.group is not None:
            # Names of the same group first: `add.Tensr` is `add.Tensor`, not `sub.Tensor`.
            g = self.group(word)
            same = (
                [n for n in self.names if self.group(n) == g] if small else self._lookup([("=", g)])
            )
            close = difflib.get_close_matches(word, same, n=1)
            if close:
                return close[0]
        if small:
            pools = [self.names]
        else:
            pools = [self._lookup(self._near_keys(word)), self._lookup(self._end_keys(word))]
        for pool in pools:
            close = difflib.get_close_matches(word, pool, n=1)
            if close:
                return close[0]
        return None

    def hint(self, word: str, what: str, limit: int = 20) -> str:
        """`did you mean X?`, or (some of) the valid names."""
        close = self.closest(word)
        if close is not None:
            return f"did you mean `{close}`?"
        shown = ", ".join(f"`{c}`" for c in self.names[:limit])
        more = f", ... ({len(self.names) - limit} more)" if len(self.names) > limit else ""
        return f"valid {what}: {shown}{more}"
