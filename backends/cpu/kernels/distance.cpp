// CPU kernels of _cdist_forward and _pdist_forward (float32 and float64, as PyTorch's):
// p-norm distances between rows, ||a - b||_p = (sum_k |a_k - b_k|^p)^(1/p), with p = 0
// (the count of differing columns), 1, 2, inf (the largest difference) and any other
// p >= 0. cdist pairs each row of x1 with each row of x2 over the broadcast batch
// dimensions; pdist each pair i < j of rows of one matrix, in row-major order of the
// upper triangle. Registered for meta tensors too (CPU and Meta): there only the checks
// and the output shapes happen.
//
// For p = 2, PyTorch's cdist takes the matrix-product form
// sqrt(max(|a|^2 - 2 a.b + |b|^2, 0)) when compute_mode is 1, or 0 with more than 25 rows
// on either side; sops computes that form too there (its results differ from the direct
// sum in the last bits, as PyTorch's do).
#include <algorithm>
#include <cmath>
#include <vector>

#include "aten/ops/_cdist_forward_native.h"
#include "aten/ops/_pdist_forward_native.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/broadcast.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

// The distance between rows a and b of m columns.
template <typename T>
T distance(const T* a, const T* b, int64_t m, double p) {
  T agg = 0;
  if (p == 0) {
    for (int64_t k = 0; k < m; ++k) agg += std::min(std::ceil(std::abs(a[k] - b[k])), T(1));
    return agg;
  }
  if (p == 1) {
    for (int64_t k = 0; k < m; ++k) agg += std::abs(a[k] - b[k]);
    return agg;
  }
  if (p == 2) {
    for (int64_t k = 0; k < m; ++k) agg += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(agg);
  }
  if (std::isinf(p)) {
    for (int64_t k = 0; k < m; ++k) {
      const T d = std::abs(a[k] - b[k]);
      agg = std::isnan(d) || d > agg ? d : agg;
    }
    return agg;
  }
  const T pt = static_cast<T>(p);
  for (int64_t k = 0; k < m; ++k) agg += std::pow(std::abs(a[k] - b[k]), pt);
  return std::pow(agg, T(1) / pt);
}

// The matrix-product form of the p = 2 distance (PyTorch's _euclidean_dist).
template <typename T>
T euclidean_by_product(const T* a, const T* b, int64_t m, T norm_a, T norm_b) {
  T dot = 0;
  for (int64_t k = 0; k < m; ++k) dot += (T(-2) * a[k]) * b[k];
  return std::sqrt(std::max(dot + norm_a + norm_b, T(0)));
}

template <typename T>
T squared_norm(const T* a, int64_t m) {
  T s = 0;
  for (int64_t k = 0; k < m; ++k) s += a[k] * a[k];
  return s;
}

void check_floating(const Tensor& t, const char* name, const char* argument) {
  SOPS_CHECK_ARG(is_floating_point(t.scalar_type()), argument,
                 "cdist only supports floating-point dtypes, ", name,
                 " got: ", ops_util::aten_name(t.scalar_type()));
}

}  // namespace

Tensor _cdist_forward(const Tensor& x1, const Tensor& x2, double p,
                      std::optional<int64_t> compute_mode) {
  SOPS_CHECK_ARG(x1.dim() >= 2, "x1", "cdist only supports at least 2D tensors, X1 got: ", x1.dim(),
                 "D");
  SOPS_CHECK_ARG(x2.dim() >= 2, "x2", "cdist only supports at least 2D tensors, X2 got: ", x2.dim(),
                 "D");
  const int64_t c = x1.size(-1);
  SOPS_CHECK_ARG(c == x2.size(-1), "x2", "X1 and X2 must have the same number of columns. X1: ", c,
                 " X2: ", x2.size(-1));
  check_floating(x1, "X1", "x1");
  check_floating(x2, "X2", "x2");
  SOPS_CHECK_ARG(p >= 0, "p", "cdist only supports non-negative p values");
  const int64_t mode = compute_mode.value_or(0);
  SOPS_CHECK_ARG(mode >= 0 && mode <= 2, "compute_mode",
                 "possible modes: 0, 1, 2, but was: ", mode);
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  const DimVector batch = infer_size(x1.sizes().slice(0, static_cast<std::size_t>(x1.dim() - 2)),
                                     x2.sizes().slice(0, static_cast<std::size_t>(x2.dim() - 2)));
  DimVector sizes = batch;
  sizes.push_back(r1);
  sizes.push_back(r2);
  Tensor result = empty(sizes, x1.options());
  if (x1.is_meta() || result.numel() == 0) return result;
  SOPS_CHECK_ARG(x2.scalar_type() == x1.scalar_type(), "x2", "expected scalar type ",
                 ops_util::aten_name(x1.scalar_type()), " but found ",
                 ops_util::aten_name(x2.scalar_type()));
  // Both expanded to the batch and made contiguous: [batches, rows, c].
  DimVector s1 = batch, s2 = batch;
  s1.push_back(r1);
  s1.push_back(c);
  s2.push_back(r2);
  s2.push_back(c);
  const Tensor a = cpu_util::contiguous_of(x1.expand(s1));
  const Tensor b = cpu_util::contiguous_of(x2.expand(s2));
  const int64_t batches = result.numel() / (r1 * r2);
  const bool by_product = p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)));
  SOPS_DISPATCH_FLOATING_TYPES(x1.scalar_type(), "cdist", [&] {
    using T = scalar_t;
    const T* pa = a.data_ptr<T>();
    const T* pb = b.data_ptr<T>();
    T* out = result.data_ptr<T>();
    std::vector<T> na, nb;
    if (by_product) {
      for (int64_t i = 0; i < batches * r1; ++i) na.push_back(squared_norm(pa + i * c, c));
      for (int64_t j = 0; j < batches * r2; ++j) nb.push_back(squared_norm(pb + j * c, c));
    }
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(c * r2, 1));
    parallel_for(0, batches * r1, grain, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t batch_index = row / r1;
        const T* ai = pa + row * c;
        for (int64_t j = 0; j < r2; ++j) {
          const int64_t col = batch_index * r2 + j;
          const T* bj = pb + col * c;
          out[row * r2 + j] =
              by_product ? euclidean_by_product(ai, bj, c, na[static_cast<std::size_t>(row)],
                                                nb[static_cast<std::size_t>(col)])
                         : distance(ai, bj, c, p);
        }
      }
    });
  });
  return result;
}

Tensor _pdist_forward(const Tensor& self, double p) {
  // PyTorch's pdist checks these before it calls _pdist_forward, which reads any tensor
  // as a matrix; sops checks them here.
  SOPS_CHECK_ARG(self.dim() == 2, "self", "pdist only supports 2D tensors, got: ", self.dim(), "D");
  SOPS_CHECK_ARG(p >= 0, "p", "pdist only supports non-negative p values");
  SOPS_CHECK_ARG(self.is_contiguous(), "self", "_pdist_forward requires contiguous input");
  const int64_t n = self.size(0), m = self.size(1);
  Tensor result = empty({n <= 1 ? 0 : n * (n - 1) / 2}, self.options());
  if (self.is_meta()) return result;
  cpu_util::check_dtype_implemented(self.scalar_type(), dtypes::kFloatingTypes, "pdist");
  if (result.numel() == 0) return result;
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "pdist", [&] {
    using T = scalar_t;
    const T* x = self.data_ptr<T>();
    T* out = result.data_ptr<T>();
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(m * n, 1));
    parallel_for(0, n, grain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        // Pairs (i, j > i) start after the i earlier rows' n - 1, n - 2, ... pairs.
        T* row = out + i * n - i * (i + 1) / 2;
        for (int64_t j = i + 1; j < n; ++j) row[j - i - 1] = distance(x + i * m, x + j * m, m, p);
      }
    });
  });
  return result;
}

}  // namespace sops::aten::native
