// CPU kernels of _softmax and _log_softmax over any dimension, float32 and float64 (as
// PyTorch's CPU kernels; float32 accumulates in float). The input is made contiguous and
// seen as [outer, size, inner]: the last dimension (inner == 1) reduces each row with
// unit-stride loops; another dimension keeps a row of `inner` maxima and sums, so the
// inner loops are unit-stride too. Parallel over the outer rows.
#include <cmath>
#include <limits>
#include <vector>

#include "aten_cpu/NativeFunctions.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

// NaN-propagating maximum (as PyTorch's vectorized max).
template <typename T>
inline T max_nan(T a, T b) {
  return (a > b || a != a) ? a : b;
}

template <typename T>
T row_max(const T* x, int64_t n) {
  constexpr int kLanes = 8;
  T m[kLanes];
  for (int l = 0; l < kLanes; ++l) m[l] = -std::numeric_limits<T>::infinity();
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    for (int l = 0; l < kLanes; ++l) m[l] = max_nan(x[j + l], m[l]);
  }
  T r = m[0];
  for (int l = 1; l < kLanes; ++l) r = max_nan(m[l], r);
  for (; j < n; ++j) r = max_nan(x[j], r);
  return r;
}

// y[j] = exp(x[j] - m) (stored when Store); returns their sum, with 8 independent sums.
template <typename T, bool Store>
T exp_sum(const T* x, T* y, int64_t n, T m) {
  constexpr int kLanes = 8;
  T s[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      const T e = std::exp(x[j + l] - m);
      if constexpr (Store) y[j + l] = e;
      s[l] += e;
    }
  }
  T r = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  for (; j < n; ++j) {
    const T e = std::exp(x[j] - m);
    if constexpr (Store) y[j] = e;
    r += e;
  }
  return r;
}

template <typename T, bool Log>
void softmax_lastdim(const T* in, T* out, int64_t rows, int64_t n) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1));
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const T* x = in + r * n;
      T* y = out + r * n;
      const T m = row_max(x, n);
      if constexpr (Log) {
        const T shift = m + std::log(exp_sum<T, false>(x, nullptr, n, m));
        for (int64_t j = 0; j < n; ++j) y[j] = x[j] - shift;
      } else {
        const T scale = T(1) / exp_sum<T, true>(x, y, n, m);
        for (int64_t j = 0; j < n; ++j) y[j] *= scale;
      }
    }
  });
}

// Softmax over the middle dimension of [outer, size, inner], inner > 1.
template <typename T, bool Log>
void softmax_inner(const T* in, T* out, int64_t outer, int64_t size, int64_t inner) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(size * inner, 1));
  parallel_for(0, outer, grain, [&](int64_t begin, int64_t end) {
    std::vector<T> mx(static_cast<std::size_t>(inner));
    std::vector<T> sum(static_cast<std::size_t>(inner));
    T* m = mx.data();
    T* s = sum.data();
    for (int64_t o = begin; o < end; ++o) {
      const T* x = in + o * size * inner;
      T* y = out + o * size * inner;
      for (int64_t i = 0; i < inner; ++i) {
        m[i] = -std::numeric_limits<T>::infinity();
        s[i] = T(0);
      }
      for (int64_t d = 0; d < size; ++d) {
        const T* xd = x + d * inner;
        for (int64_t i = 0; i < inner; ++i) m[i] = max_nan(xd[i], m[i]);
      }
      for (int64_t d = 0; d < size; ++d) {
        const T* xd = x + d * inner;
        T* yd = y + d * inner;
        for (int64_t i = 0; i < inner; ++i) {
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
        const T* xd = x + d * inner;
        T* yd = y + d * inner;
        if constexpr (Log) {
          for (int64_t i = 0; i < inner; ++i) yd[i] = xd[i] - s[i];
        } else {
          for (int64_t i = 0; i < inner; ++i) yd[i] *= s[i];
        }
      }
    }
  });
}

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
  softmax_out<false>(self, dim, half_to_float, out, "softmax_lastdim_kernel_impl", "softmax_kernel_impl");
}

SOPS_IMPL_FUNC(log_softmax_cpu_out)
(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  softmax_out<true>(self, dim, half_to_float, out, "log_softmax_lastdim_kernel_impl", "log_softmax_kernel_impl");
}

}  // namespace sops::aten::native
