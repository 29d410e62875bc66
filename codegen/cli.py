"""Command line of the generator.

    python3 -m codegen check FILE [--tags TAGS]
    python3 -m codegen signatures FILE [--tags TAGS] --json
    python3 -m codegen generate FILE [--tags TAGS] --namespace NS [--backends CPU[,CUDA]]
                                --output-dir DIR [--include-prefix P] [--shards N]
                                [--static-dispatch] [--selected-ops SET.json ...
                                [--kernel-symbols NM.txt] [--selection-report FILE]]
                                [--sources-only]
                                [--op-headers DIR [--op-header-shards N]]
    python3 -m codegen check-kernels FILE [the library options of generate]
                                --include-prefix P --kernel-symbols NM.txt [--stamp FILE]

`generate` writes exactly the files that the Bazel rule declares (codegen/outputs.bzl)
into DIR; they include each other as `P/Functions.h` (P: DIR's last component unless
given), so compile them with `-I` the parent of DIR and `-I` the root holding runtime/.
With --static-dispatch nothing is registered with the dispatcher: the dispatcher API
(Functions.h) switches on the backend of its arguments and calls the kernels' static
entry points directly, so the library links no dispatcher.
With --selected-ops (operator-set files written by the operator_set rule) the sources
define and register only the selected operators and those their code calls (read off
`nm -A -C` of the kernels' objects, --kernel-symbols); headers still declare all
(codegen/selective/selector.py). --sources-only writes no headers (a selective build
uses the full library's).
With --op-headers DIR it also writes three headers per operator (by root name),
DIR/P/ops/<root>.h (its dispatcher API), <root>_native.h (its kernels) and
<root>_meta.h (its meta struct), which the aggregate headers include and the generated
sources include alone; with --op-header-shards N, into DIR/<shard>/P/ops/ instead, N
folders (what the Bazel rule declares, codegen/outputs.bzl).
`check-kernels` reads `nm -A -C` of the kernels' objects and reports, at its yaml line,
every kernel and meta function the generated code calls that none of them defines
(codegen/kernel_check.py): the Bazel rule runs it when the library is built.

Diagnostics go to stderr as `FILE:LINE:COL: error: ...` with a hint line; the exit
status is 1 when there is any error, 2 for a bad command line (or an internal error,
reported the same way; CODEGEN_TRACEBACK=1 shows its traceback).  Also usable as a
Bazel py_binary whose main is this file.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import sys

if __package__ in (None, ""):  # run as a script (py_binary main): make `codegen` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from codegen.dest.library import RUNTIME_BACKENDS  # noqa: E402
from codegen.frontend import NativeYaml, load_native_yaml  # noqa: E402
from codegen.validate.names import CPP_KEYWORDS  # noqa: E402


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="codegen", description="Structured-kernel code generator.", fromfile_prefix_chars="@"
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("file", metavar="FILE", help="a native_functions.yaml")
        sp.add_argument(
            "--tags",
            metavar="TAGS",
            help="the tags.yaml that defines valid tags (default: tags.yaml beside FILE, "
            "if any; otherwise tags are not checked)",
        )
        sp.add_argument("--no-warnings", action="store_true", help="do not print warnings")

    common(sub.add_parser("check", help="check FILE and print a one-line summary"))
    sp = sub.add_parser("signatures", help="print what the front end knows about every function")
    common(sp)
    sp.add_argument(
        "--json", action="store_true", required=True, help="print JSON (the only format)"
    )

    def library(sp: argparse.ArgumentParser) -> None:
        common(sp)
        sp.add_argument(
            "--namespace", required=True, help="C++ namespace of the generated code, e.g. my::ops"
        )
        sp.add_argument(
            "--backends",
            default="CPU",
            help="comma-separated backend dispatch keys whose kernels are registered "
            f"(default CPU; the runtime has {', '.join(RUNTIME_BACKENDS)})",
        )
        sp.add_argument(
            "--shards",
            type=int,
            default=1,
            metavar="N",
            help="registration files per dispatch key (default 1)",
        )
        sp.add_argument(
            "--static-dispatch",
            action="store_true",
            help="register nothing: Functions.h's functions call the kernel of their "
            "arguments' backend directly (no dispatcher is linked)",
        )
        sp.add_argument(
            "--source-label",
            metavar="NAME",
            help="how generated comments and errors name FILE (default: FILE as given)",
        )

    sp = sub.add_parser("generate", help="check FILE, then write the C++ of its operator library")
    library(sp)
    sp.add_argument(
        "--output-dir", required=True, metavar="DIR", help="where the files are written"
    )
    sp.add_argument(
        "--include-prefix",
        metavar="P",
        help="how the files include each other: P/Functions.h (default: DIR's last component)",
    )
    sp.add_argument(
        "--selected-ops",
        nargs="+",
        default=None,
        metavar="SET",
        help="operator-set files (JSON, from the operator_set rule): generate only these "
        "operators and what their code calls",
    )
    sp.add_argument(
        "--kernel-symbols",
        metavar="FILE",
        help="`nm -A -C` of the kernels' objects: which operators hand-written code calls",
    )
    sp.add_argument(
        "--selection-report",
        metavar="FILE",
        help="write each generated operator and why it is kept to FILE",
    )
    sp.add_argument("--sources-only", action="store_true", help="write the .cpp files only")
    sp.add_argument(
        "--op-headers",
        metavar="DIR",
        help="also write headers per operator, under DIR/P/ops/; the generated sources "
        "then include only their operators' (with --sources-only: only that)",
    )
    sp.add_argument(
        "--op-header-shards",
        type=int,
        default=0,
        metavar="N",
        help="put the per-operator headers in N folders DIR/<shard>/P/ops/, by root name",
    )
    sp = sub.add_parser(
        "check-kernels",
        help="check that the kernels' objects define every kernel and meta function "
        "the library's generated code calls",
    )
    library(sp)
    sp.add_argument(
        "--include-prefix", required=True, metavar="P", help="the generated headers' prefix"
    )
    sp.add_argument(
        "--kernel-symbols", required=True, metavar="FILE", help="`nm -A -C` of the kernels' objects"
    )
    sp.add_argument(
        "--stamp", metavar="FILE", help="written when every definition is found (for Bazel)"
    )
    return p


def _report(parsed: NativeYaml, no_warnings: bool) -> None:
    diags = parsed.diagnostics.sorted()
    shown = [d for d in diags if not (no_warnings and d.severity == "warning")]
    for d in shown:
        print(d.format(), file=sys.stderr)
    errors = sum(d.severity == "error" for d in diags)
    warnings = len(diags) - errors
    if errors:
        print(
            f"{parsed.path}: {_count(errors, 'error')}, {_count(warnings, 'warning')}",
            file=sys.stderr,
        )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def summary(parsed: NativeYaml) -> str:
    fns = parsed.functions
    generated = sum(f.generated for f in fns)
    structured = sum(g.structured for g in parsed.groups)
    warnings = len(parsed.diagnostics.warnings)
    return (
        f"{parsed.path}: ok: {_count(len(fns), 'function')} ({len(fns) - generated} declared, "
        f"{generated} autogenerated), {_count(len(parsed.groups), 'group')}, {structured} structured"
        + (f", {_count(warnings, 'warning')}" if warnings else "")
    )


def main(argv: list[str] | None = None) -> int:
    # Under `bazel run` the program starts in its runfiles: paths are the user's, relative
    # to where they typed the command.
    user_dir = os.environ.get("BUILD_WORKING_DIRECTORY")
    if user_dir:
        os.chdir(user_dir)
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command in ("generate", "check-kernels"):
        problem = _generate_options_problem(args)
        if problem:
            parser.error(problem)
    try:
        return _run(args)
    except Exception as e:  # a bug of ours, never the user's mistake: still no traceback
        if os.environ.get("CODEGEN_TRACEBACK"):
            raise
        print(
            f"{args.file}:1:1: error: internal error of the generator: {type(e).__name__}: {e}\n"
            "  hint: this is a bug in structured_ops, not in your file; please report it "
            "(CODEGEN_TRACEBACK=1 shows the traceback)",
            file=sys.stderr,
        )
        return 2


def _generate_options_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options of `generate` (or `check-kernels`), or None."""
    backends = [b for b in args.backends.split(",") if b]
    unknown = [b for b in backends if b not in RUNTIME_BACKENDS]
    if unknown or not backends:
        return (
            f"--backends: the runtime has no backend key {', '.join(f'`{b}`' for b in unknown)}; "
            f"use some of: {', '.join(RUNTIME_BACKENDS)}"
            if unknown
            else "--backends: name at least one backend"
        )
    if len(set(backends)) != len(backends):
        return "--backends: a backend is listed twice"
    parts = args.namespace.split("::")
    if (
        not _CPP_NAMESPACE.match(args.namespace)
        or any(p in CPP_KEYWORDS for p in parts)
        or args.namespace == "sops"
        or parts[0] == "std"
    ):
        return (
            f"--namespace: `{args.namespace}` cannot hold the library; write e.g. `my_ops` or "
            "`acme::ops` (no C++ keyword; not `std`, nor `sops` itself: the runtime's)"
        )
    if args.shards < 1:
        return f"--shards must be at least 1, got {args.shards}"
    if getattr(args, "op_header_shards", 0) < 0:
        return f"--op-header-shards must be 0 (one folder) or more, got {args.op_header_shards}"
    prefix = args.include_prefix or os.path.basename(
        os.path.normpath(os.path.abspath(args.output_dir))
    )
    if not _INCLUDE_PREFIX.match(prefix):
        return f"--include-prefix: `{prefix}` cannot be an include directory; write e.g. `my_ops` or `gen/my_ops`"
    args.include_prefix = prefix
    args.backends = tuple(backends)
    args.source_label = args.source_label or args.file  # how messages name the yaml
    return None


_CPP_NAMESPACE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*\Z")
_INCLUDE_PREFIX = re.compile(r"[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*\Z")


def _generate(parsed: NativeYaml, args: argparse.Namespace) -> int:
    from codegen.dest import files, render, write
    from codegen.dest.library import build_library

    problem = _backends_without_kernels(parsed, args.backends)
    if problem:
        print(f"{args.source_label}:1:1: error: {problem}", file=sys.stderr)
        return 1
    lib = build_library(
        args.namespace,
        args.backends,
        parsed.functions,
        parsed.groups,
        args.shards,
        static_dispatch=args.static_dispatch,
    )
    if args.selected_ops is not None:
        from codegen.selective import select

        try:
            lib.selection = select.selection_of(lib, args.selected_ops, args.kernel_symbols)
        except select.SelectionError as e:
            print(f"{args.source_label}:1:1: error: {e}", file=sys.stderr)
            return 1
        if args.selection_report:
            with open(args.selection_report, "w", encoding="utf-8", newline="\n") as out:
                out.write(lib.selection.report(lib.functions))
    roots: tuple[str, ...] = ()
    if args.op_headers is not None:
        roots = tuple(lib.roots)
        lib.per_operator_headers = True
    renderer = render.Renderer(
        lib,
        {
            "source": args.source_label,
            "namespace": args.namespace,
            "include_prefix": args.include_prefix,
        },
    )
    outputs = files.output_files(args.backends, args.shards, roots)
    if args.sources_only:
        outputs = [o for o in outputs if not o.header]
    op_dirs = None
    if args.op_headers is not None and not args.sources_only:
        op_dirs = files.OperatorHeaderDirs(
            args.op_headers, args.include_prefix, args.op_header_shards
        )
    write.write_library(renderer, outputs, args.output_dir, op_dirs=op_dirs)
    return 0


def _check_kernels(parsed: NativeYaml, args: argparse.Namespace) -> int:
    from codegen.dest.library import build_library
    from codegen.kernel_check import format_missing, needed_definitions
    from codegen.selective.kernel_symbols import KernelSymbols, SymbolsError

    try:
        symbols = KernelSymbols.read(args.kernel_symbols)
    except SymbolsError as e:
        print(f"{args.kernel_symbols}:1:1: error: {e}", file=sys.stderr)
        return 1
    lib = build_library(
        args.namespace,
        args.backends,
        parsed.functions,
        parsed.groups,
        args.shards,
        static_dispatch=args.static_dispatch,
    )
    needed = needed_definitions(lib)
    missing = [n for n in needed if not symbols.objects_defining(n.name)]
    if missing:
        label = args.source_label
        print(format_missing(missing, label, args.include_prefix), file=sys.stderr)
        print(
            f"{label}: {_count(len(missing), 'declared kernel')} without a definition",
            file=sys.stderr,
        )
        return 1
    if args.stamp:
        with open(args.stamp, "w", encoding="utf-8") as f:
            f.write(f"{_count(len(needed), 'definition')} found\n")
    return 0


def _backends_without_kernels(parsed: NativeYaml, backends: tuple[str, ...]) -> str | None:
    """What is wrong when some of `backends` have no kernel in the file (their generated
    registrations would be empty and the kernels files the user wrote for them would not
    compile), or None. Not a problem when the file has no backend kernel at all: a library
    of composite operators registers none, and its default `backends = ["CPU"]` is right."""
    keys = {key for f in parsed.functions for key in f.dispatch}
    have = sorted(keys & set(RUNTIME_BACKENDS))
    empty = [b for b in backends if b not in keys]
    if not have or not empty:
        return None
    listed = ", ".join(empty)
    return (
        f"the library's backends include {listed}, but no operator in this file has a "
        f"{' or '.join(f'`{b}:`' for b in empty)} kernel (it has {', '.join(f'`{k}:`' for k in have)} "
        "kernels): there would be nothing to register for it\n"
        f"  hint: add `{empty[0]}: my_kernel` under the `dispatch:` of the operators it runs, or "
        f"take {listed} out of `backends` (structured_ops_library) / --backends"
    )


def _run(args: argparse.Namespace) -> int:
    if args.command == "generate":
        gc.disable()  # the model and the library are large acyclic trees: collecting only costs time
    parsed = load_native_yaml(args.file, args.tags)
    _report(parsed, args.no_warnings)
    if parsed.diagnostics.has_errors():
        return 1
    if args.command == "check":
        print(summary(parsed))
        return 0
    if args.command == "generate":
        return _generate(parsed, args)
    if args.command == "check-kernels":
        return _check_kernels(parsed, args)
    from codegen.signatures import records

    json.dump(records(parsed), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def exit_with(status: int) -> None:
    """Ends the process. The model and library of a large yaml are millions of objects,
    and tearing them down one by one takes a tenth of a generator run: every file is
    closed by now, so flush the two streams and leave without it."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    exit_with(main())
