// Half (IEEE binary16) and BFloat16 (bfloat16): 16-bit storage types. Arithmetic
// happens in float: both convert implicitly to and from float, so `a + b` on two
// Half values computes in float and rounds back when assigned to a Half. Conversion
// from float rounds to nearest, ties to even; NaN stays NaN.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <type_traits>

#include "runtime/host_device.h"

namespace sops {
namespace detail {

SOPS_HOST_DEVICE inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

SOPS_HOST_DEVICE inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

SOPS_HOST_DEVICE inline uint16_t float_to_half_bits(float f) {
  const uint32_t x = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN (NaN stays a quiet NaN)
    return static_cast<uint16_t>(sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));
  }
  if (abs >= 0x477ff000u) {  // >= 65520 rounds to infinity
    return static_cast<uint16_t>(sign | 0x7c00u);
  }
  if (abs < 0x38800000u) {  // below 2^-14: subnormal half (or zero)
    // Adding 0.5 puts the value's 2^-24 multiples into the low mantissa bits of a
    // float whose exponent is fixed; the FPU rounds to nearest even on the way.
    const float shifted = bits_float(abs) + 0.5f;
    return static_cast<uint16_t>(sign | (float_bits(shifted) - 0x3f000000u));
  }
  // Normal: rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits.
  uint32_t h = (abs >> 13) - ((127u - 15u) << 10);
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

SOPS_HOST_DEVICE inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  return bits_float(sign | ((exponent + (127u - 15u)) << 23) | (mantissa << 13));
}

SOPS_HOST_DEVICE inline uint16_t float_to_bfloat16_bits(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {  // NaN: keep the sign, make it quiet
    return static_cast<uint16_t>(((x >> 16) & 0x8000u) | 0x7fc0u);
  }
  const uint32_t rounding_bias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding_bias) >> 16);
}

SOPS_HOST_DEVICE inline float bfloat16_bits_to_float(uint16_t b) {
  return bits_float(static_cast<uint32_t>(b) << 16);
}

}  // namespace detail

// Tag for constructing from raw bits: Half(0x3c00, Half::from_bits()) is 1.0.
struct FromBits {};

struct Half {
  uint16_t x;

  using from_bits = FromBits;
  Half() = default;
  SOPS_HOST_DEVICE constexpr Half(uint16_t bits, FromBits) : x(bits) {}
  SOPS_HOST_DEVICE Half(float value)
      : x(detail::float_to_half_bits(value)) {}  // NOLINT: implicit by design
  SOPS_HOST_DEVICE operator float() const { return detail::half_bits_to_float(x); }  // NOLINT
};

struct BFloat16 {
  uint16_t x;

  using from_bits = FromBits;
  BFloat16() = default;
  SOPS_HOST_DEVICE constexpr BFloat16(uint16_t bits, FromBits) : x(bits) {}
  SOPS_HOST_DEVICE BFloat16(float value) : x(detail::float_to_bfloat16_bits(value)) {}   // NOLINT
  SOPS_HOST_DEVICE operator float() const { return detail::bfloat16_bits_to_float(x); }  // NOLINT
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "16-bit storage types");

// Whether T is one of the 16-bit floating types (computed through float).
template <typename T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

inline std::ostream& operator<<(std::ostream& os, Half h) { return os << static_cast<float>(h); }
inline std::ostream& operator<<(std::ostream& os, BFloat16 b) {
  return os << static_cast<float>(b);
}

}  // namespace sops
