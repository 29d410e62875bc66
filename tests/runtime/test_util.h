// Helpers for the runtime tests: make cpu tensors from values and read them back.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/element_cast.h"
#include "runtime/tensor.h"

namespace sops::testing {

// A contiguous cpu tensor of dtype `dtype` holding `values` (converted) in `sizes`.
template <typename T>
Tensor make(std::vector<T> values, IntArrayRef sizes, ScalarType dtype = scalar_type_of<T>) {
  Tensor t = empty(sizes, sops::dtype(dtype));
  char* p = static_cast<char*>(t.data_ptr());
  for (std::size_t i = 0; i < values.size(); ++i) {
    store_as<T>(p + i * t.element_size(), dtype, values[i]);
  }
  return t;
}

// The elements of a cpu tensor in row-major order of its sizes (any strides), as T.
template <typename T>
std::vector<T> values(const Tensor& t) {
  std::vector<T> out;
  const int64_t n = t.numel();
  const int64_t ndim = t.dim();
  std::vector<int64_t> index(static_cast<std::size_t>(ndim), 0);
  const char* base = static_cast<const char*>(t.const_data_ptr());
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim; ++d) offset += index[static_cast<std::size_t>(d)] * t.stride(d);
    out.push_back(load_as<T>(base + offset * static_cast<int64_t>(t.element_size()),
                             t.scalar_type()));
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++index[static_cast<std::size_t>(d)] < t.size(d)) break;
      index[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

inline std::vector<int64_t> vec(IntArrayRef a) { return a.vec(); }

}  // namespace sops::testing
