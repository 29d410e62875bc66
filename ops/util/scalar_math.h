// The element arithmetic of the kernels of every backend, as PyTorch defines it:
// integer + and * that wrap around, negation and |x| that wrap, integer powers,
// truncating and flooring division, fmod and remainder, maximum, minimum and clamp with
// NaN, sign and rounding to decimals. Host and device functions (CUDA kernels call them).
#pragma once

#include <cmath>
#include <type_traits>

#if defined(__CUDACC__)
#include <cuda/std/limits>
#else
#include <limits>
#endif

#include "runtime/host_device.h"

namespace sops::aten::math {

// numeric_limits on the host and the device (std's are host-only constexpr functions).
#if defined(__CUDACC__)
template <typename T>
using limits = ::cuda::std::numeric_limits<T>;
#else
template <typename T>
using limits = std::numeric_limits<T>;
#endif

// Whether x is NaN (never for integers and bool).
template <typename T>
SOPS_HOST_DEVICE constexpr bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x != x;
  } else {
    return false;
  }
}

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

// a % b truncated toward zero (C's fmod: the dividend's sign) for integers; b != 0 (the
// CPU kernels check that first); INT_MIN % -1 is 0 instead of a trap.
template <typename T>
SOPS_HOST_DEVICE constexpr T fmod_integer(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T(0);
  }
  return static_cast<T>(a % b);
}

// Python's % for integers: the remainder has the divisor's sign; b != 0.
template <typename T>
SOPS_HOST_DEVICE constexpr T remainder_integer(T a, T b) {
  T r = fmod_integer(a, b);
  if constexpr (std::is_signed_v<T>) {
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
  }
  return r;
}

// Python's % for floating values: fmod, moved to the divisor's sign.
template <typename T>
SOPS_HOST_DEVICE inline T remainder_floating(T a, T b) {
  T r = std::fmod(a, b);
  if (r != T(0) && ((b < T(0)) != (r < T(0)))) r += b;
  return r;
}

// base ** exp for integers with any exponent (PyTorch's powi): a negative exponent gives
// 0, except for the bases 1 and -1.
template <typename T>
SOPS_HOST_DEVICE constexpr T pow_integer(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == T(1)) return T(1);
      if (base == T(-1)) return (exp & 1) ? T(-1) : T(1);
      return T(0);
    }
  }
  return powi(base, exp);
}

// maximum and minimum: NaN in either operand gives NaN; bool is "or" / "and"; of two
// equal values (0.0 and -0.0) `b`, as PyTorch's vectorized CPU kernel gives.
template <typename T>
SOPS_HOST_DEVICE constexpr T maximum_value(T a, T b) {
  if (is_nan(a) || is_nan(b)) return limits<T>::quiet_NaN();
  return a > b ? a : b;
}
template <typename T>
SOPS_HOST_DEVICE constexpr T minimum_value(T a, T b) {
  if (is_nan(a) || is_nan(b)) return limits<T>::quiet_NaN();
  return a < b ? a : b;
}

// clamp with both bounds as PyTorch's clamp kernel: std::max(x, lo), then std::min(., hi)
// (a NaN x stays NaN); a NaN bound gives NaN.
template <typename T>
SOPS_HOST_DEVICE constexpr T clamp_value(T x, T lo, T hi) {
  if (is_nan(lo) || is_nan(hi)) return limits<T>::quiet_NaN();
  const T low = x < lo ? lo : x;
  return hi < low ? hi : low;
}

// (0 < x) - (x < 0), as PyTorch computes it: NaN and -0.0 give 0.0; bool is its own sign.
template <typename T>
SOPS_HOST_DEVICE constexpr T sign_value(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x;
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(T(0) < x);
  } else {
    return static_cast<T>((T(0) < x) - (x < T(0)));
  }
}

// x rounded (half to even) to d decimal places as PyTorch does, given ten_pow = 10^|d| in
// T: x * 10^d rounded, then divided (d > 0), or x / 10^-d rounded, then multiplied (d < 0).
template <typename T>
SOPS_HOST_DEVICE inline T round_decimals_value(T x, T ten_pow, bool negative) {
  return negative ? std::nearbyint(x / ten_pow) * ten_pow : std::nearbyint(x * ten_pow) / ten_pow;
}

}  // namespace sops::aten::math
