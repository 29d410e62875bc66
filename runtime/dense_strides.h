// Dense strides for a tensor like another (PyTorch's memory_format=preserve): the
// other's own strides when its elements fill a block of memory exactly
// (is_non_overlapping_and_dense), else dense strides in the same order of dimensions
// (infer_dense_strides). Used by empty_like and by the generated functional and out=
// kernels' copies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "runtime/small_sort.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops {

// PyTorch's is_non_overlapping_and_dense: the elements fill a block of memory exactly,
// in some order of the dimensions.
inline bool is_non_overlapping_and_dense(const Tensor& t) {
  const int64_t ndim = t.dim();
  if (ndim == 1) return t.size(0) < 2 || t.stride(0) == 1;
  SmallVector<int64_t, 8> perm(static_cast<std::size_t>(ndim));
  std::iota(perm.begin(), perm.end(), 0);
  insertion_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (t.size(a) < 2) return false;
    if (t.size(b) < 2) return true;
    return t.stride(a) < t.stride(b);
  });
  int64_t require = 1;
  for (const int64_t d : perm) {
    const int64_t size = t.size(d);
    if (size < 2) return true;
    if (t.stride(d) != require) return false;
    require *= size;
  }
  return true;
}

// PyTorch's infer_dense_strides: dense strides that keep the order of t's dimensions in
// memory (stride-0 dimensions stay in place; equal strides put the smaller size inside).
inline DimVector infer_dense_strides(const Tensor& t) {
  const int64_t ndim = t.dim();
  SmallVector<int64_t, 8> perm(static_cast<std::size_t>(ndim));
  for (int64_t i = 0; i < ndim; ++i) perm[static_cast<std::size_t>(i)] = ndim - 1 - i;
  auto compare = [&](int64_t d0, int64_t d1) {
    const int64_t s0 = t.stride(d0);
    const int64_t s1 = t.stride(d1);
    if (s0 == 0 || s1 == 0) return 0;
    if (s0 < s1) return -1;
    if (s0 > s1) return 1;
    return t.size(d0) > t.size(d1) ? 1 : 0;
  };
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t dim1 = i;
    for (int64_t j = 1; j <= i; ++j) {
      const int64_t dim0 = i - j;
      const int c =
          compare(perm[static_cast<std::size_t>(dim0)], perm[static_cast<std::size_t>(dim1)]);
      if (c > 0) {
        std::swap(perm[static_cast<std::size_t>(dim0)], perm[static_cast<std::size_t>(dim1)]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  DimVector strides(static_cast<std::size_t>(ndim));
  int64_t step = 1;
  for (const int64_t d : perm) {
    strides[static_cast<std::size_t>(d)] = step;
    if (t.size(d) > 1) step *= t.size(d);
  }
  return strides;
}

// The strides of a new tensor laid out like `t` (empty_like's preserve).
inline DimVector preserved_strides(const Tensor& t) {
  return is_non_overlapping_and_dense(t) ? DimVector(t.strides()) : infer_dense_strides(t);
}

}  // namespace sops
