// Helpers for the CPU kernels: PyTorch's scalar conversions and dtype errors,
// wrapping integer arithmetic, and a casting copy between strided tensors.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string_view>
#include <type_traits>

#include "ops/util/op_utils.h"
#include "ops/util/scalar_checks.h"
#include "ops/util/scalar_math.h"
#include "runtime/cpu_loops.h"
#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/strided_copy.h"
#include "runtime/tensor.h"
#include "runtime/tensor_iterator.h"
#include "runtime/transpose_copy.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::cpu_util {

// The runtime's byte copies (runtime/strided_copy.h, transpose_copy.h).
using sops::cpu::copy_same_dtype;
using sops::cpu::try_transpose_copy;

// Scalar conversions and dtype errors every backend's kernels share
// (ops/util/scalar_checks.h).
using ops_util::check_dtype_implemented;
using ops_util::check_scalar_fits;
using ops_util::cpp_name;
using ops_util::scalar_to;
using ops_util::throw_conversion_overflow;

// The element arithmetic CPU and CUDA kernels share (ops/util/scalar_math.h).
using math::abs_value;
using math::div_floor_floating;
using math::div_floor_integer;
using math::div_trunc_integer;
using math::negate;
using math::powi;
using math::wrapping_add;
using math::wrapping_mul;

// Whether input operand `arg` of a built iterator has a zero among the elements the
// iteration reaches (broadcasting and size 0 included), read as an int64.
inline bool any_zero(const TensorIteratorBase& iter, int arg) {
  const ScalarType dtype = iter.dtype(arg);
  bool found = false;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    for (int64_t k = 0; k < n && !found; ++k) {
      found = load_as<int64_t>(data[arg] + k * strides[arg], dtype) == 0;
    }
  });
  return found;
}

// Integer division by zero is an error, as in PyTorch (checked before any element is
// written; the divisor is input 1, operand 2): div, fmod, remainder.
inline void check_no_integer_division_by_zero(const TensorIteratorBase& iter) {
  SOPS_CHECK_ARG(!any_zero(iter, 2), "other", "ZeroDivisionError");
}

// dst[...] = src[...] converted to dst's dtype, src broadcast to dst's shape. dst must
// not have overlapping elements; src may have any strides.
inline void copy_cast(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  // TensorIterator::copy_op's iterator, borrowing dst and src (they outlive it).
  TensorIteratorConfig config;
  config.add_output(dst, "self")
      .add_input(src, "src")
      .cast_common_dtype_to_outputs(true)
      .resize_outputs(false);
  TensorIterator iter;
  iter.build_borrowing(config);
  if (try_transpose_copy(iter)) return;
  SOPS_DISPATCH_EVERY_TYPE(src.scalar_type(), "copy_", [&] {
    sops::cpu_kernel(iter, [](scalar_t x) -> scalar_t { return x; });
  });
}

// Out= kernels the backend writes for out= variants native_functions.yaml leaves to
// `autogen:` (backends/cpu/autogen_kernels.yaml) keep the contract of autogen's kernel
// through the dispatcher (runtime/autogen_support.h), which is PyTorch's: `out` is
// resized to the result's sizes and receives the result converted to its dtype. They
// write into `out` directly when can_write_into holds (contiguous, the result's dtype and
// sizes, no memory shared with an input); otherwise they compute the functional result
// and copy it (copy_to_out), as autogen's kernel does.
inline bool can_write_into(const Tensor& out, ScalarType dtype, IntArrayRef sizes,
                           std::initializer_list<const Tensor*> inputs) {
  if (!out.is_contiguous() || out.scalar_type() != dtype || out.sizes() != sizes || out.is_meta()) {
    return false;
  }
  for (const Tensor* t : inputs) {
    if (t != nullptr && t->defined() && t->is_alias_of(out)) return false;
  }
  return true;
}
inline void copy_to_out(const Tensor& out, const Tensor& value) {
  out.resize_(value.sizes());
  copy_cast(out, value);
}

// t itself when it is contiguous, else a contiguous copy of it (same dtype). Meta
// tensors are returned as they are.
inline Tensor contiguous_of(const Tensor& t) {
  if (t.is_meta() || t.is_contiguous()) return t;
  Tensor copy = empty(t.sizes(), t.options());
  copy_cast(copy, t);
  return copy;
}

}  // namespace sops::aten::cpu_util
