// Overflow-checked size arithmetic: the one place where a size, stride, offset or
// element count computed from what a model or a caller gives (shapes, pads, strides,
// split sizes, ranges) is checked against int64's range.
//
// A signed overflow is undefined behaviour in C++: a wrapped numel or byte count
// allocates a small buffer that a kernel then writes past. Every helper here computes
// with __builtin_*_overflow and raises sops::Error where the result does not fit, so
// the open OperatorScope names the operator and `argument` (when given) the argument:
//   "expand: argument 'size': numel of shape [1099511627776, 1099511627776, 4] overflows int64"
// Kernels and meta functions reach this header through runtime/sops.h, which the
// generated headers include (and through runtime/tensor.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/array_ref.h"
#include "runtime/error.h"

namespace sops {

namespace detail {
// Raises "<what> (<a> <op> <b>) overflows int64" naming `argument`.
[[noreturn]] void raise_overflow(std::string_view what, int64_t a, char op, int64_t b,
                                 std::string_view argument);
}  // namespace detail

// a + b, a - b, a * b; an overflow raises "<what> (a op b) overflows int64", naming
// `argument` if given. `what` says which quantity it is ("output size").
[[nodiscard]] inline int64_t checked_add(int64_t a, int64_t b, std::string_view what,
                                         std::string_view argument = {}) {
  int64_t r;
  if (SOPS_UNLIKELY(__builtin_add_overflow(a, b, &r))) {
    detail::raise_overflow(what, a, '+', b, argument);
  }
  return r;
}
[[nodiscard]] inline int64_t checked_sub(int64_t a, int64_t b, std::string_view what,
                                         std::string_view argument = {}) {
  int64_t r;
  if (SOPS_UNLIKELY(__builtin_sub_overflow(a, b, &r))) {
    detail::raise_overflow(what, a, '-', b, argument);
  }
  return r;
}
[[nodiscard]] inline int64_t checked_mul(int64_t a, int64_t b, std::string_view what,
                                         std::string_view argument = {}) {
  int64_t r;
  if (SOPS_UNLIKELY(__builtin_mul_overflow(a, b, &r))) {
    detail::raise_overflow(what, a, '*', b, argument);
  }
  return r;
}

// The product of `sizes`: "negative dimension -1 in shape [2, -1]" or "numel of shape
// [...] overflows int64" otherwise.
int64_t checked_numel(IntArrayRef sizes, std::string_view argument = {});

// The bytes a contiguous tensor of `sizes` with elements of `itemsize` bytes takes
// (numel * itemsize): "shape [...] of 4-byte elements needs more bytes than int64 counts".
int64_t checked_nbytes(IntArrayRef sizes, std::size_t itemsize, std::string_view argument = {});

// The largest element offset (in elements) that a view of `sizes` and `strides` from
// `storage_offset` reaches: storage_offset + sum over dims of (size - 1) * stride, for
// non-negative strides; storage_offset - 1 for a view with no element (it reaches none).
// Raises on a size/stride length mismatch, a negative size or stride, and overflow.
int64_t checked_max_offset(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                           std::string_view argument = {});

// Whether a, b, a + b, a * b fit; for a caller that picks its own error.
inline bool add_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_add_overflow(a, b, out);
}
inline bool mul_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

}  // namespace sops
