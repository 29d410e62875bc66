"""The golden file format and its determinism; nothing about specific operators.

Holds what every operator family shares when tools/golden/make_golden.py writes
tests/golden/data/*.golden (format: tests/golden/README.md):

- dtype shorthands (F32 ... BF16, ALL7, ALL9) and the dtype / memory-format names;
- value writers (`fmt_value`, `fmt_values`, `fmt_ints`);
- argument writers, one per schema kind: TArg (tensor), Tensors, Scalar, Int, Ints, Float,
  Floats, Bool, DType, MemFmt, Str, LayoutArg, DeviceArg, NoneArg / NONE, and `opt` for
  optional arguments;
- `Rand`, the deterministic random source that builds tensors in a given layout;
- `Family`, which runs each case through PyTorch and collects the file's text;
- the OpInfo-style records the family tables (tools/golden/families/) are made of: `Case`
  (one sample or error input) and `FamilyInfo` (one .golden file: its ops, its case
  generator and what its cases must cover, written into the file's header as its
  `family` lines).

Every case draws from a generator seeded by a CRC of its file, op and id, so the output is
deterministic and adding a case does not change the others.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import torch

TORCH_VERSION = "2.13.0"
SCRIPT = "tools/golden/make_golden.py"
REGENERATE = "python tools/golden/make_golden.py (with torch==2.13.0; see tests/golden/README.md)"
# Logical elements of any one tensor (the storage behind it may be larger). Cases stay
# small; a few reach 10,000 to cover the blocked paths of the kernels (e.g. a GEMM
# depth past one 256-deep block).
MAX_ELEMS = 10000

F32, F64, I64, I32, I8, U8, B = (
    torch.float32,
    torch.float64,
    torch.int64,
    torch.int32,
    torch.int8,
    torch.uint8,
    torch.bool,
)
F16, BF16 = torch.float16, torch.bfloat16
ALL7 = [F32, F64, I64, I32, I8, U8, B]  # supported compute dtypes
ALL9 = ALL7 + [F16, BF16]  # plus the storage-only ones

DTYPE_NAMES = {
    torch.float32: "float32",
    torch.float64: "float64",
    torch.int64: "int64",
    torch.int32: "int32",
    torch.int16: "int16",
    torch.int8: "int8",
    torch.uint8: "uint8",
    torch.bool: "bool",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
}
MEMORY_FORMATS = {
    torch.contiguous_format: "contiguous",
    torch.channels_last: "channels_last",
    torch.channels_last_3d: "channels_last_3d",
    torch.preserve_format: "preserve",
}


def dn(dtype: torch.dtype) -> str:
    return DTYPE_NAMES[dtype]


def fmt_value(v, dtype: torch.dtype) -> str:
    if dtype == torch.bool:
        return "1" if v else "0"
    if dtype.is_floating_point:
        # repr of the exact double value: parsing it back gives the same double, and
        # casting that double to float32/float16/bfloat16 gives the exact bits.
        return repr(float(v))
    return str(int(v))


def fmt_values(t: torch.Tensor) -> str:
    vals = t.detach().contiguous().reshape(-1).tolist()
    return " ".join([str(len(vals))] + [fmt_value(v, t.dtype) for v in vals])


def fmt_ints(xs) -> str:
    xs = list(xs)
    return " ".join([str(len(xs))] + [str(int(x)) for x in xs])


# ---------------------------------------------------------------------------------------
# Argument wrappers: each knows how to print itself and what to hand to the torch op.


class TArg:
    """A tensor argument: `x` is a view into the contiguous, offset-0 tensor `base`, whose
    whole storage is written out."""

    def __init__(self, x: torch.Tensor, base: torch.Tensor):
        assert base.is_contiguous() and base.storage_offset() == 0
        assert x.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
        assert base.untyped_storage().nbytes() == base.numel() * base.element_size()
        assert x.numel() <= MAX_ELEMS, f"tensor of {x.numel()} elements"
        self.x, self.base = x, base

    def line(self) -> str:
        x = self.x
        return (
            f"tensor {dn(x.dtype)} sizes {fmt_ints(x.shape)} strides {fmt_ints(x.stride())} "
            f"offset {x.storage_offset()} storage {fmt_values(self.base)}"
        )

    def live(self):
        return self.x


class Scalar:
    def __init__(self, v):
        self.v = v

    def line(self) -> str:
        if isinstance(self.v, bool):
            return f"scalar bool {int(self.v)}"
        if isinstance(self.v, int):
            return f"scalar int {self.v}"
        return f"scalar double {repr(float(self.v))}"

    def live(self):
        return self.v


class Int:
    def __init__(self, v):
        self.v = int(v)

    def line(self):
        return f"int {self.v}"

    def live(self):
        return self.v


class Ints:
    def __init__(self, v):
        self.v = [int(x) for x in v]

    def line(self):
        return f"ints {fmt_ints(self.v)}"

    def live(self):
        return list(self.v)


class Float:
    def __init__(self, v):
        self.v = float(v)

    def line(self):
        return f"float {repr(self.v)}"

    def live(self):
        return self.v


class Floats:
    def __init__(self, v):
        self.v = [float(x) for x in v]

    def line(self):
        return "floats " + " ".join([str(len(self.v))] + [repr(x) for x in self.v])

    def live(self):
        return list(self.v)


class Bool:
    def __init__(self, v):
        self.v = bool(v)

    def line(self):
        return f"bool {int(self.v)}"

    def live(self):
        return self.v


class DType:
    def __init__(self, v):
        self.v = v

    def line(self):
        return f"dtype {dn(self.v)}"

    def live(self):
        return self.v


class MemFmt:
    def __init__(self, v):
        self.v = v

    def line(self):
        return f"memory_format {MEMORY_FORMATS[self.v]}"

    def live(self):
        return self.v


class Str:
    """A str argument (`rounding_mode`, `approximate`): one token without spaces."""

    def __init__(self, v):
        assert isinstance(v, str) and v and not any(c.isspace() for c in v), v
        self.v = v

    def line(self):
        return f"str {self.v}"

    def live(self):
        return self.v


class LayoutArg:
    """A Layout argument (only torch.strided: sops tensors are strided)."""

    def __init__(self, v):
        assert v == torch.strided, v
        self.v = v

    def line(self):
        return "layout strided"

    def live(self):
        return self.v


class DeviceArg:
    """A Device argument (only cpu; a meta run of the case reads it as meta)."""

    def __init__(self, v):
        self.v = torch.device(v)
        assert self.v.type == "cpu", v

    def line(self):
        return "device cpu"

    def live(self):
        return self.v


class GeneratorArg:
    """A Generator argument: a new generator seeded with `seed` (in the C++ runner too)."""

    def __init__(self, seed: int):
        assert isinstance(seed, int) and seed >= 0, seed
        self.seed = seed

    def line(self):
        return f"generator {self.seed}"

    def live(self):
        return torch.Generator().manual_seed(self.seed)


class NoneArg:
    def line(self):
        return "none"

    def live(self):
        return None


NONE = NoneArg()


def opt(wrapper, v):
    return NONE if v is None else wrapper(v)


class Tensors:
    """A Tensor[] argument, or a Tensor?[] one whose absent elements are NONE."""

    def __init__(self, ts):
        self.ts = list(ts)

    def lines(self):
        return [f"tensors {len(self.ts)}"] + [t.line() for t in self.ts]

    def live(self):
        return [t.live() for t in self.ts]


# ---------------------------------------------------------------------------------------
# Random tensors.


class Rand:
    def __init__(self, g: torch.Generator):
        self.g = g

    def values(self, dtype, n, rng=None, randn=False):
        g = self.g
        if dtype == torch.bool:
            return torch.randint(0, 2, (n,), generator=g).to(torch.bool)
        if dtype.is_floating_point:
            if randn:
                return torch.randn(n, generator=g, dtype=torch.float64).to(dtype)
            lo, hi = rng if rng else (-4, 4)
            return (
                torch.randint(int(lo * 4), int(hi * 4) + 1, (n,), generator=g).to(torch.float64) / 4
            ).to(dtype)
        if rng is None:
            rng = {torch.int8: (-10, 10), torch.uint8: (0, 15)}.get(dtype, (-50, 50))
        return torch.randint(rng[0], rng[1] + 1, (n,), generator=g).to(dtype)

    def t(self, dtype, shape, layout="contig", vals=None, rng=None, randn=False) -> TArg:
        """layout: contig | T (all dims reversed in memory) | step (last dim has stride
        2 and the storage offset is 1) | expand:<base shape> (stride 0 where the base has
        size 1) | channels_last | channels_last_3d."""
        shape = tuple(shape)
        if layout == "contig":
            base_shape = shape
        elif layout == "T":
            base_shape = tuple(reversed(shape))
        elif layout == "step":
            assert len(shape) >= 1
            base_shape = shape[:-1] + (2 * shape[-1] + 1,)
        elif layout.startswith("expand:"):
            base_shape = tuple(int(s) for s in layout[7:].split(",") if s)
        elif layout == "channels_last":
            n, c, h, w = shape
            base_shape = (n, h, w, c)
        elif layout == "channels_last_3d":
            n, c, d, h, w = shape
            base_shape = (n, d, h, w, c)
        else:
            raise ValueError(layout)
        numel = 1
        for s in base_shape:
            numel *= s
        base = self.values(dtype, numel, rng, randn).reshape(base_shape)
        if layout == "contig":
            x = base
        elif layout == "T":
            x = base.permute(*reversed(range(len(shape))))
        elif layout == "step":
            x = base[..., 1::2]
        elif layout.startswith("expand:"):
            x = base.expand(*shape)
        elif layout == "channels_last":
            x = base.permute(0, 3, 1, 2)
        else:
            x = base.permute(0, 4, 1, 2, 3)
        if vals is not None:
            v = torch.tensor(vals, dtype=torch.float64 if dtype.is_floating_point else None)
            x.copy_(v.to(dtype).reshape(shape))
        return TArg(x, base)


# ---------------------------------------------------------------------------------------
# Families (one file each) and cases.


def aten_op(name: str):
    base, _, overload = name.partition(".")
    return getattr(getattr(torch.ops.aten, base), overload or "default")


# `error=TORCH_MESSAGE`: the case expects what PyTorch does with it, an error (the first
# line of its message) or a result, for tables that run one case over every dtype.
TORCH_MESSAGE = "<torch's message, if it raises>"


class Family:
    """The cases of one .golden file: runs each through PyTorch and writes its text."""

    def __init__(self, name: str, facts: Iterable[str] = ()):
        self.name = name
        self.facts = list(facts)  # the header's `family` lines (FamilyInfo.family_lines)
        self.lines: list[str] = []
        self.ids: set[tuple[str, str]] = set()
        self.count = 0

    def case(
        self,
        op,
        cid,
        build,
        error=None,
        view=False,
        values_any=False,
        result=None,
        tol=None,
        seed=None,
    ):
        """build(Rand) -> [(name, arg), ...] in schema order, every argument given.
        error: a substring of the message torch raises (the case must raise), or
        TORCH_MESSAGE (raise or not, as torch does). view: the
        result aliases `self` (recorded with its offset). values_any: the values are
        unspecified (empty). result: for inplace/out ops, the name of the argument that
        is mutated and returned. tol: (rtol, atol) for a floating result that PyTorch's
        vectorized math (exp, tanh, ...) does not give bit for bit: written as a `tol`
        line; a reader accepts |got - want| <= atol + rtol * |want| (NaN and inf exact).
        seed: for a random operator, torch.manual_seed(seed) right before the call (written
        as a `seed` line: the C++ runner seeds its default generator the same way)."""
        key = (op, cid)
        assert key not in self.ids, f"duplicate case {op} {cid}"
        assert all(c.isalnum() or c in "_-" for c in cid), cid
        self.ids.add(key)
        input_seed = zlib.crc32(f"{self.name}/{op}/{cid}".encode())
        args = build(Rand(torch.Generator().manual_seed(input_seed)))
        out = [f"case {op} {cid}"]
        for name, a in args:
            if isinstance(a, Tensors):
                first, *rest = a.lines()
                out.append(f"arg {name} {first}")
                out.extend(rest)
            else:
                out.append(f"arg {name} {a.line()}")
        if seed is not None:
            assert isinstance(seed, int) and seed >= 0, f"{op} {cid}: seed {seed!r}"
            out.append(f"seed {seed}")
        tol_at = len(out)  # the `tol` line goes here, once the case is known not to raise
        kwargs = {name: a.live() for name, a in args}
        fn = aten_op(op)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if seed is not None:
                    torch.manual_seed(seed)
                r = fn(**kwargs)
        except Exception as e:  # noqa: BLE001 - any torch error is an oracle answer
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if error is TORCH_MESSAGE:
                error = msg
            if error is None:
                raise AssertionError(f"{self.name}: {op} {cid} raised unexpectedly: {msg}") from e
            if error not in str(e):
                raise AssertionError(f"{self.name}: {op} {cid}: {error!r} not in {msg!r}") from e
            out.append(f"# torch: {type(e).__name__}: {msg}")
            out.append(f"expect error {error}")
        else:
            if error is not None and error is not TORCH_MESSAGE:
                raise AssertionError(f"{self.name}: {op} {cid} did not raise {error!r}")
            first = r[0] if isinstance(r, (tuple, list)) and r else r
            floating = isinstance(first, torch.Tensor) and first.dtype.is_floating_point
            if error is TORCH_MESSAGE and not floating:
                tol = None  # a table's tolerance for the floating dtypes only
            if tol is not None:
                rtol, atol = (float(x) for x in tol)
                assert rtol >= 0 and atol >= 0, f"{op} {cid}: bad tol {tol}"
                out.insert(tol_at, f"tol {rtol!r} {atol!r}")
            assert tol is None or floating, f"{op} {cid}: tol on a result that is not floating"
            if result is not None:
                assert r is kwargs[result] or (
                    r.untyped_storage().data_ptr() == kwargs[result].untyped_storage().data_ptr()
                    and r.shape == kwargs[result].shape
                ), f"{op} {cid}: result is not {result}"
            if not view and result is None and isinstance(kwargs.get("self"), torch.Tensor):
                for t in r if isinstance(r, (list, tuple)) else [r]:
                    assert not isinstance(t, torch.Tensor) or (
                        t.untyped_storage().data_ptr()
                        != kwargs["self"].untyped_storage().data_ptr()
                        or t.numel() == 0
                    ), f"{op} {cid}: result aliases self (view=True?)"
            if isinstance(r, (bool, int, float)):  # a Scalar result (_local_scalar_dense)
                assert not view and not values_any and result is None and tol is None, op
                out.append("expect scalar " + Scalar(r).line().split(" ", 1)[1])
            elif isinstance(r, tuple):
                # Several returns (max_pool2d_with_indices, native_layer_norm, ...): one
                # "tensor" line each, in return order.
                assert not view and not values_any and result is None, f"{op} {cid}"
                out.append(f"expect tuple {len(r)}")
                out.extend(self.result_line(op, cid, t, kwargs, False, False) for t in r)
            elif isinstance(r, list):  # Tensor[] (one returned value): one line per tensor
                out.append(f"expect list {len(r)}")
                out.extend(self.result_line(op, cid, t, kwargs, view, values_any) for t in r)
            else:
                out.append("expect " + self.result_line(op, cid, r, kwargs, view, values_any))
        out.append("end")
        self.lines.append("")
        self.lines.extend(out)
        self.count += 1

    @staticmethod
    def result_line(op, cid, r, kwargs, view, values_any) -> str:
        """`tensor ...` or `view ...` (without the word `expect`) for one result tensor."""
        head = f"{dn(r.dtype)} sizes {fmt_ints(r.shape)} strides {fmt_ints(r.stride())}"
        vals = "any" if values_any else fmt_values(r)
        if view:
            assert r.untyped_storage().data_ptr() == kwargs["self"].untyped_storage().data_ptr(), (
                f"{op} {cid}: no view"
            )
            return f"view {head} offset {r.storage_offset()} values {vals}"
        assert r.numel() <= MAX_ELEMS, f"{op} {cid}: result of {r.numel()} elements"
        return f"tensor {head} values {vals}"

    def add(self, c: Case) -> None:
        self.case(
            c.op,
            c.id,
            c.build,
            error=c.error,
            view=c.view,
            values_any=c.values_any,
            result=c.result,
            tol=c.tol,
            seed=c.seed,
        )

    def text(self) -> str:
        header = [
            f"# made by {SCRIPT} with torch {torch.__version__}; regenerate: {REGENERATE}",
            f"# {self.name}.golden: {self.count} cases; format: tests/golden/README.md",
            *self.facts,
        ]
        return "\n".join(header + self.lines) + "\n"


def scalar_for(dtype, fval=2.5, ival=3):
    """A natural Scalar for a tensor of this dtype (no table uses it at present)."""
    if dtype == torch.bool:
        return Scalar(True)
    if dtype.is_floating_point:
        return Scalar(fval)
    return Scalar(ival)


# ---------------------------------------------------------------------------------------
# Short forms for the tables: a tensor argument drawn when the case is built, and a case's
# arguments in schema order.


def tensor_arg(dtype, shape, vals=None, rng=None, layout="contig", randn=False):
    """A builder of one tensor argument (see Rand.t)."""
    return lambda r: r.t(dtype, shape, layout, vals, rng, randn)


def case_args(*named):
    """build(Rand) for `Case`: (name, value) pairs in schema order, where a value is an
    argument writer, a builder (called with the Rand), or a list of them (a Tensor[] or
    Tensor?[] argument; NONE for an absent element)."""
    return lambda r: [
        (
            n,
            Tensors([x(r) if callable(x) else x for x in f])
            if isinstance(f, list)
            else (f(r) if callable(f) else f),
        )
        for n, f in named
    ]


# ---------------------------------------------------------------------------------------
# The records of the family tables (in the style of PyTorch's OpInfo).


@dataclass(frozen=True)
class Case:
    """One case of a family: a sample input, or an error input when `error` is given.

    op: the full aten name (`add.Tensor`, `sum.dim_IntList`, ...). id: unique with op in the
    file (letters, digits, `_`, `-`; end it in `_randn` for normal random values). tol:
    (rtol, atol), only for floating results of transcendental math that PyTorch computes
    with vectorized approximations (exp, log, tanh, ...); every other case is exact. The
    other fields are those of `Family.case`."""

    op: str
    id: str
    build: Callable[[Rand], list]
    error: str | None = None
    view: bool = False
    values_any: bool = False
    result: str | None = None
    tol: tuple[float, float] | None = None
    seed: int | None = None


@dataclass(frozen=True)
class FamilyInfo:
    """One table entry: the family written to `tests/golden/data/<name>.golden`.

    This is the one place a family's facts are kept: make_golden.py writes them into the
    file's header as `family` lines (`family_lines`), and `tests/golden/golden_format_test.cc`
    reads them from there and checks the file's cases against them.

    ops: every aten overload its cases call (each case's op must be one of them, and each
    of them must have a case). sample_inputs: a zero-argument callable yielding the
    family's `Case`s, error cases included, in file order.

    What the cases must cover (every supported dtype, sizes 0 and 1, a non-contiguous
    input and an error case) depends on three more facts:
    factory: the ops make their result from arguments (`size`, `dtype`, ...): no tensor
    input besides `out`; sizes 0 and 1 are those of the `size` argument (or of the result
    where there is none, as for arange), and no non-contiguous input is asked for.
    broadcast: None where no case need broadcast; "any" where some case's tensor input
    (other than `out`) must differ in shape from the result; otherwise the name of the
    argument that must, in a case whose result has more than one element.
    size0: False where the result always has one element (scalar_tensor), so no case of
    size 0 is asked for.
    unsupported: (dtype names, why) that PyTorch takes but the library does not yet;
    the cases need not cover them (written as `family unsupported <n> <dtypes> because <why>`).
    source: "table" for the hand-written tables; "opinfo" for the files made from
    PyTorch's OpInfo samples (tools/golden/opinfo.py), whose cases cover what those
    samples cover: only their ops are checked (written as `family source opinfo`)."""

    name: str
    ops: tuple[str, ...]
    sample_inputs: Callable[[], Iterable[Case]]
    factory: bool = False
    broadcast: str | None = None
    size0: bool = True
    source: str = "table"
    unsupported: tuple[str, str] | None = None  # (dtype names, why) the ops do not take yet

    def __post_init__(self) -> None:
        def token(s: object) -> bool:
            return isinstance(s, str) and s != "" and not any(c.isspace() for c in s)

        assert token(self.name), f"family name {self.name!r}"
        assert isinstance(self.ops, tuple) and self.ops, f"{self.name}: ops {self.ops!r}"
        assert all(token(op) for op in self.ops), f"{self.name}: ops {self.ops}"
        assert len(set(self.ops)) == len(self.ops), f"{self.name}: an op twice in {self.ops}"
        assert isinstance(self.factory, bool) and isinstance(self.size0, bool), self.name
        assert self.broadcast is None or (
            self.broadcast.isidentifier() and self.broadcast != "none"
        ), f"{self.name}: broadcast {self.broadcast!r} (None, 'any' or an argument name)"
        assert self.source in ("table", "opinfo"), f"{self.name}: source {self.source!r}"

    def family_lines(self) -> list[str]:
        """The header lines that carry this entry's facts (format: tests/golden/README.md)."""
        return (
            [
                f"family name {self.name}",
                f"family ops {len(self.ops)} {' '.join(self.ops)}",
                f"family factory {int(self.factory)}",
                f"family broadcast {self.broadcast or 'none'}",
                f"family size0 {int(self.size0)}",
            ]
            + (
                [
                    f"family unsupported {len(self.unsupported[0].split())} {self.unsupported[0]} because {self.unsupported[1]}"
                ]
                if self.unsupported
                else []
            )
            + ([f"family source {self.source}"] if self.source != "table" else [])
        )

    def build(self) -> Family:
        fam = Family(self.name, self.family_lines())
        for c in self.sample_inputs():
            assert c.op in self.ops, f"{self.name}: case {c.op} {c.id}: op not in {self.ops}"
            fam.add(c)
        missing = set(self.ops) - {op for op, _ in fam.ids}
        assert not missing, f"{self.name}: no case for {sorted(missing)}"
        return fam
