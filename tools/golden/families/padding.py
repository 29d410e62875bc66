"""Reflection and replication padding: reflection_pad{1,2,3}d and replication_pad{1,2,3}d
and their .out overloads. Every dtype (bool raises, as in PyTorch), the batched and
unbatched input ranks, an empty batch, non-contiguous and channels-last inputs, negative
amounts (cropping, alone and with padding on the other side), size-1 inputs, and
PyTorch's errors: the padding's length, the input's rank, an empty non-batch dimension,
a reflection amount not below its dimension's size, an output too small."""

from __future__ import annotations

from collections.abc import Iterator

from golden_format import (
    ALL7,
    F16,
    F32,
    F64,
    I64,
    TORCH_MESSAGE,
    U8,
    Case,
    FamilyInfo,
    Ints,
    dn,
)

RANK_ERROR = (
    "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input"
)


def _fn(d, shape, padding, layout="contig", out=None):
    def build(r):
        args = [("self", r.t(d, shape, layout)), ("padding", Ints(padding))]
        if out is not None:
            args.append(("out", r.t(*out)))
        return args

    return build


def _cases(mode: str, n: int) -> Iterator[Case]:
    op = f"{mode}_pad{n}d"
    reflect = mode == "reflection"
    # A batched input (N, C, sizes) and an unbatched one (C, sizes), sizes 3, 4, 5 from
    # the last dimension back.
    sizes = (5, 4, 3)[3 - n :]
    batched, unbatched = (2, 2, *sizes), (3, *sizes)
    pad = [2, 1, 1, 2, 2, 1][: 2 * n]
    for d in ALL7:
        yield Case(op, dn(d), _fn(d, batched, pad), error=TORCH_MESSAGE)
    yield Case(op, "float16", _fn(F16, unbatched, pad))
    yield Case(op, "float32_unbatched", _fn(F32, unbatched, pad))
    yield Case(op, "float64_zero_padding", _fn(F64, batched, [0] * (2 * n)))
    yield Case(op, "float32_batch0", _fn(F32, (0, *batched[1:]), pad))
    yield Case(op, "float32_noncontig", _fn(F32, batched, pad, "T"))
    yield Case(op, "int64_noncontig_step", _fn(I64, unbatched, pad, "step"))
    if n >= 2:
        fmt = "channels_last" if n == 2 else "channels_last_3d"
        yield Case(op, "float32_channels_last", _fn(F32, batched, pad, fmt))
        yield Case(op, "uint8_channels_last", _fn(U8, batched, pad, fmt))
    # The widest amounts the mode takes on the last dimension, and cropping.
    wide = [2, 2] if reflect else [4, 6]
    yield Case(op, "float32_wide", _fn(F32, unbatched, wide + [0] * (2 * n - 2)))
    yield Case(op, "float32_crop", _fn(F32, batched, [-1, -1] + [0] * (2 * n - 2)))
    yield Case(op, "float32_crop_and_pad", _fn(F32, unbatched, [-2, 2] + [1, -1] * (n - 1)))
    yield Case(op, "float32_pad_and_crop", _fn(F32, unbatched, [2, -2] + [-1, 1] * (n - 1)))
    if not reflect:
        yield Case(op, "float32_size1", _fn(F32, (1,) * (n + 1), [2, 1] * n))
    yield Case(
        f"{op}.out",
        "float32_out",
        _fn(F32, batched, pad, out=(F32, (0,))),
        result="out",
    )
    yield Case(
        f"{op}.out",
        "float64_out_unbatched",
        _fn(F64, unbatched, pad, out=(F64, (0,))),
        result="out",
    )
    # Errors.
    yield Case(
        op,
        "padding_length_error",
        _fn(F32, batched, [1] * (2 * n + 1)),
        error=f"padding size is expected to be {2 * n}",
    )
    yield Case(op, "rank_low_error", _fn(F32, sizes, [0] * (2 * n)), error=RANK_ERROR)
    yield Case(op, "rank_high_error", _fn(F32, (1, *batched), [0] * (2 * n)), error=RANK_ERROR)
    yield Case(
        op, "empty_channels_error", _fn(F32, (2, 0, *sizes), [0] * (2 * n)), error=RANK_ERROR
    )
    yield Case(op, "empty_unbatched_error", _fn(F32, (0, *sizes), [0] * (2 * n)), error=RANK_ERROR)
    yield Case(
        op,
        "too_small_error",
        _fn(F32, batched, [-3, -3] * n),
        error=TORCH_MESSAGE,
    )
    if reflect:
        for k, name in enumerate("WHD"[:n]):
            bad = [0] * (2 * n)
            bad[2 * k + 1] = sizes[n - 1 - k]
            yield Case(
                op,
                f"padding_{name}_too_large_error",
                _fn(F32, batched, bad),
                error=TORCH_MESSAGE,
            )


def padding_cases() -> Iterator[Case]:
    for mode in ("reflection", "replication"):
        for n in (1, 2, 3):
            yield from _cases(mode, n)


FAMILIES = [
    FamilyInfo(
        "padding",
        ops=tuple(
            f"{mode}_pad{n}d{suffix}"
            for mode in ("reflection", "replication")
            for n in (1, 2, 3)
            for suffix in ("", ".out")
        ),
        sample_inputs=padding_cases,
    ),
]
