// Vector math for the CPU kernels' vectorized loops (cpu_kernel_vec, softmax, norms, ...)
// on Vec<T, B> values (runtime/cpu_capability.h), B = 16 or 32 bytes: loads and stores,
// lane reductions, NaN-propagating max, and exp with what is built on it (sigmoid, tanh).
//
// float32 lanes use a Cephes-style exp: 2^n * p(r) with r = x - n ln 2 in [-ln2/2, ln2/2]
// and a degree-5 polynomial, within 2 ulp of the exact value; NaN, +-inf, overflow (to
// inf) and underflow (through the denormals to 0) as std::exp. float64 lanes call
// std::exp lane by lane (no float64 polynomial yet: its accuracy budget is 1e-15).
//
// Everything is always inlined, so it compiles for the target of the function using it
// (an AVX2 clone or the build's target).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/cpu_capability.h"

// Vector values pass by value between these always-inline functions; GCC's -Wpsabi note
// about how a non-inlined call would pass them does not apply. Left off for the rest of
// the including file: its notes come where the templates are instantiated.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace sops::vec {

using ::sops::Vec;

template <typename T, int B>
using vec_t = typename Vec<T, B>::type;

using Vf = vec_t<float, 32>;
using Vd = vec_t<double, 32>;

template <typename T, int B>
SOPS_ALWAYS_INLINE vec_t<T, B> load(const T* p) {
  vec_t<T, B> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T, int B>
SOPS_ALWAYS_INLINE void store(T* p, vec_t<T, B> v) {
  std::memcpy(p, &v, sizeof v);
}
SOPS_ALWAYS_INLINE Vf load(const float* p) { return load<float, 32>(p); }
SOPS_ALWAYS_INLINE Vd load(const double* p) { return load<double, 32>(p); }
SOPS_ALWAYS_INLINE void store(float* p, Vf v) { store<float, 32>(p, v); }
SOPS_ALWAYS_INLINE void store(double* p, Vd v) { store<double, 32>(p, v); }

// Every lane x (one broadcast instruction; `vec_t{} + x` would also add 0.0, which the
// compiler must keep because it turns -0.0 into +0.0).
template <typename T, int B>
SOPS_ALWAYS_INLINE vec_t<T, B> splat(T x) {
  vec_t<T, B> v;
  for (int i = 0; i < Vec<T, B>::kLanes; ++i) v[i] = x;
  return v;
}

template <typename T, int B>
SOPS_ALWAYS_INLINE T sum_lanes(vec_t<T, B> v) {
  T r = T(0);
  for (int i = 0; i < Vec<T, B>::kLanes; ++i) r += v[i];
  return r;
}

// Lane-wise maximum where NaN wins (PyTorch's vectorized max), and its lane reduction.
template <typename T, int B>
SOPS_ALWAYS_INLINE vec_t<T, B> max_nan(vec_t<T, B> a, vec_t<T, B> b) {
  return ((a > b) | (a != a)) ? a : b;
}
template <typename T, int B>
SOPS_ALWAYS_INLINE T max_lanes(vec_t<T, B> v) {
  T r = v[0];
  for (int i = 1; i < Vec<T, B>::kLanes; ++i) r = (v[i] > r || v[i] != v[i]) ? v[i] : r;
  return r;
}

// exp's argument reduction, x = n ln 2 + r with |r| <= ln 2 / 2: returns exp(r) (a
// polynomial, within an ulp) and sets n.
template <int B>
SOPS_ALWAYS_INLINE vec_t<float, B> exp_reduced(vec_t<float, B> xc, vec_t<int32_t, B>& n) {
  using V = vec_t<float, B>;
  using I = vec_t<int32_t, B>;
  // n = round(x / ln 2): adding 1.5 * 2^23 rounds to an integer held in the low mantissa
  // bits; then r = x - n ln 2 in two parts for precision.
  const V shifter = splat<float, B>(12582912.0f);
  const V t = xc * 1.44269504088896341f + shifter;
  const V nf = t - shifter;
  I shifter_bits;
  std::memcpy(&n, &t, sizeof n);
  std::memcpy(&shifter_bits, &shifter, sizeof n);
  n -= shifter_bits;
  const V r = xc - nf * 0.693359375f + nf * 2.12194440e-4f;
  V p = splat<float, B>(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  return p * (r * r) + r + 1.0f;
}

// exp of x in [-103.97, 88.72] (the caller clamps): 2^n * p(r).
template <int B>
SOPS_ALWAYS_INLINE vec_t<float, B> exp_in_range(vec_t<float, B> xc) {
  using V = vec_t<float, B>;
  using I = vec_t<int32_t, B>;
  I n;
  const V p = exp_reduced<B>(xc, n);
  // 2^n in two factors, so that n down to -150 (denormal results) stays exact.
  const I n1 = n >> 1;
  const I b1 = (n1 + 127) << 23;
  const I b2 = (n - n1 + 127) << 23;
  V s1, s2;
  std::memcpy(&s1, &b1, sizeof b1);
  std::memcpy(&s2, &b2, sizeof b2);
  return p * s1 * s2;
}

constexpr float kExpMax = 88.7228394f;   // log(FLT_MAX)
constexpr float kExpMin = -103.972084f;  // below: 0 even as a denormal

template <int B>
SOPS_ALWAYS_INLINE vec_t<float, B> exp(vec_t<float, B> x) {
  using V = vec_t<float, B>;
  const V hi = splat<float, B>(kExpMax);
  const V lo = splat<float, B>(kExpMin);
  V result = exp_in_range<B>(x > hi ? hi : (x < lo ? lo : x));
  result = x > hi ? splat<float, B>(INFINITY) : result;
  result = x < lo ? V{} : result;
  return x != x ? x : result;  // NaN stays NaN
}

// exp of x <= 0 that is not NaN (x - max(row) in softmax when the row's maximum is
// finite: no overflow or NaN to handle), with results below FLT_MIN (x < ln FLT_MIN)
// flushed to 0, as PyTorch's softmax kernels do: a softmax sum holds exp(m - m) = 1, to
// which such terms add nothing in float. One scale factor where exp needs two.
template <int B>
SOPS_ALWAYS_INLINE vec_t<float, B> exp_nonpositive(vec_t<float, B> x) {
  using V = vec_t<float, B>;
  using I = vec_t<int32_t, B>;
  const V lo = splat<float, B>(-87.3365448f);  // ln FLT_MIN
  I n;
  const V p = exp_reduced<B>(x < lo ? lo : x, n);
  const I bits = (n + 127) << 23;
  V s;
  std::memcpy(&s, &bits, sizeof bits);
  return x < lo ? V{} : p * s;
}

template <int B>
SOPS_ALWAYS_INLINE vec_t<double, B> exp(vec_t<double, B> x) {
  for (int l = 0; l < Vec<double, B>::kLanes; ++l) x[l] = std::exp(x[l]);
  return x;
}

template <int B>
SOPS_ALWAYS_INLINE vec_t<double, B> exp_nonpositive(vec_t<double, B> x) {
  return exp<B>(x);
}

SOPS_ALWAYS_INLINE Vf exp(Vf x) { return exp<32>(x); }
SOPS_ALWAYS_INLINE Vd exp(Vd x) { return exp<32>(x); }

// 1 / (1 + exp(-x)).
template <typename V>
SOPS_ALWAYS_INLINE V sigmoid(V x) {
  const V one = V{} + 1;
  return one / (one + exp(-x));
}

// float32 tanh: Cephes' odd polynomial below |x| = 0.625 (where 1 - 2 / (exp(2x) + 1)
// would cancel), that formula above it (exact at +-inf); -0.0 stays -0.0.
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
  const Vf ax = x < 0 ? -x : x;
  return x == 0 ? x : (ax < 0.625f ? small : large);
}

SOPS_ALWAYS_INLINE Vd tanh(Vd x) {
  for (int l = 0; l < Vec<double, 32>::kLanes; ++l) x[l] = std::tanh(x[l]);
  return x;
}

// Whether any lane of a 32-byte comparison mask is set (one OR of its four words, which
// GCC turns into a vector test; a loop over the lanes would branch eight times).
template <typename M>
SOPS_ALWAYS_INLINE bool any_lane(M mask) {
  static_assert(sizeof(M) == 32, "a 32-byte mask");
  uint64_t w[4];
  std::memcpy(w, &mask, sizeof w);
  return ((w[0] | w[1]) | (w[2] | w[3])) != 0;
}

// float32 sin and cos (Cephes' sinf/cosf): x reduced by the nearest even multiple j of
// pi/4 (pi/4 in three parts, exact below |x| = 8192), then sin's or cos's polynomial on
// [-pi/4, pi/4] by the octant, within 2 ulp. Lanes beyond 8192, infinities and NaN take
// std::sin / std::cos.
template <bool kCos>
SOPS_ALWAYS_INLINE Vf sin_or_cos(Vf x) {
  using I = vec_t<int32_t, 32>;
  const Vf ax = x < 0 ? -x : x;
  const I in_range = ax <= 8192.0f;      // NaN compares false
  const Vf safe = in_range ? ax : Vf{};  // 0 there, redone below
  I j = __builtin_convertvector(safe * 1.27323954473516f, I);
  j += j & 1;
  const Vf y = __builtin_convertvector(j, Vf);
  const Vf r =
      ((safe - y * 0.78515625f) - y * 2.4187564849853515625e-4f) - y * 3.77489497744594108e-8f;
  const Vf z = r * r;
  const Vf cos_poly =
      ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z -
      0.5f * z + 1.0f;
  const Vf sin_poly =
      ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * r + r;
  // Octant j mod 8 in {0, 2, 4, 6}: 2 and 6 take the other polynomial; the sign flips
  // for 4 and 6 (sin; and for the negative half of x), for 2 and 4 (cos).
  const I octant = j & 7;
  const I use_cos = kCos ? (octant == 0) | (octant == 4) : (octant == 2) | (octant == 6);
  Vf v = use_cos ? cos_poly : sin_poly;
  const I negate = kCos ? (octant == 2) | (octant == 4) : ((octant >= 4) ^ (x < 0));
  v = negate ? -v : v;
  if (!kCos) v = x == 0 ? x : v;  // sin(-0.0) is -0.0
  if (any_lane(~in_range)) {      // rare: one vector test, not a branch per lane
    for (int l = 0; l < Vec<float, 32>::kLanes; ++l) {
      if (!in_range[l]) v[l] = kCos ? std::cos(x[l]) : std::sin(x[l]);
    }
  }
  return v;
}

SOPS_ALWAYS_INLINE Vf sin(Vf x) { return sin_or_cos<false>(x); }
SOPS_ALWAYS_INLINE Vf cos(Vf x) { return sin_or_cos<true>(x); }

SOPS_ALWAYS_INLINE Vd sin(Vd x) {
  for (int l = 0; l < Vec<double, 32>::kLanes; ++l) x[l] = std::sin(x[l]);
  return x;
}

SOPS_ALWAYS_INLINE Vd cos(Vd x) {
  for (int l = 0; l < Vec<double, 32>::kLanes; ++l) x[l] = std::cos(x[l]);
  return x;
}

// float32 erf by Abramowitz and Stegun's 7.1.26: with t = 1 / (1 + p |x|),
// erf(x) = sign(x) (1 - t q(t) exp(-x^2)). The formula is within 1.5e-7 of erf, within
// 6e-7 after float32 rounding (1 - ... cancels near 0). It is the formula PyTorch's
// vectorized CPU erf uses, so gelu agrees with it. NaN stays NaN, +-inf gives +-1.
template <int B>
SOPS_ALWAYS_INLINE vec_t<float, B> erf(vec_t<float, B> x) {
  using V = vec_t<float, B>;
  const V ax = x < 0 ? -x : x;
  const V t = 1.0f / (ax * 0.3275911f + 1.0f);
  V q = splat<float, B>(1.061405429f);
  q = q * t - 1.453152027f;
  q = q * t + 1.421413741f;
  q = q * t - 0.284496736f;
  q = q * t + 0.254829592f;
  const V e = 1.0f - q * t * exp<B>(-(x * x));
  return x < 0 ? -e : e;
}

template <int B>
SOPS_ALWAYS_INLINE vec_t<double, B> erf(vec_t<double, B> x) {
  for (int l = 0; l < Vec<double, B>::kLanes; ++l) x[l] = std::erf(x[l]);
  return x;
}

SOPS_ALWAYS_INLINE Vf erf(Vf x) { return erf<32>(x); }
SOPS_ALWAYS_INLINE Vd erf(Vd x) { return erf<32>(x); }

}  // namespace sops::vec
