// The element arithmetic of the kernels of every backend, as PyTorch defines it:
// integer + and * that wrap around, negation and |x| that wrap, integer powers, and
// truncating and flooring division. Host and device functions (CUDA kernels call them).
#pragma once

#include <cmath>
#include <type_traits>

#include "runtime/host_device.h"

namespace sops::aten::math {

// Integer + and * that wrap around in two's complement (no signed overflow).
template <typename T>
SOPS_HOST_DEVICE constexpr T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <typename T>
SOPS_HOST_DEVICE constexpr T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    // Multiply in at least `unsigned int` so that small types do not promote to int.
    using W = std::common_type_t<U, unsigned int>;
    return static_cast<T>(
        static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
  } else {
    return a * b;
  }
}

// -x, wrapping for integers (-INT8_MIN is INT8_MIN; uint8 -1 is 255).
template <typename T>
SOPS_HOST_DEVICE constexpr T negate(T x) {
  if constexpr (std::is_integral_v<T>) {
    return wrapping_mul(x, static_cast<T>(-1));
  } else {
    return -x;
  }
}

// |x|, wrapping for the most negative integer (abs(INT8_MIN) is INT8_MIN, as in PyTorch).
template <typename T>
SOPS_HOST_DEVICE constexpr T abs_value(T x) {
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
SOPS_HOST_DEVICE constexpr T powi(T base, T exp) {
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
SOPS_HOST_DEVICE constexpr T div_trunc_integer(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    return b == T(-1) ? wrapping_mul(a, T(-1)) : static_cast<T>(a / b);
  } else {
    return static_cast<T>(a / b);
  }
}

// Python's floor division of integers (PyTorch's div_floor_integer); b != 0.
template <typename T>
SOPS_HOST_DEVICE constexpr T div_floor_integer(T a, T b) {
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
SOPS_HOST_DEVICE inline T div_floor_floating(T a, T b) {
  if (b == T(0)) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0) && (b < T(0)) != (mod < T(0))) div -= T(1);
  if (div == T(0)) return std::copysign(T(0), a / b);
  T floordiv = std::floor(div);
  if (div - floordiv > T(0.5)) floordiv += T(1);
  return floordiv;
}

}  // namespace sops::aten::math
