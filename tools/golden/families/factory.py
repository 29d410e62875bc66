"""Factories: zeros and empty.memory_format (all nine dtypes; empty's values are unspecified)."""

from __future__ import annotations

from typing import Iterator

import torch

from golden_format import (ALL9, B, F32, F64, I8, I32, I64, NONE, U8, Case, DType,
                           FamilyInfo, Ints, MemFmt, dn, opt)


def factory_args(size, dtype):
    return [("size", Ints(size)), ("dtype", opt(DType, dtype)), ("layout", NONE),
            ("device", NONE), ("pin_memory", NONE)]


def zeros_cases() -> Iterator[Case]:
    """Cases of zeros."""

    def fn(size, dtype):
        return lambda r: factory_args(size, dtype)

    for d in ALL9:
        yield Case("zeros", dn(d), fn([2, 3], d))
    yield Case("zeros", "dtype_none_is_float32", fn([2, 3], None))
    yield Case("zeros", "float32_3d", fn([2, 3, 4], F32))
    yield Case("zeros", "int64_zerodim", fn([], I64))
    yield Case("zeros", "float32_size0", fn([0], F32))
    yield Case("zeros", "int32_size0_2d", fn([0, 3], I32))
    yield Case("zeros", "float32_size0_trailing", fn([2, 0], F32))
    yield Case("zeros", "float32_size1", fn([1], F32))
    yield Case("zeros", "bool_size1_3d", fn([1, 1, 1], B))
    yield Case("zeros", "negative_size_error", fn([-1, 2], F32),
               error="Dimension size must be non-negative")


def empty_cases() -> Iterator[Case]:
    """Cases of empty.memory_format (`values_any`: only sizes, strides and dtype hold)."""
    op = "empty.memory_format"

    def fn(size, dtype, mf=None):
        return lambda r: factory_args(size, dtype) + [("memory_format", opt(MemFmt, mf))]

    for d in ALL9:
        yield Case(op, dn(d), fn([2, 3], d), values_any=True)
    yield Case(op, "dtype_none_is_float32", fn([2, 3], None), values_any=True)
    yield Case(op, "float32_contiguous_format", fn([2, 3, 2, 2], F32, torch.contiguous_format),
               values_any=True)
    yield Case(op, "float32_channels_last", fn([2, 3, 2, 2], F32, torch.channels_last),
               values_any=True)
    yield Case(op, "uint8_channels_last_size1_channel", fn([2, 1, 2, 3], U8, torch.channels_last),
               values_any=True)
    yield Case(op, "float32_channels_last_size0", fn([0, 3, 2, 2], F32, torch.channels_last),
               values_any=True)
    yield Case(op, "float64_channels_last_3d", fn([1, 2, 2, 2, 2], F64, torch.channels_last_3d),
               values_any=True)
    yield Case(op, "int64_zerodim", fn([], I64), values_any=True)
    yield Case(op, "float32_size0", fn([0], F32), values_any=True)
    yield Case(op, "int8_size0_2d", fn([3, 0], I8), values_any=True)
    yield Case(op, "float32_size1", fn([1], F32), values_any=True)
    yield Case(op, "bool_size1_2d", fn([1, 1], B), values_any=True)
    yield Case(op, "preserve_format_error", fn([2, 3], F32, torch.preserve_format),
               error="unsupported memory format Preserve")
    yield Case(op, "channels_last_rank3_error", fn([2, 3, 4], F32, torch.channels_last),
               error="required rank 4 tensor to use channels_last format")
    yield Case(op, "channels_last_3d_rank4_error", fn([2, 3, 4, 5], F32, torch.channels_last_3d),
               error="required rank 5 tensor to use channels_last_3d format")
    yield Case(op, "negative_size_error", fn([2, -1], F32),
               error="Trying to create tensor with negative dimension -1: [2, -1]")


FAMILIES = [
    FamilyInfo("zeros", ops=("zeros",), sample_inputs=zeros_cases),
    FamilyInfo("empty", ops=("empty.memory_format",), sample_inputs=empty_cases),
]
