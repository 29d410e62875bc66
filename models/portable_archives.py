"""Keeps this machine's paths out of the saved .pt2 and TorchScript archives (needs torch).

`torch.export.save` stores each node's Python stack trace, and `torch.jit.save` stores
source ranges (`*.debug_pkl`), both with absolute file names (site-packages, the
checkout). Neither is needed to load or run the model, so:

- `export_without_stack_traces(ep)` drops `stack_trace` from every node's meta;
- `strip_debug_info(path)` rewrites a TorchScript zip without its `.debug_pkl` records,
  each record stored uncompressed with its data 64-byte aligned (as torch writes them;
  torch::jit::load reads the archive either way, the alignment only keeps it usual).
"""

import struct
import zipfile

import torch

_ALIGN = 64
_PAD_ID = 0x4246  # the extra-field id torch's writer pads with ("FB")


def export_without_stack_traces(ep):
    """`ep` with no node's stack trace (in place; returned for chaining)."""
    for module in ep.graph_module.modules():  # the graph and any nested ones
        if isinstance(getattr(module, "graph", None), torch.fx.Graph):
            for node in module.graph.nodes:
                node.meta.pop("stack_trace", None)
    return ep


def _padding(offset: int, name: str) -> bytes:
    """The extra field that puts the data of a record at `offset` on a 64-byte boundary."""
    start = offset + 30 + len(name.encode("utf-8")) + 4
    pad = (-start) % _ALIGN
    return struct.pack("<HH", _PAD_ID, pad) + bytes(pad)


def strip_debug_info(path: str) -> None:
    """Rewrites the TorchScript archive at `path` without its `.debug_pkl` records."""
    with zipfile.ZipFile(path) as src:
        records = [
            (info.filename, src.read(info))
            for info in src.infolist()
            if not info.filename.endswith(".debug_pkl")
        ]
    with open(path, "wb") as f, zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as dst:
        for name, data in records:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.extra = _padding(f.tell(), name)
            dst.writestr(info, data)
