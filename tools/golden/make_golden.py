#!/usr/bin/env python3
"""Writes the PyTorch oracle data (golden files) for the first operator set.

Run OUTSIDE Bazel with a Python that has torch 2.13.0 (see tests/golden/README.md):

    python3 -m venv ~/.cache/structured-ops-golden
    ~/.cache/structured-ops-golden/bin/pip install torch==2.13.0
    ~/.cache/structured-ops-golden/bin/python tools/golden/make_golden.py          # write
    ~/.cache/structured-ops-golden/bin/python tools/golden/make_golden.py --check  # compare

Every case is built from a generator seeded by a hash of its file, op and case id, so
the output is deterministic and adding a case does not change the others. The format
is documented in tests/golden/README.md; the C++ reader is tests/golden/golden.{h,cc}.

Values are chosen so that every result is exact in IEEE arithmetic regardless of the
summation order or the use of FMA (floating inputs are small multiples of 1/4), except
for the cases whose id ends in `_randn` (normal random values: compare those with a
tolerance).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
import zlib

import torch

TORCH_VERSION = "2.13.0"
SCRIPT = "tools/golden/make_golden.py"
REGENERATE = "python tools/golden/make_golden.py (with torch==2.13.0; see tests/golden/README.md)"
MAX_ELEMS = 60  # logical elements of any one tensor (the storage behind it may be larger)

F32, F64, I64, I32, I8, U8, B = (torch.float32, torch.float64, torch.int64, torch.int32,
                                 torch.int8, torch.uint8, torch.bool)
F16, BF16 = torch.float16, torch.bfloat16
ALL7 = [F32, F64, I64, I32, I8, U8, B]          # supported compute dtypes
ALL9 = ALL7 + [F16, BF16]                       # plus the storage-only ones

DTYPE_NAMES = {
    torch.float32: "float32", torch.float64: "float64", torch.int64: "int64",
    torch.int32: "int32", torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8",
    torch.bool: "bool", torch.float16: "float16", torch.bfloat16: "bfloat16",
}
MEMORY_FORMATS = {
    torch.contiguous_format: "contiguous", torch.channels_last: "channels_last",
    torch.channels_last_3d: "channels_last_3d", torch.preserve_format: "preserve",
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
        return (f"tensor {dn(x.dtype)} sizes {fmt_ints(x.shape)} strides {fmt_ints(x.stride())} "
                f"offset {x.storage_offset()} storage {fmt_values(self.base)}")

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


class NoneArg:
    def line(self):
        return "none"

    def live(self):
        return None


NONE = NoneArg()


def opt(wrapper, v):
    return NONE if v is None else wrapper(v)


class Tensors:
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
            return (torch.randint(int(lo * 4), int(hi * 4) + 1, (n,), generator=g)
                    .to(torch.float64) / 4).to(dtype)
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


class Family:
    def __init__(self, name: str):
        self.name = name
        self.lines: list[str] = []
        self.ids: set[tuple[str, str]] = set()
        self.count = 0

    def case(self, op, cid, build, error=None, view=False, values_any=False, result=None):
        """build(Rand) -> [(name, arg), ...] in schema order, every argument given.
        error: a substring of the message torch raises (the case must raise). view: the
        result aliases `self` (recorded with its offset). values_any: the values are
        unspecified (empty). result: for inplace/out ops, the name of the argument that
        is mutated and returned."""
        key = (op, cid)
        assert key not in self.ids, f"duplicate case {op} {cid}"
        assert all(c.isalnum() or c in "_-" for c in cid), cid
        self.ids.add(key)
        seed = zlib.crc32(f"{self.name}/{op}/{cid}".encode())
        args = build(Rand(torch.Generator().manual_seed(seed)))
        out = [f"case {op} {cid}"]
        for name, a in args:
            if isinstance(a, Tensors):
                first, *rest = a.lines()
                out.append(f"arg {name} {first}")
                out.extend(rest)
            else:
                out.append(f"arg {name} {a.line()}")
        kwargs = {name: a.live() for name, a in args}
        fn = aten_op(op)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = fn(**kwargs)
        except Exception as e:  # noqa: BLE001 - any torch error is an oracle answer
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if error is None:
                raise AssertionError(f"{self.name}: {op} {cid} raised unexpectedly: {msg}")
            if error not in str(e):
                raise AssertionError(f"{self.name}: {op} {cid}: {error!r} not in {msg!r}")
            out.append(f"# torch: {type(e).__name__}: {msg}")
            out.append(f"expect error {error}")
        else:
            if error is not None:
                raise AssertionError(f"{self.name}: {op} {cid} did not raise {error!r}")
            if result is not None:
                assert r is kwargs[result] or (
                    r.untyped_storage().data_ptr() == kwargs[result].untyped_storage().data_ptr()
                    and r.shape == kwargs[result].shape), f"{op} {cid}: result is not {result}"
            head = (f"{dn(r.dtype)} sizes {fmt_ints(r.shape)} strides {fmt_ints(r.stride())}")
            vals = "any" if values_any else fmt_values(r)
            if view:
                assert (r.untyped_storage().data_ptr()
                        == kwargs["self"].untyped_storage().data_ptr()), f"{op} {cid}: no view"
                out.append(f"expect view {head} offset {r.storage_offset()} values {vals}")
            else:
                assert r.numel() <= MAX_ELEMS, f"{op} {cid}: result of {r.numel()} elements"
                out.append(f"expect tensor {head} values {vals}")
        out.append("end")
        self.lines.append("")
        self.lines.extend(out)
        self.count += 1

    def text(self) -> str:
        header = [
            f"# made by {SCRIPT} with torch {torch.__version__}; regenerate: {REGENERATE}",
            f"# {self.name}.golden: {self.count} cases; format: tests/golden/README.md",
        ]
        return "\n".join(header + self.lines) + "\n"


def scalar_for(dtype, fval=2.5, ival=3):
    """A natural Scalar for a tensor of this dtype."""
    if dtype == torch.bool:
        return Scalar(True)
    if dtype.is_floating_point:
        return Scalar(fval)
    return Scalar(ival)


# ---------------------------------------------------------------------------------------
# add / mul


def binary_family(base: str) -> Family:
    fam = Family(base)
    has_alpha = base == "add"
    op, op_out, op_in = f"{base}.Tensor", f"{base}.out", f"{base}_.Tensor"

    def A(self_, other, alpha=1, out=None):
        args = [("self", self_), ("other", other)]
        if has_alpha:
            args.append(("alpha", Scalar(alpha)))
        if out is not None:
            args.append(("out", out))
        return args

    def fn(sd, ss, od, os_, sl="contig", ol="contig", alpha=1, svals=None, ovals=None,
           srng=None, orng=None):
        return lambda r: A(r.t(sd, ss, sl, svals, srng), r.t(od, os_, ol, ovals, orng), alpha)

    def outfn(sd, ss, od, os_, outd, outs, outl="contig", alpha=1):
        return lambda r: A(r.t(sd, ss), r.t(od, os_), alpha, out=r.t(outd, outs, outl))

    # Every supported dtype: same shape, broadcasting, non-contiguous, out=, inplace.
    for d in ALL7:
        n = dn(d)
        fam.case(op, f"{n}_same_shape", fn(d, (2, 3), d, (2, 3)))
        fam.case(op, f"{n}_broadcast", fn(d, (3, 1, 4), d, (2, 4)))
        fam.case(op, f"{n}_noncontig", fn(d, (3, 4), d, (3, 4), "T", "step"))
        fam.case(op_out, f"{n}_out", outfn(d, (2, 3), d, (3,), d, (2, 3)), result="out")
        fam.case(op_in, f"{n}_inplace_broadcast", fn(d, (2, 3), d, (3,)), result="self")

    # Sizes 0 and 1, zero-dim.
    fam.case(op, "float32_size0", fn(F32, (0, 3), F32, (3,)))
    fam.case(op, "int64_size0_both", fn(I64, (2, 0), I64, (2, 0)))
    fam.case(op, "float32_size0_broadcast_from_size1", fn(F32, (0, 1), F32, (1, 3)))
    fam.case(op, "float32_size1", fn(F32, (1,), F32, (1,)))
    fam.case(op, "int32_size1_broadcast", fn(I32, (1, 1), I32, (2, 3)))
    fam.case(op, "float64_zerodim_both", fn(F64, (), F64, ()))
    fam.case(op, "float32_zerodim_with_size0", fn(F32, (), F32, (0,)))
    fam.case(op, "float32_broadcast_both_ways", fn(F32, (4, 1), F32, (1, 5)))
    fam.case(op, "float32_broadcast_expanded_input", fn(F32, (2, 3), F32, (2, 3), "contig",
                                                       "expand:1,3"))
    fam.case(op, "float32_noncontig_broadcast", fn(F32, (3, 4), F32, (4,), "T", "step"))

    # Type promotion between dimensioned tensors.
    for sd, od in [(I64, F32), (F32, I64), (I32, I64), (I8, U8), (U8, I8), (B, I8), (B, F32),
                   (U8, F64), (I32, F64), (F32, F64), (I8, I32), (U8, B), (B, I64),
                   (I64, F64)]:
        fam.case(op, f"promote_{dn(sd)}_{dn(od)}", fn(sd, (2, 3), od, (3,)))
    # Zero-dim tensors take part in promotion only across categories.
    for sd, od in [(F64, F32), (I64, I8), (F64, I32), (F32, I64), (I64, B), (B, U8),
                   (I32, U8), (F64, U8)]:
        fam.case(op, f"zerodim_{dn(sd)}_with_{dn(od)}", fn(sd, (), od, (2, 3)))
        fam.case(op, f"{dn(od)}_with_zerodim_{dn(sd)}", fn(od, (2, 3), sd, ()))

    # Special floating values; integer wraparound.
    special_a = [float("nan"), float("inf"), float("-inf"), -0.0, 1.0, float("-inf")]
    special_b = [1.0, float("-inf"), float("inf"), -0.0, float("nan"), float("-inf")]
    for d in (F32, F64):
        fam.case(op, f"{dn(d)}_special_values",
                 fn(d, (6,), d, (6,), svals=special_a, ovals=special_b))
    fam.case(op, "int8_wraparound", fn(I8, (4,), I8, (4,), svals=[100, 127, -128, 64],
                                       ovals=[100, 1, -1, 2]))
    fam.case(op, "uint8_wraparound", fn(U8, (4,), U8, (4,), svals=[250, 255, 0, 16],
                                        ovals=[10, 1, 0, 16]))

    if has_alpha:
        fam.case(op, "float32_alpha_double", fn(F32, (2, 3), F32, (2, 3), alpha=2.5))
        fam.case(op, "float64_alpha_negative_double", fn(F64, (2, 3), F64, (3,), alpha=-0.75))
        fam.case(op, "float32_alpha_int", fn(F32, (2, 3), F32, (2, 3), alpha=3))
        fam.case(op, "int64_alpha_int", fn(I64, (2, 3), I64, (2, 3), alpha=3))
        fam.case(op, "int32_alpha_negative", fn(I32, (2, 3), I32, (3,), alpha=-2))
        fam.case(op, "int8_alpha_int", fn(I8, (2, 3), I8, (2, 3), alpha=2))
        fam.case(op, "uint8_alpha_negative_wraps", fn(U8, (2, 3), U8, (2, 3), alpha=-1))
        fam.case(op, "bool_alpha_bool", fn(B, (2, 3), B, (2, 3), alpha=True))
        fam.case(op, "bool_alpha_false", fn(B, (2, 3), B, (2, 3), alpha=False))
        fam.case(op, "int64_float32_alpha_double", fn(I64, (2, 3), F32, (3,), alpha=2.5))
        fam.case(op, "float32_alpha_zero", fn(F32, (2, 3), F32, (2, 3), alpha=0))
        fam.case(op_out, "int64_out_alpha_int",
                 lambda r: A(r.t(I64, (2, 3)), r.t(I64, (3,)), 4, out=r.t(I64, (2, 3))),
                 result="out")
        fam.case(op_in, "float32_inplace_alpha_double",
                 fn(F32, (2, 3), F32, (2, 3), alpha=0.5), result="self")
        fam.case(op_in, "int64_inplace_alpha_negative",
                 fn(I64, (2, 3), I64, (3,), alpha=-3), result="self")
        fam.case(op, "int64_alpha_double_error", fn(I64, (2, 3), I64, (2, 3), alpha=2.5),
                 error="For integral input tensors, argument alpha must not be a floating point number.")
        fam.case(op, "int8_alpha_double_error", fn(I8, (3,), I8, (3,), alpha=1.0),
                 error="For integral input tensors, argument alpha must not be a floating point number.")
        fam.case(op, "bool_alpha_double_error", fn(B, (3,), B, (3,), alpha=1.5),
                 error="For integral input tensors, argument alpha must not be a floating point number.")
        fam.case(op, "float32_alpha_bool_error", fn(F32, (3,), F32, (3,), alpha=True),
                 error="Boolean alpha only supported for Boolean results.")
        fam.case(op, "int64_alpha_bool_error", fn(I64, (3,), I64, (3,), alpha=True),
                 error="Boolean alpha only supported for Boolean results.")

    fam.case(op, "broadcast_mismatch_error", fn(F32, (2, 3), F32, (4,)),
             error="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
    fam.case(op, "broadcast_mismatch_leading_error", fn(I64, (2, 3), I64, (4, 3, 3)),
             error="The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1")

    # out=: resizing, non-contiguous out, dtype casts into out.
    fam.case(op_out, "float32_out_resize_empty", outfn(F32, (2, 3), F32, (3,), F32, (0,)),
             result="out")
    fam.case(op_out, "float32_out_resize_nonempty", outfn(F32, (2, 3), F32, (3,), F32, (5,)),
             result="out")
    fam.case(op_out, "float32_out_resize_to_zerodim", outfn(F32, (), F32, (), F32, (1,)),
             result="out")
    fam.case(op_out, "float32_out_noncontig", outfn(F32, (2, 3), F32, (2, 3), F32, (2, 3), "T"),
             result="out")
    fam.case(op_out, "float32_out_noncontig_step", outfn(F32, (2, 3), F32, (3,), F32, (2, 3),
                                                         "step"), result="out")
    fam.case(op_out, "float32_out_size0", outfn(F32, (0, 3), F32, (3,), F32, (0, 3)),
             result="out")
    fam.case(op_out, "float32_out_broadcast", outfn(F32, (3, 1), F32, (1, 4), F32, (3, 4)),
             result="out")
    fam.case(op_out, "int64_into_float32_out", outfn(I64, (2, 3), I64, (2, 3), F32, (2, 3)),
             result="out")
    fam.case(op_out, "int8_uint8_into_int32_out", outfn(I8, (2, 3), U8, (2, 3), I32, (2, 3)),
             result="out")
    fam.case(op_out, "bool_into_int64_out", outfn(B, (2, 3), B, (2, 3), I64, (2, 3)),
             result="out")
    fam.case(op_out, "float64_into_float32_out", outfn(F64, (2, 3), F64, (2, 3), F32, (2, 3)),
             result="out")
    fam.case(op_out, "int64_into_int8_out", outfn(I64, (2, 3), I8, (2, 3), I8, (2, 3)),
             result="out")
    fam.case(op_out, "float32_into_int64_out_error", outfn(F32, (2, 3), F32, (2, 3), I64, (2, 3)),
             error="result type Float can't be cast to the desired output type Long")
    fam.case(op_out, "int64_float32_into_int32_out_error",
             outfn(I64, (2, 3), F32, (2, 3), I32, (2, 3)),
             error="result type Float can't be cast to the desired output type Int")
    fam.case(op_out, "float64_into_bool_out_error", outfn(F64, (3,), F64, (3,), B, (3,)),
             error="result type Double can't be cast to the desired output type Bool")
    fam.case(op_out, "int64_into_bool_out_error", outfn(I64, (3,), I64, (3,), B, (3,)),
             error="result type Long can't be cast to the desired output type Bool")
    fam.case(op_out, "out_broadcast_mismatch_error", outfn(F32, (2, 3), F32, (2,), F32, (2, 3)),
             error="The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1")

    # Inplace: the result is cast into self, self's shape can't grow, no internal overlap.
    fam.case(op_in, "float32_inplace_noncontig_self", fn(F32, (3, 4), F32, (3, 4), "T"),
             result="self")
    fam.case(op_in, "int64_inplace_noncontig_step", fn(I64, (3, 4), I64, (4,), "step", "T"),
             result="self")
    fam.case(op_in, "float32_self_int64_other", fn(F32, (2, 3), I64, (2, 3)), result="self")
    fam.case(op_in, "float32_self_float64_other", fn(F32, (2, 3), F64, (3,)), result="self")
    fam.case(op_in, "int32_self_int64_other", fn(I32, (2, 3), I64, (2, 3)), result="self")
    fam.case(op_in, "uint8_self_int8_other", fn(U8, (2, 3), I8, (2, 3), orng=(0, 10)),
             result="self")
    fam.case(op_in, "int64_self_bool_other", fn(I64, (2, 3), B, (2, 3)), result="self")
    fam.case(op_in, "float32_self_zerodim_float64_other", fn(F32, (2, 3), F64, ()),
             result="self")
    fam.case(op_in, "float32_inplace_size0", fn(F32, (0, 3), F32, (3,)), result="self")
    fam.case(op_in, "float32_inplace_size1_zerodim_other", fn(F32, (1,), F32, ()),
             result="self")
    fam.case(op_in, "int64_inplace_zerodim_both", fn(I64, (), I64, ()), result="self")
    fam.case(op_in, "int64_self_float32_other_error", fn(I64, (2, 3), F32, (2, 3)),
             error="result type Float can't be cast to the desired output type Long")
    fam.case(op_in, "int32_self_zerodim_float64_other_error", fn(I32, (2, 3), F64, ()),
             error="result type Double can't be cast to the desired output type Int")
    fam.case(op_in, "bool_self_int64_other_error", fn(B, (2, 3), I64, (2, 3)),
             error="result type Long can't be cast to the desired output type Bool")
    fam.case(op_in, "uint8_self_float32_other_error", fn(U8, (2, 3), F32, (3,)),
             error="result type Float can't be cast to the desired output type Byte")
    fam.case(op_in, "inplace_broadcast_grows_self_error", fn(F32, (3,), F32, (2, 3)),
             error="output with shape [3] doesn't match the broadcast shape [2, 3]")
    fam.case(op_in, "inplace_expanded_self_error",
             fn(F32, (2, 3), F32, (2, 3), "expand:3"),
             error="unsupported operation: more than one element of the written-to tensor "
                   "refers to a single memory location")
    return fam


# ---------------------------------------------------------------------------------------
# relu / relu_


def relu_family() -> Family:
    fam = Family("relu")

    def fn(d, shape, layout="contig", vals=None):
        return lambda r: [("self", r.t(d, shape, layout, vals))]

    for d in ALL7:
        n = dn(d)
        err = "Boolean inputs not supported for relu" if d == B else None
        fam.case("relu", n, fn(d, (2, 3)), error=err)
        fam.case("relu_", f"{n}_inplace", fn(d, (2, 3)), error=err,
                 result=None if err else "self")
        if d != B:
            fam.case("relu", f"{n}_noncontig", fn(d, (3, 4), "T"))
    fam.case("relu", "float32_noncontig_step", fn(F32, (2, 5), "step"))
    fam.case("relu", "float32_expanded_input", fn(F32, (3, 4), "expand:1,4"))
    fam.case("relu", "float32_size0", fn(F32, (0, 3)))
    fam.case("relu", "int64_size0", fn(I64, (0,)))
    fam.case("relu", "float32_size1", fn(F32, (1,)))
    fam.case("relu", "float64_size1_2d", fn(F64, (1, 1)))
    fam.case("relu", "float32_zerodim", fn(F32, ()))
    fam.case("relu", "int32_zerodim_negative", fn(I32, (), vals=-5))
    special = [float("nan"), float("-inf"), float("inf"), -0.0, 0.0, -1.5, 2.5]
    for d in (F32, F64):
        fam.case("relu", f"{dn(d)}_special_values", fn(d, (7,), vals=special))
    fam.case("relu", "int8_extremes", fn(I8, (4,), vals=[-128, 127, 0, -1]))
    fam.case("relu_", "float32_inplace_noncontig", fn(F32, (3, 4), "T"), result="self")
    fam.case("relu_", "int64_inplace_noncontig_step", fn(I64, (2, 3), "step"), result="self")
    fam.case("relu_", "float32_inplace_size0", fn(F32, (0, 2)), result="self")
    fam.case("relu_", "float32_inplace_size1", fn(F32, (1,)), result="self")
    fam.case("relu_", "float64_inplace_zerodim", fn(F64, (), vals=-2.0), result="self")
    fam.case("relu_", "float32_inplace_special_values", fn(F32, (7,), vals=special),
             result="self")
    return fam


# ---------------------------------------------------------------------------------------
# sum.dim_IntList


def sum_family() -> Family:
    fam = Family("sum")
    op = "sum.dim_IntList"

    def fn(d, shape, dim, keepdim=False, dtype=None, layout="contig", vals=None, rng=None):
        return lambda r: [("self", r.t(d, shape, layout, vals, rng)), ("dim", opt(Ints, dim)),
                          ("keepdim", Bool(keepdim)), ("dtype", opt(DType, dtype))]

    for d in ALL7:
        n = dn(d)
        fam.case(op, f"{n}_dim1", fn(d, (3, 4), [1]))
        fam.case(op, f"{n}_dim_none", fn(d, (2, 3), None))
        fam.case(op, f"{n}_noncontig_dim0", fn(d, (3, 4), [0], layout="T"))
    fam.case(op, "float32_dim0", fn(F32, (3, 4), [0]))
    fam.case(op, "float32_dim_negative", fn(F32, (3, 4), [-1]))
    fam.case(op, "float32_multi_dim", fn(F32, (2, 3, 4), [0, 2]))
    fam.case(op, "float32_multi_dim_negative", fn(F32, (2, 3, 4), [-1, -3]))
    fam.case(op, "float32_multi_dim_unordered", fn(F32, (2, 3, 4), [2, 0]))
    fam.case(op, "float32_all_dims_listed", fn(F32, (2, 3, 4), [0, 1, 2]))
    fam.case(op, "float32_keepdim", fn(F32, (3, 4), [1], keepdim=True))
    fam.case(op, "float64_keepdim_multi", fn(F64, (2, 3, 4), [0, -1], keepdim=True))
    fam.case(op, "int64_keepdim_dim_none", fn(I64, (2, 3), None, keepdim=True))
    fam.case(op, "float32_dim_empty_list", fn(F32, (2, 3), []))
    fam.case(op, "float32_dim_empty_list_keepdim", fn(F32, (2, 3), [], keepdim=True))
    fam.case(op, "float32_dtype_float64", fn(F32, (3, 4), [1], dtype=F64))
    fam.case(op, "int8_dtype_int32", fn(I8, (3, 4), [0], dtype=I32))
    fam.case(op, "int64_dtype_float32", fn(I64, (3, 4), [1], dtype=F32))
    fam.case(op, "uint8_dtype_int64", fn(U8, (3, 4), None, dtype=I64))
    fam.case(op, "bool_dtype_int32", fn(B, (3, 4), [1], dtype=I32))
    fam.case(op, "bool_dtype_float32", fn(B, (3, 4), [0], dtype=F32))
    fam.case(op, "float32_dtype_int64", fn(F32, (2, 3), [1], dtype=I64))
    fam.case(op, "int8_dtype_int8_wraps", fn(I8, (3,), [0], dtype=I8, vals=[100, 100, 100]))
    fam.case(op, "int8_sums_to_int64_no_overflow", fn(I8, (3,), [0], vals=[100, 100, 100]))
    fam.case(op, "uint8_sums_to_int64_no_overflow", fn(U8, (4,), [0], vals=[255, 255, 255, 1]))
    fam.case(op, "bool_counts", fn(B, (2, 5), [1]))
    fam.case(op, "float32_noncontig_step", fn(F32, (3, 4), [1], layout="step"))
    fam.case(op, "float32_noncontig_multi", fn(F32, (2, 3, 4), [0, 2], layout="T"))
    fam.case(op, "float32_expanded_input", fn(F32, (3, 4), [0], layout="expand:1,4"))
    fam.case(op, "float32_channels_last_input", fn(F32, (2, 3, 2, 2), [1], layout="channels_last"))
    fam.case(op, "float32_zerodim_dim0", fn(F32, (), [0]))
    fam.case(op, "float32_zerodim_dim_negative", fn(F32, (), [-1]))
    fam.case(op, "int32_zerodim_dim_none", fn(I32, (), None))
    fam.case(op, "float32_size0_reduce_empty_dim", fn(F32, (0, 3), [0]))
    fam.case(op, "float32_size0_keep_empty_dim", fn(F32, (0, 3), [1]))
    fam.case(op, "int64_size0_dim_none", fn(I64, (0, 3), None))
    fam.case(op, "float32_size0_keepdim", fn(F32, (2, 0), [1], keepdim=True))
    fam.case(op, "float32_size1", fn(F32, (1,), [0]))
    fam.case(op, "int64_size1_keepdim", fn(I64, (1, 1), [0, 1], keepdim=True))
    fam.case(op, "float32_special_values",
             fn(F32, (2, 3), [1], vals=[[1.0, float("nan"), 2.0], [float("inf"), 1.0, -0.0]]))
    fam.case(op, "float32_inf_minus_inf", fn(F32, (2,), [0], vals=[float("inf"), float("-inf")]))
    fam.case(op, "float64_randn",
             lambda r: [("self", r.t(F64, (4, 5), randn=True)), ("dim", Ints([1])),
                        ("keepdim", Bool(False)), ("dtype", NONE)])
    fam.case(op, "dim_out_of_range_error", fn(F32, (2, 3), [2]),
             error="Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    fam.case(op, "dim_out_of_range_negative_error", fn(F32, (2, 3), [-3]),
             error="Dimension out of range (expected to be in range of [-2, 1], but got -3)")
    fam.case(op, "dim_repeated_error", fn(F32, (2, 3), [0, 0]),
             error="dim 0 appears multiple times in the list of dims")
    fam.case(op, "dim_repeated_negative_error", fn(F32, (2, 3), [1, -1]),
             error="dim 1 appears multiple times in the list of dims")
    return fam


# ---------------------------------------------------------------------------------------
# mm / addmm / linear

# Integer ranges that keep the sums of products inside the dtype.
MM_RNG = {I8: (-3, 3), U8: (0, 5)}


def mm_family() -> Family:
    fam = Family("mm")

    def fn(d1, s1, d2, s2, l1="contig", l2="contig", randn=False):
        return lambda r: [("self", r.t(d1, s1, l1, rng=MM_RNG.get(d1), randn=randn)),
                          ("mat2", r.t(d2, s2, l2, rng=MM_RNG.get(d2), randn=randn))]

    for d in ALL7:
        n = dn(d)
        err = "not implemented for 'Bool'" if d == B else None
        fam.case("mm", n, fn(d, (2, 3), d, (3, 4)), error=err)
        if d != B:
            fam.case("mm", f"{n}_noncontig", fn(d, (3, 2), d, (2, 4), "T", "step"))
    fam.case("mm", "float32_both_transposed", fn(F32, (4, 3), F32, (3, 5), "T", "T"))
    fam.case("mm", "float64_larger", fn(F64, (5, 6), F64, (6, 7)))
    fam.case("mm", "float32_expanded_input", fn(F32, (3, 4), F32, (4, 2), "expand:1,4"))
    fam.case("mm", "float32_size0_rows", fn(F32, (0, 3), F32, (3, 4)))
    fam.case("mm", "float32_size0_inner", fn(F32, (2, 0), F32, (0, 3)))
    fam.case("mm", "int64_size0_inner", fn(I64, (2, 0), I64, (0, 3)))
    fam.case("mm", "float32_size0_cols", fn(F32, (2, 3), F32, (3, 0)))
    fam.case("mm", "float32_size1", fn(F32, (1, 1), F32, (1, 1)))
    fam.case("mm", "float32_row_times_col", fn(F32, (1, 3), F32, (3, 1)))
    fam.case("mm", "float32_col_times_row", fn(F32, (3, 1), F32, (1, 3)))
    fam.case("mm", "float32_randn", fn(F32, (4, 5), F32, (5, 3), randn=True))
    fam.case("mm", "float64_randn", fn(F64, (4, 5), F64, (5, 3), randn=True))
    fam.case("mm", "shape_mismatch_error", fn(F32, (2, 3), F32, (4, 2)),
             error="mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)")
    fam.case("mm", "self_not_matrix_error", fn(F32, (3,), F32, (3, 2)),
             error="self must be a matrix")
    fam.case("mm", "mat2_not_matrix_error", fn(F32, (2, 3), F32, (3,)),
             error="mat2 must be a matrix")
    fam.case("mm", "self_3d_error", fn(F32, (1, 2, 3), F32, (3, 2)),
             error="self must be a matrix")
    fam.case("mm", "dtype_mismatch_error", fn(F32, (2, 3), F64, (3, 2)),
             error="expected m1 and m2 to have the same dtype, but got: float != double")
    fam.case("mm", "int64_float32_mismatch_error", fn(I64, (2, 3), F32, (3, 2)),
             error="expected m1 and m2 to have the same dtype, but got: long int != float")
    return fam


def addmm_family() -> Family:
    fam = Family("addmm")

    def fn(ds, ss, d1, s1, d2, s2, beta=1, alpha=1, ls="contig", l1="contig", l2="contig",
           svals=None):
        return lambda r: [("self", r.t(ds, ss, ls, svals, rng=MM_RNG.get(ds))),
                          ("mat1", r.t(d1, s1, l1, rng=MM_RNG.get(d1))),
                          ("mat2", r.t(d2, s2, l2, rng=MM_RNG.get(d2))),
                          ("beta", Scalar(beta)), ("alpha", Scalar(alpha))]

    for d in ALL7:
        n = dn(d)
        err = "not implemented for 'Bool'" if d == B else None
        fam.case("addmm", f"{n}_bias_broadcast", fn(d, (4,), d, (2, 3), d, (3, 4)), error=err)
        if d != B:
            fam.case("addmm", f"{n}_noncontig", fn(d, (3, 4), d, (3, 2), d, (2, 4), ls="T",
                                                   l1="T", l2="step"))
    fam.case("addmm", "float32_full_self", fn(F32, (2, 4), F32, (2, 3), F32, (3, 4)))
    fam.case("addmm", "float32_self_row", fn(F32, (1, 4), F32, (2, 3), F32, (3, 4)))
    fam.case("addmm", "float32_self_col", fn(F32, (2, 1), F32, (2, 3), F32, (3, 4)))
    fam.case("addmm", "float32_self_zerodim", fn(F32, (), F32, (2, 3), F32, (3, 4)))
    fam.case("addmm", "float32_self_size1", fn(F32, (1,), F32, (2, 3), F32, (3, 4)))
    fam.case("addmm", "float32_beta_alpha_double",
             fn(F32, (4,), F32, (2, 3), F32, (3, 4), beta=0.5, alpha=2.0))
    fam.case("addmm", "float64_beta_alpha_int",
             fn(F64, (2, 4), F64, (2, 3), F64, (3, 4), beta=2, alpha=-1))
    fam.case("addmm", "int64_beta_alpha_int",
             fn(I64, (4,), I64, (2, 3), I64, (3, 4), beta=2, alpha=3))
    fam.case("addmm", "int32_beta_double", fn(I32, (2, 4), I32, (2, 3), I32, (3, 4), beta=1.5))
    fam.case("addmm", "float32_beta_zero_ignores_nan_self",
             fn(F32, (2, 2), F32, (2, 3), F32, (3, 2), beta=0,
                svals=[[float("nan"), float("inf")], [1.0, float("-inf")]]))
    fam.case("addmm", "float32_alpha_zero", fn(F32, (4,), F32, (2, 3), F32, (3, 4), alpha=0))
    fam.case("addmm", "float32_size0_inner",
             fn(F32, (3,), F32, (2, 0), F32, (0, 3), beta=2))
    fam.case("addmm", "float32_size0_rows", fn(F32, (4,), F32, (0, 3), F32, (3, 4)))
    fam.case("addmm", "int64_size0_self_and_rows", fn(I64, (0, 4), I64, (0, 3), I64, (3, 4)))
    fam.case("addmm", "float32_size1", fn(F32, (1, 1), F32, (1, 1), F32, (1, 1)))
    fam.case("addmm", "float32_randn",
             lambda r: [("self", r.t(F32, (3,), randn=True)),
                        ("mat1", r.t(F32, (4, 5), randn=True)),
                        ("mat2", r.t(F32, (5, 3), randn=True)),
                        ("beta", Scalar(0.5)), ("alpha", Scalar(1.5))])
    fam.case("addmm", "shape_mismatch_error", fn(F32, (4,), F32, (2, 3), F32, (2, 4)),
             error="mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)")
    fam.case("addmm", "self_not_broadcastable_error", fn(F32, (3,), F32, (2, 3), F32, (3, 2)),
             error="The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1")
    fam.case("addmm", "mat1_not_matrix_error", fn(F32, (4,), F32, (3,), F32, (3, 4)),
             error="mat1 must be a matrix")
    fam.case("addmm", "dtype_mismatch_error", fn(F32, (4,), F32, (2, 3), F64, (3, 4)),
             error="self and mat2 must have the same dtype, but got Float and Double")
    fam.case("addmm", "self_dtype_mismatch_error", fn(F64, (4,), F32, (2, 3), F32, (3, 4)),
             error="self and mat2 must have the same dtype")
    return fam


def linear_family() -> Family:
    fam = Family("linear")

    def fn(d, si, sw, sb, li="contig", lw="contig", dw=None, db=None):
        def build(r):
            bias = NONE if sb is None else r.t(db or d, sb, rng=MM_RNG.get(db or d))
            return [("input", r.t(d, si, li, rng=MM_RNG.get(d))),
                    ("weight", r.t(dw or d, sw, lw, rng=MM_RNG.get(dw or d))),
                    ("bias", bias)]
        return build

    for d in ALL7:
        n = dn(d)
        err = "not implemented for 'Bool'" if d == B else None
        fam.case("linear", f"{n}_bias", fn(d, (2, 3), (4, 3), (4,)), error=err)
        fam.case("linear", f"{n}_no_bias", fn(d, (2, 3), (4, 3), None), error=err)
    fam.case("linear", "float32_1d_input_bias", fn(F32, (3,), (4, 3), (4,)))
    fam.case("linear", "float64_1d_input_no_bias", fn(F64, (3,), (4, 3), None))
    fam.case("linear", "float32_3d_input_bias", fn(F32, (2, 2, 3), (4, 3), (4,)))
    fam.case("linear", "int64_3d_input_no_bias", fn(I64, (2, 2, 3), (4, 3), None))
    fam.case("linear", "float32_bias_size1_broadcast", fn(F32, (2, 3), (4, 3), (1,)))
    fam.case("linear", "float32_bias_zerodim", fn(F32, (2, 3), (4, 3), ()))
    fam.case("linear", "float32_noncontig_input", fn(F32, (2, 3), (4, 3), (4,), li="T"))
    fam.case("linear", "float32_noncontig_weight_transposed",
             fn(F32, (2, 3), (4, 3), (4,), lw="T"))
    fam.case("linear", "float64_noncontig_step", fn(F64, (2, 3), (4, 3), None, li="step",
                                                    lw="step"))
    fam.case("linear", "float32_size0_batch", fn(F32, (0, 3), (4, 3), (4,)))
    fam.case("linear", "float32_size0_in_features", fn(F32, (2, 0), (4, 0), (4,)))
    fam.case("linear", "float32_size0_in_features_no_bias", fn(F32, (2, 0), (4, 0), None))
    fam.case("linear", "float32_size0_out_features", fn(F32, (2, 3), (0, 3), (0,)))
    fam.case("linear", "float32_size1", fn(F32, (1, 1), (1, 1), (1,)))
    fam.case("linear", "float32_randn",
             lambda r: [("input", r.t(F32, (3, 5), randn=True)),
                        ("weight", r.t(F32, (4, 5), randn=True)),
                        ("bias", r.t(F32, (4,), randn=True))])
    fam.case("linear", "shape_mismatch_error", fn(F32, (2, 3), (4, 2), (4,)),
             error="mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)")
    fam.case("linear", "dtype_mismatch_error", fn(F32, (2, 3), (4, 3), None, dw=F64),
             error="expected m1 and m2 to have the same dtype, but got: float != double")
    fam.case("linear", "bias_wrong_size_error", fn(F32, (2, 3), (4, 3), (3,)),
             error="The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1")
    return fam


# ---------------------------------------------------------------------------------------
# upsample_nearest1d / upsample_nearest2d


def upsample_family() -> Family:
    fam = Family("upsample_nearest")
    U1, U2 = "upsample_nearest1d", "upsample_nearest2d"
    U1V, U2V = "upsample_nearest1d.vec", "upsample_nearest2d.vec"
    nyi = {I64: "Long", I32: "Int", I8: "Char", B: "Bool"}

    def f1(d, shape, osize, scales=None, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("output_size", Ints(osize)),
                          ("scales", opt(Float, scales))]

    def f2(d, shape, osize, sh=None, sw=None, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("output_size", Ints(osize)),
                          ("scales_h", opt(Float, sh)), ("scales_w", opt(Float, sw))]

    def fv(d, shape, osize, factors):
        return lambda r: [("input", r.t(d, shape)), ("output_size", opt(Ints, osize)),
                          ("scale_factors", opt(Floats, factors))]

    for d in ALL7:
        n = dn(d)
        err = f"not implemented for '{nyi[d]}'" if d in nyi else None
        fam.case(U1, f"{n}_up2", f1(d, (1, 2, 3), [6]), error=err)
        fam.case(U2, f"{n}_up2", f2(d, (1, 2, 2, 3), [4, 6]), error=err)
    # 1d
    fam.case(U1, "float32_nonint_up", f1(F32, (2, 2, 3), [5]))
    fam.case(U1, "float32_down", f1(F32, (1, 2, 7), [3]))
    fam.case(U1, "float64_same_size", f1(F64, (1, 3, 4), [4]))
    fam.case(U1, "float32_scales_given_exact", f1(F32, (1, 2, 3), [6], scales=2.0))
    fam.case(U1, "float32_scales_given_differs", f1(F32, (1, 2, 3), [5], scales=1.7))
    fam.case(U1, "float32_scales_given_small", f1(F32, (1, 2, 4), [7], scales=1.5))
    fam.case(U1, "float32_scales_given_down", f1(F32, (1, 2, 7), [3], scales=0.5))
    fam.case(U1, "uint8_scales_given", f1(U8, (1, 1, 5), [8], scales=1.6))
    fam.case(U1, "float32_noncontig_step", f1(F32, (2, 2, 3), [5], layout="step"))
    fam.case(U1, "float32_noncontig_T", f1(F32, (2, 3, 4), [6], layout="T"))
    fam.case(U1, "float32_size0_batch", f1(F32, (0, 2, 3), [5]))
    fam.case(U1, "size0_channels_error", f1(F32, (1, 0, 3), [5]),
             error="Non-empty 3D data tensor expected but got a tensor with sizes [1, 0, 3]")
    fam.case(U1, "float32_size1", f1(F32, (1, 1, 1), [3]))
    fam.case(U1, "float32_to_size1", f1(F32, (1, 2, 5), [1]))
    fam.case(U1, "zero_output_size_error", f1(F32, (1, 1, 2), [0]),
             error="Input and output sizes should be greater than 0")
    fam.case(U1, "zero_input_width_error", f1(F32, (1, 1, 0), [3]),
             error="Input and output sizes should be greater than 0")
    fam.case(U1, "input_2d_error", f1(F32, (2, 3), [4]),
             error="It is expected input_size equals to 3, but got size 2")
    fam.case(U1, "output_size_length_error", f1(F32, (1, 1, 2), [3, 3]),
             error="It is expected output_size equals to 1, but got size 2")
    # 2d
    fam.case(U2, "float32_nonint_up", f2(F32, (1, 1, 2, 3), [3, 5]))
    fam.case(U2, "float32_down", f2(F32, (2, 2, 3, 4), [2, 2]))
    fam.case(U2, "float64_mixed_up_down", f2(F64, (1, 2, 4, 3), [2, 5]))
    fam.case(U2, "float32_scales_given", f2(F32, (1, 2, 2, 3), [4, 5], sh=2.0, sw=1.5))
    fam.case(U2, "float32_scales_h_only", f2(F32, (1, 1, 3, 3), [5, 4], sh=1.3))
    fam.case(U2, "float32_scales_w_only", f2(F32, (1, 1, 3, 3), [5, 4], sw=1.2))
    fam.case(U2, "uint8_scales_given", f2(U8, (1, 2, 2, 2), [3, 5], sh=1.25, sw=2.5))
    fam.case(U2, "float32_channels_last", f2(F32, (1, 3, 2, 2), [3, 4], layout="channels_last"))
    fam.case(U2, "uint8_channels_last", f2(U8, (2, 2, 2, 3), [3, 3], layout="channels_last"))
    fam.case(U2, "float32_noncontig_step", f2(F32, (1, 2, 2, 3), [4, 5], layout="step"))
    fam.case(U2, "float32_noncontig_T", f2(F32, (1, 2, 3, 2), [4, 3], layout="T"))
    fam.case(U2, "float32_size0_batch", f2(F32, (0, 1, 2, 2), [3, 3]))
    fam.case(U2, "float32_size1", f2(F32, (1, 1, 1, 1), [2, 3]))
    fam.case(U2, "float32_to_size1", f2(F32, (1, 2, 3, 4), [1, 1]))
    fam.case(U2, "zero_output_size_error", f2(F32, (1, 1, 2, 2), [0, 3]),
             error="Input and output sizes should be greater than 0")
    fam.case(U2, "zero_input_height_error", f2(F32, (1, 1, 0, 2), [3, 3]),
             error="Input and output sizes should be greater than 0")
    fam.case(U2, "input_3d_error", f2(F32, (1, 2, 3), [4, 4]),
             error="It is expected input_size equals to 4, but got size 3")
    fam.case(U2, "output_size_length_error", f2(F32, (1, 1, 2, 2), [3]),
             error="It is expected output_size equals to 2, but got size 1")
    # .vec: output_size xor scale_factors
    fam.case(U1V, "float32_scale_factor_2", fv(F32, (1, 2, 3), None, [2.0]))
    fam.case(U1V, "float32_scale_factor_nonint", fv(F32, (1, 2, 4), None, [1.5]))
    fam.case(U1V, "float32_output_size", fv(F32, (1, 2, 3), [5], None))
    fam.case(U2V, "float32_scale_factors", fv(F32, (1, 1, 2, 3), None, [2.0, 1.5]))
    fam.case(U2V, "uint8_scale_factors_down", fv(U8, (1, 1, 4, 5), None, [0.5, 0.75]))
    fam.case(U2V, "float64_output_size", fv(F64, (1, 2, 2, 2), [3, 3], None))
    fam.case(U2V, "both_given_error", fv(F32, (1, 1, 2, 2), [4, 4], [2.0, 2.0]),
             error="Must specify exactly one of output_size and scale_factors")
    fam.case(U2V, "neither_given_error", fv(F32, (1, 1, 2, 2), None, None),
             error="Must specify exactly one of output_size and scale_factors")
    return fam


# ---------------------------------------------------------------------------------------
# cat


def cat_family() -> Family:
    fam = Family("cat")

    def fn(specs, dim):
        """specs: [(dtype, shape) or (dtype, shape, layout)]"""
        return lambda r: [("tensors", Tensors([r.t(*s) for s in specs])), ("dim", Int(dim))]

    for d in ALL7:
        n = dn(d)
        fam.case("cat", f"{n}_dim0", fn([(d, (2, 3)), (d, (1, 3))], 0))
        fam.case("cat", f"{n}_dim1_noncontig", fn([(d, (2, 3), "T"), (d, (2, 2), "step")], 1))
    fam.case("cat", "float32_dim1_three", fn([(F32, (2, 3)), (F32, (2, 1)), (F32, (2, 2))], 1))
    fam.case("cat", "float32_dim_negative1", fn([(F32, (2, 3)), (F32, (2, 2))], -1))
    fam.case("cat", "float32_dim_negative2", fn([(F32, (2, 3)), (F32, (3, 3))], -2))
    fam.case("cat", "float32_3d_dim1", fn([(F32, (2, 1, 3)), (F32, (2, 3, 3)), (F32, (2, 2, 3))], 1))
    fam.case("cat", "float64_3d_dim2", fn([(F64, (2, 2, 1)), (F64, (2, 2, 4))], 2))
    fam.case("cat", "float32_single_input", fn([(F32, (2, 3))], 0))
    fam.case("cat", "int64_single_noncontig_input", fn([(I64, (3, 2), "T")], 1))
    fam.case("cat", "float32_noncontig_dim0", fn([(F32, (2, 3), "step"), (F32, (2, 3), "T")], 0))
    fam.case("cat", "float32_expanded_input", fn([(F32, (2, 3), "expand:1,3"), (F32, (1, 3))], 0))
    fam.case("cat", "float32_channels_last_inputs",
             fn([(F32, (1, 2, 2, 2), "channels_last"), (F32, (1, 2, 2, 2), "channels_last")], 1))
    for ds in [(I32, F32), (I8, U8), (B, I64), (F32, F64, I64), (U8, B), (I64, F32),
               (B, B, I8), (F64, I32)]:
        name = "_".join(dn(d) for d in ds)
        fam.case("cat", f"promote_{name}", fn([(d, (i + 1, 2)) for i, d in enumerate(ds)], 0))
    fam.case("cat", "legacy_empty_skip_dim1", fn([(F32, (0,)), (F32, (2, 3))], 1))
    fam.case("cat", "legacy_empty_skip_dim0", fn([(F32, (2, 3)), (F32, (0,))], 0))
    fam.case("cat", "legacy_empty_middle", fn([(F32, (2, 3)), (F32, (0,)), (F32, (1, 3))], 0))
    fam.case("cat", "legacy_empty_skip_promotes", fn([(F64, (0,)), (I32, (2, 3))], 0))
    fam.case("cat", "legacy_empty_skip_3d_dim2", fn([(I64, (1, 2, 2)), (I64, (0,))], 2))
    fam.case("cat", "all_legacy_empty", fn([(F32, (0,)), (F32, (0,))], 0))
    fam.case("cat", "float32_size0_rows", fn([(F32, (0, 3)), (F32, (2, 3))], 0))
    fam.case("cat", "float32_size0_both_dim1", fn([(F32, (2, 0)), (F32, (2, 0))], 1))
    fam.case("cat", "int32_size0_and_nonempty_dim1", fn([(I32, (2, 0)), (I32, (2, 3))], 1))
    fam.case("cat", "float32_size0_other_dim", fn([(F32, (0, 3)), (F32, (0, 2))], 1))
    fam.case("cat", "float32_size1", fn([(F32, (1,)), (F32, (1,))], 0))
    fam.case("cat", "bool_size1_2d", fn([(B, (1, 1)), (B, (1, 1))], 1))
    fam.case("cat", "zerodim_error", fn([(F32, ()), (F32, ())], 0),
             error="zero-dimensional tensor (at position 0) cannot be concatenated")
    fam.case("cat", "zerodim_second_error", fn([(F32, (2,)), (F32, ())], 0),
             error="zero-dimensional tensor (at position 1) cannot be concatenated")
    fam.case("cat", "sizes_mismatch_error", fn([(F32, (2, 3)), (F32, (2, 4))], 0),
             error="Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list.")
    fam.case("cat", "ndim_mismatch_error", fn([(F32, (2, 3)), (F32, (3,))], 0),
             error="Tensors must have same number of dimensions: got 2 and 1")
    fam.case("cat", "dim_out_of_range_error", fn([(F32, (2, 3)), (F32, (2, 3))], 2),
             error="Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    fam.case("cat", "empty_list_error", fn([], 0),
             error="expected a non-empty list of Tensors")
    return fam


# ---------------------------------------------------------------------------------------
# view / permute


def view_family() -> Family:
    fam = Family("view")

    def fn(d, shape, size, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("size", Ints(size))]

    for d in ALL9:
        fam.case("view", dn(d), fn(d, (2, 6), [3, 4]), view=True)
    fam.case("view", "float32_infer_first", fn(F32, (2, 6), [-1, 4]), view=True)
    fam.case("view", "float32_infer_middle", fn(F32, (2, 6), [2, -1, 3]), view=True)
    fam.case("view", "float32_flatten", fn(F32, (3, 4), [12]), view=True)
    fam.case("view", "float32_flatten_infer", fn(F32, (2, 3, 2), [-1]), view=True)
    fam.case("view", "float32_add_unit_dims", fn(F32, (2, 3), [1, 2, 1, 3, 1]), view=True)
    fam.case("view", "float32_size1_to_zerodim", fn(F32, (1,), []), view=True)
    fam.case("view", "float32_size1_2d_to_1d", fn(F32, (1, 1), [1]), view=True)
    fam.case("view", "int64_zerodim_to_1", fn(I64, (), [1]), view=True)
    fam.case("view", "int64_zerodim_infer", fn(I64, (), [-1]), view=True)
    fam.case("view", "int32_zerodim_to_zerodim", fn(I32, (), []), view=True)
    fam.case("view", "float32_size0", fn(F32, (0, 3), [3, 0]), view=True)
    fam.case("view", "float32_size0_infer", fn(F32, (0, 3), [-1, 3]), view=True)
    fam.case("view", "float32_size0_unit_dims", fn(F32, (0, 3), [3, 0, 1]), view=True)
    fam.case("view", "float32_noncontig_split_dim", fn(F32, (3, 4), [3, 2, 2], "T"), view=True)
    fam.case("view", "float32_noncontig_step_offset", fn(F32, (2, 3), [2, 3, 1], "step"),
             view=True)
    fam.case("view", "int8_noncontig_step_unit_dim", fn(I8, (2, 3), [2, 1, 3], "step"), view=True)
    fam.case("view", "float32_expanded_unit_dim", fn(F32, (2, 3), [2, 1, 3], "expand:3"),
             view=True)
    fam.case("view", "float32_channels_last_merge_hw",
             fn(F32, (1, 2, 2, 3), [1, 2, 6], "channels_last"), view=True)
    fam.case("view", "noncontig_not_viewable_error", fn(F32, (3, 4), [12], "T"),
             error="view size is not compatible with input tensor's size and stride")
    fam.case("view", "expanded_not_viewable_error", fn(F32, (2, 3), [6], "expand:3"),
             error="view size is not compatible with input tensor's size and stride")
    fam.case("view", "numel_mismatch_error", fn(F32, (2, 3), [5]),
             error="shape '[5]' is invalid for input of size 6")
    fam.case("view", "two_inferred_error", fn(F32, (2, 3), [-1, -1]),
             error="only one dimension can be inferred")
    fam.case("view", "invalid_negative_error", fn(F32, (2, 3), [-2, 3]),
             error="invalid shape dimension -2")
    fam.case("view", "infer_ambiguous_size0_error", fn(F32, (0, 3), [-1, 0]),
             error="because the unspecified dimension size -1 can be any value and is ambiguous")
    return fam


def permute_family() -> Family:
    fam = Family("permute")

    def fn(d, shape, dims, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("dims", Ints(dims))]

    for d in ALL9:
        fam.case("permute", dn(d), fn(d, (2, 3, 4), [2, 0, 1]), view=True)
    fam.case("permute", "float32_negative_dims", fn(F32, (2, 3, 4), [-1, 0, -2]), view=True)
    fam.case("permute", "float32_identity", fn(F32, (2, 3), [0, 1]), view=True)
    fam.case("permute", "float32_transpose", fn(F32, (2, 3), [1, 0]), view=True)
    fam.case("permute", "float32_zerodim", fn(F32, (), []), view=True)
    fam.case("permute", "float32_1d", fn(F32, (4,), [0]), view=True)
    fam.case("permute", "float32_size0", fn(F32, (0, 3), [1, 0]), view=True)
    fam.case("permute", "int64_size0_3d", fn(I64, (2, 0, 3), [2, 1, 0]), view=True)
    fam.case("permute", "float32_size1", fn(F32, (1, 1, 1), [2, 1, 0]), view=True)
    fam.case("permute", "float32_size1_1d", fn(F32, (1,), [-1]), view=True)
    fam.case("permute", "float32_noncontig_step_offset", fn(F32, (2, 3), [1, 0], "step"),
             view=True)
    fam.case("permute", "float32_noncontig_T_back", fn(F32, (2, 3, 4), [2, 1, 0], "T"),
             view=True)
    fam.case("permute", "float32_channels_last_to_nhwc",
             fn(F32, (1, 3, 2, 2), [0, 2, 3, 1], "channels_last"), view=True)
    fam.case("permute", "float32_expanded", fn(F32, (2, 3), [1, 0], "expand:3"), view=True)
    fam.case("permute", "too_few_dims_error", fn(F32, (2, 3), [0]),
             error="number of dimensions in the tensor input does not match the length of the desired ordering of dimensions")
    fam.case("permute", "too_many_dims_error", fn(F32, (2, 3), [0, 1, 2]),
             error="number of dimensions in the tensor input does not match the length of the desired ordering of dimensions")
    fam.case("permute", "duplicate_dims_error", fn(F32, (2, 3), [0, 0]),
             error="duplicate dims are not allowed")
    fam.case("permute", "duplicate_negative_dims_error", fn(F32, (2, 3), [1, -1]),
             error="duplicate dims are not allowed")
    fam.case("permute", "dim_out_of_range_error", fn(F32, (2, 3), [0, 2]),
             error="Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    return fam


# ---------------------------------------------------------------------------------------
# zeros / empty.memory_format


def factory_args(size, dtype):
    return [("size", Ints(size)), ("dtype", opt(DType, dtype)), ("layout", NONE),
            ("device", NONE), ("pin_memory", NONE)]


def zeros_family() -> Family:
    fam = Family("zeros")

    def fn(size, dtype):
        return lambda r: factory_args(size, dtype)

    for d in ALL9:
        fam.case("zeros", dn(d), fn([2, 3], d))
    fam.case("zeros", "dtype_none_is_float32", fn([2, 3], None))
    fam.case("zeros", "float32_3d", fn([2, 3, 4], F32))
    fam.case("zeros", "int64_zerodim", fn([], I64))
    fam.case("zeros", "float32_size0", fn([0], F32))
    fam.case("zeros", "int32_size0_2d", fn([0, 3], I32))
    fam.case("zeros", "float32_size0_trailing", fn([2, 0], F32))
    fam.case("zeros", "float32_size1", fn([1], F32))
    fam.case("zeros", "bool_size1_3d", fn([1, 1, 1], B))
    fam.case("zeros", "negative_size_error", fn([-1, 2], F32),
             error="Dimension size must be non-negative")
    return fam


def empty_family() -> Family:
    fam = Family("empty")
    op = "empty.memory_format"

    def fn(size, dtype, mf=None):
        return lambda r: factory_args(size, dtype) + [("memory_format", opt(MemFmt, mf))]

    for d in ALL9:
        fam.case(op, dn(d), fn([2, 3], d), values_any=True)
    fam.case(op, "dtype_none_is_float32", fn([2, 3], None), values_any=True)
    fam.case(op, "float32_contiguous_format", fn([2, 3, 2, 2], F32, torch.contiguous_format),
             values_any=True)
    fam.case(op, "float32_channels_last", fn([2, 3, 2, 2], F32, torch.channels_last),
             values_any=True)
    fam.case(op, "uint8_channels_last_size1_channel", fn([2, 1, 2, 3], U8, torch.channels_last),
             values_any=True)
    fam.case(op, "float32_channels_last_size0", fn([0, 3, 2, 2], F32, torch.channels_last),
             values_any=True)
    fam.case(op, "float64_channels_last_3d", fn([1, 2, 2, 2, 2], F64, torch.channels_last_3d),
             values_any=True)
    fam.case(op, "int64_zerodim", fn([], I64), values_any=True)
    fam.case(op, "float32_size0", fn([0], F32), values_any=True)
    fam.case(op, "int8_size0_2d", fn([3, 0], I8), values_any=True)
    fam.case(op, "float32_size1", fn([1], F32), values_any=True)
    fam.case(op, "bool_size1_2d", fn([1, 1], B), values_any=True)
    fam.case(op, "preserve_format_error", fn([2, 3], F32, torch.preserve_format),
             error="unsupported memory format Preserve")
    fam.case(op, "channels_last_rank3_error", fn([2, 3, 4], F32, torch.channels_last),
             error="required rank 4 tensor to use channels_last format")
    fam.case(op, "channels_last_3d_rank4_error", fn([2, 3, 4, 5], F32, torch.channels_last_3d),
             error="required rank 5 tensor to use channels_last_3d format")
    fam.case(op, "negative_size_error", fn([2, -1], F32),
             error="Trying to create tensor with negative dimension -1: [2, -1]")
    return fam


# ---------------------------------------------------------------------------------------
# copy_ / fill_

# Source values that convert exactly and without undefined behaviour into `dst`.
def copy_rng(src, dst):
    if dst == U8:
        return (0, 15)
    if dst == I8 or src == I8:
        return (-10, 10)
    if src.is_floating_point:
        return (-4, 4)
    return None


def copy_family() -> Family:
    fam = Family("copy")

    def fn(dd, ds, sd, ss, dl="contig", sl="contig", svals=None, srng=None, randn=False):
        return lambda r: [("self", r.t(dd, ds, dl)),
                          ("src", r.t(sd, ss, sl, svals, srng, randn=randn)),
                          ("non_blocking", Bool(False))]

    for sd in ALL7:
        for dd in ALL7:
            fam.case("copy_", f"{dn(sd)}_to_{dn(dd)}",
                     fn(dd, (2, 3), sd, (2, 3), srng=copy_rng(sd, dd)), result="self")
    for sd, dd in [(F32, F16), (F16, F32), (F32, BF16), (BF16, F32), (F64, F16), (I64, F16),
                   (F16, BF16), (BF16, I32), (F16, F16), (BF16, BF16), (B, F16), (F16, B)]:
        fam.case("copy_", f"{dn(sd)}_to_{dn(dd)}", fn(dd, (2, 3), sd, (2, 3)), result="self")
    fam.case("copy_", "float32_to_float16_randn", fn(F16, (2, 5), F32, (2, 5), randn=True),
             result="self")
    fam.case("copy_", "float32_to_bfloat16_randn", fn(BF16, (2, 5), F32, (2, 5), randn=True),
             result="self")
    fam.case("copy_", "float64_to_float32_randn", fn(F32, (2, 5), F64, (2, 5), randn=True),
             result="self")
    fam.case("copy_", "float32_to_float16_overflow_underflow",
             fn(F16, (5,), F32, (5,), svals=[70000.0, -70000.0, 65504.0, 1e-8, 6e-5]),
             result="self")
    fam.case("copy_", "float64_to_float32_special",
             fn(F32, (6,), F64, (6,), svals=[float("nan"), float("inf"), float("-inf"),
                                            -0.0, 1e300, 1e-300]), result="self")
    fam.case("copy_", "float32_to_int32_truncates",
             fn(I32, (6,), F32, (6,), svals=[2.75, -2.75, 0.5, -0.5, 7.0, -0.0]),
             result="self")
    fam.case("copy_", "float32_to_bool_zero_and_tiny",
             fn(B, (5,), F32, (5,), svals=[0.0, -0.0, 1e-30, float("nan"), float("inf")]),
             result="self")
    fam.case("copy_", "int8_to_uint8_negative_wraps",
             fn(U8, (4,), I8, (4,), svals=[-1, -128, 127, 0]), result="self")
    fam.case("copy_", "int64_to_bool_nonzero", fn(B, (4,), I64, (4,), svals=[0, 2, -1, 256]),
             result="self")
    # Broadcasting src.
    fam.case("copy_", "float32_broadcast_row", fn(F32, (2, 3), F32, (3,)), result="self")
    fam.case("copy_", "float32_broadcast_zerodim", fn(F32, (2, 3), F32, ()), result="self")
    fam.case("copy_", "float32_broadcast_unit_dim", fn(F32, (2, 3), F32, (1, 3)), result="self")
    fam.case("copy_", "int64_to_float32_broadcast_col", fn(F32, (2, 3), I64, (2, 1)),
             result="self")
    fam.case("copy_", "float64_to_int8_broadcast_leading", fn(I8, (2, 2, 3), F64, (3,),
                                                              srng=(-10, 10)), result="self")
    fam.case("copy_", "size1_into_zerodim_error", fn(F32, (), F32, (1,)),
             error="output with shape [] doesn't match the broadcast shape [1]")
    fam.case("copy_", "float32_broadcast_expanded_src", fn(F32, (2, 3), F32, (2, 3),
                                                           sl="expand:1,3"), result="self")
    # Layouts.
    fam.case("copy_", "float32_noncontig_self", fn(F32, (3, 4), F32, (3, 4), dl="T"),
             result="self")
    fam.case("copy_", "float32_noncontig_src", fn(F32, (3, 4), F32, (3, 4), sl="T"),
             result="self")
    fam.case("copy_", "int64_to_float64_noncontig_both",
             fn(F64, (3, 4), I64, (3, 4), dl="step", sl="T"), result="self")
    fam.case("copy_", "float32_channels_last_self",
             fn(F32, (1, 2, 2, 3), F32, (1, 2, 2, 3), dl="channels_last"), result="self")
    # Sizes 0 and 1.
    fam.case("copy_", "float32_size0", fn(F32, (0, 3), F32, (0, 3)), result="self")
    fam.case("copy_", "float32_size0_broadcast", fn(F32, (0, 3), F32, (3,)), result="self")
    fam.case("copy_", "int32_size0_1d", fn(I32, (0,), I64, (0,)), result="self")
    fam.case("copy_", "float32_size1", fn(F32, (1,), F32, (1,)), result="self")
    fam.case("copy_", "float32_size1_from_zerodim", fn(F32, (1,), F64, ()), result="self")
    fam.case("copy_", "int64_zerodim", fn(I64, (), I64, ()), result="self")
    # Errors.
    fam.case("copy_", "src_not_broadcastable_error", fn(F32, (2, 3), F32, (4,)),
             error="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
    fam.case("copy_", "src_larger_error", fn(F32, (3,), F32, (2, 3)),
             error="output with shape [3] doesn't match the broadcast shape [2, 3]")
    fam.case("copy_", "self_internal_overlap_error", fn(F32, (2, 3), F32, (2, 3), dl="expand:3"),
             error="unsupported operation: more than one element of the written-to tensor refers to a single memory location")
    return fam


def fill_family() -> Family:
    fam = Family("fill")
    FS, FT = "fill_.Scalar", "fill_.Tensor"

    def fs(d, shape, value, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("value", Scalar(value))]

    def ft(d, shape, vd, vshape=(), vals=None, layout="contig"):
        return lambda r: [("self", r.t(d, shape, layout)), ("value", r.t(vd, vshape, vals=vals))]

    natural = {F32: 2.5, F64: -1.25, I64: 7, I32: -7, I8: -3, U8: 200, B: True}
    for d in ALL7:
        n = dn(d)
        fam.case(FS, f"{n}_scalar", fs(d, (2, 3), natural[d]), result="self")
        fam.case(FT, f"{n}_tensor", ft(d, (2, 3), d), result="self")
        fam.case(FS, f"{n}_noncontig", fs(d, (3, 4), natural[d], "T"), result="self")
    fam.case(FS, "float32_int_value", fs(F32, (2, 3), 3), result="self")
    fam.case(FS, "float64_bool_value", fs(F64, (2, 3), True), result="self")
    fam.case(FS, "float32_nan", fs(F32, (3,), float("nan")), result="self")
    fam.case(FS, "float32_inf", fs(F32, (3,), float("-inf")), result="self")
    fam.case(FS, "float32_double_rounds", fs(F32, (2,), 0.1), result="self")
    fam.case(FS, "int64_double_value_truncates", fs(I64, (2, 3), 2.5), result="self")
    fam.case(FS, "int32_negative_double_truncates", fs(I32, (3,), -2.75), result="self")
    fam.case(FS, "int64_large", fs(I64, (2,), 2 ** 62 + 1), result="self")
    fam.case(FS, "int8_bool_value", fs(I8, (3,), True), result="self")
    fam.case(FS, "uint8_max", fs(U8, (3,), 255), result="self")
    fam.case(FS, "int8_min", fs(I8, (3,), -128), result="self")
    fam.case(FS, "bool_int_value_nonzero", fs(B, (3,), 2), result="self")
    fam.case(FS, "bool_int_value_zero", fs(B, (3,), 0), result="self")
    fam.case(FS, "bool_double_value", fs(B, (3,), 0.5), result="self")
    fam.case(FS, "float32_noncontig_step", fs(F32, (2, 3), 1.5, "step"), result="self")
    fam.case(FS, "float32_size0", fs(F32, (0, 3), 1.5), result="self")
    fam.case(FS, "int64_size0", fs(I64, (0,), 4), result="self")
    fam.case(FS, "float32_size1", fs(F32, (1,), 1.5), result="self")
    fam.case(FS, "float32_zerodim", fs(F32, (), -4.5), result="self")
    fam.case(FT, "int32_from_float64_value", ft(I32, (2, 3), F64, vals=2.75), result="self")
    fam.case(FT, "float32_from_int64_value", ft(F32, (2, 3), I64, vals=-9), result="self")
    fam.case(FT, "float64_from_bool_value", ft(F64, (2, 3), B, vals=True), result="self")
    fam.case(FT, "bool_from_float32_value", ft(B, (2, 3), F32, vals=0.25), result="self")
    fam.case(FT, "uint8_from_int64_value", ft(U8, (3,), I64, vals=17), result="self")
    fam.case(FT, "float32_noncontig_self", ft(F32, (3, 4), F32, layout="T"), result="self")
    fam.case(FT, "float32_size0", ft(F32, (0, 2), F32), result="self")
    fam.case(FT, "float32_size1", ft(F32, (1,), F32), result="self")
    fam.case(FT, "int64_zerodim_self", ft(I64, (), I64), result="self")
    fam.case(FS, "uint8_overflow_error", fs(U8, (3,), 300),
             error="value cannot be converted to type uint8_t without overflow")
    fam.case(FS, "uint8_negative_value_wraps", fs(U8, (3,), -1), result="self")
    fam.case(FS, "uint8_negative_value_limit_wraps", fs(U8, (3,), -255), result="self")
    fam.case(FS, "uint8_too_negative_error", fs(U8, (3,), -256),
             error="value cannot be converted to type uint8_t without overflow")
    fam.case(FS, "int8_overflow_error", fs(I8, (3,), -129),
             error="value cannot be converted to type int8_t without overflow")
    fam.case(FS, "int32_overflow_error", fs(I32, (3,), 2 ** 31),
             error="value cannot be converted to type int without overflow")
    fam.case(FS, "float32_overflow_error", fs(F32, (3,), 1e40),
             error="value cannot be converted to type float without overflow")
    fam.case(FT, "value_1d_error", ft(F32, (2, 3), F32, (1,)),
             error="fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.")
    # fill_ does not check for internal overlap: an expanded self is filled.
    fam.case(FS, "float32_expanded_self", fs(F32, (2, 3), 1.0, "expand:3"), result="self")
    return fam


# ---------------------------------------------------------------------------------------

FAMILIES = [
    lambda: binary_family("add"), lambda: binary_family("mul"), relu_family, sum_family,
    mm_family, addmm_family, upsample_family, cat_family, view_family, permute_family,
    zeros_family, empty_family, linear_family, copy_family, fill_family,
]


def main(argv=None) -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.normpath(os.path.join(here, "..", "..", "tests", "golden", "data"))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=default_out, help="directory of the .golden files")
    p.add_argument("--check", action="store_true",
                   help="write nothing; fail if the files on disk differ from a fresh run")
    p.add_argument("--any-torch", action="store_true",
                   help=f"run with a torch other than {TORCH_VERSION} (the output will differ)")
    args = p.parse_args(argv)

    if torch.__version__.split("+")[0] != TORCH_VERSION and not args.any_torch:
        print(f"make_golden.py: needs torch {TORCH_VERSION}, found {torch.__version__} "
              f"(pip install torch=={TORCH_VERSION} into a venv outside the repo)",
              file=sys.stderr)
        return 2
    torch.manual_seed(0)
    torch.set_default_dtype(torch.float32)
    torch.set_num_threads(1)

    texts = {}
    for make in FAMILIES:
        fam = make()
        texts[f"{fam.name}.golden"] = (fam.text(), fam.count)

    stale = sorted(f for f in os.listdir(args.out) if f.endswith(".golden") and f not in texts) \
        if os.path.isdir(args.out) else []
    if args.check:
        bad = []
        for name, (text, _) in texts.items():
            path = os.path.join(args.out, name)
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    same = f.read() == text
            except FileNotFoundError:
                same = False
            if not same:
                bad.append(name)
        bad += [f"{s} (not made by this script)" for s in stale]
        if bad:
            print("make_golden.py --check: differs: " + ", ".join(bad), file=sys.stderr)
            return 1
        print(f"make_golden.py --check: {len(texts)} files match")
        return 0

    os.makedirs(args.out, exist_ok=True)
    for name, (text, count) in texts.items():
        with open(os.path.join(args.out, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(f"{name}: {count} cases, {len(text.encode())} bytes")
    for s in stale:
        print(f"warning: {s} in {args.out} is not made by this script", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
