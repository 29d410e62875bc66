"""Error and warning records, and how they are printed.

Every problem the front end finds in a user's YAML becomes a `Diagnostic`: where
(file, 1-based line and column), how bad (error or warning), what is wrong and a
one-line hint on how to fix it.  They are collected, never raised, so one run
reports every mistake of a file at once:

    native_functions.yaml:12:5: error: unknown key `structure`
      hint: did you mean `structured`?
"""

from __future__ import annotations

from dataclasses import dataclass

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
        self.items.append(Diagnostic(pos.path, pos.line, pos.column, ERROR, message, hint))

    def warning(self, pos: Position, message: str, hint: str | None = None) -> None:
        self.items.append(Diagnostic(pos.path, pos.line, pos.column, WARNING, message, hint))

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
