// The [N, C, H, W] outputs of the pooling, upsampling and convolution kernels, one thread
// per element: a thread finds its element's position from its index (grid-stride loop) and
// reads and writes through the tensors' own strides, whatever their layout.
// Only for .cu files.
#pragma once

#include <cstdint>

#include "backends/cuda/kernels/loops.cuh"  // first_index, index_step, launch
#include "runtime/tensor.h"

namespace sops::cuda {

// Four sizes, strides or indices, as [n, c, h, w].
struct Nchw {
  int64_t n, c, h, w;
};

// A 4-d t's sizes or strides; a 3-d t's with a dimension of size 1 (stride 0) inserted at
// `unit_dim`: 0 for a [C, H, W] pooling input, 2 for a [N, C, W] upsampling one.
inline Nchw nchw_sizes(const Tensor& t, int unit_dim) {
  if (t.dim() == 4) return {t.size(0), t.size(1), t.size(2), t.size(3)};
  return unit_dim == 0 ? Nchw{1, t.size(0), t.size(1), t.size(2)}
                       : Nchw{t.size(0), t.size(1), 1, t.size(2)};
}
inline Nchw nchw_strides(const Tensor& t, int unit_dim) {
  if (t.dim() == 4) return {t.stride(0), t.stride(1), t.stride(2), t.stride(3)};
  return unit_dim == 0 ? Nchw{0, t.stride(0), t.stride(1), t.stride(2)}
                       : Nchw{t.stride(0), t.stride(1), 0, t.stride(2)};
}

__device__ __forceinline__ int64_t offset_of(const Nchw& strides, int64_t n, int64_t c, int64_t h,
                                             int64_t w) {
  return n * strides.n + c * strides.c + h * strides.h + w * strides.w;
}

// The position of element `index` of `sizes`, counted channels fastest when
// channels_last (neighbouring threads then touch neighbouring elements of channels-last
// tensors), else width fastest.
__device__ __forceinline__ Nchw position_of(int64_t index, const Nchw& sizes, bool channels_last) {
  Nchw p;
  if (channels_last) {
    p.c = index % sizes.c;
    index /= sizes.c;
    p.w = index % sizes.w;
    index /= sizes.w;
    p.h = index % sizes.h;
    p.n = index / sizes.h;
  } else {
    p.w = index % sizes.w;
    index /= sizes.w;
    p.h = index % sizes.h;
    index /= sizes.h;
    p.c = index % sizes.c;
    p.n = index / sizes.c;
  }
  return p;
}

}  // namespace sops::cuda
