// CPU kernels of sort and topk (registered for CPU and Meta; topk's meta function is in
// ops/meta/sort.cpp). Along one dimension, stable: equal values keep their order; NaN
// sorts above every number (first when descending), as in PyTorch.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "aten/ops/empty_like.h"
#include "aten/ops/sort_native.h"
#include "aten/ops/topk_native.h"
#include "backends/cpu/cpu_utils.h"
#include "backends/cpu/strided_walk.h"

namespace sops::aten::native {
namespace {

// a before b in ascending order (NaN last).
template <typename T>
bool less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// For each line of self along `dim`: the order of its elements (stable), the first `k`
// written as values and indices (each with its own strides).
void sort_lines(const Tensor& self, int64_t dim, bool descending, int64_t k, const Tensor& values,
                const Tensor& indices) {
  if (self.numel() == 0) return;
  const int64_t d = self.dim() == 0 ? 0 : ops_util::wrap_dim(dim, self.dim());
  const int64_t len = self.dim() == 0 ? 1 : self.size(d);
  const int64_t s_step = self.dim() == 0 ? 0 : self.stride(d);
  const int64_t v_step = self.dim() == 0 ? 0 : values.stride(d);
  const int64_t i_step = self.dim() == 0 ? 0 : indices.stride(d);
  DimVector outer(self.sizes());
  if (!outer.empty()) outer[d] = 1;
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(self.scalar_type(), "sort", [&] {
    const scalar_t* x = self.data_ptr<scalar_t>();
    scalar_t* v = values.data_ptr<scalar_t>();
    int64_t* ix = indices.data_ptr<int64_t>();
    cpu_util::parallel_walk<3>(outer, {self.strides(), values.strides(), indices.strides()}, len,
                               [&](const std::array<int64_t, 3>& off) {
                                 thread_local std::vector<int64_t> order;
                                 order.resize(static_cast<std::size_t>(len));
                                 const scalar_t* line = x + off[0];
                                 std::iota(order.begin(), order.end(), 0);
                                 std::stable_sort(
                                     order.begin(), order.end(), [&](int64_t a, int64_t b) {
                                       const scalar_t xa = line[a * s_step], xb = line[b * s_step];
                                       return descending ? less(xb, xa) : less(xa, xb);
                                     });
                                 for (int64_t i = 0; i < k; ++i) {
                                   const int64_t j = order[static_cast<std::size_t>(i)];
                                   v[off[1] + i * v_step] = line[j * s_step];
                                   ix[off[2] + i * i_step] = j;
                                 }
                               });
  });
}

}  // namespace

std::tuple<Tensor&, Tensor&> sort_out(const Tensor& self, int64_t dim, bool descending,
                                      Tensor& values, Tensor& indices) {
  if (self.dim() > 0) ops_util::wrap_dim(dim, self.dim());
  ops_util::check_out_dtype(values, self.scalar_type(), "values");
  ops_util::check_out_dtype(indices, ScalarType::Long, "indices");
  values.resize_(self.sizes());
  indices.resize_(self.sizes());
  if (!self.is_meta()) {
    const int64_t k = self.dim() == 0 ? 1 : self.size(ops_util::wrap_dim(dim, self.dim()));
    sort_lines(self, dim, descending, k, values, indices);
  }
  return {values, indices};
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  Tensor values = sops::aten::empty_like(self);
  Tensor indices = sops::aten::empty_like(self, ScalarType::Long);
  sort_out(self, dim, descending, values, indices);
  return {values, indices};
}

// The k largest (or smallest) along dim, chosen as PyTorch's topk_impl_loop does (a
// partial sort of (value, index) pairs for small k, else nth_element then a sort of the
// first k - 1), so that equal values give PyTorch's indices; NaN counts as the largest.
SOPS_IMPL_FUNC(topk_out_cpu)
(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted, const Tensor& values,
 const Tensor& indices) {
  if (self.numel() == 0 || k == 0) return;
  const int64_t d = self.dim() == 0 ? 0 : ops_util::wrap_dim(dim, self.dim());
  const int64_t len = self.dim() == 0 ? 1 : self.size(d);
  const int64_t s_step = self.dim() == 0 ? 0 : self.stride(d);
  const int64_t v_step = self.dim() == 0 ? 0 : values.stride(d);
  const int64_t i_step = self.dim() == 0 ? 0 : indices.stride(d);
  DimVector outer(self.sizes());
  if (!outer.empty()) outer[d] = 1;
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "topk", [&] {
    using acc_t = std::conditional_t<std::is_floating_point_v<scalar_t>, double, int64_t>;
    using elem_t = std::pair<acc_t, int64_t>;
    const scalar_t* x = self.data_ptr<scalar_t>();
    scalar_t* v = values.data_ptr<scalar_t>();
    int64_t* ix = indices.data_ptr<int64_t>();
    auto nan = [](acc_t a) {
      if constexpr (std::is_floating_point_v<acc_t>) {
        return std::isnan(a);
      } else {
        return false;
      }
    };
    auto greater = [&](const elem_t& a, const elem_t& b) {
      return (nan(a.first) && !nan(b.first)) || (a.first > b.first);
    };
    auto lesser = [&](const elem_t& a, const elem_t& b) {
      return (!nan(a.first) && nan(b.first)) || (a.first < b.first);
    };
    cpu_util::parallel_walk<3>(outer, {self.strides(), values.strides(), indices.strides()}, len,
                               [&](const std::array<int64_t, 3>& off) {
                                 thread_local std::vector<elem_t> queue;
                                 queue.resize(static_cast<std::size_t>(len));
                                 for (int64_t j = 0; j < len; ++j) {
                                   queue[static_cast<std::size_t>(j)] = {
                                       static_cast<acc_t>(x[off[0] + j * s_step]), j};
                                 }
                                 const auto first = queue.begin();
                                 if (k * 64 <= len) {
                                   if (largest) {
                                     std::partial_sort(first, first + k, queue.end(), greater);
                                   } else {
                                     std::partial_sort(first, first + k, queue.end(), lesser);
                                   }
                                 } else if (largest) {
                                   std::nth_element(first, first + k - 1, queue.end(), greater);
                                   if (sorted) std::sort(first, first + k - 1, greater);
                                 } else {
                                   std::nth_element(first, first + k - 1, queue.end(), lesser);
                                   if (sorted) std::sort(first, first + k - 1, lesser);
                                 }
                                 for (int64_t i = 0; i < k; ++i) {
                                   const elem_t& e = queue[static_cast<std::size_t>(i)];
                                   v[off[1] + i * v_step] = static_cast<scalar_t>(e.first);
                                   ix[off[2] + i * i_step] = e.second;
                                 }
                               });
  });
}

}  // namespace sops::aten::native
