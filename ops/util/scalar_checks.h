// PyTorch's checked Scalar conversions and its dtype errors, for the kernels of every
// backend (host code: CUDA launchers convert their scalars before a launch).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "ops/util/op_utils.h"
#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::ops_util {

// The element type's C++ name as PyTorch prints it in conversion errors.
constexpr std::string_view cpp_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return "uint8_t";
    case ScalarType::Char:
      return "int8_t";
    case ScalarType::Int:
      return "int";
    case ScalarType::Long:
      return "int64_t";
    case ScalarType::Half:
      return "c10::Half";
    case ScalarType::Float:
      return "float";
    case ScalarType::Double:
      return "double";
    case ScalarType::Bool:
      return "bool";
    case ScalarType::BFloat16:
      return "c10::BFloat16";
    case ScalarType::Short:
      return "int16_t";
    case ScalarType::ComplexHalf:
      return "c10::complex<c10::Half>";
    case ScalarType::ComplexFloat:
      return "c10::complex<float>";
    case ScalarType::ComplexDouble:
      return "c10::complex<double>";
    case ScalarType::Undefined:
      break;
  }
  return "undefined";
}

[[noreturn]] inline void throw_conversion_overflow(ScalarType t) {
  raise(
      Error("value cannot be converted to type " + std::string(cpp_name(t)) + " without overflow"));
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
      if (std::isnan(d) || d < static_cast<double>(L::lowest()) ||
          d > static_cast<double>(L::max())) {
        throw_conversion_overflow(kType);
      }
      return static_cast<T>(d);
    }
    const int64_t v = s.to_unchecked<int64_t>();
    if constexpr (!L::is_signed) {
      const bool fits =
          v >= 0 ? static_cast<uint64_t>(v) <= static_cast<uint64_t>(L::max())
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
  SOPS_CHECK_ARG(dtypes::contains(supported, t), argument, "\"", kernel, "\" not implemented for '",
                 ops_util::aten_name(t), "'");
}

}  // namespace sops::aten::ops_util
