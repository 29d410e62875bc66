"""The size report of a pruned lite runtime: stripped sizes, and the bytes each operator costs.

    size_report.py --full BIN --every-operator BIN --mobile BIN --release BIN
                   [--selection REPORT] --nm NM --objdump OBJDUMP --strip STRIP --output FILE

The full runtime has every operator at every dtype; --every-operator is the same
program at the build's dtypes (dtype selection alone); the mobile one is pruned to its
selection of operators and dtypes. All three are built with the same compiler and
linker flags: their ratios measure the pruning alone. --release is the full runtime as
the build without --config=mobile makes it (-c opt): its ratio measures what the mobile
configuration saves, flags and pruning together.

Both binaries are linked with their symbol tables (the rule asks for that). Their
stripped sizes are those of `strip` copies. An operator's cost is measured on the
mobile binary's reference graph: every function and datum (nm's symbols, with sizes) is
a node; a direct call, jump or address taken in its code (objdump -d) and every
address stored in its data (the dynamic relocations, objdump -R) is an edge. Each
registered operator's boxed kernel (`<ns>::unboxing::<op>`) is a root. An operator's
own bytes are those only its root reaches: what removing it from the selection would
save (up to inlining and section padding). Bytes reached from several operators are
shared; those reached from the program's entry points without passing through an
operator are the runtime's base.
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import subprocess
import sys
import tempfile

_SYMBOL = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) ([A-Za-z]) (.+)$")
_CODE_REF = re.compile(r"\b(?:call|jmp|j[a-z]{1,3})\s+([0-9a-f]+) <|# ([0-9a-f]+) <")
_FUNCTION = re.compile(r"^([0-9a-f]+) <(.+)>:$")
_RELATIVE = re.compile(r"^([0-9a-f]+)\s+R_\w+_RELATIVE\s+\*ABS\*\+0x([0-9a-f]+)$")
_UNBOXING = re.compile(r"::unboxing::(\w+)\(std::vector<sops::Value")


def run(*argv: str) -> str:
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout


class Graph:
    """The symbols of one binary and the references between them."""

    def __init__(self, binary: str, nm: str, objdump: str) -> None:
        self.symbols: list[tuple[int, int, str]] = []  # (start, size, demangled name)
        for line in run(nm, "-S", "-C", "--defined-only", binary).splitlines():
            m = _SYMBOL.match(line)
            if m and int(m[2], 16) > 0:
                self.symbols.append((int(m[1], 16), int(m[2], 16), m[4]))
        self.symbols.sort()
        self.starts = [s for s, _, _ in self.symbols]
        self.edges: dict[int, set[int]] = {}
        current = None
        for line in run(objdump, "-d", "--no-show-raw-insn", binary).splitlines():
            m = _FUNCTION.match(line)
            if m:
                current = self.index(int(m[1], 16))
                continue
            if current is None:
                continue
            for ref in _CODE_REF.finditer(line):
                target = self.index(int(ref[1] or ref[2], 16))
                if target is not None and target != current:
                    self.edges.setdefault(current, set()).add(target)
        for line in run(objdump, "-R", binary).splitlines():
            m = _RELATIVE.match(line.strip())
            if m:
                owner, target = self.index(int(m[1], 16)), self.index(int(m[2], 16))
                if owner is not None and target is not None and owner != target:
                    self.edges.setdefault(owner, set()).add(target)

    def index(self, address: int) -> int | None:
        """The symbol holding `address`, or None."""
        i = bisect.bisect_right(self.starts, address) - 1
        if i >= 0 and address < self.symbols[i][0] + self.symbols[i][1]:
            return i
        return None

    def named(self, pattern: re.Pattern) -> dict[str, int]:
        found = {}
        for i, (_, _, name) in enumerate(self.symbols):
            m = pattern.search(name)
            if m:
                found[m[1]] = i
        return found

    def reach(self, roots: set[int], stop: set[int]) -> set[int]:
        seen = set(roots)
        stack = list(roots)
        while stack:
            for nxt in self.edges.get(stack.pop(), ()):
                if nxt not in seen and nxt not in stop:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    def size(self, nodes: set[int]) -> int:
        return sum(self.symbols[i][1] for i in nodes)


def stripped_size(binary: str, strip: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "stripped")
        run(strip, "-o", out, binary)
        return os.path.getsize(out)


def operator_names(selection_report: str) -> dict[str, str]:
    """The boxed kernels' C++ names (`add_Tensor`) -> the operators' names (`aten::add.Tensor`)."""
    names = {}
    with open(selection_report, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or ": requested by" not in line:
                continue
            full = line.split(": ", 1)[0]
            names[full.split("::", 1)[1].replace(".", "_")] = full
    return names


def report(args: argparse.Namespace) -> str:
    full, mobile = stripped_size(args.full, args.strip), stripped_size(args.mobile, args.strip)
    every_operator = stripped_size(args.every_operator, args.strip)
    release = stripped_size(args.release, args.strip)
    graph = Graph(args.mobile, args.nm, args.objdump)
    roots = graph.named(_UNBOXING)
    names = operator_names(args.selection) if args.selection else {}
    entries = {
        i
        for i, (_, _, name) in enumerate(graph.symbols)
        if name in ("main", "_start") or name.startswith("_GLOBAL__sub_I")
    }
    op_roots = set(roots.values())
    base = graph.reach(entries, op_roots)
    reached = {op: graph.reach({i}, set()) for op, i in roots.items()}
    counts: dict[int, int] = {}
    for nodes in reached.values():
        for n in nodes - base:
            counts[n] = counts.get(n, 0) + 1
    own = {
        op: graph.size({n for n in nodes - base if counts[n] == 1}) for op, nodes in reached.items()
    }
    shared = graph.size({n for n, c in counts.items() if c > 1})
    lines = [
        "Lite runtime size (stripped; the same compiler and linker flags for all three):",
        f"  full (every operator, every dtype):     {full:>9,} bytes",
        f"  every operator, the selected dtypes:    {every_operator:>9,} bytes  "
        f"({100.0 * every_operator / full:.1f}% of full)",
        f"  pruned (the selected operators and dtypes): {mobile:>9,} bytes  "
        f"({100.0 * mobile / full:.1f}% of full)",
        "",
        "Against the release build without --config=mobile (-c opt, every operator and dtype):",
        f"  full, release build:                    {release:>9,} bytes",
        f"  pruned, --config=mobile:                {mobile:>9,} bytes  "
        f"({100.0 * mobile / release:.1f}% of the release build)",
        "",
        "The pruned runtime's code and data (symbol sizes, before unwind tables and padding):",
        f"  runtime base (interpreter, tensors, I/O): {graph.size(base):>9,} bytes",
        f"  shared by several operators:              {shared:>9,} bytes",
        f"  the operators' own, together:             {sum(own.values()):>9,} bytes",
        "",
        f"Bytes each of the {len(own)} registered operators costs alone (reached from its boxed kernel only):",
    ]
    for op, size in sorted(own.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"  {size:>8,}  {names.get(op, op)}")
    return "\n".join(lines) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(prog="size_report")
    for flag in (
        "--full",
        "--every-operator",
        "--mobile",
        "--release",
        "--nm",
        "--objdump",
        "--strip",
        "--output",
    ):
        p.add_argument(flag, required=True)
    p.add_argument(
        "--selection", help="the pruned runtime's selection report (none: every operator)"
    )
    args = p.parse_args()
    text = report(args)
    with open(args.output, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
