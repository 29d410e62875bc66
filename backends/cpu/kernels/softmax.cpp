// CPU kernels of _softmax and _log_softmax over any dimension, float32 and float64 (as
// PyTorch's CPU kernels; float32 accumulates in float). The input is made contiguous and
// seen as [outer, size, inner]: the last dimension (inner == 1) reduces each row with
// unit-stride loops; another dimension keeps a row of `inner` maxima and sums, so the
// inner loops are unit-stride too. Parallel over the outer rows.
#include <cmath>
#include <limits>
#include <vector>

#include "aten/ops/_log_softmax_native.h"
#include "aten/ops/_softmax_native.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/parallel.h"
#include "runtime/vec_math.h"

namespace sops::aten::native {
namespace {

using vec::vec_t;

// NaN-propagating maximum (as PyTorch's vectorized max).
template <typename T>
SOPS_ALWAYS_INLINE T max_nan(T a, T b) {
  return (a > b || a != a) ? a : b;
}

template <typename T, int B>
SOPS_ALWAYS_INLINE T row_max(const T* x, int64_t n) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  int64_t j = 0;
  T r = -std::numeric_limits<T>::infinity();
  if (n >= L) {
    vec_t<T, B> m = vec::load<T, B>(x);
    for (j = L; j + L <= n; j += L) m = vec::max_nan<T, B>(vec::load<T, B>(x + j), m);
    r = vec::max_lanes<T, B>(m);
  }
  for (; j < n; ++j) r = max_nan(x[j], r);
  return r;
}

// exp of x - m; kFiniteMax: m is a finite maximum of x, so x - m <= 0 and is no NaN
// (the cheaper exp). A function, not a lambda: a lambda's body would not take the AVX2
// target of the clone it is written in, and vectors cannot cross that boundary.
template <typename T, int B, bool kFiniteMax>
SOPS_ALWAYS_INLINE vec_t<T, B> vexp(vec_t<T, B> v) {
  if constexpr (kFiniteMax) {
    return vec::exp_nonpositive<B>(v);
  } else {
    return vec::exp<B>(v);
  }
}

// y[j] = exp(x[j] - m) (stored when Store); returns their sum (two vector sums).
template <typename T, int B, bool Store, bool kFiniteMax>
SOPS_ALWAYS_INLINE T exp_sum(const T* x, T* y, int64_t n, T m) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  const vec_t<T, B> mv = vec::splat<T, B>(m);
  vec_t<T, B> s0{}, s1{};
  int64_t j = 0;
  for (; j + 2 * L <= n; j += 2 * L) {
    const vec_t<T, B> e0 = vexp<T, B, kFiniteMax>(vec::load<T, B>(x + j) - mv);
    const vec_t<T, B> e1 = vexp<T, B, kFiniteMax>(vec::load<T, B>(x + j + L) - mv);
    if constexpr (Store) {
      vec::store<T, B>(y + j, e0);
      vec::store<T, B>(y + j + L, e1);
    }
    s0 += e0;
    s1 += e1;
  }
  for (; j + L <= n; j += L) {
    const vec_t<T, B> e = vexp<T, B, kFiniteMax>(vec::load<T, B>(x + j) - mv);
    if constexpr (Store) vec::store<T, B>(y + j, e);
    s0 += e;
  }
  T r = vec::sum_lanes<T, B>(s0 + s1);
  for (; j < n; ++j) {
    const T e = std::exp(x[j] - m);
    if constexpr (Store) y[j] = e;
    r += e;
  }
  return r;
}

// y[j] = x[j] * a + b.
template <typename T, int B>
SOPS_ALWAYS_INLINE void axpb(const T* x, T* y, int64_t n, T a, T b) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  const vec_t<T, B> av = vec::splat<T, B>(a), bv = vec::splat<T, B>(b);
  int64_t j = 0;
  for (; j + L <= n; j += L) vec::store<T, B>(y + j, vec::load<T, B>(x + j) * av + bv);
  for (; j < n; ++j) y[j] = x[j] * a + b;
}

// Rows [begin, end) of n elements, softmax over each row.
template <typename T, bool Log, int B>
SOPS_ALWAYS_INLINE void lastdim_rows(const T* in, T* out, int64_t begin, int64_t end, int64_t n) {
  for (int64_t r = begin; r < end; ++r) {
    const T* x = in + r * n;
    T* y = out + r * n;
    const T m = row_max<T, B>(x, n);
    if constexpr (Log) {
      const T sum = std::isfinite(m) ? exp_sum<T, B, false, true>(x, nullptr, n, m)
                                     : exp_sum<T, B, false, false>(x, nullptr, n, m);
      const T shift = m + std::log(sum);
      axpb<T, B>(x, y, n, T(1), -shift);
    } else {
      const T scale = T(1) / (std::isfinite(m) ? exp_sum<T, B, true, true>(x, y, n, m)
                                               : exp_sum<T, B, true, false>(x, y, n, m));
      axpb<T, B>(y, y, n, scale, T(0));
    }
  }
}

// Softmax over the middle dimension of [outer, size, inner] for outer rows [begin, end)
// and the `width` columns that `in` and `out` start at; m and s hold `width` maxima and
// sums.
template <typename T, bool Log, int B>
SOPS_ALWAYS_INLINE void inner_rows(const T* in, T* out, int64_t begin, int64_t end, int64_t size,
                                   int64_t stride, int64_t inner, T* m, T* s) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  for (int64_t o = begin; o < end; ++o) {
    const T* x = in + o * size * stride;
    T* y = out + o * size * stride;
    for (int64_t i = 0; i < inner; ++i) {
      m[i] = -std::numeric_limits<T>::infinity();
      s[i] = T(0);
    }
    for (int64_t d = 0; d < size; ++d) {
      const T* xd = x + d * stride;
      int64_t i = 0;
      for (; i + L <= inner; i += L) {
        vec::store<T, B>(m + i,
                         vec::max_nan<T, B>(vec::load<T, B>(xd + i), vec::load<T, B>(m + i)));
      }
      for (; i < inner; ++i) m[i] = max_nan(xd[i], m[i]);
    }
    for (int64_t d = 0; d < size; ++d) {
      const T* xd = x + d * stride;
      T* yd = y + d * stride;
      int64_t i = 0;
      for (; i + L <= inner; i += L) {
        const vec_t<T, B> e = vec::exp<B>(vec::load<T, B>(xd + i) - vec::load<T, B>(m + i));
        if constexpr (!Log) vec::store<T, B>(yd + i, e);
        vec::store<T, B>(s + i, vec::load<T, B>(s + i) + e);
      }
      for (; i < inner; ++i) {
        const T e = std::exp(xd[i] - m[i]);
        if constexpr (!Log) yd[i] = e;
        s[i] += e;
      }
    }
    if constexpr (Log) {
      for (int64_t i = 0; i < inner; ++i) s[i] = m[i] + std::log(s[i]);
    } else {
      for (int64_t i = 0; i < inner; ++i) s[i] = T(1) / s[i];
    }
    for (int64_t d = 0; d < size; ++d) {
      const T* xd = x + d * stride;
      T* yd = y + d * stride;
      int64_t i = 0;
      for (; i + L <= inner; i += L) {
        if constexpr (Log) {
          vec::store<T, B>(yd + i, vec::load<T, B>(xd + i) - vec::load<T, B>(s + i));
        } else {
          vec::store<T, B>(yd + i, vec::load<T, B>(yd + i) * vec::load<T, B>(s + i));
        }
      }
      for (; i < inner; ++i) yd[i] = Log ? xd[i] - s[i] : yd[i] * s[i];
    }
  }
}

template <typename T, bool Log>
void lastdim_rows_sse(const T* in, T* out, int64_t begin, int64_t end, int64_t n) {
  lastdim_rows<T, Log, 16>(in, out, begin, end, n);
}
template <typename T, bool Log>
void inner_rows_sse(const T* in, T* out, int64_t begin, int64_t end, int64_t size, int64_t stride,
                    int64_t inner, T* m, T* s) {
  inner_rows<T, Log, 16>(in, out, begin, end, size, stride, inner, m, s);
}
#if SOPS_HAVE_AVX2_CLONES
template <typename T, bool Log>
SOPS_KERNEL_AVX2 void lastdim_rows_avx2(const T* in, T* out, int64_t begin, int64_t end,
                                        int64_t n) {
  lastdim_rows<T, Log, 32>(in, out, begin, end, n);
}
template <typename T, bool Log>
SOPS_KERNEL_AVX2 void inner_rows_avx2(const T* in, T* out, int64_t begin, int64_t end, int64_t size,
                                      int64_t stride, int64_t inner, T* m, T* s) {
  inner_rows<T, Log, 32>(in, out, begin, end, size, stride, inner, m, s);
}
#endif

template <typename T, bool Log>
void softmax_lastdim(const T* in, T* out, int64_t rows, int64_t n) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1));
  const bool avx2 = sops::cpu_has_avx2();
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
#if SOPS_HAVE_AVX2_CLONES
    if (avx2) return lastdim_rows_avx2<T, Log>(in, out, begin, end, n);
#endif
    (void)avx2;
    lastdim_rows_sse<T, Log>(in, out, begin, end, n);
  });
}

// Parallel over (outer row, block of inner columns): a softmax over dim 0 still splits.
template <typename T, bool Log>
void softmax_inner(const T* in, T* out, int64_t outer, int64_t size, int64_t inner) {
  constexpr int64_t kBlock = 256;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  const int64_t width = std::min(inner, kBlock);
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(size * width, 1));
  const bool avx2 = sops::cpu_has_avx2();
  parallel_for(0, outer * blocks, grain, [&](int64_t begin, int64_t end) {
    std::vector<T> m(static_cast<std::size_t>(width)), s(static_cast<std::size_t>(width));
    for (int64_t t = begin; t < end; ++t) {
      const int64_t o = t / blocks;
      const int64_t i0 = (t % blocks) * kBlock;
      const int64_t w = std::min(kBlock, inner - i0);
      const T* x = in + o * size * inner + i0;
      T* y = out + o * size * inner + i0;
#if SOPS_HAVE_AVX2_CLONES
      if (avx2) {
        inner_rows_avx2<T, Log>(x, y, 0, 1, size, inner, w, m.data(), s.data());
        continue;
      }
#endif
      inner_rows_sse<T, Log>(x, y, 0, 1, size, inner, w, m.data(), s.data());
    }
    (void)avx2;
  });
}

}  // namespace

namespace {

template <bool Log>
void softmax_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out,
                 std::string_view last_name, std::string_view name) {
  SOPS_CHECK_ARG(!half_to_float, "half_to_float", "softmax",
                 " with half to float conversion is not supported on CPU");
  const int64_t ndim = self.dim();
  const int64_t d = ops_util::wrap_dim(dim, ndim);
  const bool last = ndim == 0 || d == ndim - 1;
  cpu_util::check_dtype_implemented(self.scalar_type(), dtypes::kFloatingTypes,
                                    last ? last_name : name);
  if (self.numel() == 0) return;
  const Tensor input = cpu_util::contiguous_of(self);
  // Written into a contiguous buffer, then copied if out is strided otherwise.
  const Tensor result = out.is_contiguous() ? out : empty(out.sizes(), out.options());
  int64_t outer = 1, inner = 1;
  const int64_t size = ndim == 0 ? 1 : self.size(d);
  for (int64_t i = 0; i < d; ++i) outer *= self.size(i);
  for (int64_t i = d + 1; i < ndim; ++i) inner *= self.size(i);
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), name, [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    scalar_t* y = result.data_ptr<scalar_t>();
    if (inner == 1) {
      softmax_lastdim<scalar_t, Log>(x, y, outer, size);
    } else {
      softmax_inner<scalar_t, Log>(x, y, outer, size, inner);
    }
  });
  if (!result.is_same(out)) cpu_util::copy_cast(out, result);
}

}  // namespace

SOPS_IMPL_FUNC(softmax_cpu_out)
(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  softmax_out<false>(self, dim, half_to_float, out, "softmax_lastdim_kernel_impl",
                     "softmax_kernel_impl");
}

SOPS_IMPL_FUNC(log_softmax_cpu_out)
(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  softmax_out<true>(self, dim, half_to_float, out, "log_softmax_lastdim_kernel_impl",
                    "log_softmax_kernel_impl");
}

}  // namespace sops::aten::native
