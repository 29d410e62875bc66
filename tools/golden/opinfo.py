"""Golden cases from PyTorch's own OpInfo database (issue 28, item 3).

For each OpInfo of `torch.testing._internal.common_methods_invocations.op_db` listed in
`OPINFOS`, and each dtype of ours (float32, float64, int64, int32, int8, uint8, bool), the
OpInfo's `sample_inputs(device="cpu", dtype=...)` run under a `TorchDispatchMode` that
records the aten calls they make. A call of an overload of ours (ops/native_functions.yaml)
whose name is one of the entry's targets becomes a case: its arguments as the dispatcher
saw them (after Python argument parsing, defaults written out, every tensor rebuilt with
its sizes, strides and storage offset) and PyTorch's result. The OpInfo's `error_inputs`,
and the first sample of a dtype of ours that the OpInfo does not support, give the error
cases: a call of a target that raised, with a substring of PyTorch's message.

Each OpInfo gives one file, `opinfo_<name>.golden` (`.` in the name becomes `_`), whose
header says `family source opinfo`: its cases cover what PyTorch's samples cover, so
golden_format_test checks only that each op listed has a case. Samples draw from torch's
global generator (`make_tensor`); it is seeded by a CRC of the OpInfo and dtype before each
run, so a rerun writes the same files.

Samples are not multiples of 1/4 like the hand-written tables: a floating result of an
op not in `EXACT` carries a `tol` line (`TOL`), since summation order, FMA and vectorized
math may move its last bits. What cannot be written (a dtype or a value the format does
not have, a too large tensor) is skipped and counted by reason; `summary()` prints it.
"""

from __future__ import annotations

import os
import random
import re
import warnings
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from golden_format import (
    ALL7,
    ALL9,
    MAX_ELEMS,
    NONE,
    Bool,
    Case,
    DeviceArg,
    DType,
    Family,
    FamilyInfo,
    Float,
    Floats,
    Int,
    Ints,
    LayoutArg,
    MemFmt,
    Scalar,
    Str,
    TArg,
    Tensors,
    dn,
)
from torch.utils._python_dispatch import TorchDispatchMode

HERE = os.path.dirname(os.path.abspath(__file__))
YAML = os.path.normpath(os.path.join(HERE, "..", "..", "ops", "native_functions.yaml"))

# Samples kept per (OpInfo, dtype) from sample_inputs and from the further
# reference_inputs (extremal values, broadcasting, discontiguous inputs), error cases per
# OpInfo, and the most elements (storage of the inputs plus the result) a case may hold:
# the files stay small.
MAX_SAMPLES = 8
MAX_REFERENCE = 8
MAX_ERRORS = 16
MAX_CALLS = 3  # calls kept per sample (tensor_split makes one slice per piece)
MAX_CASE_ELEMS = 500
# An OpInfo whose every sample of a dtype is larger (bmm, to, the unary ops) keeps one of
# them (the first in spread order) of at most this many elements.
MAX_LARGE_SAMPLES = 1
MAX_LARGE_CASE_ELEMS = 2500
# (rtol, atol): float32 as torch.testing.assert_close's default (PyTorch's own OpInfo tests
# compare with it); float64 tighter than its default 1e-7, loose enough for another
# summation order (computing in float32 by mistake moves a result by ~1e-7).
TOL = {torch.float32: (1.3e-6, 1e-5), torch.float64: (1e-10, 1e-10)}
# Ops that sum products of the inputs (values up to 9 in magnitude): a float32 result that
# cancels keeps the rounding error of its largest terms, so the absolute part is larger.
ACCUMULATE = set(
    "convolution mm bmm addmm linear sum mean native_layer_norm avg_pool2d "
    "_adaptive_avg_pool2d avg_pool3d _adaptive_avg_pool3d _softmax _log_softmax _cdist_forward "
    "_pdist_forward _native_batch_norm_legit grid_sampler_2d".split()
)
TOL_ACCUMULATE = {torch.float32: (1e-5, 1e-4), torch.float64: (1e-10, 1e-10)}

# The OpInfos whose samples become cases, each with the aten names (packets) whose calls
# are kept: the op itself, or what a composite decomposes into at the dispatcher.
UNARY = (
    "abs acos acosh asin asinh atan atanh cos cosh erf exp expm1 log log10 log1p log2 "
    "logical_not neg rsqrt sigmoid sin sinh sqrt tan tanh"
).split()
SAME_NAME = (
    UNARY
    + (
        "add sub mul eq ne lt le gt ge logical_and logical_or where clamp pow "
        "sum mean amax amin argmax any mm bmm addmm expand permute view unsqueeze select "
        "slice cat clone arange empty_like zeros_like ones_like full_like zeros ones full "
        "scalar_tensor constant_pad_nd native_layer_norm"
    ).split()
)
_REFLECT = ("reflection_pad1d", "reflection_pad2d", "reflection_pad3d")
_REPLICATE = ("replication_pad1d", "replication_pad2d", "replication_pad3d")
OPINFOS: dict[str, tuple[str, ...]] = {
    **{name: (name,) for name in SAME_NAME},
    "div.no_rounding_mode": ("div",),
    "div.trunc_rounding": ("div",),
    "div.floor_rounding": ("div",),
    "square": ("pow",),
    "matmul": ("mm", "bmm", "_unsafe_view"),
    "nn.functional.linear": ("linear", "addmm", "mm"),
    "nn.functional.relu": ("relu",),
    "nn.functional.relu6": ("hardtanh",),
    "nn.functional.hardtanh": ("hardtanh",),
    "nn.functional.leaky_relu": ("leaky_relu",),
    "nn.functional.gelu": ("gelu",),
    "nn.functional.silu": ("silu",),
    "nn.functional.hardsigmoid": ("hardsigmoid",),
    "nn.functional.hardswish": ("hardswish",),
    "softmax": ("_softmax",),
    "softmax.with_dtype": ("_softmax",),
    "nn.functional.softmin": ("_softmax",),
    "log_softmax": ("_log_softmax",),
    "log_softmax.with_dtype": ("_log_softmax",),
    "nn.functional.layer_norm": ("native_layer_norm",),
    "nn.functional.batch_norm": (
        "_native_batch_norm_legit_no_training",
        "_native_batch_norm_legit",
    ),
    "nn.functional.max_pool2d": ("max_pool2d_with_indices",),
    "nn.functional.avg_pool2d": ("avg_pool2d",),
    "nn.functional.adaptive_avg_pool2d": ("adaptive_avg_pool2d", "_adaptive_avg_pool2d"),
    "nn.functional.conv1d": ("convolution",),
    "nn.functional.conv2d": ("convolution",),
    "nn.functional.conv_transpose2d": ("convolution",),
    "nn.functional.embedding": ("embedding",),
    "nn.functional.grid_sample": ("grid_sampler_2d",),
    "cdist": ("_cdist_forward",),
    "nn.functional.pdist": ("_pdist_forward",),
    "nn.functional.interpolate.nearest": ("upsample_nearest1d", "upsample_nearest2d"),
    "nn.functional.upsample_nearest": ("upsample_nearest1d", "upsample_nearest2d"),
    "nn.functional.pad.constant": ("constant_pad_nd",),
    # Issue 28's operators.
    **{
        name: (name,)
        for name in (
            "floor ceil round trunc sign reciprocal bitwise_not isnan isinf bitwise_and "
            "bitwise_or bitwise_xor maximum minimum fmod remainder atan2 logical_xor gather "
            "index_select cumsum repeat argmin prod var sort topk flip diagonal nonzero "
            "scatter scatter_add index_put as_strided slice_scatter select_scatter "
            "empty_strided"
        ).split()
    },
    "round.decimals_3": ("round",),
    "round.decimals_neg_3": ("round",),
    "var.unbiased": ("var",),
    "max.reduction_with_dim": ("max",),
    "min.reduction_with_dim": ("min",),
    "nn.functional.group_norm": ("native_group_norm",),
    "nn.functional.interpolate.bilinear": ("upsample_bilinear2d",),
    "nn.functional.upsample_bilinear": ("upsample_bilinear2d",),
    "nn.functional.avg_pool3d": ("avg_pool3d",),
    "nn.functional.max_pool3d": ("max_pool3d_with_indices",),
    "nn.functional.adaptive_avg_pool3d": ("_adaptive_avg_pool3d",),
    "take_along_dim": ("gather",),
    "item": ("_local_scalar_dense",),
    "all": ("any", "logical_not"),
    "masked_fill": ("where", "index_put"),
    "index_add": ("index_put",),
    "broadcast_to": ("expand",),
    "expand_as": ("expand",),
    "reshape": ("view", "_unsafe_view", "reshape"),
    "view_as": ("view",),
    "squeeze.multiple": ("squeeze",),
    "narrow": ("slice",),
    "split": ("split",),
    "split.list_args": ("split_with_sizes",),
    "split_with_sizes": ("split_with_sizes",),
    "chunk": ("split",),
    "to": ("_to_copy",),
    **{name: ("_to_copy",) for name in "bool byte char double float int long half".split()},
    "empty": ("empty",),
    "nn.functional.pad.reflect": _REFLECT,
    "nn.functional.pad.replicate": _REPLICATE,
    "nn.functional.pad.replicate_negative": _REPLICATE,
    "nn.functional.elu": ("elu",),
    "masked_scatter": ("masked_scatter",),
    **{f"scatter_reduce.{r}": ("scatter_reduce",) for r in "sum prod mean amax amin".split()},
    # Composites whose samples reach ops of ours that no OpInfo of their own reaches.
    "nn.functional.pad.circular": ("copy",),  # copy_ into slices of a new tensor
    "nn.functional.hinge_embedding_loss": ("fill",),
    "nn.functional.gaussian_nll_loss": ("clamp",),
    "nn.functional.instance_norm": ("alias",),
    # Composites whose samples give ops of ours other inputs than their own OpInfos do.
    "nn.functional.avg_pool1d": ("avg_pool2d",),
    "nn.functional.max_pool1d": ("max_pool2d_with_indices",),
    "nn.functional.adaptive_avg_pool1d": ("_adaptive_avg_pool2d",),
    "nn.functional.interpolate.area": ("_adaptive_avg_pool2d",),
    "nn.functional.conv_transpose1d": ("convolution",),
    "nn.functional.rms_norm": ("pow", "mean", "rsqrt"),
    "hstack": ("cat",),
    "vstack": ("cat",),
    "dstack": ("cat",),
    "movedim": ("permute",),
    "flatten": ("view",),
    "unflatten": ("view",),
    "tensor_split": ("slice",),
    "__getitem__": ("slice", "select", "index"),
}

# Dtypes PyTorch takes that an OpInfo's ops of ours do not yet, with why (the golden
# tables say the same with `FamilyInfo.unsupported`).
_BILINEAR_UINT8 = "uint8 bilinear upsampling (PyTorch's rounds fixed-point weights) is not ours yet"
UNSUPPORTED: dict[str, dict[torch.dtype, str]] = {
    "nn.functional.interpolate.bilinear": {torch.uint8: _BILINEAR_UINT8},
    "nn.functional.upsample_bilinear": {torch.uint8: _BILINEAR_UINT8},
}

# Ops whose floating results are exact whatever the kernel (indexing, copies, sign
# flips, comparisons, products and quotients of two values): no `tol` line.
EXACT = set(
    "abs neg relu hardtanh clamp eq ne lt le gt ge logical_not logical_and logical_or where "
    "amax amin argmax any mul div expand permute view _unsafe_view reshape unsqueeze squeeze "
    "select slice split split_with_sizes cat clone _to_copy constant_pad_nd embedding "
    "max_pool2d_with_indices max_pool3d_with_indices upsample_nearest1d upsample_nearest2d empty empty_like zeros "
    "zeros_like ones ones_like full full_like scalar_tensor floor ceil round trunc sign "
    "bitwise_not isnan isinf bitwise_and bitwise_or bitwise_xor maximum minimum fmod "
    "remainder logical_xor gather index_select repeat argmin max min sort topk flip diagonal "
    "nonzero scatter index_put as_strided slice_scatter select_scatter index "
    "reflection_pad1d reflection_pad2d reflection_pad3d replication_pad1d replication_pad2d "
    "replication_pad3d masked_scatter _local_scalar_dense".split()
)


# Inplace ops that overwrite every element of self without reading it.
OVERWRITE = ("copy_", "fill_.")


def _ours() -> dict[str, list[tuple[str, str]]]:
    """Our overloads (`add.Tensor`, `relu`) -> their arguments, (name, type) in order."""
    import yaml  # pyyaml: read once, here only
    from torchgen.model import FunctionSchema

    with open(YAML, encoding="utf-8") as f:
        entries = yaml.safe_load(f)
    out = {}
    for e in entries:
        s = FunctionSchema.parse(e["func"])
        name = str(s.name)
        out[name] = [(a.name, str(a.type)) for a in s.arguments.flat_all]
    return out


def packet(overload: str) -> str:
    """`add_.Tensor` -> `add`: the aten name without overload and inplace underscore."""
    base = overload.split(".")[0]
    return base[:-1] if base.endswith("_") and not base.startswith("_") else base


def _legit_batch_norm(args, kwargs) -> str:
    """native_batch_norm's call as the _native_batch_norm_legit overload it equals (the same
    arguments and results; without running statistics, .no_stats; in evaluation with them,
    _native_batch_norm_legit_no_training, which takes no `training`)."""
    stats = args[3] if len(args) > 3 else kwargs.get("running_mean")
    training = args[5] if len(args) > 5 else kwargs.get("training")
    if stats is None:
        return "_native_batch_norm_legit.no_stats"
    return "_native_batch_norm_legit" if training else "_native_batch_norm_legit_no_training"


# Calls recorded as another overload of ours with the same arguments and results: PyTorch's
# eager batch norm calls native_batch_norm, which sops has as _native_batch_norm_legit.
STAND_INS: dict[str, Callable] = {"native_batch_norm": _legit_batch_norm}


def overload_name(func) -> str:
    name = func._schema.name.split("::", 1)[1]
    return name + ("." + func._schema.overload_name if func._schema.overload_name else "")


class Skip(Exception):
    """A call the format cannot express; its message is the reason, counted."""


@dataclass
class Snap:
    """A tensor argument as it was when the op was called: its sizes, strides and offset
    over a copy of the storage it reads (no more of it than it reaches)."""

    x: torch.Tensor
    base: torch.Tensor

    @staticmethod
    def of(t: torch.Tensor) -> Snap:
        if t.dtype not in ALL9:
            raise Skip(f"dtype {t.dtype} not in the library")
        if t.device.type != "cpu" or t.layout != torch.strided or t.is_neg() or t.is_conj():
            raise Skip("a tensor that is not a plain cpu strided one")
        if t.numel() > MAX_ELEMS:
            raise Skip(f"a tensor of more than {MAX_ELEMS} elements")
        if t.numel() == 0:
            base = torch.empty(0, dtype=t.dtype)
            return Snap(base.as_strided(t.shape, t.stride(), 0), base)
        extent = t.storage_offset() + 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
        # Only the elements the tensor sees: storage between them may be uninitialized
        # (a discontiguous sample made from torch.empty) and is written as zeros.
        where = torch.arange(extent).as_strided(t.shape, t.stride(), t.storage_offset())
        base = torch.zeros(extent, dtype=t.dtype)
        base[where.reshape(-1)] = t.detach().reshape(-1).clone()
        return Snap(base.as_strided(t.shape, t.stride(), t.storage_offset()), base)

    def arg(self) -> TArg:
        base = self.base.clone()
        return TArg(base.as_strided(self.x.shape, self.x.stride(), self.x.storage_offset()), base)

    def elems(self) -> int:
        return self.base.numel()


@dataclass
class Call:
    """One recorded call of an overload of ours: its arguments in schema order."""

    op: str
    args: list[tuple[str, object]]  # (name, Snap | [Snap] | python value), schema order
    error: Exception | None = None
    view: bool = False
    result_elems: int = 0


def _to_writer(value, typ: str):
    """A golden_format argument writer for a value of our schema type `typ`."""
    optional = typ.endswith("?")
    t = typ[:-1] if optional else typ
    if value is None:
        if not optional:
            raise Skip(f"None for a {typ}")
        return NONE
    if t == "Tensor":
        if not isinstance(value, Snap):
            raise Skip(f"a Python {type(value).__name__} for a Tensor argument")
        return value.arg()
    if t == "Tensor[]":
        if not all(isinstance(s, Snap) for s in value):
            raise Skip("a list of other than tensors for a Tensor[] argument")
        return Tensors([s.arg() for s in value])
    if t == "Scalar":
        if isinstance(value, complex):
            raise Skip("a complex Scalar")
        return Scalar(value)
    if t in ("int", "SymInt"):
        return Int(value)
    if t.startswith(("int[", "SymInt[")):
        if isinstance(value, int):
            n = t[t.index("[") + 1 : t.index("]")]
            value = [value] * (int(n) if n else 1)
        return Ints(value)
    if t == "float":
        return Float(value)
    if t.startswith("float["):
        return Floats(value)
    if t == "bool":
        return Bool(value)
    if t == "ScalarType":
        if value not in ALL9:
            raise Skip(f"dtype argument {value} not in the library")
        return DType(value)
    if t == "MemoryFormat":
        return MemFmt(value)
    if t == "Layout":
        return LayoutArg(value)
    if t == "Device":
        if torch.device(value).type != "cpu":
            raise Skip("a device other than cpu")
        return DeviceArg(value)
    if t == "str":
        if not isinstance(value, str) or not value or any(c.isspace() for c in value):
            raise Skip("a str argument that is not one token")
        return Str(value)
    raise Skip(f"argument type {typ}")


def _snap_value(v):
    if isinstance(v, torch.Tensor):
        return Snap.of(v)
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, torch.Tensor) for x in v):
        return [Snap.of(x) for x in v]
    if isinstance(v, (list, tuple)):
        return list(v)
    return v


def _tensors_of(r) -> list[torch.Tensor]:
    if isinstance(r, torch.Tensor):
        return [r]
    if isinstance(r, (list, tuple)):
        return [t for t in r if isinstance(t, torch.Tensor)]
    return []


class _Recorder(TorchDispatchMode):
    """Records the calls of `keep`'s overloads the samples make, as the dispatcher sees
    them (defaults filled in from the schema)."""

    def __init__(self, keep: set[str]):
        super().__init__()
        self.keep = keep
        self.calls: list[Call | Skip] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = overload_name(func)
        call = None
        stand_in = STAND_INS.get(name)
        if stand_in is not None:
            name = stand_in(args, kwargs)
        if name in self.keep:
            try:
                raw = []
                for i, a in enumerate(func._schema.arguments):
                    if i < len(args):
                        raw.append((a, args[i]))
                    elif a.name in kwargs:
                        raw.append((a, kwargs[a.name]))
                    elif a.has_default_value():
                        raw.append((a, a.default_value))
                    else:
                        raise Skip("an argument without a value")
                if name == "_native_batch_norm_legit.no_stats":
                    raw = [(a, v) for a, v in raw if a.name not in ("running_mean", "running_var")]
                if name == "_native_batch_norm_legit_no_training":
                    raw = [(a, v) for a, v in raw if a.name != "training"]
                written = [
                    v.untyped_storage().data_ptr()
                    for a, v in raw
                    if a.alias_info is not None and a.alias_info.is_write
                    if isinstance(v, torch.Tensor)
                ]
                tensors = [
                    t
                    for _, v in raw
                    for t in (v if isinstance(v, (list, tuple)) else [v])
                    if isinstance(t, torch.Tensor)
                ]
                if any(
                    sum(t.untyped_storage().data_ptr() == w for t in tensors) > 1 for w in written
                ):
                    raise Skip(
                        "a written argument sharing memory with another (no aliasing in the format)"
                    )
                values = [(a.name, _snap_value(v)) for a, v in raw]
                # An out= argument, and the self of copy_ and fill_, is only written: its
                # values (often torch.empty's, which differ from run to run) are written as
                # zeros.
                for k, (a, _) in enumerate(raw):
                    only_written = a.is_out or (a.name == "self" and name.startswith(OVERWRITE))
                    if only_written and isinstance(values[k][1], Snap):
                        values[k][1].base.zero_()
                call = Call(name, values)
                self.calls.append(call)
            except Skip as e:
                self.calls.append(e)
        try:
            out = func(*args, **kwargs)
        except Exception as e:
            if call is not None:
                call.error = e
            raise
        if call is not None:
            results = _tensors_of(out)
            call.result_elems = sum(t.numel() for t in results)
            # A view op (a `Tensor(a)` return that is not written): its result aliases self.
            ret = func._schema.returns[0] if func._schema.returns else None
            annotated = (
                ret is not None
                and ret.alias_info is not None
                and not ret.alias_info.is_write
                and not func._schema.is_mutable
            )
            # _unsafe_view is a view without the annotation: its result shares self's memory.
            first = next((v for v in args if isinstance(v, torch.Tensor)), None)
            shares = (
                first is not None
                and not func._schema.is_mutable
                and any(
                    t.untyped_storage()._cdata == first.untyped_storage()._cdata for t in results
                )
            )
            call.view = annotated or shares
        return out


def literal_of(regex: str) -> str:
    """The longest plain-text run of a regular expression (what any match contains)."""
    runs, cur, i = [], "", 0
    while i < len(regex):
        c = regex[i]
        if c == "\\" and i + 1 < len(regex):
            nxt = regex[i + 1]
            if nxt.isalnum():  # \d, \s, \w, ...: a class
                runs.append(cur)
                cur = ""
            else:
                cur += nxt
            i += 2
            continue
        if c in "*?{":  # the char before is optional or repeated
            cur = cur[:-1]
            runs.append(cur)
            cur = ""
        elif c in ".^$+[]|()}":
            runs.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    runs.append(cur)
    return max((r.strip() for r in runs), key=len, default="")


def error_substring(e: Exception, regex: str | None) -> str:
    """The part of PyTorch's message a golden error case asks ours to contain."""
    msg = str(e)
    if regex:
        lit = literal_of(regex)
        if len(lit) >= 6 and lit in msg:
            return lit
    m = re.search(r"not implemented for '\w+'", msg)
    if m:
        return m.group(0)
    first = msg.strip().splitlines()[0] if msg.strip() else ""
    return first.strip()


@dataclass
class OpInfoFile:
    """What one OpInfo gives: its cases, and what was skipped, by reason."""

    name: str  # the OpInfo's name (with its variant)
    cases: list[Case] = field(default_factory=list)
    kept: Counter = field(default_factory=Counter)  # op -> cases
    skipped: Counter = field(default_factory=Counter)  # reason -> samples or calls

    @property
    def family(self) -> str:
        return "opinfo_" + re.sub(r"[^A-Za-z0-9_]", "_", self.name)


def _tol(op: str, args: list[tuple[str, object]], dtype: torch.dtype | None):
    if dtype not in TOL:
        return None
    p = packet(op)
    if p in ("add", "sub"):
        alpha = dict(args).get("alpha", 1)
        if alpha == 1:  # a + b: one rounding, exact whatever the kernel
            return None
    if p in EXACT:
        return None
    return TOL_ACCUMULATE[dtype] if p in ACCUMULATE else TOL[dtype]


def _scalar_overload(call: Call, ours) -> Call:
    """A Python number where our schema has a Tensor is a wrapped number (`t + 2.5`: the
    dispatcher hands it to a TorchDispatchMode unwrapped); PyTorch's `.Scalar` overload
    with the same arguments computes the same (scalar type promotion included), so the
    call becomes one of it where ours has it (add.Tensor -> add.Scalar, div.Tensor_mode
    -> div.Scalar_mode, eq.Tensor -> eq.Scalar)."""
    schema = ours[call.op]
    numbers = {
        n
        for (n, typ), (_, v) in zip(schema, call.args)
        if typ == "Tensor" and isinstance(v, (bool, int, float))
    }
    base, _, overload = call.op.partition(".")
    alt = f"{base}.{overload.replace('Tensor', 'Scalar')}"
    if not numbers or "Tensor" not in overload or alt not in ours:
        return call
    types = dict(ours[alt])
    if [n for n, _ in ours[alt]] != [n for n, _ in schema] or any(
        types[n] != "Scalar" for n in numbers
    ):
        return call
    return Call(alt, call.args, call.error, call.view, call.result_elems)


def _case(call: Call, ours, cid: str, error: str | None, limit: int) -> dict:
    """The Case of a recorded call, or Skip."""
    schema = ours[call.op]
    if [n for n, _ in schema] != [n for n, _ in call.args]:
        raise Skip("arguments differ from our schema")
    for (_, typ), (_, v) in zip(schema, call.args):
        _to_writer(v, typ)  # raises Skip for what the format cannot write
    elems = sum(v.elems() for _, v in call.args if isinstance(v, Snap))
    elems += sum(
        s.elems() for _, v in call.args if isinstance(v, list) for s in v if isinstance(s, Snap)
    )
    if elems + call.result_elems > limit:
        raise Skip(f"more than {limit} elements")
    mutated = [n for n, typ in schema if n == "out"] or (
        ["self"] if call.op.split(".")[0].endswith("_") and not call.op.startswith("_") else []
    )
    values_any = call.op.startswith(("empty.", "empty_like", "empty_strided"))
    frozen = [(n, typ, v) for (n, typ), (_, v) in zip(schema, call.args)]

    def build(_r):  # fresh tensors each time: an inplace op writes into them
        return [(n, _to_writer(v, typ)) for n, typ, v in frozen]

    return dict(
        op=call.op,
        id=cid,
        build=build,
        error=error,
        view=call.view and not mutated,
        values_any=values_any,
        result=mutated[0] if mutated else None,
    )


def _result_dtype(op: str, kw: dict) -> torch.dtype | None:
    """PyTorch's result dtype of a case (run once, to decide its tolerance)."""
    from golden_format import aten_op

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = aten_op(op)(**{n: w.live() for n, w in kw["build"](None)})
    except Exception:  # noqa: BLE001 - an error case has no result dtype
        return None
    ts = _tensors_of(r)
    return ts[0].dtype if ts else None


def _seed(key: str) -> None:
    s = zlib.crc32(key.encode())
    torch.manual_seed(s)
    random.seed(s)
    try:
        import numpy

        numpy.random.seed(s)
    except ImportError:
        pass


KINDS = {"s": "sample_inputs", "r": "reference_inputs beyond the samples"}


def spread(n: int) -> list[int]:
    """0..n-1 in an order that spreads over the range (0, n/2, n/4, 3n/4, ...): a cap on
    the samples keeps some of every part of an OpInfo's list, not only its first ones."""
    order, seen = [], set()
    k = 0
    while len(order) < n:
        # van der Corput: the binary digits of k, mirrored after the point
        x, denom, j = 0, 1, k
        while j:
            denom *= 2
            x = x * 2 + (j & 1)
            j >>= 1
        i = (x * n) // denom
        if i not in seen:
            seen.add(i)
            order.append(i)
        k += 1
        if k > 4 * n + 4:  # the rest in order
            order += [i for i in range(n) if i not in seen]
    return order


def _inputs(opinfo, name: str, dtype: torch.dtype, f: OpInfoFile):
    """(kind, samples) for one dtype: the OpInfo's sample_inputs ("s"), then the
    reference_inputs that come after them ("r"; they start with the samples), each drawn
    after seeding torch's generator with the OpInfo, dtype and kind."""
    d = dn(dtype)
    out = []
    for kind in ("s", "r"):
        if kind == "r" and opinfo.reference_inputs_func is None:
            break
        _seed(f"{name}/{d}" + ("" if kind == "s" else "/reference"))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                gen = opinfo.sample_inputs if kind == "s" else opinfo.reference_inputs
                samples = list(gen("cpu", dtype))
        except Exception:  # noqa: BLE001 - an OpInfo that cannot make inputs of this dtype
            f.skipped[f"{d}: {KINDS[kind]} raised"] += 1
            continue
        if kind == "r":
            samples = samples[len(out[0][1]) if out else 0 :]
        out.append((kind, samples))
    return out


def collect(opinfo, targets: tuple[str, ...], ours) -> OpInfoFile:
    """The cases of one OpInfo."""
    name = opinfo.name + ("." + opinfo.variant_test_name if opinfo.variant_test_name else "")
    f = OpInfoFile(name)
    keep = {op for op in ours if packet(op) in targets}
    supported = opinfo.supported_dtypes("cpu")

    def add(call: Call, cid: str, error=None, limit=MAX_CASE_ELEMS) -> bool:
        call = _scalar_overload(call, ours)
        try:
            kw = _case(call, ours, cid, error, limit)
        except Skip as e:
            f.skipped[str(e)] += 1
            return False
        tol = None
        if error is None:
            tol = _tol(call.op, call.args, _result_dtype(call.op, kw))
        case = Case(tol=tol, **kw)
        try:  # the case as written, run again: it must do what the recorded call did
            Family(f.family).add(case)
        except AssertionError as e:
            f.skipped["rerun from the written arguments differs: " + str(e).split(": ")[-1]] += 1
            return False
        f.cases.append(case)
        f.kept[call.op] += 1
        return True

    def run(fn: Callable[[], None]) -> tuple[list[Call | Skip], Exception | None]:
        rec = _Recorder(keep)
        err = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with rec:
                    fn()
        except Exception as e:  # noqa: BLE001 - a sample PyTorch rejects
            err = e
        return rec.calls, err

    def run_samples(samples, kind: str, d: str, cap: int, limit: int) -> int:
        """Cases from up to `cap` of `samples`, spread over the list; how many gave one."""
        n = 0
        for k, i in enumerate(spread(len(samples))):
            if n >= cap:
                f.skipped[f"beyond {cap} {KINDS[kind]} of a dtype"] += len(samples) - k
                break
            s = samples[i]

            def fn(s=s):
                opinfo.op(s.input, *s.args, **s.kwargs)

            calls, err = run(fn)
            made = 0
            for j, c in enumerate(calls):
                if isinstance(c, Skip):
                    f.skipped[str(c)] += 1
                    continue
                if made >= MAX_CALLS:
                    f.skipped[f"beyond {MAX_CALLS} calls of a sample"] += 1
                    continue
                cid = f"{d}_{kind}{i}_c{j}"
                if c.error is not None:
                    if c is calls[-1] and err is not None:
                        made += add(c, cid + "_error", error_substring(err, None), limit)
                    continue
                made += add(c, cid, limit=limit)
            if not calls:
                why = " (PyTorch raised before it)" if err else ""
                f.skipped["no call of the op's aten overloads of ours" + why] += 1
            n += made > 0
        return n

    for dtype in ALL7:
        d = dn(dtype)
        why = UNSUPPORTED.get(name, {}).get(dtype)
        if why is not None:
            f.skipped[f"{d}: {why}"] += 1
            continue
        for kind, samples in _inputs(opinfo, name, dtype, f):
            if dtype not in supported:
                samples = samples[:1]  # a dtype PyTorch may reject: one case, an error
            cap = MAX_SAMPLES if kind == "s" else MAX_REFERENCE
            n = run_samples(samples, kind, d, cap, MAX_CASE_ELEMS)
            if n == 0 and kind == "s" and f.skipped[f"more than {MAX_CASE_ELEMS} elements"]:
                # Every sample too large (bmm's, to's): one, the first in spread order under
                # the larger cap.
                run_samples(samples, kind, d, MAX_LARGE_SAMPLES, MAX_LARGE_CASE_ELEMS)
    # Error inputs: the call of ours that raised, with PyTorch's message.
    try:
        errors = list(opinfo.error_inputs("cpu")) if opinfo.error_inputs_func else []
    except Exception:  # noqa: BLE001
        errors = []
        f.skipped["error_inputs raised"] += 1
    made = 0
    for i, ei in enumerate(errors):
        if made >= MAX_ERRORS:
            f.skipped[f"beyond {MAX_ERRORS} error inputs"] += len(errors) - i
            break
        s = ei.sample_input

        def fn(s=s):
            opinfo.op(s.input, *s.args, **s.kwargs)

        _seed(f"{name}/error/{i}")
        calls, err = run(fn)
        last = calls[-1] if calls else None
        if err is None:
            f.skipped["error input: PyTorch did not raise"] += 1
        elif isinstance(last, Skip):  # the call that raised, which the format cannot write
            f.skipped[f"error input: {last}"] += 1
        elif not isinstance(last, Call) or last.error is not err:
            f.skipped["error input: raised outside the op's aten overloads of ours"] += 1
        else:
            made += add(last, f"error{i}", error_substring(err, ei.error_regex))
    return f


def opinfo_families() -> tuple[list[FamilyInfo], list[OpInfoFile]]:
    """One FamilyInfo per OpInfo of OPINFOS that gave a case, and what each kept/skipped."""
    from torch.testing._internal.common_methods_invocations import op_db

    ours = _ours()
    by_name = {
        o.name + ("." + o.variant_test_name if o.variant_test_name else ""): o for o in op_db
    }
    missing = sorted(set(OPINFOS) - set(by_name))
    assert not missing, f"OpInfos not in torch's op_db: {missing}"
    families, files = [], []
    for name in sorted(OPINFOS):
        f = collect(by_name[name], OPINFOS[name], ours)
        files.append(f)
        if not f.cases:
            continue
        cases = list(f.cases)
        families.append(
            FamilyInfo(
                f.family,
                ops=tuple(sorted(f.kept)),
                sample_inputs=lambda cases=cases: iter(cases),
                source="opinfo",
            )
        )
    return families, files


def summary(files: list[OpInfoFile]) -> str:
    """Per OpInfo: the cases kept per op and what was skipped, by reason."""
    lines = []
    for f in files:
        kept = ", ".join(f"{op} {n}" for op, n in sorted(f.kept.items())) or "none"
        lines.append(f"opinfo {f.name}: kept {sum(f.kept.values())} ({kept})")
        for reason, n in sorted(f.skipped.items()):
            lines.append(f"    skipped {n}: {reason}")
    return "\n".join(lines)
