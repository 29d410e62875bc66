"""A selective build's operators for one library, from operator-set files and the
kernels' symbols (the generator's `--selected-ops` and `--kernel-symbols`)."""

from __future__ import annotations

from codegen.dest.library import Library
from codegen.selective.calls import calls_of_operators
from codegen.selective.kernel_symbols import KernelSymbols, SymbolsError
from codegen.selective.selector import Selection, SelectionError, close, read_requests, resolve

__all__ = ["SelectionError", "selection_of"]


def selection_of(lib: Library, set_files: list[str], symbols_file: str | None) -> Selection:
    registered = resolve(read_requests(set_files), lib.functions)
    try:
        symbols = KernelSymbols.read(symbols_file) if symbols_file is not None else None
    except SymbolsError as e:
        raise SelectionError(str(e)) from None
    return close(registered, calls_of_operators(lib, symbols))
