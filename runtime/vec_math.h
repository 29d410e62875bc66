// Vector math for the CPU kernels' vectorized loops (cpu_kernel_vec, softmax, ...):
// exp, and what is built on it (sigmoid, tanh), on Vec32 values (runtime/cpu_capability.h).
//
// float32 lanes use a Cephes-style exp: 2^n * p(r) with r = x - n ln 2 in [-ln2/2, ln2/2]
// and a degree-5 polynomial, within 2 ulp of the exact value; NaN, +-inf, overflow (to
// inf) and underflow (to 0) as std::exp. float64 lanes call std::exp lane by lane (no
// float64 polynomial yet: its accuracy budget is 1e-15).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/cpu_capability.h"

// Vector values pass by value between these always-inline functions; GCC's -Wpsabi note
// about how a non-inlined call would pass them does not apply.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace sops::vec {

using Vf = Vec32<float>::type;
using Vi = Vec32<int32_t>::type;
using Vd = Vec32<double>::type;

SOPS_ALWAYS_INLINE Vf load(const float* p) {
  Vf v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
SOPS_ALWAYS_INLINE void store(float* p, Vf v) { std::memcpy(p, &v, sizeof(v)); }
SOPS_ALWAYS_INLINE Vd load(const double* p) {
  Vd v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
SOPS_ALWAYS_INLINE void store(double* p, Vd v) { std::memcpy(p, &v, sizeof(v)); }

// Lane-wise a ? b : c for a comparison mask (all bits set where true).
SOPS_ALWAYS_INLINE Vf select(Vi mask, Vf b, Vf c) {
  Vi bi, ci;
  std::memcpy(&bi, &b, sizeof(b));
  std::memcpy(&ci, &c, sizeof(c));
  const Vi r = (mask & bi) | (~mask & ci);
  Vf out;
  std::memcpy(&out, &r, sizeof(r));
  return out;
}

SOPS_ALWAYS_INLINE Vf exp(Vf x) {
  const Vf hi = Vf{} + 88.7228394f;  // log(FLT_MAX)
  const Vf lo = Vf{} - 103.972084045410f;
  const Vf xc = select(x > hi, hi, select(x < lo, lo, x));
  // n = round(x / ln 2), then r = x - n ln 2 in two parts for precision.
  const Vf fn = xc * 1.44269504088896341f + 0.5f;
  Vi n = __builtin_convertvector(fn, Vi);  // truncates toward zero
  n -= (__builtin_convertvector(n, Vf) > fn) & 1;  // floor
  const Vf nf = __builtin_convertvector(n, Vf);
  Vf r = xc - nf * 0.693359375f;
  r = r + nf * 2.12194440e-4f;
  Vf p = Vf{} + 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  // 2^n in two steps, so that n down to -150 (denormal results) stays exact.
  const Vi n1 = n / 2;
  const Vi n2 = n - n1;
  const Vi b1 = (n1 + 127) << 23;
  const Vi b2 = (n2 + 127) << 23;
  Vf s1, s2;
  std::memcpy(&s1, &b1, sizeof(b1));
  std::memcpy(&s2, &b2, sizeof(b2));
  Vf result = p * s1 * s2;
  result = select(x > hi, Vf{} + INFINITY, result);
  result = select(x < lo, Vf{}, result);
  return select(x != x, x, result);  // NaN stays NaN
}

SOPS_ALWAYS_INLINE Vd exp(Vd x) {
  Vd out;
  for (int l = 0; l < Vec32<double>::kLanes; ++l) out[l] = std::exp(x[l]);
  return out;
}

// 1 / (1 + exp(-x)).
template <typename V>
SOPS_ALWAYS_INLINE V sigmoid(V x) {
  const V one = V{} + 1;
  return one / (one + exp(-x));
}

// float32 tanh: Cephes' odd polynomial below |x| = 0.625 (where 1 - 2 / (exp(2x) + 1)
// would cancel), that formula above it (exact at +-inf).
SOPS_ALWAYS_INLINE Vf tanh(Vf x) {
  const Vf one = Vf{} + 1;
  const Vf large = one - (one + one) / (exp(x + x) + one);
  const Vf z = x * x;
  Vf p = Vf{} - 5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const Vf small = x + x * z * p;
  const Vf ax = select(x < 0, -x, x);
  return select(x == 0, x, select(ax < 0.625f, small, large));  // keeps -0.0
}

SOPS_ALWAYS_INLINE Vd tanh(Vd x) {
  Vd out;
  for (int l = 0; l < Vec32<double>::kLanes; ++l) out[l] = std::tanh(x[l]);
  return out;
}

}  // namespace sops::vec

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
