// walk: every position of a shape with the element offsets of several strided operands,
// for the CPU kernels that move elements by index (gather, index, scatter, flip, ...).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/array_ref.h"
#include "runtime/small_vector.h"

namespace sops::aten::cpu_util {

// Calls f(offsets) for every position of `sizes` (the last dimension fastest), with
// offsets[k] = sum of position * strides[k] (in elements) for each of the K operands.
template <std::size_t K, typename F>
void walk(IntArrayRef sizes, const std::array<IntArrayRef, K>& strides, F&& f) {
  const std::size_t n = sizes.size();
  for (const int64_t s : sizes) {
    if (s == 0) return;
  }
  DimVector pos(n, 0);
  std::array<int64_t, K> off{};
  while (true) {
    f(off);
    std::size_t j = n;
    while (true) {
      if (j == 0) return;
      --j;
      if (++pos[j] < sizes[j]) {
        for (std::size_t k = 0; k < K; ++k) off[k] += strides[k][j];
        break;
      }
      for (std::size_t k = 0; k < K; ++k) off[k] -= (sizes[j] - 1) * strides[k][j];
      pos[j] = 0;
    }
  }
}

// One element of `size` bytes.
inline void copy_element(char* dst, const char* src, int64_t size) {
  std::memcpy(dst, src, static_cast<std::size_t>(size));
}

}  // namespace sops::aten::cpu_util
