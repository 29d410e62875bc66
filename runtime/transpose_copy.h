// A copy between two 2-d layouts that disagree on which dimension is contiguous (out
// row-major, src column-major: x.t().contiguous(), a permuted view made dense), in
// square tiles, so that both sides read and write whole cache lines. Element-by-element
// in loop order, every read of such a copy would touch a new cache line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "runtime/cpu_capability.h"
#include "runtime/parallel.h"
#include "runtime/tensor_iterator.h"

namespace sops::cpu {
namespace detail {

// An 8 x 8 block of 4-byte elements through vector registers: 8 loads of 8 contiguous
// source elements, three rounds of shuffles, 8 contiguous stores.
SOPS_ALWAYS_INLINE void transpose_8x8(uint32_t* out, const uint32_t* src, int64_t out_row,
                                      int64_t src_col) {
  using V = Vec<uint32_t, 32>::type;
  V r[8];
  for (int j = 0; j < 8; ++j) std::memcpy(&r[j], src + j * src_col, sizeof(V));
  V t[8];
  for (int j = 0; j < 8; j += 2) {
    t[j] = __builtin_shufflevector(r[j], r[j + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[j + 1] = __builtin_shufflevector(r[j], r[j + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  V u[8];
  for (int h = 0; h < 8; h += 4) {
    u[h] = __builtin_shufflevector(t[h], t[h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
    u[h + 1] = __builtin_shufflevector(t[h], t[h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    u[h + 2] = __builtin_shufflevector(t[h + 1], t[h + 3], 0, 1, 8, 9, 4, 5, 12, 13);
    u[h + 3] = __builtin_shufflevector(t[h + 1], t[h + 3], 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int k = 0; k < 4; ++k) {
    const V lo = __builtin_shufflevector(u[k], u[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    const V hi = __builtin_shufflevector(u[k], u[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    std::memcpy(out + k * out_row, &lo, sizeof(V));
    std::memcpy(out + (k + 4) * out_row, &hi, sizeof(V));
  }
}

// out[i][j] = src[j][i] for i < rows, j < cols: out advances by out_row per row and 1 per
// column, src by 1 per row and src_col per column (in elements). 32 x 32 tiles; inside
// them, 4-byte elements go 8 x 8 blocks at a time through registers.
template <typename T>
SOPS_ALWAYS_INLINE void transpose_tiles_body(T* out, const T* src, int64_t rows, int64_t cols,
                                             int64_t out_row, int64_t src_col) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(cols, j0 + kTile);
      int64_t i = i0;
      if constexpr (sizeof(T) == 4) {
        for (; i + 8 <= i1; i += 8) {
          int64_t j = j0;
          for (; j + 8 <= j1; j += 8) {
            transpose_8x8(reinterpret_cast<uint32_t*>(out + i * out_row + j),
                          reinterpret_cast<const uint32_t*>(src + i + j * src_col), out_row,
                          src_col);
          }
          for (int64_t ii = i; ii < i + 8; ++ii) {
            for (int64_t jj = j; jj < j1; ++jj) out[ii * out_row + jj] = src[ii + jj * src_col];
          }
        }
      }
      for (; i < i1; ++i) {
        T* o = out + i * out_row;
        const T* s = src + i;
        for (int64_t j = j0; j < j1; ++j) o[j] = s[j * src_col];
      }
    }
  }
}

SOPS_CPU_CLONES(transpose_tiles, transpose_tiles_body)

}  // namespace detail

// Runs the tiled copy and returns true when `iter` (output 0, input 1, one dtype) is a
// 2-d iteration with the output unit-stride in the inner loop dimension and the input
// unit-stride in the outer one; returns false (nothing done) otherwise.
inline bool try_transpose_copy(const TensorIteratorBase& iter) {
  if (iter.ntensors() != 2 || iter.loop_ndim() != 2 || iter.dtype(0) != iter.dtype(1)) {
    return false;
  }
  const int64_t size = static_cast<int64_t>(iter.output(0).element_size());
  if (iter.loop_stride(0, 0) != size || iter.loop_stride(1, 1) != size ||
      iter.loop_stride(1, 0) % size != 0 || iter.loop_stride(0, 1) % size != 0) {
    return false;
  }
  const int64_t cols = iter.loop_shape()[0];
  const int64_t rows = iter.loop_shape()[1];
  if (cols < 16 || rows < 16) return false;  // a short tile gains nothing
  const int64_t out_row = iter.loop_stride(0, 1) / size;
  const int64_t src_col = iter.loop_stride(1, 0) / size;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    T* out = reinterpret_cast<T*>(iter.data_ptr(0));
    const T* src = reinterpret_cast<const T*>(iter.data_ptr(1));
    // Rows split over the threads in whole tiles.
    const int64_t grain = std::max<int64_t>(32, kGrainSize / cols / 32 * 32);
    parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
      detail::transpose_tiles(out + b * out_row, src + b, e - b, cols, out_row, src_col);
    });
  };
  switch (size) {
    case 1:
      run(uint8_t{});
      return true;
    case 2:
      run(uint16_t{});
      return true;
    case 4:
      run(uint32_t{});
      return true;
    case 8:
      run(uint64_t{});
      return true;
    default:
      return false;
  }
}

}  // namespace sops::cpu
