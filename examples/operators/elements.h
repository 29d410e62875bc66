// for_each_element: visits every element of a tensor of any strides, in row-major
// order, with its index. The example's kernels that are not TensorIterator-based use it.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/tensor.h"

namespace my::ops {

template <typename T, typename F>
void for_each_element(const sops::Tensor& t, F f) {
  if (t.numel() == 0) return;
  const int64_t ndim = t.dim();
  std::vector<int64_t> index(static_cast<std::size_t>(ndim), 0);
  T* const base = t.data_ptr<T>();
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim; ++d) offset += index[d] * t.stride(d);
    f(index.data(), base[offset]);
    for (int64_t d = ndim - 1; d >= 0 && ++index[d] == t.size(d); --d) index[d] = 0;
  }
}

}  // namespace my::ops
