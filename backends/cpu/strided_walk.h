// walk: every position of a shape with the element offsets of several strided operands,
// for the CPU kernels that move elements by index (gather, index, scatter, flip, ...);
// parallel_walk splits it between the threads.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/array_ref.h"
#include "runtime/parallel.h"
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

// walk over `sizes` split between the threads along its first dimension (runtime/parallel.h:
// chunks of at least `grain` elements, each `inner` elements of work): f must only write
// what its own positions own.
template <std::size_t K, typename F>
void parallel_walk(IntArrayRef sizes, const std::array<IntArrayRef, K>& strides, int64_t inner,
                   F&& f) {
  if (sizes.empty()) {
    walk<K>(sizes, strides, f);
    return;
  }
  int64_t per_first = inner;
  for (std::size_t d = 1; d < sizes.size(); ++d) per_first *= sizes[d];
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(per_first, 1));
  std::array<IntArrayRef, K> rest;
  for (std::size_t k = 0; k < K; ++k) rest[k] = strides[k].slice(1);
  parallel_for(0, sizes[0], grain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      walk<K>(sizes.slice(1), rest, [&](const std::array<int64_t, K>& off) {
        std::array<int64_t, K> at = off;
        for (std::size_t k = 0; k < K; ++k) at[k] += i * strides[k][0];
        f(at);
      });
    }
  });
}

// One element of `size` bytes.
inline void copy_element(char* dst, const char* src, int64_t size) {
  std::memcpy(dst, src, static_cast<std::size_t>(size));
}

}  // namespace sops::aten::cpu_util
