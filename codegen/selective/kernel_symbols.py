"""Which operators the hand-written code of an operator calls, read off compiled objects.

A kernel or meta function may call other operators through the dispatcher API
(`ns::empty_like(...)`, Functions.h) or a static entry point (`ns::cpu::add(...)`). A
selective build must generate those operators too, or the link fails. PyTorch computed
this graph with an LLVM pass over its sources (tools/code_analyzer); here the linker's
own view is used instead: `nm -A -C` over the kernels' objects (the Bazel rule runs it)
says which symbols each object defines and which it needs. Starting from the objects
that define an operator's kernels, every object the linker could pull in to satisfy
their references is followed, and each reference to the library's API names an
operator it calls. The graph is per object file, so it can only over-approximate the
linker (an object's other functions count too): the generated code may keep an
operator no linked code calls, which `--gc-sections` then drops from the binary, but
a call is never missed.

An API name stands for all of its overloads (`ns::add(...)` for add.Tensor and
add.Scalar): C++ overloads are told apart by argument types, which a name does not
carry, so every overload is kept (PyTorch's `include_all_overloads`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen.dest.library import DISPATCH_KEYS

# `archive.a:member.o:0000000000000040 T ns::f(int)` or `... U ns::g()`; the object part
# may itself hold colons (archive:member).
_LINE = re.compile(r"^(?P<object>.*?):\s*[0-9a-fA-F]*\s+(?P<type>[A-Za-z?-])\s(?P<symbol>.+)$")
_STATIC_KEYS = tuple(k.lower() for k in DISPATCH_KEYS)  # the namespaces of static entry points


def qualified_name(symbol: str) -> str:
    """`ns::native::structured_add_out::impl` of `ns::native::structured_add_out::impl(...) const`."""
    symbol = symbol.replace("(anonymous namespace)", "{anonymous}")
    return symbol.split("(", 1)[0].strip()


@dataclass
class ObjectSymbols:
    defined: set[str]  # demangled symbols, as nm prints them
    undefined: set[str]


class SymbolsError(Exception):
    """The symbols file cannot be read."""


class KernelSymbols:
    """The objects of a library's kernels and the operator calls reachable from each."""

    @classmethod
    def read(cls, path: str) -> KernelSymbols:
        """From a file of `nm -A -C` output."""
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return cls(f.read())
        except OSError as e:
            raise SymbolsError(f"cannot read the kernels' symbols {path}: {e.strerror}") from None

    def __init__(self, nm_output: str) -> None:
        self.objects: dict[str, ObjectSymbols] = {}
        for line in nm_output.splitlines():
            m = _LINE.match(line)
            if m is None:
                continue
            entry = self.objects.setdefault(m["object"], ObjectSymbols(set(), set()))
            (entry.undefined if m["type"] == "U" else entry.defined).add(m["symbol"].strip())
        definer: dict[str, str] = {}
        self._by_name: dict[str, set[str]] = {}  # qualified name and its scopes -> objects
        for obj in sorted(self.objects):
            for sym in self.objects[obj].defined:
                definer.setdefault(sym, obj)
                name = qualified_name(sym)
                while name:
                    self._by_name.setdefault(name, set()).add(obj)
                    name = name.rpartition("::")[0]
        # Object -> the objects defining what it needs (what the linker would pull in).
        self._needs = {
            obj: {definer[s] for s in e.undefined if s in definer} - {obj}
            for obj, e in self.objects.items()
        }
        self._reach: dict[str, frozenset[str]] = {}
        self._calls: dict[tuple[str, str], frozenset[str]] = {}

    def objects_defining(self, name: str) -> set[str]:
        """Objects that define `name` (a function) or a member of `name` (a class)."""
        return set(self._by_name.get(name.lstrip(":"), ()))

    def reachable(self, obj: str) -> frozenset[str]:
        done = self._reach.get(obj)
        if done is None:
            seen, stack = {obj}, [obj]
            while stack:
                for nxt in self._needs[stack.pop()]:
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            done = self._reach[obj] = frozenset(seen)
        return done

    def api_calls(self, names: list[str], namespace: str) -> set[str]:
        """The library API functions (`name` of `namespace::name(...)`, or of a static entry
        point `namespace::cpu::name(...)`) called by the objects defining `names` and by
        everything they pull in."""
        objects: set[str] = set()
        for name in names:
            for obj in self.objects_defining(name):
                objects |= self.reachable(obj)
        return set().union(*(self._api_calls_of(obj, namespace) for obj in objects))

    def _api_calls_of(self, obj: str, namespace: str) -> frozenset[str]:
        """What one object itself calls of the API; once per object, however many
        operators reach it."""
        done = self._calls.get((obj, namespace))
        if done is None:
            prefix = namespace + "::"
            calls = set()
            for sym in self.objects[obj].undefined:
                name = qualified_name(sym)
                if not name.startswith(prefix):
                    continue
                rest = name[len(prefix) :].split("::")
                if len(rest) == 1:
                    calls.add(rest[0])
                elif len(rest) == 2 and rest[0] in _STATIC_KEYS:
                    calls.add(rest[1])
            done = self._calls[(obj, namespace)] = frozenset(calls)
        return done
