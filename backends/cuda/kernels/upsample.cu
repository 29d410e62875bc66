// upsample_nearest1d/2d on CUDA: the CPU kernel's source indices
// (backends/cpu/kernels/upsample.cpp, ops/util/upsample_utils.h: the same float rounding), so that
// the results are the CPU's.
//
// Design. One thread per output element (grid-stride loop); a 1-d upsampling is a 2-d one
// of height 1. A thread finds its (n, c, oh, ow) from its index, counted channels fastest
// when out is channels-last and width fastest otherwise, computes its source row and
// column, and copies the element through input's and out's own strides.
#include <cuda_runtime.h>

#include <cstdint>
#include <optional>

#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/kernels/nchw.cuh"
#include "backends/cuda/kernels/upsample_kernels.h"
#include "ops/util/op_utils.h"
#include "ops/util/upsample_utils.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

struct UpsampleArgs {
  int64_t numel;
  Nchw in_sizes, out_sizes;
  float scale_h, scale_w;
  bool channels_last;
  Nchw in, out;  // strides
};

template <typename T>
__global__ void upsample_nearest_per_output(UpsampleArgs a, const T* in, T* out) {
  for (int64_t index = first_index(); index < a.numel; index += index_step()) {
    const Nchw p = position_of(index, a.out_sizes, a.channels_last);
    const int64_t ih =
        aten::ops_util::nearest_source_index(p.h, a.in_sizes.h, a.out_sizes.h, a.scale_h);
    const int64_t iw =
        aten::ops_util::nearest_source_index(p.w, a.in_sizes.w, a.out_sizes.w, a.scale_w);
    out[offset_of(a.out, p.n, p.c, p.h, p.w)] = in[offset_of(a.in, p.n, p.c, ih, iw)];
  }
}

}  // namespace

void upsample_nearest_kernel(const Tensor& input, const Tensor& out, std::optional<double> scales_h,
                             std::optional<double> scales_w) {
  UpsampleArgs a{};
  a.numel = out.numel();
  a.in_sizes = nchw_sizes(input, 2);
  a.out_sizes = nchw_sizes(out, 2);
  a.scale_h = aten::ops_util::nearest_scale(a.in_sizes.h, a.out_sizes.h, scales_h);
  a.scale_w = aten::ops_util::nearest_scale(a.in_sizes.w, a.out_sizes.w, scales_w);
  a.channels_last = aten::ops_util::suggest_memory_format(out) == MemoryFormat::ChannelsLast;
  a.in = nchw_strides(input, 2);
  a.out = nchw_strides(out, 2);
  SOPS_DISPATCH_TYPES(aten::ops_util::kUpsampleNearestTypes, input.scalar_type(),
                      "upsample_nearest", [&] {
                        launch(upsample_nearest_per_output<scalar_t>, a.numel,
                               "launching the upsample_nearest kernel", a,
                               input.const_data_ptr<scalar_t>(), out.data_ptr<scalar_t>());
                      });
}

}  // namespace sops::cuda
