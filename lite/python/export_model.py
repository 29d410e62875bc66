#!/usr/bin/env python3
"""Converts a `torch.export` archive (.pt2) into a lite model file (lite/FORMAT.md).

    python3 lite/python/export_model.py MODEL.pt2 -o MODEL.sopsm

Loads the program with `torch.export.load`, decomposes it to core ATen (decompose.py:
`run_decompositions()` with the default table, views that nothing writes through made
reshapes first, and what the table leaves outside core ATen decomposed too) and writes
the graph, its parameters, buffers and constants (exported_graph.py). The output depends
only on the program and the torch version: the same .pt2 gives byte-identical files, and
the metadata holds the .pt2's file name only, never a folder.

Dynamic shapes: a program exported with `dynamic_shapes=` (torch.export.Dim) converts to
a version-2 model that serves every size in the Dims' ranges. Its symbols take the
Dims' names when the archive records them (torch.export.save drops them;
`save_program(ep, path)` here saves them beside the program), else "<input>.<dim>"
("tokens.1"). What the format cannot express is refused, naming the node or input and
what to change: an input dimension derived from another (2*seq), and symbolic values
that no graph node computes (data-dependent ones included).

Whatever goes wrong ends with one line on stderr and exit status 1:

    export_model.py: error: MODEL.pt2: node 'name' (aten::op.overload): what is wrong
"""

import argparse
import json
import logging
import os
import re
import sys
import warnings

PROG = "export_model.py"
PRODUCER = "structured_ops export_model.py"
# The extra file of a .pt2 that holds its Dims' names (save_program): a JSON list of
# [input name, dimension, Dim name].
DIM_NAMES_FILE = "structured_ops_dim_names.json"
NEEDS_TORCH = f"{PROG} needs torch (pip install torch==2.13.0)"

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lite_model import LiteModelError, serialize  # noqa: E402  (after the path above)


class CliError(Exception):
    """One line for the user (without the program's name)."""


def _one_line(text: str) -> str:
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    return lines[0] if lines else ""


def _decomposition_error(path: str, e: Exception) -> str:
    """One line for an exception of run_decompositions(): the node it failed at (from
    torch.fx's "While executing %node" note), the model's own line where the program
    kept its stack trace, torch's first line, and for a view what to change."""
    text = str(e)
    message = f"run_decompositions() failed: {type(e).__name__}: {_one_line(text)}"
    executing = re.search(
        r"While executing %(\w+) : .*?target=torch\.ops\.(\w+)\.(\w+)\.(\w+)", text
    )
    if not executing:
        return f"{path}: {message}"
    node, namespace, name, overload = executing.groups()
    op = f"{namespace}::{name}" + ("" if overload == "default" else f".{overload}")
    frames = re.findall(r'File "([^"]+)", line (\d+), in \w+\n\s*(\S[^\n]*)', text)
    if frames:
        file, line, code = frames[-1]
        message += f" (at {os.path.basename(file)}:{line}: {code.strip()})"
    if op == "aten::view" and "Cannot view" in text:
        message += (
            "; the decomposed graph lays this tensor out differently than eager PyTorch did, "
            "and an in-place operator writes through the view, so it cannot become a reshape: "
            "call .contiguous() before the .view() in the model, or .reshape() instead"
        )
    return f"{path}: node '{node}' ({op}): {message}"


def save_program(ep, path: str) -> None:
    """torch.export.save(ep, path), with the names of its Dims, which the converter gives
    the model's symbols (torch.export.save alone drops them)."""
    import torch  # pylint: disable=import-outside-toplevel
    from symbolic import dim_names  # pylint: disable=import-outside-toplevel

    names = sorted([name, d, dim] for (name, d), dim in dim_names(ep).items())
    extra = {DIM_NAMES_FILE: json.dumps(names)} if names else None
    torch.export.save(ep, path, extra_files=extra)


def _dim_names(path: str, text: str):
    """{(input, dimension): name} from a DIM_NAMES_FILE's text; None when there is none."""
    if not text:
        return None
    try:
        return {(str(name), int(d)): str(dim) for name, d, dim in json.loads(text)}
    except (ValueError, TypeError) as e:
        raise CliError(
            f"{path}: its {DIM_NAMES_FILE} is not a JSON list of [input, dimension, name]: {e}"
        ) from None


def load_program(path: str, extra: dict = None):
    """The decomposed ExportedProgram in `path`, or CliError saying why not; `extra`
    receives the archive's extra files named by its keys (torch.export.load)."""
    import torch  # pylint: disable=import-outside-toplevel

    if not os.path.exists(path):
        raise CliError(f"{path}: no such file")
    if not os.path.isfile(path):
        raise CliError(f"{path}: not a file")
    logging.disable(
        logging.WARNING
    )  # torch.export.load logs a traceback before its fallback reader
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ep = torch.export.load(path, extra_files=extra)
    except Exception as e:  # pylint: disable=broad-except  (any reason the archive is unreadable)
        reason = _one_line(e) or type(e).__name__
        raise CliError(
            f"{path}: not a readable torch.export archive (.pt2 from torch.export.save): {reason}"
        ) from None
    finally:
        logging.disable(logging.NOTSET)
    from decompose import decompose  # pylint: disable=import-outside-toplevel
    from schema_args import ConvertError  # pylint: disable=import-outside-toplevel
    from symbolic import Symbols  # pylint: disable=import-outside-toplevel

    try:  # refused before decomposing, which fails on them without saying why
        Symbols(ep, {}).check_inputs(ep)
    except ConvertError as e:
        raise CliError(f"{path}: {e}") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return decompose(ep)
    except Exception as e:  # pylint: disable=broad-except
        raise CliError(_decomposition_error(path, e)) from None


def convert(path: str) -> bytes:
    """The lite model bytes of the .pt2 at `path`; CliError on anything it cannot express."""
    import torch  # pylint: disable=import-outside-toplevel
    from exported_graph import convert_program  # pylint: disable=import-outside-toplevel
    from schema_args import ConvertError  # pylint: disable=import-outside-toplevel

    extra = {DIM_NAMES_FILE: ""}
    ep = load_program(path, extra)
    names = _dim_names(path, extra[DIM_NAMES_FILE])
    metadata = [
        ("producer", PRODUCER),
        ("torch_version", torch.__version__),
        ("source", os.path.basename(path)),
    ]
    try:
        return serialize(convert_program(ep, metadata, names))
    except ConvertError as e:
        raise CliError(f"{path}: {e}") from None
    except LiteModelError as e:
        raise CliError(f"{path}: the converted model breaks lite/FORMAT.md: {e}") from None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=__doc__.split("\n\n")[0],
        epilog=(
            "Programs exported with dynamic_shapes= convert too: the model then serves every "
            "size in its Dims' ranges (lite model format version 2). Their symbols take the "
            "Dims' names when the .pt2 records them (save_program in this file), else "
            "'<input>.<dim>'. Derived dimensions (2*seq) and data-dependent sizes are refused "
            "with what to change."
        ),
    )
    parser.add_argument(
        "model", metavar="MODEL.pt2", help="a torch.export archive (torch.export.save)"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="MODEL_FILE", help="the lite model file to write"
    )
    args = parser.parse_args(argv)
    try:
        import torch  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
    except ImportError:
        print(f"{PROG}: error: {NEEDS_TORCH}", file=sys.stderr)
        return 1
    try:
        data = convert(args.model)
        with open(args.output, "wb") as f:
            f.write(data)
    except CliError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{PROG}: error: {args.output}: cannot write: {e.strerror or e}", file=sys.stderr)
        return 1
    except Exception as e:  # pylint: disable=broad-except  (one line, never a traceback)
        print(
            f"{PROG}: error: {args.model}: internal error: {type(e).__name__}: {_one_line(e)}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
