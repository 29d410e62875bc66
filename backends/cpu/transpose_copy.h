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

namespace sops::aten::cpu_util {
namespace detail {

// out[i][j] = src[j][i] for i < rows, j < cols: out advances by out_row per row and 1 per
// column, src by 1 per row and src_col per column (in elements).
template <typename T>
SOPS_ALWAYS_INLINE void transpose_tiles_body(T* out, const T* src, int64_t rows, int64_t cols,
                                             int64_t out_row, int64_t src_col) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(cols, j0 + kTile);
      for (int64_t i = i0; i < i1; ++i) {
        T* o = out + i * out_row;
        const T* s = src + i;
        for (int64_t j = j0; j < j1; ++j) o[j] = s[j * src_col];
      }
    }
  }
}

template <typename T>
SOPS_KERNEL_BASE void transpose_tiles_base(T* out, const T* src, int64_t rows, int64_t cols,
                                           int64_t out_row, int64_t src_col) {
  transpose_tiles_body(out, src, rows, cols, out_row, src_col);
}
#if SOPS_HAVE_AVX2_CLONES
template <typename T>
SOPS_KERNEL_AVX2 void transpose_tiles_avx2(T* out, const T* src, int64_t rows, int64_t cols,
                                           int64_t out_row, int64_t src_col) {
  transpose_tiles_body(out, src, rows, cols, out_row, src_col);
}
#endif

template <typename T>
void transpose_tiles(T* out, const T* src, int64_t rows, int64_t cols, int64_t out_row,
                     int64_t src_col) {
#if SOPS_HAVE_AVX2_CLONES
  if (cpu_has_avx2()) return transpose_tiles_avx2(out, src, rows, cols, out_row, src_col);
#endif
  transpose_tiles_base(out, src, rows, cols, out_row, src_col);
}


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
    case 1: run(uint8_t{}); return true;
    case 2: run(uint16_t{}); return true;
    case 4: run(uint32_t{}); return true;
    case 8: run(uint64_t{}); return true;
    default: return false;
  }
}

}  // namespace sops::aten::cpu_util
