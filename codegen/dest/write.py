"""Writing a library's files: rendered in parallel, put in place all at once.

Rendering is most of a large library's generation time, and the files are
independent: with several processors, forked workers render disjoint sets of them
(files that share a context stay together). Each file is written under a temporary
name and renamed only once every file is rendered, so a failure never leaves half a
library. The bytes do not depend on the number of workers.
"""

from __future__ import annotations

import os
import sys

from codegen.dest import files
from codegen.dest.library import Library
from codegen.dest.render import Renderer

_TEMPORARY = ".partial"


def _units(outputs: list[files.OutputFile]) -> list[list[files.OutputFile]]:
    """The files, grouped by the context they render (Operators.h and .cpp, ...); the
    unboxing files all in one group, as their contexts share one computation."""
    groups: dict[tuple, list[files.OutputFile]] = {}
    for o in outputs:
        key = (
            (o.context,) if o.context == "unboxing" else (o.context, o.key, o.family, o.shard, o.op)
        )
        groups.setdefault(key, []).append(o)
    return list(groups.values())


def _cost(lib: Library, unit: list[files.OutputFile]) -> int:
    """About how long a unit takes to render, in microseconds (measured on PyTorch's yaml)."""
    o = unit[0]
    if o.context == "register":
        # Register files are per family and shard.
        assert o.family is not None and o.shard is not None
        return sum(
            60 if w.kind == "structured" else 15
            for w in lib.wrappers_for(files.family_keys(o.family), o.shard)
        )
    if o.context == "static_functions":
        return 10 * sum(1 for w in lib.wrappers if w.key == o.key)
    if o.context == "unboxing":
        return 40 * len(lib.functions)
    per_function = {"functions": 20, "natives": 12, "operators": 10}.get(o.context, 1)
    return per_function * len(lib.functions)


class _Places:
    """Where each file goes: the output folder, or the per-operator headers' folders."""

    def __init__(self, directory: str, op_dirs: files.OperatorHeaderDirs | None) -> None:
        self.directory = directory
        self.op_dirs = op_dirs

    def path(self, o: files.OutputFile) -> str:
        if o.op is not None:
            assert self.op_dirs is not None, "per-operator headers need their folders"
            return self.op_dirs.path(o)
        return os.path.join(self.directory, o.name)

    def make_directories(self) -> None:
        os.makedirs(self.directory, exist_ok=True)
        for d in self.op_dirs.directories() if self.op_dirs else ():
            os.makedirs(d, exist_ok=True)


def _render_into(renderer: Renderer, units: list[list[files.OutputFile]], places: _Places) -> None:
    for unit in units:
        for o in unit:
            with open(places.path(o) + _TEMPORARY, "w", encoding="utf-8", newline="\n") as out:
                out.write(renderer.render(o))


def _worker(renderer: Renderer, share: list[list[files.OutputFile]], places: _Places) -> None:
    """A forked worker: renders its share and exits, reporting by its exit status."""
    status = 1
    try:
        _render_into(renderer, share, places)
        status = 0
    except BaseException as e:  # the parent reports the failure; say what it was
        print(f"generator worker: {type(e).__name__}: {e}", file=sys.stderr)
    finally:
        sys.stderr.flush()
        os._exit(status)


def _share(
    lib: Library, units: list[list[files.OutputFile]], jobs: int
) -> list[list[list[files.OutputFile]]]:
    """Units dealt to `jobs` workers, largest first, each to the least loaded one."""
    shares: list[list[list[files.OutputFile]]] = [[] for _ in range(jobs)]
    loads = [0] * jobs
    for cost, _, unit in sorted(
        ((_cost(lib, u), i, u) for i, u in enumerate(units)), key=lambda c: (-c[0], c[1])
    ):
        i = loads.index(min(loads))
        shares[i].append(unit)
        loads[i] += cost
    return shares


def write_library(
    renderer: Renderer,
    outputs: list[files.OutputFile],
    directory: str,
    jobs: int | None = None,
    op_dirs: files.OperatorHeaderDirs | None = None,
) -> None:
    """Render every file of `outputs` into `directory` (the per-operator headers into
    `op_dirs`); raises if any cannot be."""
    places = _Places(directory, op_dirs)
    places.make_directories()
    units = _units(outputs)
    if jobs is None:
        jobs = min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1, 4)
    jobs = max(1, min(jobs, len(units))) if hasattr(os, "fork") else 1
    shares = _share(renderer.lib, units, jobs)
    for template in sorted({o.template for o in outputs}):  # compiled once, before the workers part
        renderer.env.get_template(template)
    children = []
    try:
        try:
            for share in shares[1:]:
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    _worker(renderer, share, places)
                children.append(pid)
            _render_into(renderer, shares[0], places)
        finally:
            failed = [pid for pid in children if os.waitpid(pid, 0)[1] != 0]
        if failed:
            raise RuntimeError(
                f"{len(failed)} of {len(children)} rendering workers failed (see above)"
            )
    except BaseException:
        _remove_partial(outputs, places)
        raise
    for o in outputs:
        os.replace(places.path(o) + _TEMPORARY, places.path(o))


def _remove_partial(outputs: list[files.OutputFile], places: _Places) -> None:
    for o in outputs:
        try:
            os.remove(places.path(o) + _TEMPORARY)
        except FileNotFoundError:
            pass
