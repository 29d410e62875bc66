// Helpers for the CPU kernels: PyTorch's scalar conversions and dtype errors,
// wrapping integer arithmetic, and a casting copy between strided tensors.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>

#include "backends/cpu/transpose_copy.h"
#include "ops/meta/op_utils.h"
#include "runtime/cpu_loops.h"
#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"
#include "runtime/tensor_iterator.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::cpu_util {

// The element type's C++ name as PyTorch prints it in conversion errors.
constexpr std::string_view cpp_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "uint8_t";
    case ScalarType::Char: return "int8_t";
    case ScalarType::Int: return "int";
    case ScalarType::Long: return "int64_t";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Bool: return "bool";
    case ScalarType::BFloat16: return "c10::BFloat16";
    case ScalarType::Short: return "int16_t";
    case ScalarType::ComplexHalf: return "c10::complex<c10::Half>";
    case ScalarType::ComplexFloat: return "c10::complex<float>";
    case ScalarType::ComplexDouble: return "c10::complex<double>";
    case ScalarType::Undefined: break;
  }
  return "undefined";
}

[[noreturn]] inline void throw_conversion_overflow(ScalarType t) {
  raise(Error("value cannot be converted to type " + std::string(cpp_name(t)) +
              " without overflow"));
}

// A Scalar as a T with PyTorch's checked conversion (Scalar::to<T> in ATen):
//  - to bool: != 0, never an error;
//  - to an integral type: a value out of its range is an error, except that negative
//    integers wrap into unsigned types down to -max (uint8 accepts -1..-255 as 255..1);
//    floating values are truncated;
//  - to a floating type: a finite value beyond its range is an error.
template <typename T>
T scalar_to(const Scalar& s) {
  constexpr ScalarType kType = scalar_type_of<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return s.to_unchecked<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    if (s.is_floating_point()) {
      const double d = s.to_unchecked<double>();
      if (std::isnan(d) || d < static_cast<double>(L::lowest()) || d > static_cast<double>(L::max())) {
        throw_conversion_overflow(kType);
      }
      return static_cast<T>(d);
    }
    const int64_t v = s.to_unchecked<int64_t>();
    if constexpr (!L::is_signed) {
      const bool fits = v >= 0 ? static_cast<uint64_t>(v) <= static_cast<uint64_t>(L::max())
                               : static_cast<uint64_t>(-(v + 1)) + 1 <= static_cast<uint64_t>(L::max());
      if (!fits) throw_conversion_overflow(kType);
      return static_cast<T>(static_cast<uint64_t>(v));
    } else {
      if (v < static_cast<int64_t>(L::min()) || v > static_cast<int64_t>(L::max())) {
        throw_conversion_overflow(kType);
      }
      return static_cast<T>(v);
    }
  } else {
    const double d = s.to_unchecked<double>();
    double max = static_cast<double>(std::numeric_limits<float>::max());
    if constexpr (std::is_same_v<T, double>) {
      max = std::numeric_limits<double>::infinity();
    } else if constexpr (std::is_same_v<T, Half>) {
      max = 65504.0;
    }
    if (std::isfinite(d) && (d > max || d < -max)) throw_conversion_overflow(kType);
    return convert<T>(d);
  }
}

// Checks up front that `value` converts to `dtype` as fill_ will convert it (scalar_to),
// so that the overflow error names the operator's own argument ("fill_value", "value").
inline void check_scalar_fits(const Scalar& value, ScalarType dtype, std::string_view argument) {
  const ArgumentScope scope(argument);
  SOPS_DISPATCH_EVERY_TYPE(dtype, "fill_", [&] { (void)scalar_to<scalar_t>(value); });
}

// PyTorch's error for a dtype a kernel does not handle:
//   "mm" not implemented for 'Bool'
// naming `argument` (the tensor whose dtype it is) when given.
inline void check_dtype_implemented(ScalarType t, uint32_t supported, std::string_view kernel,
                                    std::string_view argument = {}) {
  SOPS_CHECK_ARG(dtypes::contains(supported, t), argument, "\"", kernel,
                 "\" not implemented for '", ops_util::aten_name(t), "'");
}

// Integer + and * that wrap around in two's complement (no signed overflow).
template <typename T>
constexpr T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <typename T>
constexpr T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    // Multiply in at least `unsigned int` so that small types do not promote to int.
    using W = std::common_type_t<U, unsigned int>;
    return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
  } else {
    return a * b;
  }
}

// -x, wrapping for integers (-INT8_MIN is INT8_MIN; uint8 -1 is 255).
template <typename T>
constexpr T negate(T x) {
  if constexpr (std::is_integral_v<T>) {
    return wrapping_mul(x, static_cast<T>(-1));
  } else {
    return -x;
  }
}

// |x|, wrapping for the most negative integer (abs(INT8_MIN) is INT8_MIN, as in PyTorch).
template <typename T>
constexpr T abs_value(T x) {
  if constexpr (std::is_unsigned_v<T>) {
    return x;
  } else if constexpr (std::is_integral_v<T>) {
    return x < 0 ? negate(x) : x;
  } else {
    return std::abs(x);
  }
}

// base ** exp for integers by squaring, wrapping on overflow; exp >= 0 (PyTorch's powi:
// negative exponents were refused before).
template <typename T>
constexpr T powi(T base, T exp) {
  T result = 1;
  while (exp != 0) {
    if (exp & 1) result = wrapping_mul(result, base);
    exp = static_cast<T>(exp / 2);
    base = wrapping_mul(base, base);
  }
  return result;
}

// Integer division truncated toward zero; b != 0 (the kernels check that first). Signed
// division by -1 wraps (INT64_MIN / -1 is INT64_MIN) instead of trapping.
template <typename T>
constexpr T div_trunc_integer(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    return b == T(-1) ? wrapping_mul(a, T(-1)) : static_cast<T>(a / b);
  } else {
    return static_cast<T>(a / b);
  }
}

// Python's floor division of integers (PyTorch's div_floor_integer); b != 0.
template <typename T>
constexpr T div_floor_integer(T a, T b) {
  const T q = div_trunc_integer(a, b);
  if constexpr (std::is_signed_v<T>) {
    const T r = wrapping_add(a, wrapping_mul(q, wrapping_mul(b, T(-1))));
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return q;
  }
}

// Python's floor division of floating values (PyTorch's div_floor_floating): b == 0
// gives a / b; otherwise (a - fmod(a, b)) / b rounded down, the sign of zero kept.
template <typename T>
inline T div_floor_floating(T a, T b) {
  if (b == T(0)) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0) && (b < T(0)) != (mod < T(0))) div -= T(1);
  if (div == T(0)) return std::copysign(T(0), a / b);
  T floordiv = std::floor(div);
  if (div - floordiv > T(0.5)) floordiv += T(1);
  return floordiv;
}

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

// dst[...] = src[...] converted to dst's dtype, src broadcast to dst's shape. dst must
// not have overlapping elements; src may have any strides.
inline void copy_cast(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  TensorIteratorConfig config;
  config.add_output(dst, "self")
      .add_input(src, "src")
      .cast_common_dtype_to_outputs(true)
      .resize_outputs(false);
  TensorIterator iter(config);
  if (try_transpose_copy(iter)) return;
  SOPS_DISPATCH_EVERY_TYPE(src.scalar_type(), "copy_", [&] {
    sops::cpu_kernel(iter, [](scalar_t x) -> scalar_t { return x; });
  });
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
