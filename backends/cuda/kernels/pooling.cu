// max_pool2d_with_indices, avg_pool2d and adaptive_avg_pool2d on CUDA: the CPU kernels'
// windows and arithmetic (backends/cpu/kernels/pooling.cpp, ops/util/pool_utils.h), so that the
// results are the CPU's bit for bit: a window is read in the CPU's order (rows, then
// columns within a row), sums accumulate in the element type (int64 for int64) and are
// divided as on the CPU.
//
// Design. One thread per output element (grid-stride loops, nchw.cuh). A thread finds its
// (n, c, oh, ow) from its index, counted channels fastest when the input is channels-last
// (then neighbouring threads read neighbouring input elements, as the CPU's channels-last
// loops do) and width fastest otherwise, and reads input and writes the outputs through
// their own strides: any layout, with no contiguous copies.
#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/kernels/nchw.cuh"
#include "backends/cuda/kernels/pooling_kernels.h"
#include "ops/util/pool_utils.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

using aten::ops_util::Pool2dShape;

// What every pooling kernel takes: the sizes and window, the outputs' sizes and count,
// whether threads count channels fastest (a channels-last input), and the strides.
struct PoolArgs {
  Pool2dShape g;
  Nchw sizes;
  int64_t numel;
  bool channels_last;
  Nchw in, out;
};

PoolArgs pool_args(const Tensor& input, const Tensor& out,
                   const aten::ops_util::Pool2dWindow& window) {
  PoolArgs a;
  a.g = aten::ops_util::pool2d_shape(input, out, window);
  a.sizes = nchw_sizes(out, 0);
  a.numel = out.numel();
  a.channels_last = aten::ops_util::suggest_memory_format(input) == MemoryFormat::ChannelsLast;
  a.in = nchw_strides(input, 0);
  a.out = nchw_strides(out, 0);
  return a;
}

template <typename T>
__global__ void max_pool_per_output(PoolArgs a, Nchw ind_strides, T initial, const T* in, T* out,
                                    int64_t* indices) {
  const Pool2dShape& g = a.g;
  for (int64_t index = first_index(); index < a.numel; index += index_step()) {
    const Nchw p = position_of(index, a.sizes, a.channels_last);
    int64_t ih0, ih1, iw0, iw1;
    aten::ops_util::max_pool_window(p.h, g.dH, g.padH, g.kH, g.dilH, g.in_h, &ih0, &ih1);
    aten::ops_util::max_pool_window(p.w, g.dW, g.padW, g.kW, g.dilW, g.in_w, &iw0, &iw1);
    const T* x = in + offset_of(a.in, p.n, p.c, 0, 0);
    T maxval = initial;
    int64_t maxindex = ih0 * g.in_w + iw0;
    for (int64_t ih = ih0; ih < ih1; ih += g.dilH) {
      for (int64_t iw = iw0; iw < iw1; iw += g.dilW) {
        const T v = x[ih * a.in.h + iw * a.in.w];
        if (v > maxval || v != v) {
          maxval = v;
          maxindex = ih * g.in_w + iw;
        }
      }
    }
    out[offset_of(a.out, p.n, p.c, p.h, p.w)] = maxval;
    indices[offset_of(ind_strides, p.n, p.c, p.h, p.w)] = maxindex;
  }
}

template <typename T>
__global__ void avg_pool_per_output(PoolArgs a, bool count_include_pad, int64_t divisor_override,
                                    const T* in, T* out) {
  for (int64_t index = first_index(); index < a.numel; index += index_step()) {
    const Nchw p = position_of(index, a.sizes, a.channels_last);
    T* y = out + offset_of(a.out, p.n, p.c, p.h, p.w);
    aten::ops_util::AvgPoolWindow w;
    if (!aten::ops_util::avg_pool_window(a.g, p.h, p.w, count_include_pad, divisor_override, &w)) {
      *y = T(0);
      continue;
    }
    const T* x = in + offset_of(a.in, p.n, p.c, 0, 0);
    T sum = T(0);  // PyTorch's opmath on the CPU: the element type
    for (int64_t ih = w.ih0; ih < w.ih1; ++ih) {
      for (int64_t iw = w.iw0; iw < w.iw1; ++iw) sum += x[ih * a.in.h + iw * a.in.w];
    }
    *y = sum / static_cast<T>(w.divisor);
  }
}

template <typename T>
__global__ void adaptive_avg_pool_per_output(PoolArgs a, const T* in, T* out) {
  const Pool2dShape& g = a.g;
  for (int64_t index = first_index(); index < a.numel; index += index_step()) {
    const Nchw p = position_of(index, a.sizes, a.channels_last);
    const int64_t ih0 = aten::ops_util::adaptive_start_index(p.h, g.out_h, g.in_h);
    const int64_t ih1 = aten::ops_util::adaptive_end_index(p.h, g.out_h, g.in_h);
    const int64_t iw0 = aten::ops_util::adaptive_start_index(p.w, g.out_w, g.in_w);
    const int64_t iw1 = aten::ops_util::adaptive_end_index(p.w, g.out_w, g.in_w);
    const T* x = in + offset_of(a.in, p.n, p.c, 0, 0);
    T sum = T(0);
    for (int64_t ih = ih0; ih < ih1; ++ih) {
      for (int64_t iw = iw0; iw < iw1; ++iw) sum += x[ih * a.in.h + iw * a.in.w];
    }
    out[offset_of(a.out, p.n, p.c, p.h, p.w)] =
        sum / static_cast<T>(ih1 - ih0) / static_cast<T>(iw1 - iw0);
  }
}

}  // namespace

void max_pool2d_kernel(const Tensor& input, const aten::ops_util::Pool2dWindow& window,
                       const Tensor& out, const Tensor& indices) {
  const PoolArgs a = pool_args(input, out, window);
  SOPS_DISPATCH_TYPES(aten::ops_util::kMaxPool2dTypes, input.scalar_type(), "max_pool2d", [&] {
    launch(max_pool_per_output<scalar_t>, a.numel, "launching the max_pool2d kernel", a,
           nchw_strides(indices, 0), aten::ops_util::max_pool_initial<scalar_t>(),
           input.const_data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), indices.data_ptr<int64_t>());
  });
}

void avg_pool2d_kernel(const Tensor& input, const aten::ops_util::Pool2dWindow& window,
                       bool count_include_pad, int64_t divisor_override, const Tensor& out) {
  const PoolArgs a = pool_args(input, out, window);
  SOPS_DISPATCH_TYPES(aten::ops_util::kAvgPool2dTypes, input.scalar_type(), "avg_pool2d", [&] {
    launch(avg_pool_per_output<scalar_t>, a.numel, "launching the avg_pool2d kernel", a,
           count_include_pad, divisor_override, input.const_data_ptr<scalar_t>(),
           out.data_ptr<scalar_t>());
  });
}

void adaptive_avg_pool2d_kernel(const Tensor& input, const Tensor& out) {
  const PoolArgs a = pool_args(input, out, {1, 1, 1, 1, 0, 0, 1, 1});
  SOPS_DISPATCH_TYPES(aten::ops_util::kAdaptiveAvgPool2dTypes, input.scalar_type(),
                      "adaptive_avg_pool2d", [&] {
                        launch(adaptive_avg_pool_per_output<scalar_t>, a.numel,
                               "launching the adaptive_avg_pool2d kernel", a,
                               input.const_data_ptr<scalar_t>(), out.data_ptr<scalar_t>());
                      });
}

}  // namespace sops::cuda
